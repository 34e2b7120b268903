"""The cookie that stops one browser from answering a survey twice.

It holds only the slugs of surveys this browser has answered, signed so that it cannot be forged
into another shape. It is separate from the login session, which respondents never get.
"""

from __future__ import annotations

from functools import lru_cache

from flask import Response, current_app
from itsdangerous import BadSignature, Signer
from werkzeug.http import dump_cookie

from web.site.sessions import sent_cookie

COOKIE = "rr_answered"
# Over HTTPS the cookie is Secure and its name carries the __Host- prefix: browsers then refuse it
# from another host or path, and over plain HTTP (a classroom's local network) the prefix would
# make browsers drop it.
SECURE_COOKIE = "__Host-" + COOKIE


def cookie_name(secure: bool) -> str:
    return SECURE_COOKIE if secure else COOKIE


SALT = "answered-surveys"
ONE_YEAR = 365 * 24 * 3600


@lru_cache(maxsize=8)
def _signer(secret_key: str) -> Signer:
    """One signer per key; slugs hold no commas, so a signed comma-separated list is enough."""
    return Signer(secret_key, salt=SALT)


def answered_slugs() -> list[str]:
    """Slugs this browser has answered (empty for a missing or tampered cookie)."""
    cookie = sent_cookie(cookie_name(current_app.config.get("SESSION_COOKIE_SECURE", False)))
    if not cookie:
        return []
    try:
        value = _signer(current_app.secret_key).unsign(cookie).decode()
    except BadSignature:
        return []
    return [slug for slug in value.split(",") if slug]


def remember_answered(response: Response, slugs: list[str], slug: str) -> None:
    """Set the cookie on ``response`` to ``slugs`` (already answered here) and ``slug``."""
    value = ",".join([*slugs, slug][-200:])
    secure = current_app.config.get("SESSION_COOKIE_SECURE", False)
    response.headers.add("Set-Cookie", _set_cookie(current_app.secret_key, value, secure))


@lru_cache(maxsize=1024)
def _set_cookie(secret_key: str, value: str, secure: bool) -> str:
    # The header depends on nothing else (Max-Age, no Expires date), so every respondent whose
    # first survey this is gets the same one: signing and formatting it once per survey takes a
    # tenth of a submission's time off the lecture-hall rush.
    signed = _signer(secret_key).sign(value).decode()
    return dump_cookie(
        cookie_name(secure),
        signed,
        max_age=ONE_YEAR,
        sync_expires=False,
        httponly=True,
        samesite="Lax",
        secure=secure,
    )
