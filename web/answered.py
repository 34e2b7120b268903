"""The cookie that stops one browser from answering a survey twice.

It holds only the slugs of surveys this browser has answered, signed so that it cannot be forged
into another shape. It is separate from the login session, which respondents never get.
"""
from __future__ import annotations

from flask import Response, current_app, request
from itsdangerous import BadSignature, Signer

COOKIE = "rr_answered"
ONE_YEAR = 365 * 24 * 3600


def _signer() -> Signer:
    """One signer per app and key; slugs hold no commas, so a signed comma-separated list is enough."""
    cached = current_app.extensions.get("answered-signer")
    if cached is None or cached[0] != current_app.secret_key:
        cached = (current_app.secret_key, Signer(current_app.secret_key, salt="answered-surveys"))
        current_app.extensions["answered-signer"] = cached
    return cached[1]


def answered_slugs() -> list[str]:
    """Slugs this browser has answered (empty for a missing or tampered cookie)."""
    cookie = request.cookies.get(COOKIE)
    if not cookie:
        return []
    try:
        value = _signer().unsign(cookie).decode()
    except BadSignature:
        return []
    return [slug for slug in value.split(",") if slug]


def remember_answered(response: Response, slugs: list[str], slug: str) -> None:
    """Set the cookie on ``response`` to ``slugs`` (already answered here) and ``slug``."""
    slugs = [*slugs, slug][-200:]
    response.set_cookie(
        COOKIE,
        _signer().sign(",".join(slugs)).decode(),
        max_age=ONE_YEAR,
        httponly=True,
        samesite="Lax",
        secure=current_app.config.get("SESSION_COOKIE_SECURE", False),
    )
