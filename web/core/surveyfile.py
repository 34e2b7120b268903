"""Survey files, and the one validator that every change to a survey goes through.

A survey file looks like::

    {"slug": "campus-life", "title": "...", "description": "...",
     "questions": [
       {"id": "cheated", "type": "yesno", "text": "...", "epsilon": 1.0,
        "procedure": "spinner_coin"},
       {"id": "substances", "type": "multi", "text": "...", "epsilon": 1.5, "procedure": "spinner",
        "options": [{"id": "alcohol", "text": "..."}, {"id": "tobacco", "text": "..."}]}]}

:func:`parse_survey` turns decoded JSON into a :class:`SurveySpec`, naming every mistake at once
with where it is (``questions[1].epsilon``), so a file is fixed in one pass. The checks of what a
survey may hold (:func:`survey_problems`, :func:`question_problems`) are the same ones the builder
and the command line use (:mod:`web.core.editing`), with the limits of :mod:`web.core.limits`.
Messages are translated where a page shows them. Nothing here touches the database.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from flask_babel import gettext as _

import rr
from web.core.limits import (
    DEFAULT_RESULTS_BATCH,
    KEY,
    MAX_EPSILON,
    MAX_QUESTIONS,
    MAX_RESULTS_BATCH,
    MAX_TEXT,
    MAX_TITLE,
    MIN_EPSILON,
    MIN_RESULTS_BATCH,
    RESERVED_KEYS,
    SLUG,
    valid_epsilon,
)
from web.core.questions import QUESTION_TYPES, QuestionType

SURVEY_FIELDS = {"slug", "title", "description", "results_batch", "questions"}
QUESTION_FIELDS = {"id", "type", "text", "epsilon", "procedure", "options"}
OPTION_FIELDS = {"id", "text"}


class Problem(NamedTuple):
    """One mistake: where it is (``questions[0].epsilon``) and what is wrong."""

    place: str
    message: str

    @property
    def field(self) -> str:
        """The name of the field the mistake is in: ``epsilon``, ``options``, ``text``, …"""
        return self.place.rsplit(".", 1)[-1].split("[", 1)[0]

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"


class SurveyFileError(ValueError):
    """A survey file with mistakes; ``problems`` lists each as "where: what"."""

    def __init__(self, problems: list[Problem] | list[str]):
        self.problems = [str(problem) for problem in problems]
        super().__init__("; ".join(self.problems))


# What a direct question stores for the ε and procedure it does not have.
DIRECT_EPSILON = 0.0
DIRECT_PROCEDURE = "direct"


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

    @property
    def type(self) -> QuestionType:
        return QUESTION_TYPES[self.kind]


@dataclass(frozen=True)
class SurveySpec:
    slug: str
    title: str
    description: str
    questions: tuple[QuestionSpec, ...] = field(default_factory=tuple)
    # How many new responses move the published results at once (optional in a file).
    results_batch: int = DEFAULT_RESULTS_BATCH

    def to_dict(self) -> dict:
        """The survey in the file format."""
        return {
            "slug": self.slug,
            "title": self.title,
            "description": self.description,
            "results_batch": self.results_batch,
            "questions": [_question_dict(question) for question in self.questions],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2) + "\n"


def _question_dict(question: QuestionSpec) -> dict:
    data: dict[str, Any] = {"id": question.key, "type": question.kind, "text": question.text}
    if question.type.randomized:
        data |= {"epsilon": question.epsilon, "procedure": question.procedure}
    if question.type.has_options:
        data["options"] = [{"id": option.key, "text": option.text} for option in question.options]
    return data


# The checks shared by every way a survey changes.


def survey_problems(spec: SurveySpec, question_count: int | None = None) -> list[Problem]:
    """Every mistake in a whole survey: its own fields, then each question. ``question_count``
    is how many questions there were, when ``spec`` holds only the first of them (a file)."""
    count = len(spec.questions) if question_count is None else question_count
    problems = survey_field_problems(spec.slug, spec.title, spec.description)
    if count == 0:
        problems.append(Problem("questions", _("must be a non-empty list")))
    problems += question_count_problems(count)
    batch = spec.results_batch
    if (
        isinstance(batch, bool)
        or not isinstance(batch, int)
        or not MIN_RESULTS_BATCH <= batch <= MAX_RESULTS_BATCH
    ):
        problems.append(
            Problem(
                "results_batch",
                _(
                    "must be a whole number from %(low)d to %(high)d, got %(value)r",
                    low=MIN_RESULTS_BATCH,
                    high=MAX_RESULTS_BATCH,
                    value=batch,
                ),
            )
        )
    seen: set[str] = set()
    for index, question in enumerate(spec.questions):
        where = f"questions[{index}]"
        problems += question_problems(question, where)
        if not isinstance(question.key, str):
            continue
        if question.key in seen:
            problems.append(
                Problem(f"{where}.id", _("duplicate question id %(id)r", id=question.key))
            )
        seen.add(question.key)
    return problems


def survey_field_problems(slug: Any, title: Any, description: Any) -> list[Problem]:
    """Mistakes in a survey's address, title and description."""
    problems = []
    if not isinstance(slug, str) or not SLUG.fullmatch(slug):
        problems.append(
            Problem(
                "slug",
                _(
                    "%(slug)r is not a valid slug (1-64 lowercase letters, digits and inner "
                    "hyphens)",
                    slug=slug,
                ),
            )
        )
    problems += _text_problems(title, "title", MAX_TITLE)
    if not isinstance(description, str) or len(description) > MAX_TEXT:
        problems.append(
            Problem(
                "description", _("must be text of at most %(limit)d characters", limit=MAX_TEXT)
            )
        )
    return problems


