"""A survey's experimental conditions (a split ballot): each respondent's page draws one, by the
declared shares, and a question may be asked differently in each.

In a survey file::

    "conditions": [{"id": "direct", "share": 1}, {"id": "spin", "share": 1}],
    "questions": [{"id": "drugs", "type": "yesno", "text": "...", "known_prevalence": 0,
                   "asked": {"direct": {"procedure": "direct"},
                             "spin": {"procedure": "spinner_coin", "epsilon": 1}}}]

A question with ``asked`` is asked in the conditions it names (every one, or some: a comprehension
check of one condition's instructions is asked in that condition alone); each entry holds what a
question holds for its design (procedure, ε and the design's parameters), and every condition
asks at least one question of its own. It is stored as one question per condition,
keyed ``<id>@<condition>`` (a question id has no ``@``), each with its own tallies, design and
frozen parameters, so every estimate uses the design its responses were collected under. A
question without ``asked`` is asked the same way in every condition.

Nothing here touches the database or a request; problems are (place, message) pairs that the
survey file's validator turns into its own.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from web.core.surveys.designs import DESIGN_FIELDS

MIN_CONDITIONS, MAX_CONDITIONS = 2, 6
CONDITION_ID = re.compile(r"\A[a-z0-9](?:[a-z0-9_-]{0,14}[a-z0-9])?\Z")
# A question's id, then its condition's, in the key of the question's row for that condition.
SEPARATOR = "@"
MAX_ROW_KEY = 64
# What a condition's entry in ``asked`` may state: the question's design.
ASKED_FIELDS = frozenset({"procedure", "epsilon", *DESIGN_FIELDS})


@dataclass(frozen=True)
class Condition:
    """One condition of an experiment: its id and its relative share of respondents."""

    id: str
    share: float

    def to_dict(self) -> dict:
        return {"id": self.id, "share": self.share}


def row_key(key: str, condition: str | None) -> str:
    """The stored key of a question's row: its id, with its condition's where it has one."""
    return key if condition is None else f"{key}{SEPARATOR}{condition}"


def question_id(key: str) -> str:
    """A stored row's question id (its key without the condition)."""
    return key.split(SEPARATOR, 1)[0]


def condition_markers(questions) -> list[tuple[str, str]]:
    """(condition, the key of a row only its respondents answer), for each condition of the
    questions' experiment (anything with ``key`` and ``condition``): a response's condition is the
    one whose row it answers (every condition asks a question of its own)."""
    markers: dict[str, str] = {}
    for question in questions:
        if question.condition is not None:
            markers.setdefault(question.condition, question.key)
    return list(markers.items())


def response_condition(answers: dict, markers: list[tuple[str, str]]) -> str | None:
    """The condition of a response's stored answers: the one whose row they answer (None for a
    response of no condition)."""
    return next((condition for condition, key in markers if key in answers), None)


def read_conditions(value: Any) -> tuple[tuple[Condition, ...], list[tuple[str, str]]]:
    """A file's ``conditions`` as written (none when absent), and what is wrong with their shape;
    :func:`condition_problems` checks their values."""
    if value is None:
        return (), []
    if not isinstance(value, list) or not all(isinstance(entry, dict) for entry in value):
        return (), [("conditions", _("must be a list of objects with id and share"))]
    problems = [
        (f"conditions[{index}]", _("unknown field %(name)r", name=name))
        for index, entry in enumerate(value)
        for name in sorted(set(entry) - {"id", "share"}, key=str)
    ]
    return tuple(Condition(entry.get("id"), entry.get("share")) for entry in value), problems


def condition_problems(conditions: Sequence[Condition]) -> list[tuple[str, str]]:
    """2 to 6 conditions, each with a distinct slug-like id and a positive share."""
    if not conditions:
        return []
    problems = []
    if not MIN_CONDITIONS <= len(conditions) <= MAX_CONDITIONS:
        problems.append(
            (
                "conditions",
                _(
                    "an experiment has %(low)d to %(high)d conditions, got %(count)d",
                    low=MIN_CONDITIONS,
                    high=MAX_CONDITIONS,
                    count=len(conditions),
                ),
            )
        )
    seen: set[str] = set()
    for index, condition in enumerate(conditions):
        where = f"conditions[{index}]"
        if not isinstance(condition.id, str) or not CONDITION_ID.fullmatch(condition.id):
            problems.append(
                (
                    f"{where}.id",
                    _(
                        "must be 1 to 16 lowercase letters, digits, '-' or '_', got %(value)r",
                        value=condition.id,
                    ),
                )
            )
        elif condition.id in seen:
            problems.append((f"{where}.id", _("duplicate condition id %(id)r", id=condition.id)))
        else:
            seen.add(condition.id)
        share = condition.share
        if (
            isinstance(share, bool)
            or not isinstance(share, (int, float))
            or not 0 < share < math.inf
        ):
            problems.append(
                (f"{where}.share", _("must be a number above 0, got %(value)r", value=share))
            )
    return problems


