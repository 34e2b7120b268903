"""Display logic: a question or a page shown only to some respondents (``show_if``), decided on
the device from answers asked plainly, never from a report.

In a survey file::

    "show_if": {"question": "student", "in": ["yes"]}
    "show_if": {"question": "age", "at_least": 18, "at_most": 25}
    "show_if": {"all": [{"question": "student", "in": ["yes"]}, {"any": [...]}]}

A rule may read only a question asked plainly (a direct question, a yes/no asked directly) that
the respondent answers before it. A report is noise by design, and a page that branched on it
would need the true answer behind it: branching on a randomized question is refused, naming the
place. A respondent who left the question read unanswered matches no condition of it, so a
question shown "if student = yes" is hidden from one who preferred not to say.

A rule is a small tree of values: :meth:`holds` decides it from the plain answers (a question id
to its option id, ``"yes"``/``"no"``, or a number), the same way on the server as the page's
``display.js`` does on the device. Nothing here touches the database or a request.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _

from web.core.surveys.problems import Problem

# How deep ``all``/``any`` may nest, and how many conditions one rule may hold: enough for any
# questionnaire, small enough that a file cannot make the page's check slow.
MAX_DEPTH = 4
MAX_CONDITIONS = 20


@dataclass(frozen=True)
class AnswerIn:
    """The plain answer to ``question`` is one of ``values``."""

    question: str
    values: tuple[str, ...]

    def holds(self, plain: Mapping[str, Any]) -> bool:
        return plain.get(self.question) in self.values

    def reads(self) -> tuple[str, ...]:
        return (self.question,)

    def to_dict(self) -> dict:
        return {"question": self.question, "in": list(self.values)}

    def words(self) -> str:
        return f"{self.question} = {' / '.join(self.values)}"


@dataclass(frozen=True)
class AnswerBetween:
    """The plain number answered to ``question`` is at least ``low`` and at most ``high``
    (either may be open)."""

    question: str
    low: float | None
    high: float | None

    def holds(self, plain: Mapping[str, Any]) -> bool:
        value = plain.get(self.question)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    def reads(self) -> tuple[str, ...]:
        return (self.question,)

    def to_dict(self) -> dict:
        bounds = {"at_least": self.low, "at_most": self.high}
        return {"question": self.question} | {k: v for k, v in bounds.items() if v is not None}

    def words(self) -> str:
        parts = [f"≥ {_number(self.low)}" if self.low is not None else ""]
        parts.append(f"≤ {_number(self.high)}" if self.high is not None else "")
        return f"{self.question} {' '.join(part for part in parts if part)}"


@dataclass(frozen=True)
class Joined:
    """``rules`` joined by ``joiner``: every one holds (``"all"``) or at least one (``"any"``)."""

    joiner: str
    rules: tuple[Rule, ...]

    def holds(self, plain: Mapping[str, Any]) -> bool:
        test = all if self.joiner == "all" else any
        return test(rule.holds(plain) for rule in self.rules)

    def reads(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(name for rule in self.rules for name in rule.reads()))

    def to_dict(self) -> dict:
        return {self.joiner: [rule.to_dict() for rule in self.rules]}

    def words(self) -> str:
        joiner = _(" and ") if self.joiner == "all" else _(" or ")
        return joiner.join(_grouped(rule) for rule in self.rules)


Rule = AnswerIn | AnswerBetween | Joined


def _grouped(rule: Rule) -> str:
    return f"({rule.words()})" if isinstance(rule, Joined) else rule.words()


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(value)


def question_of(name: str) -> str:
    """The question a rule's name reads: itself, or a grid's for one of its rows
    (``<grid>.<row>``; no id holds a dot)."""
    return name.partition(".")[0]


def one_condition(question: str, answers: Sequence[str], at_least=None, at_most=None) -> dict:
    """A rule of one condition as a file writes it (what the builder asks for): a number's
    bounds where either is given, else the answers the question's must be one of; read it with
    :func:`read_rule`."""
    if at_least is not None or at_most is not None:
        bounds = {"at_least": at_least, "at_most": at_most}
        return {"question": question} | {k: v for k, v in bounds.items() if v is not None}
    return {"question": question, "in": list(answers)}


def stored_rule(value: dict | None) -> Rule | None:
    """A rule as a question's row keeps it (checked when it was stored), or None."""
    return None if value is None else read_rule(value, "")[0]


def read_rule(value: Any, place: str) -> tuple[Rule | None, list[Problem]]:
    """A ``show_if`` as written in a file (or stored): the rule, or None and the mistakes in its
    shape, each named by where it is (``questions[4].show_if.all[1].in``)."""
    counter = [0]
    problems: list[Problem] = []
    rule = _read(value, place, 1, counter, problems)
    if counter[0] > MAX_CONDITIONS:
        problems.append(
            Problem(place, _("at most %(limit)d conditions in one rule", limit=MAX_CONDITIONS))
        )
    return (None, problems) if problems else (rule, [])


