"""Survey files: parse and check the JSON format, and write it back.

A survey file looks like::

    {"slug": "campus-life", "title": "...", "description": "...",
     "questions": [
       {"id": "cheated", "type": "yesno", "text": "...", "epsilon": 1.0, "procedure": "spinner_coin"},
       {"id": "substances", "type": "multi", "text": "...", "epsilon": 1.5, "procedure": "spinner",
        "options": [{"id": "alcohol", "text": "..."}, {"id": "tobacco", "text": "..."}]}]}

:func:`parse_survey` reports every mistake at once, each naming where it is (``questions[1].epsilon``)
and what is wrong, so a file is fixed in one pass. Nothing here touches the database.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

import rr

SLUG = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$")
KEY = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
KINDS = ("yesno", "multi")
MIN_EPSILON = rr.MIN_EPSILON
MAX_EPSILON = 10.0
MAX_QUESTIONS = 100
MAX_OPTIONS = 30
MAX_TITLE = 200
MAX_TEXT = 2000
SURVEY_FIELDS = {"slug", "title", "description", "questions"}
QUESTION_FIELDS = {"id", "type", "text", "epsilon", "procedure", "options"}
OPTION_FIELDS = {"id", "text"}


class SurveyFileError(ValueError):
    """A survey file with mistakes; ``problems`` lists each as "where: what"."""

    def __init__(self, problems: list[str]):
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class OptionSpec:
    key: str
    text: str


@dataclass(frozen=True)
class QuestionSpec:
    key: str
    kind: str
    text: str
    epsilon: float
    procedure: str
    options: tuple[OptionSpec, ...] = ()


@dataclass(frozen=True)
class SurveySpec:
    slug: str
    title: str
    description: str
    questions: tuple[QuestionSpec, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict:
        """The survey in the file format."""
        return {
            "slug": self.slug,
            "title": self.title,
            "description": self.description,
            "questions": [_question_dict(question) for question in self.questions],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2) + "\n"


def _question_dict(question: QuestionSpec) -> dict:
    data = {
        "id": question.key,
        "type": question.kind,
        "text": question.text,
        "epsilon": question.epsilon,
        "procedure": question.procedure,
    }
    if question.kind == "multi":
        data["options"] = [{"id": option.key, "text": option.text} for option in question.options]
    return data


def load_survey(raw: bytes | str) -> SurveySpec:
    """Decode UTF-8 JSON and parse it; raises :class:`SurveyFileError`."""
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError as error:
            raise SurveyFileError(
                [f"file: not UTF-8 text ({error.reason} at byte {error.start})"]
            ) from None
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise SurveyFileError(
            [f"file: not valid JSON ({error.msg} at line {error.lineno}, column {error.colno})"]
        ) from None
    except RecursionError:
        raise SurveyFileError(["file: nested too deeply to be a survey"]) from None
    return parse_survey(data)


def parse_survey(data) -> SurveySpec:
    """Check a decoded survey and return it as a :class:`SurveySpec`; raises SurveyFileError."""
    problems: list[str] = []
    if not isinstance(data, dict):
        raise SurveyFileError(["file: the top level must be a JSON object"])
    _unknown_fields(data, SURVEY_FIELDS, "survey", problems)
    slug: Any = data.get("slug")  # checked below; used only when no problem was found
    if not isinstance(slug, str) or not SLUG.match(slug):
        problems.append(
            f"slug: {slug!r} is not a valid slug (1-64 lowercase letters, digits and inner hyphens)"
        )
    title = _text(data, "title", "title", MAX_TITLE, problems)
    description = data.get("description", "")
    if not isinstance(description, str) or len(description) > MAX_TEXT:
        problems.append(f"description: must be text of at most {MAX_TEXT} characters")
    questions = _questions(data.get("questions"), problems)
    if problems:
        raise SurveyFileError(problems)
    return SurveySpec(slug, title, description, questions)


def _questions(items, problems: list[str]) -> tuple[QuestionSpec, ...]:
    if not isinstance(items, list) or not items:
        problems.append("questions: must be a non-empty list")
        return ()
    if len(items) > MAX_QUESTIONS:
        problems.append(f"questions: at most {MAX_QUESTIONS} questions, got {len(items)}")
    seen: set[str] = set()
    parsed = []
    for index, item in enumerate(items):
        where = f"questions[{index}]"
        question = _question(item, where, problems)
        if question is None:
            continue
        if question.key in seen:
            problems.append(f"{where}.id: duplicate question id {question.key!r}")
        seen.add(question.key)
        parsed.append(question)
    return tuple(parsed)


def valid_epsilon(value) -> bool:
    """Whether ``value`` is an ε this app collects under: a number from MIN_EPSILON to MAX_EPSILON."""
    return (
        not isinstance(value, bool)
        and isinstance(value, (int, float))
        and math.isfinite(value)
        and MIN_EPSILON <= value <= MAX_EPSILON
    )


def _question(item, where: str, problems: list[str]) -> QuestionSpec | None:
    if not isinstance(item, dict):
        problems.append(f"{where}: must be an object")
        return None
    before = len(problems)
    _unknown_fields(item, QUESTION_FIELDS, where, problems)
    key = _key(item, where, problems)
    kind: Any = item.get("type")
    if kind not in KINDS:
        problems.append(f"{where}.type: unknown type {kind!r} (use 'yesno' or 'multi')")
    text = _text(item, "text", f"{where}.text", MAX_TEXT, problems)
    epsilon: Any = item.get("epsilon")
    if not valid_epsilon(epsilon):
        problems.append(
            f"{where}.epsilon: must be a number from {MIN_EPSILON:g} to {MAX_EPSILON:g}, got {epsilon!r}"
        )
    procedure = item.get("procedure", "spinner_coin")
    if procedure not in rr.PROCEDURES:
        problems.append(
            f"{where}.procedure: unknown procedure {procedure!r} (use 'spinner_coin' or 'spinner')"
        )
    options = _options(item.get("options"), kind, where, problems)
    if len(problems) > before:
        return None
    return QuestionSpec(key, kind, text, float(epsilon), procedure, options)


def _options(items, kind, where: str, problems: list[str]) -> tuple[OptionSpec, ...]:
    if kind != "multi":
        if kind == "yesno" and items is not None:
            problems.append(f"{where}.options: only a 'multi' question has options")
        return ()
    if not isinstance(items, list) or not items:
        problems.append(f"{where}.options: a 'multi' question needs a non-empty list of options")
        return ()
    if len(items) > MAX_OPTIONS:
        problems.append(f"{where}.options: at most {MAX_OPTIONS} options, got {len(items)}")
    seen: set[str] = set()
    parsed = []
    for index, item in enumerate(items):
        place = f"{where}.options[{index}]"
        if not isinstance(item, dict):
            problems.append(f"{place}: must be an object")
            continue
        _unknown_fields(item, OPTION_FIELDS, place, problems)
        key = _key(item, place, problems)
        text = _text(item, "text", f"{place}.text", MAX_TEXT, problems)
        if not isinstance(key, str):
            continue
        if key in seen:
            problems.append(f"{place}.id: duplicate option id {key!r}")
        seen.add(key)
        parsed.append(OptionSpec(key, text))
    return tuple(parsed)


def _key(item: dict, where: str, problems: list[str]) -> Any:
    """The id, or whatever stands there after adding a problem that says why it is no id."""
    key = item.get("id")
    if not isinstance(key, str) or not KEY.match(key):
        problems.append(f"{where}.id: {key!r} is not a valid id (1-64 letters, digits, _ or -)")
    return key


def _text(item: dict, name: str, where: str, limit: int, problems: list[str]) -> Any:
    """The text, or whatever stands there after adding a problem that says why it is no text."""
    value = item.get(name)
    if not isinstance(value, str) or not value.strip():
        problems.append(f"{where}: must be non-empty text")
    elif len(value) > limit:
        problems.append(f"{where}: at most {limit} characters, got {len(value)}")
    return value


def _unknown_fields(item: dict, allowed: set[str], where: str, problems: list[str]) -> None:
    for name in sorted(set(item) - allowed):
        problems.append(f"{where}: unknown field {name!r}")
