"""What fielding a study needs besides its questions: consent, completion, schedule and target.

- ``consent``: a text the respondent must agree to before the questions appear. Nothing about
  it is stored: agreeing is what lets a response be sent at all.
- ``thanks``: the survey's own words on the thank-you page.
- ``completion_code`` and ``completion_url``: for panel providers, shown or followed once a
  response is stored. The URL is https only and may carry the survey's fixed code (``{code}``),
  never anything about the respondent.
- ``opens_at``, ``closes_at`` (UTC) and ``target_n``: an open survey takes answers only inside
  its window and until it has ``target_n`` responses; past ``closes_at`` or the target it closes
  itself on the next request that finds it so (:mod:`web.core.surveys.schedule`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from flask_babel import gettext as _

from web.core.surveys.texts import Texts

COMPLETION_CODE = re.compile(r"\A[A-Za-z0-9_-]{1,64}\Z")
MAX_URL = 2000
MAX_TARGET = 10_000_000
PLACEHOLDER = re.compile(r"\{[^}]*\}")


@dataclass(frozen=True)
class Fielding:
    consent: Texts = field(default_factory=Texts)
    thanks: Texts = field(default_factory=Texts)
    completion_code: str | None = None
    completion_url: str | None = None
    opens_at: datetime | None = None
    closes_at: datetime | None = None
    target_n: int | None = None

    def to_dict(self, languages: list[str]) -> dict:
        """The fields a survey file holds, leaving out those not set."""
        data: dict[str, Any] = {}
        for name in ("consent", "thanks"):
            texts: Texts = getattr(self, name)
            if any(text.strip() for text in texts.values()):
                data[name] = texts.for_file(languages)
        for name in ("completion_code", "completion_url", "target_n"):
            if getattr(self, name) is not None:
                data[name] = getattr(self, name)
        for name in ("opens_at", "closes_at"):
            moment = getattr(self, name)
            if moment is not None:
                data[name] = format_utc(moment)
        return data

    def completion_link(self) -> str | None:
        """Where a respondent is sent once their response is stored, with the code filled in."""
        return completion_link(self.completion_url, self.completion_code)


def completion_link(url: str | None, code: str | None) -> str | None:
    """The completion address with the survey's code in place of ``{code}`` (None without one)."""
    return url.replace("{code}", code or "") if url else None


def format_utc(moment: datetime) -> str:
    """An instant as a file writes it: ISO 8601 in UTC, to the second, with a Z."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_moment(value: Any) -> datetime | str:
    """An ISO 8601 instant with its offset, as an aware UTC datetime; else the reason it is not."""
    if not isinstance(value, str):
        return _("must be a date and time such as 2026-12-01T09:00:00Z")
    try:
        moment = datetime.fromisoformat(value.strip().replace("z", "Z"))
    except ValueError:
        return _("%(value)r is not a date and time such as 2026-12-01T09:00:00Z", value=value)
    if moment.tzinfo is None:
        return _(
            "%(value)r has no time zone: end it with Z for UTC or an offset such as +09:00",
            value=value,
        )
    return moment.astimezone(UTC).replace(microsecond=0)


def fielding_problems(fielding: Fielding) -> list[tuple[str, str]]:
    """Mistakes in the completion and schedule fields, as (field, message) pairs."""
    problems = []
    code, url = fielding.completion_code, fielding.completion_url
    if code is not None and (not isinstance(code, str) or not COMPLETION_CODE.fullmatch(code)):
        problems.append(
            (
                "completion_code",
                _("%(code)r is not a valid code (1-64 letters, digits, _ or -)", code=code),
            )
        )
    if url is not None:
        problems += [("completion_url", message) for message in url_problems(url, code)]
    opens, closes = fielding.opens_at, fielding.closes_at
    if opens is not None and closes is not None and closes <= opens:
        problems.append(("closes_at", _("must be later than opens_at")))
    target = fielding.target_n
    if target is not None and (
        isinstance(target, bool) or not isinstance(target, int) or not 1 <= target <= MAX_TARGET
    ):
        problems.append(
            (
                "target_n",
                _(
                    "must be a whole number from 1 to %(high)d, got %(value)r",
                    high=MAX_TARGET,
                    value=target,
                ),
            )
        )
    return problems


def url_problems(url: Any, code: Any) -> list[str]:
    """Why a completion URL cannot be used: https only, with a host, and no placeholder but
    ``{code}`` (which needs a code), so that it can never carry anything about a respondent."""
    if not isinstance(url, str) or len(url) > MAX_URL or any(c.isspace() for c in url):
        return [_("must be an https address of at most %(limit)d characters", limit=MAX_URL)]
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (a bad port raises here)
    except ValueError:
        return [_("%(url)r is not a valid address", url=url)]
    problems = []
    if parts.scheme != "https" or not parts.hostname:
        problems.append(_("must be an https address, such as https://panel.example.com/done"))
    if parts.username is not None or parts.password is not None:
        problems.append(_("must not hold a user name or password"))
    placeholders = set(PLACEHOLDER.findall(url))
    if placeholders - {"{code}"}:
        problems.append(
            _(
                "only {code} may be filled in (the survey's completion code), not %(others)s",
                others=", ".join(sorted(placeholders - {"{code}"})),
            )
        )
    elif placeholders and not code:
        problems.append(_("uses {code}, so the survey needs a completion_code"))
    return problems
