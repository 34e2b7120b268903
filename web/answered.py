"""The cookie that stops one browser from answering a survey twice.

It holds only the slugs of surveys this browser has answered, signed so that it cannot be forged
into another shape. It is separate from the login session, which respondents never get.
"""
from __future__ import annotations

from flask import Response, current_app, request
from itsdangerous import BadSignature, URLSafeSerializer

COOKIE = "rr_answered"
ONE_YEAR = 365 * 24 * 3600


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.secret_key, salt="answered-surveys")


def answered_slugs() -> list[str]:
    """Slugs this browser has answered (empty for a missing or tampered cookie)."""
    try:
        value = _serializer().loads(request.cookies.get(COOKIE, ""))
    except BadSignature:
        return []
    return [slug for slug in value if isinstance(slug, str)] if isinstance(value, list) else []


def remember_answered(response: Response, slug: str) -> None:
    """Add ``slug`` to the cookie on ``response``."""
    slugs = [*answered_slugs(), slug][-200:]
    response.set_cookie(
        COOKIE,
        _serializer().dumps(slugs),
        max_age=ONE_YEAR,
        httponly=True,
        samesite="Lax",
        secure=current_app.config.get("SESSION_COOKIE_SECURE", False),
    )
