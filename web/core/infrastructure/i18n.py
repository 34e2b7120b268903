"""Korean and English: which one a page is in, and locale-aware numbers."""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime

from flask import Flask, has_request_context, request
from flask_babel import format_datetime, format_decimal, format_percent, get_locale
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from markupsafe import Markup, escape

LANGUAGES = {"en": "English", "ko": "한국어"}
COOKIE = "lang"
SECURE_COOKIE = (
    "__Host-lang"  # its name over HTTPS, where it is Secure (see web/respondent/answered.py)
)
ONE_YEAR = 365 * 24 * 3600
STATUS_LABELS = {"draft": _l("draft"), "open": _l("open"), "closed": _l("closed")}
# A survey's roles (web/core/models/team.py), as the pages name them.
ROLE_LABELS = {
    "viewer": _l("viewer"),
    "analyst": _l("analyst"),
    "editor": _l("editor"),
    "owner": _l("owner"),
}
# What each role may do, as a shared survey's dashboard tells its member.
ROLE_CAN = {
    "viewer": _l("you see the estimates; downloading the responses needs an analyst."),
    "analyst": _l("you see the results and download the responses; changes need an editor."),
    "editor": _l(
        "you change the questions, texts and schedule and open and close it; sharing "
        "it needs its owner."
    ),
    "owner": _l("everything, sharing and deleting included."),
}
# What an audit log's line says was done (web/core/surveys/team.py).
AUDIT_LABELS = {
    "created": _l("created the survey"),
    "shared": _l("shared"),
    "unshared": _l("stopped sharing with"),
    "invited": _l("invited"),
    "invitation_withdrawn": _l("withdrew the invitation of"),
    "joined": _l("joined through an invitation"),
    "imported": _l("imported"),
    "edited": _l("edited"),
    "opened": _l("opened"),
    "closed": _l("closed"),
    "exported": _l("downloaded"),
    "device_link": _l("made a field-device link"),
    "device_revoked": _l("revoked a field-device link"),
}


def select_locale() -> str:
    """The language asked for in the address (``?lang=ko``), else the one chosen on the site (a
    cookie), else the browser's preference, else English (the command line, with no request,
    speaks English)."""
    if not has_request_context():
        return "en"
    asked = request.args.get("lang")
    if asked in LANGUAGES:
        return asked
    chosen = chosen_language()
    if chosen is not None:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default="en")


def chosen_language() -> str | None:
    """The language chosen with the switch (its cookie), if any."""
    chosen = request.cookies.get(SECURE_COOKIE) or request.cookies.get(COOKIE)
    return chosen if chosen in LANGUAGES else None


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


def epsilon(value: float | None, digits: int = 4) -> str:
    """A question's ε as a page shows it: a number, or "no bound" where its design has none (the
    stochastic lie detector: a "no" is never forced)."""
    if value is not None and math.isinf(value):
        return _("no bound")
    return number(value, digits)


def fieldwork_count(value: int) -> Markup:
    """A count of responses received, published or not (a fieldwork count, live by design), marked
    as one: every other number a researcher reads moves only with the published batches."""
    return Markup('<span data-fieldwork="">{}</span>').format(number(value))


def fixed(value: float | None, digits: int = 3) -> str:
    """A number with exactly ``digits`` decimals, as a table of coefficients prints them."""
    if value is None:
        return "—"
    return format_decimal(value, format="#,##0." + "0" * digits)


class Shown:
    """A survey's text as a viewer reads it: in the page's language when the survey has it, else
    in the survey's default. ``attr`` is the ``lang`` attribute its element needs when that is
    not the page's language; in a template ``{{ shown }}`` writes the text, escaped."""

    __slots__ = ("text", "language")

    def __init__(self, text: str, language: str):
        self.text, self.language = text, language

    def __str__(self) -> str:
        return self.text

    def __html__(self) -> str:
        return str(escape(self.text))

    def __bool__(self) -> bool:
        return bool(self.text.strip())

    @property
    def attr(self) -> Markup:
        if self.language == str(get_locale()):
            return Markup("")
        return Markup(' lang="%s"') % self.language


def shown(texts: Mapping[str, str]) -> Shown:
    """``texts`` (one text by language, the survey's default first) as the viewer reads it."""
    viewer = str(get_locale())
    if texts.get(viewer):
        return Shown(texts[viewer], viewer)
    for language, text in texts.items():
        if text:
            return Shown(text, language)
    return Shown("", viewer)


def local_time(moment: datetime) -> Markup:
    """An instant for a page: in UTC as the server writes it, turned into the viewer's own time
    zone by static/js/local-time.js."""
    utc = moment.astimezone(UTC)
    text = format_datetime(utc, "medium") + " UTC"
    return Markup('<time datetime="%s" data-local-time>%s</time>') % (
        utc.strftime("%Y-%m-%dT%H:%M:%SZ"),
        text,
    )


def init_app(app: Flask) -> None:
    app.jinja_env.filters["percent"] = percent
    app.jinja_env.filters["number"] = number
    app.jinja_env.filters["epsilon"] = epsilon
    app.jinja_env.tests["infinite"] = lambda value: isinstance(value, float) and math.isinf(value)
    app.jinja_env.filters["fixed"] = fixed
    app.jinja_env.filters["language_name"] = lambda code: LANGUAGES.get(code, code)
    app.jinja_env.globals.update(
        get_locale=get_locale,
        LANGUAGES=LANGUAGES,
        STATUS_LABELS=STATUS_LABELS,
        ROLE_LABELS=ROLE_LABELS,
        ROLE_CAN=ROLE_CAN,
        AUDIT_LABELS=AUDIT_LABELS,
        shown=shown,
        local_time=local_time,
        fieldwork_count=fieldwork_count,
    )
