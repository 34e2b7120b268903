"""The language switch on every page."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from flask import Blueprint, current_app, redirect, request
from werkzeug.wrappers import Response

from web.core.infrastructure.i18n import COOKIE, LANGUAGES, ONE_YEAR, SECURE_COOKIE, chosen_language
from web.site.redirects import local_path

bp = Blueprint("i18n", __name__)


def with_language(path: str, code: str) -> str:
    """``path`` with a ``lang`` it asks for (``?lang=en``) replaced by the chosen one, which
    would otherwise outrank the cookie being set."""
    parts = urlsplit(path)
    query = parse_qsl(parts.query, keep_blank_values=True)
    if not any(name == "lang" for name, _ in query):
        return path
    query = [(name, code if name == "lang" else value) for name, value in query]
    return urlunsplit(parts._replace(query=urlencode(query)))


@bp.get("/lang/<code>")
def switch(code: str):
    """Remember the chosen language and go back to the page the switch was on."""
    response = redirect(with_language(local_path(request.args.get("next")), code))
    if code in LANGUAGES:
        remember(response, code)
    return response


def remember(response: Response, code: str) -> None:
    secure = current_app.config.get("SESSION_COOKIE_SECURE", False)
    response.set_cookie(
        SECURE_COOKIE if secure else COOKIE,
        code,
        max_age=ONE_YEAR,
        samesite="Lax",
        httponly=True,
        secure=secure,
    )


@bp.after_app_request
def remember_asked(response: Response) -> Response:
    """A language asked for in the address (``?lang=ko``, a link a study sends its Korean
    respondents) is remembered as the switch's is, so the pages that follow keep it."""
    if not request.query_string:
        return response  # most requests (every submission) ask for nothing: no parse
    asked = request.args.get("lang")
    if asked in LANGUAGES and asked != chosen_language():
        remember(response, asked)
    return response