def _read(value: Any, place: str, depth: int, counter: list[int], problems: list[Problem]):
    # Assumes nothing about ``value``: every shape a file may hold is named, not raised.
    if not isinstance(value, dict):
        problems.append(Problem(place, _("must be an object: a condition, or all / any of them")))
        return None
    if "all" in value or "any" in value:
        joined = "all" if "all" in value else "any"
        if set(value) != {joined}:
            problems.append(Problem(place, _("“all” or “any” stands alone in its object")))
            return None
        if depth >= MAX_DEPTH:
            problems.append(Problem(place, _("nested too deeply (at most %(depth)d levels)",
                                             depth=MAX_DEPTH)))  # fmt: skip
            return None
        items = value[joined]
        if not isinstance(items, list) or not items:
            problems.append(Problem(f"{place}.{joined}", _("must be a non-empty list")))
            return None
        rules = tuple(
            _read(item, f"{place}.{joined}[{index}]", depth + 1, counter, problems)
            for index, item in enumerate(items[: MAX_CONDITIONS + 1])
        )
        return Joined(joined, rules)
    counter[0] += 1
    return _read_condition(value, place, problems)


def _read_condition(value: dict, place: str, problems: list[Problem]) -> Rule | None:
    unknown = sorted(set(value) - {"question", "in", "at_least", "at_most"})
    if unknown:
        problems.append(Problem(f"{place}.{unknown[0]}", _("unknown field %(name)r",
                                                           name=unknown[0])))  # fmt: skip
        return None
    question = value.get("question")
    if not isinstance(question, str) or not question:
        problems.append(Problem(f"{place}.question", _("must name a question by its id")))
        return None
    if "in" in value:
        if "at_least" in value or "at_most" in value:
            problems.append(Problem(place, _("“in” or “at_least”/“at_most”, not both")))
            return None
        values = value["in"]
        if (
            not isinstance(values, list)
            or not values
            or not all(isinstance(item, str) for item in values)
        ):
            problems.append(Problem(f"{place}.in", _("must be a non-empty list of answer ids")))
            return None
        return AnswerIn(question, tuple(dict.fromkeys(values)))
    bounds = {name: value.get(name) for name in ("at_least", "at_most")}
    if all(bound is None for bound in bounds.values()):
        problems.append(Problem(place, _("needs “in”, “at_least” or “at_most”")))
        return None
    for name, bound in bounds.items():
        if bound is not None and (
            isinstance(bound, bool)
            or not isinstance(bound, (int, float))
            or not math.isfinite(bound)
        ):
            problems.append(Problem(f"{place}.{name}", _("must be a number")))
            return None
    low, high = bounds["at_least"], bounds["at_most"]
    if low is not None and high is not None and low > high:
        problems.append(Problem(place, _("“at_least” is above “at_most”: nobody would see it")))
        return None
    return AnswerBetween(question, low, high)


@dataclass(frozen=True)
class Readable:
    """What a rule may read of one question asked plainly: the answer ids its ``in`` may name
    (options, or ``yes``/``no``), or none for a number read with ``at_least``/``at_most``."""

    values: tuple[str, ...]
    numeric: bool = False


def rule_problems(
    rule: Rule, place: str, readable: Mapping[str, Readable], randomized: set[str]
) -> list[Problem]:
    """Whether ``rule`` reads only questions it may: asked plainly and answered before it
    (``readable``, by id). A question in ``randomized`` is named with why a rule must not read a
    report; any other is unknown, or not answered before."""
    problems: list[Problem] = []
    for leaf, where in _leaves(rule, place):
        name = leaf.question
        if name in randomized:
            problems.append(Problem(f"{where}.question", _(
                "%(id)r is randomized: its report is noise, and a page that branched on it would "
                "need the true answer behind it. Show or hide by a question asked directly",
                id=name)))  # fmt: skip
            continue
        rows = sorted(other for other in readable if question_of(other) == name != other)
        if name not in readable and rows:
            problems.append(Problem(f"{where}.question", _(
                "%(id)r is a grid: a rule reads one of its rows (%(rows)s)", id=name,
                rows=", ".join(rows))))  # fmt: skip
            continue
        if name not in readable:
            problems.append(Problem(f"{where}.question", _(
                "%(id)r is not a question asked directly before this one (on an earlier page, or "
                "earlier on a page whose order is not drawn)", id=name)))  # fmt: skip
            continue
        found = readable[name]
        if not found.values and not found.numeric:
            problems.append(Problem(f"{where}.question", _(
                "%(id)r is an open answer: a rule reads an answer chosen from a list, or a "
                "number", id=name)))  # fmt: skip
        elif isinstance(leaf, AnswerBetween) and not found.numeric:
            problems.append(Problem(where, _(
                "%(id)r is not a number: use “in” with its answers (%(values)s)",
                id=name, values=", ".join(found.values))))  # fmt: skip
        elif isinstance(leaf, AnswerIn):
            if found.numeric:
                problems.append(Problem(where, _(
                    "%(id)r is a number: use “at_least” or “at_most”", id=name)))  # fmt: skip
                continue
            for value in leaf.values:
                if value not in found.values:
                    problems.append(Problem(f"{where}.in", _(
                        "%(value)r is not an answer of %(id)r (%(values)s)",
                        value=value, id=name, values=", ".join(found.values))))  # fmt: skip
    return problems


def _leaves(rule: Rule, place: str):
    """Each condition of ``rule`` with where it is."""
    if isinstance(rule, Joined):
        for index, inner in enumerate(rule.rules):
            yield from _leaves(inner, f"{place}.{rule.joiner}[{index}]")
    else:
        yield rule, place
