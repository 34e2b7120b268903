"""A survey fielded on an online panel (Prolific, MTurk, a university pool): the parameters the
panel puts in the survey's address, and where a respondent goes once their response is stored.

In a survey file::

    "panel": {"parameters": ["PROLIFIC_PID", "STUDY_ID", "SESSION_ID"],
              "complete_url": "https://app.prolific.com/submissions/complete?cc=C1ABC&pid={PROLIFIC_PID}",
              "screen_out_url": "https://app.prolific.com/submissions/complete?cc=SCREEN",
              "quota_full_url": "https://app.prolific.com/submissions/complete?cc=FULL"}

The parameters never reach the server with the answers: the page reads them from its own address
(``/s/<slug>?PROLIFIC_PID=…``), keeps them in the browser, takes them out of the address bar, and
fills them into ``complete_url`` (URL-encoded) once the response is stored, or into
``screen_out_url`` when a page screens the respondent out, or ``quota_full_url`` when their quota
is full (both optional: without them the page thanks the respondent and ends). A panel id beside a
response would tie every report to a person the panel knows, and undo every ε on the page; the
access log leaves query strings out for the same reason (gunicorn.conf.py, web/site/logs.py).
Nothing here touches the database or a request.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from web.core.surveys.fielding import PLACEHOLDER, url_problems

PARAMETER = re.compile(r"\A[A-Za-z][A-Za-z0-9_]{0,63}\Z")
MAX_PARAMETERS = 10
FIELDS = ("parameters", "complete_url", "screen_out_url", "quota_full_url")
# The addresses a respondent may be sent to, each filled in with the parameters.
ADDRESSES = FIELDS[1:]


@dataclass(frozen=True)
class Panel:
    """The parameters a panel passes, and the addresses a respondent goes to: once finished,
    screened out, or past a full quota."""

    parameters: tuple[Any, ...] = ()
    complete_url: Any = None
    screen_out_url: Any = None
    quota_full_url: Any = None

    def to_dict(self) -> dict:
        data = {"parameters": list(self.parameters), "complete_url": self.complete_url}
        for name in ADDRESSES[1:]:
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        return data

    @classmethod
    def stored(cls, data: dict | None) -> Panel | None:
        """A panel as the survey's row keeps it (the file's form), or None."""
        if not data:
            return None
        return cls(tuple(data.get("parameters") or ()), *(data.get(name) for name in ADDRESSES))

    def study_link(self, address: str) -> str:
        """The survey's ``address`` as the panel is told it: each parameter in the query with
        Prolific's placeholder (``{{%PROLIFIC_PID%}}``), which the panel fills in per person."""
        query = "&".join(f"{name}={{{{%{name}%}}}}" for name in self.parameters)
        return f"{address}?{query}"

    def page_config(self) -> dict:
        """What the respondent's page needs: the names to read from its address, and the
        addresses to fill them into."""
        return {
            "parameters": list(self.parameters),
            "completeUrl": self.complete_url,
            "screenOutUrl": self.screen_out_url,
            "quotaFullUrl": self.quota_full_url,
        }


def read_panel(value: Any) -> tuple[Panel | None, list[tuple[str, str]]]:
    """A file's ``panel`` as written, and the mistakes in its shape (its values: :func:`panel_problems`)."""
    if value is None:
        return None, []
    if not isinstance(value, dict):
        return None, [("panel", _("must be an object with parameters and complete_url"))]
    unknown = sorted(set(value) - set(FIELDS))
    problems = [(f"panel.{name}", _("unknown field %(name)r", name=name)) for name in unknown]
    parameters = value.get("parameters")
    if not isinstance(parameters, list):
        problems.append(("panel.parameters", _("must be a list of the parameters' names")))
        parameters = []
    return Panel(tuple(parameters), *(value.get(name) for name in ADDRESSES)), problems


def panel_problems(panel: Panel | None, completion_url: Any) -> list[tuple[str, str]]:
    """Mistakes in a panel: 1 to 10 parameters named as an address names them, an https
    ``complete_url`` whose placeholders are only those parameters, and no ``completion_url``
    beside it (one address a respondent goes to)."""
    if panel is None:
        return []
    problems = []
    names = panel.parameters
    if not 1 <= len(names) <= MAX_PARAMETERS:
        problems.append(("panel.parameters", _("name 1 to %(limit)d parameters, got %(count)d",
                                                limit=MAX_PARAMETERS, count=len(names))))  # fmt: skip
    for index, name in enumerate(names):
        if not isinstance(name, str) or not PARAMETER.fullmatch(name):
            problems.append((f"panel.parameters[{index}]", _(
                "%(name)r is not a parameter's name (a letter, then letters, digits or _)",
                name=name)))  # fmt: skip
        elif names.index(name) != index:
            problems.append((f"panel.parameters[{index}]", _("%(name)r is named twice",
                                                             name=name)))  # fmt: skip
    if panel.complete_url is None:
        problems.append(("panel.complete_url", _("a panel needs the address a finished "
                                                 "respondent goes to")))  # fmt: skip
    for field in ADDRESSES:
        url = getattr(panel, field)
        if url is not None:
            problems += [(f"panel.{field}", message) for message in _address_problems(url, names)]
    if completion_url is not None:
        problems.append(("completion_url", _("a panel's complete_url is where respondents go: "
                                             "leave completion_url out")))  # fmt: skip
    return problems


def _address_problems(url: Any, names: tuple[Any, ...]) -> list[str]:
    """The shared check of an address, with every placeholder taken as allowed; then whether
    its placeholders are only the panel's parameters."""
    problems = url_problems(PLACEHOLDER.sub("", url) if isinstance(url, str) else url, None)
    unnamed = sorted(
        set(PLACEHOLDER.findall(url if isinstance(url, str) else ""))
        - {f"{{{name}}}" for name in names if isinstance(name, str)}
    )
    if unnamed:
        problems.append(_("fills in only the panel's parameters, not %(others)s",
                          others=", ".join(unnamed)))  # fmt: skip
    return problems