def question_count_problems(count: int) -> list[Problem]:
    """A survey holds at most MAX_QUESTIONS questions."""
    if count <= MAX_QUESTIONS:
        return []
    return [
        Problem(
            "questions",
            _("at most %(limit)d questions, got %(count)d", limit=MAX_QUESTIONS, count=count),
        )
    ]


def question_problems(spec: QuestionSpec, where: str = "question") -> list[Problem]:
    """Every mistake in one question: id, type, wording, ε, procedure and options."""
    problems = _key_problems(spec.key, f"{where}.id")
    kind = QUESTION_TYPES.get(spec.kind) if isinstance(spec.kind, str) else None
    if kind is None:
        names = " or ".join(repr(name) for name in QUESTION_TYPES)
        problems.append(
            Problem(
                f"{where}.type",
                _("unknown type %(kind)r (use %(names)s)", kind=spec.kind, names=names),
            )
        )
    problems += _text_problems(spec.text, f"{where}.text", MAX_TEXT)
    if kind is not None and not kind.randomized:
        problems += _direct_problems(spec, where)
    elif not valid_epsilon(spec.epsilon):
        problems.append(
            Problem(
                f"{where}.epsilon",
                _(
                    "must be a number from %(low)s to %(high)s, got %(value)r",
                    low=f"{MIN_EPSILON:g}",
                    high=f"{MAX_EPSILON:g}",
                    value=_number_or_value(spec.epsilon),
                ),
            )
        )
    if (kind is None or kind.randomized) and spec.procedure not in rr.PROCEDURES:
        problems.append(
            Problem(
                f"{where}.procedure",
                _(
                    "unknown procedure %(procedure)r (use 'spinner_coin' or 'spinner')",
                    procedure=spec.procedure,
                ),
            )
        )
    if kind is not None:
        wrong_count = kind.options_problem(len(spec.options))
        if wrong_count is not None:
            problems.append(Problem(f"{where}.options", wrong_count))
    seen: set[str] = set()
    for index, option in enumerate(spec.options):
        place = f"{where}.options[{index}]"
        problems += _key_problems(option.key, f"{place}.id")
        problems += _text_problems(option.text, f"{place}.text", MAX_TEXT)
        if not isinstance(option.key, str):
            continue
        if option.key in seen:
            problems.append(Problem(f"{place}.id", _("duplicate option id %(id)r", id=option.key)))
        seen.add(option.key)
    return problems


