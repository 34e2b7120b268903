"""Korean and English: which one a page is in, switching between them, and locale-aware numbers."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, redirect, request
from flask_babel import format_decimal, format_percent, get_locale
from flask_babel import lazy_gettext as _l

LANGUAGES = {"en": "English", "ko": "한국어"}
COOKIE = "lang"
ONE_YEAR = 365 * 24 * 3600
STATUS_LABELS = {"draft": _l("draft"), "open": _l("open"), "closed": _l("closed")}

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """The language chosen on the site (a cookie), else the browser's preference, else English."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default="en")


@bp.get("/lang/<code>")
def switch(code: str):
    """Remember the chosen language and go back to the page the switch was on."""
    target = request.args.get("next", "/")
    if not target.startswith("/") or target.startswith("//") or urlsplit(target).netloc:
        target = "/"
    response = redirect(target)
    if code in LANGUAGES:
        response.set_cookie(
            COOKIE,
            code,
            max_age=ONE_YEAR,
            samesite="Lax",
            httponly=True,
            secure=current_app.config.get("SESSION_COOKIE_SECURE", False),
        )
    return response


def percent(value: float | None, digits: int = 1) -> str:
    """A share as a percentage in the page's locale (e.g. 12.3%)."""
    if value is None:
        return "—"
    return format_percent(value, format="#,##0." + "0" * digits + "%" if digits else "#,##0%")


def number(value: float | int | None, digits: int = 0) -> str:
    """A number in the page's locale, with ``digits`` decimals at most."""
    if value is None:
        return "—"
    return format_decimal(value, format="#,##0" + ("." + "#" * digits if digits else ""))


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.jinja_env.filters["percent"] = percent
    app.jinja_env.filters["number"] = number
    app.jinja_env.globals.update(
        get_locale=get_locale, LANGUAGES=LANGUAGES, STATUS_LABELS=STATUS_LABELS
    )
