"""Quotas: how many completes a survey takes from respondents of one kind, decided by answers
asked plainly.

In a survey file::

    "quotas": [{"id": "women", "question": "gender", "in": ["f"], "limit": 300},
               {"id": "young", "question": "age", "at_most": 29, "limit": 200},
               {"id": "young_women", "all": [{...}, {...}], "limit": 100}]

A quota's condition is a display rule's (:mod:`web.core.surveys.flow.display`), and like one it may
read only questions asked plainly: a report is noise, and a page that turned a respondent away on
it would need the true answer behind it. A response counts in every quota whose condition holds
for its plain answers. The page asks which quotas are full at the end of each page whose answers
decide one, and sends a respondent of a full quota to the panel's ``quota_full_url`` (nothing
sent, nothing stored); at submission the server counts each quota's completes in the transaction
that stores the response (:mod:`web.respondent.storing`), so that no quota overfills however many
submissions arrive at once. Nothing here touches the database or a request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from web.core.surveys.field_checks import key_problems
from web.core.surveys.flow.display import Readable, Rule, read_rule, rule_problems, stored_rule
from web.core.surveys.problems import Problem

MAX_QUOTAS = 50
MAX_LIMIT = 1_000_000
# The fields a quota holds besides its condition's.
OWN_FIELDS = ("id", "limit")


@dataclass(frozen=True)
class Quota:
    """A quota: its id, the condition a response is counted by, and how many completes it takes."""

    key: str
    rule: Rule
    limit: int

    def to_dict(self) -> dict:
        """The quota as a file writes it (and the survey's row keeps it)."""
        return {"id": self.key, **self.rule.to_dict(), "limit": self.limit}

    def holds(self, plain: Mapping[str, Any]) -> bool:
        """Whether a respondent with these plain answers (as a display rule reads them) counts."""
        return self.rule.holds(plain)

    def __repr__(self) -> str:
        return f"Quota({self.key!r}, {self.rule.words()!r}, limit={self.limit})"


def stored_quotas(value: list[dict] | None) -> tuple[Quota, ...]:
    """A survey's quotas as its row keeps them (checked when they were stored)."""
    return tuple(
        Quota(item["id"], stored_rule(_condition(item)), item["limit"])  # type: ignore[arg-type]
        for item in value or ()
    )


def read_quotas(value: Any) -> tuple[tuple[Quota, ...], list[Problem]]:
    """``"quotas"`` as written in a file: each quota's shape named where it is wrong
    (``quotas[1].limit``). What a condition reads is checked by :func:`quota_problems`."""
    if value is None:
        return (), []
    if not isinstance(value, list) or not value:
        return (), [Problem("quotas", _("must be a non-empty list of quotas"))]
    problems: list[Problem] = []
    if len(value) > MAX_QUOTAS:
        problems.append(Problem("quotas", _("at most %(limit)d quotas, got %(count)d",
                                            limit=MAX_QUOTAS, count=len(value))))  # fmt: skip
    quotas, seen = [], set()
    for index, item in enumerate(value[: MAX_QUOTAS + 1]):
        where = f"quotas[{index}]"
        if not isinstance(item, dict):
            problems.append(Problem(where, _("must be an object")))
            continue
        found = key_problems(item.get("id"), f"{where}.id")
        if not found and item["id"] in seen:
            found.append(Problem(f"{where}.id", _("duplicate quota id %(id)r", id=item["id"])))
        seen.add(item.get("id") if not found else None)
        limit = item.get("limit")
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_LIMIT:
            found.append(Problem(f"{where}.limit", _(
                "must be a whole number of completes from 1 to %(high)d, got %(value)r",
                high=MAX_LIMIT, value=limit)))  # fmt: skip
        rule, shape = read_rule(_condition(item), where)
        problems += found + shape
        if not (found or shape):
            quotas.append(Quota(item["id"], rule, limit))  # type: ignore[arg-type]
    return (tuple(quotas), problems) if not problems else ((), problems)


def quota_problems(
    quotas: Sequence[Quota], readable: Mapping[str, Readable], randomized: set[str]
) -> list[Problem]:
    """Whether each quota's condition reads only questions asked plainly (``readable``, by the
    name a rule gives them), and names their answers."""
    return [
        problem
        for index, quota in enumerate(quotas)
        for problem in rule_problems(quota.rule, f"quotas[{index}]", readable, randomized)
    ]


def quotas_met(quotas: Sequence[Quota], plain: Mapping[str, Any]) -> list[Quota]:
    """The quotas a response with these plain answers counts in."""
    return [quota for quota in quotas if quota.holds(plain)]


def _condition(item: dict) -> dict:
    """A quota's condition: its fields but its own."""
    return {name: value for name, value in item.items() if name not in OWN_FIELDS}