def _direct_problems(spec: QuestionSpec, where: str) -> list[Problem]:
    """A direct question is asked plainly: an ε or a procedure would promise a protection it has not."""
    return [
        Problem(
            f"{where}.{name}",
            _("a 'direct' question is not randomized: remove %(name)r", name=name),
        )
        for name, value in (("epsilon", spec.epsilon), ("procedure", spec.procedure))
        if value not in (None, DIRECT_EPSILON, DIRECT_PROCEDURE)
    ]


def _number_or_value(value: Any) -> Any:
    """A number as a float (so 11 from a file and 11.0 from a form read alike), else as it is."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    return value


def _key_problems(key: Any, place: str) -> list[Problem]:
    if not isinstance(key, str) or not KEY.fullmatch(key):
        return [
            Problem(place, _("%(id)r is not a valid id (1-64 letters, digits, _ or -)", id=key))
        ]
    if key in RESERVED_KEYS:
        return [
            Problem(
                place,
                _("%(id)r is reserved: every JavaScript object has it; choose another id", id=key),
            )
        ]
    return []


def _text_problems(value: Any, place: str, limit: int) -> list[Problem]:
    if not isinstance(value, str) or not value.strip():
        return [Problem(place, _("must be non-empty text"))]
    if len(value) > limit:
        return [
            Problem(
                place,
                _("at most %(limit)d characters, got %(count)d", limit=limit, count=len(value)),
            )
        ]
    return []


# Reading a file: its JSON shape first, then the shared checks.


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
    if not isinstance(data, dict):
        raise SurveyFileError(["file: the top level must be a JSON object"])
    problems = _unknown_fields(data, SURVEY_FIELDS, "survey")
    items = data.get("questions")
    if not isinstance(items, list):
        items = []
    questions = []
    for index, item in enumerate(items[: MAX_QUESTIONS + 1]):
        where = f"questions[{index}]"
        if not isinstance(item, dict):
            problems.append(Problem(where, _("must be an object")))
            continue
        problems += _unknown_fields(item, QUESTION_FIELDS, where)
        options, option_problems = _options(item, where)
        problems += option_problems
        kind = QUESTION_TYPES.get(item["type"]) if isinstance(item.get("type"), str) else None
        direct = kind is not None and not kind.randomized
        questions.append(
            QuestionSpec(
                _field(item, "id"),
                _field(item, "type"),
                _field(item, "text"),
                _field(item, "epsilon", DIRECT_EPSILON if direct else None),
                _field(item, "procedure", DIRECT_PROCEDURE if direct else "spinner_coin"),
                options,
            )
        )
    spec = SurveySpec(
        _field(data, "slug"),
        _field(data, "title"),
        _field(data, "description", ""),
        tuple(questions),
        _field(data, "results_batch", DEFAULT_RESULTS_BATCH),
    )
    # Only the first MAX_QUESTIONS + 1 questions are read: enough to refuse the rest by count.
    problems += survey_problems(spec, question_count=len(items))
    if problems:
        raise SurveyFileError(problems)
    return spec


def _options(item: dict, where: str) -> tuple[tuple[OptionSpec, ...], list[Problem]]:
    """The options as written, and mistakes in their JSON shape (the shared checks do the rest)."""
    items = item.get("options")
    if items is None:
        return (), []
    if not isinstance(items, list):
        return (), [Problem(f"{where}.options", _("must be a list of options"))]
    options, problems = [], []
    for index, option in enumerate(items):
        place = f"{where}.options[{index}]"
        if not isinstance(option, dict):
            problems.append(Problem(place, _("must be an object")))
            continue
        problems += _unknown_fields(option, OPTION_FIELDS, place)
        options.append(OptionSpec(_field(option, "id"), _field(option, "text")))
    return tuple(options), problems


def _field(item: dict, name: str, default: Any = None) -> Any:
    """A value as the file has it, of any JSON type: the shared checks say what is wrong with it."""
    return item.get(name, default)


def _unknown_fields(item: dict, allowed: set[str], where: str) -> list[Problem]:
    return [
        Problem(where, _("unknown field %(name)r", name=name))
        for name in sorted(set(item) - allowed, key=str)
    ]
