"""The language switch on every page."""

from __future__ import annotations

from flask import Blueprint, current_app, redirect, request

from web.core.i18n import COOKIE, LANGUAGES, ONE_YEAR, SECURE_COOKIE
from web.site.redirects import local_path

bp = Blueprint("i18n", __name__)


@bp.get("/lang/<code>")
def switch(code: str):
    """Remember the chosen language and go back to the page the switch was on."""
    response = redirect(local_path(request.args.get("next")))
    if code in LANGUAGES:
        secure = current_app.config.get("SESSION_COOKIE_SECURE", False)
        response.set_cookie(
            SECURE_COOKIE if secure else COOKIE,
            code,
            max_age=ONE_YEAR,
            samesite="Lax",
            httponly=True,
            secure=secure,
        )
    return response