def expand_asked(
    item: dict, where: str, conditions: Sequence[Condition]
) -> tuple[list[tuple[str | None, dict]], list[tuple[str, str]]]:
    """A file's question as one (condition, item) per condition it is asked in: each item the
    question with its condition's design; one (None, item) for a question without ``asked``."""
    asked = item.get("asked")
    if asked is None:
        return [(None, item)], []
    if not conditions:
        return [(None, item)], [(f"{where}.asked", _("only a survey with conditions has 'asked'"))]
    if not isinstance(asked, dict) or not all(isinstance(entry, dict) for entry in asked.values()):
        return [(None, item)], [
            (f"{where}.asked", _("must be an object of one design per condition"))
        ]
    ids = [condition.id for condition in conditions]
    problems = [
        (f"{where}.asked", _("unknown condition %(id)r", id=name))
        for name in asked
        if name not in ids
    ]
    beside = sorted(name for name in item if name in ASKED_FIELDS)
    problems += [
        (f"{where}.{name}", _("with 'asked', each condition states its own design"))
        for name in beside
    ]
    for name, entry in asked.items():
        problems += [
            (f"{where}.asked.{name}", _("unknown field %(name)r", name=field))
            for field in sorted(set(entry) - ASKED_FIELDS, key=str)
        ]
    if problems:
        return [(None, item)], problems
    common = {name: value for name, value in item.items() if name != "asked"}
    return [(name, common | asked[name]) for name in ids if name in asked], []


def asked_entry(question: dict) -> dict:
    """What a condition's entry in ``asked`` holds of a question's file form: its design."""
    return {name: value for name, value in question.items() if name in ASKED_FIELDS}


def grouped_for_file(rows: Sequence[tuple[str | None, dict]]) -> list[dict]:
    """Questions in the file's form from their rows' (condition, file form), in order: a
    question's rows, one per condition, become one question with ``asked``."""
    questions: list[dict] = []
    by_id: dict[str, dict] = {}
    for condition, question in rows:
        if condition is None:
            questions.append(question)
            continue
        entry = by_id.get(question["id"])
        if entry is None:
            entry = {name: value for name, value in question.items() if name not in ASKED_FIELDS}
            entry["asked"] = {}
            by_id[question["id"]] = entry
            questions.append(entry)
        entry["asked"][condition] = asked_entry(question)
    return questions


def rows_problems(
    rows: Sequence[tuple[str, str | None, str]], conditions: Sequence[Condition]
) -> list[tuple[str, str]]:
    """Whether each question's rows, (question id, condition, place), make an experiment: every
    row's condition declared, a question asked either the same way everywhere or at most once in
    each condition, every condition with a question of its own, and each row's key within its
    length."""
    ids = [condition.id for condition in conditions if isinstance(condition.id, str)]
    by_question: dict[str, list[tuple[str | None, str]]] = {}
    for key, condition, place in rows:
        by_question.setdefault(key, []).append((condition, place))
    problems = []
    for key, found in by_question.items():
        place = found[0][1]
        named = [condition for condition, _place in found if condition is not None]
        if not named:
            continue
        if not conditions:
            problems.append(
                (place, _("only a survey with conditions asks a question by condition"))
            )
        elif not set(named) <= set(ids) or len(set(named)) != len(found):
            problems.append((place, _("must be asked at most once in each condition")))
        longest = max(len(row_key(key, condition)) for condition in named)
        if longest > MAX_ROW_KEY:
            problems.append(
                (
                    place,
                    _(
                        "the question's id and a condition's id together exceed %(limit)d "
                        "characters",
                        limit=MAX_ROW_KEY - 1,
                    ),
                )
            )
    own = {condition for _key, condition, _place in rows}
    problems += [
        (
            f"conditions[{index}]",
            _("condition %(id)r asks no question of its own: name it in a question's 'asked'",
              id=name),
        )
        for index, name in enumerate(ids)
        if name not in own
    ]  # fmt: skip
    return problems


def known_prevalence_problem(value: Any) -> str | None:
    """A known prevalence must be a share from 0 to 1 (or absent)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        return _("must be a number from 0 to 1, got %(value)r", value=value)
    return None
