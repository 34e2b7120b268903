"""Korean and English: which one a page is in, and locale-aware numbers."""

from __future__ import annotations

from flask import Flask, has_request_context, request
from flask_babel import format_decimal, format_percent, get_locale
from flask_babel import lazy_gettext as _l

LANGUAGES = {"en": "English", "ko": "한국어"}
COOKIE = "lang"
SECURE_COOKIE = (
    "__Host-lang"  # its name over HTTPS, where it is Secure (see web/respondent/answered.py)
)
ONE_YEAR = 365 * 24 * 3600
STATUS_LABELS = {"draft": _l("draft"), "open": _l("open"), "closed": _l("closed")}


def select_locale() -> str:
    """The language chosen on the site (a cookie), else the browser's preference, else English
    (the command line, with no request, speaks English)."""
    if not has_request_context():
        return "en"
    chosen = request.cookies.get(SECURE_COOKIE) or request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default="en")


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


def fixed(value: float | None, digits: int = 3) -> str:
    """A number with exactly ``digits`` decimals, as a table of coefficients prints them."""
    if value is None:
        return "—"
    return format_decimal(value, format="#,##0." + "0" * digits)


def init_app(app: Flask) -> None:
    app.jinja_env.filters["percent"] = percent
    app.jinja_env.filters["number"] = number
    app.jinja_env.filters["fixed"] = fixed
    app.jinja_env.globals.update(
        get_locale=get_locale, LANGUAGES=LANGUAGES, STATUS_LABELS=STATUS_LABELS
    )
