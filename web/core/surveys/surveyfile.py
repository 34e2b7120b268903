"""Survey files, and the one validator that every change to a survey goes through.

A survey file looks like::

    {"slug": "campus-life", "languages": ["en", "ko"],
     "title": {"en": "...", "ko": "..."}, "description": "...",
     "questions": [
       {"id": "cheated", "type": "yesno", "text": "...", "epsilon": 1.0,
        "procedure": "spinner_coin"},
       {"id": "substances", "type": "multi", "text": "...", "epsilon": 1.5, "procedure": "spinner",
        "options": [{"id": "alcohol", "text": "..."}, {"id": "tobacco", "text": "..."}]}]}

:func:`parse_survey` turns decoded JSON into a :class:`SurveySpec`, naming every mistake at once
with where it is (``questions[1].epsilon``), so a file is fixed in one pass. The checks of what a
survey may hold (:func:`survey_problems`, :func:`question_problems`) are the same ones the builder
and the command line use (:mod:`web.core.surveys.editing`), with the limits of :mod:`web.core.surveys.limits`.
Messages are translated where a page shows them. Nothing here touches the database.

Every text may be a string (the survey's only language) or an object with one entry per declared
language (:mod:`web.core.surveys.texts`); consent, completion and schedule are :mod:`web.core.surveys.fielding`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from flask_babel import gettext as _

from web.core.infrastructure import strict_json
from web.core.infrastructure.i18n import LANGUAGES
from web.core.surveys.conditions import (
    ASKED_FIELDS,
    Condition,
    condition_problems,
    expand_asked,
    grouped_for_file,
    known_prevalence_problem,
    read_conditions,
    rows_problems,
)
from web.core.surveys.designs import (
    ARM_FIELDS,
    ASKED_PLAINLY,
    DESIGN_FIELDS,
    NO_PARAMETERS,
    SHARE_NAMES,
    DesignParameters,
    SurveyDesign,
    default_design,
    design_named,
    design_of,
    find_design,
    known_designs,
)
from web.core.surveys.fielding import Fielding, fielding_problems, parse_moment
from web.core.surveys.limits import (
    DEFAULT_RESULTS_BATCH,
    KEY,
    MAX_EPSILON,
    MAX_QUESTIONS,
    MAX_RESULTS_BATCH,
    MAX_TEXT,
    MAX_TITLE,
    MAX_WAVE,
    MIN_EPSILON,
    MIN_RESULTS_BATCH,
    RESERVED_KEYS,
    SLUG,
    valid_epsilon,
)
from web.core.surveys.questions import QUESTION_TYPES, QuestionType, question_type
from web.core.surveys.scales import MAX_UNIT, SCALE_FIELDS, Scale, scale_problems
from web.core.surveys.texts import Texts, guess_language, language_name

SURVEY_FIELDS = {"slug", "languages", "title", "description", "results_batch", "questions"}
SURVEY_FIELDS |= {"consent", "thanks", "completion_code", "completion_url"}
SURVEY_FIELDS |= {"opens_at", "closes_at", "target_n", "series", "wave", "conditions"}
QUESTION_FIELDS = {
    "id", "type", "text", "epsilon", "epsilon_permanent", "procedure", "options", *DESIGN_FIELDS,
    *SCALE_FIELDS, "asked", "known_prevalence", "correct",
}  # fmt: skip
OPTION_FIELDS = {"id", "text"}


class Problem(NamedTuple):
    """One mistake: where it is (``questions[0].epsilon``) and what is wrong."""

    place: str
    message: str

    @property
    def field(self) -> str:
        """The name of the field the mistake is in: ``epsilon``, ``options``, ``text``, …"""
        parts = self.place.split(".")
        if self.language is not None:
            parts = parts[:-1]
        return parts[-1].split("[", 1)[0]

    @property
    def language(self) -> str | None:
        """The language of the text the mistake is in (``questions[0].text.ko``), if any."""
        last = self.place.rsplit(".", 1)[-1]
        return last if "." in self.place and last in LANGUAGES else None

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"


class SurveyFileError(ValueError):
    """A survey file with mistakes; ``problems`` lists each as "where: what"."""

    def __init__(self, problems: list[Problem] | list[str]):
        self.problems = [str(problem) for problem in problems]
        super().__init__("; ".join(self.problems))


# The types asked on a range, as a file's problems name them.
RANGED = " or ".join(repr(kind.name) for kind in QUESTION_TYPES.values() if kind.has_range)
# What a direct question stores for the ε and procedure it does not have.
DIRECT_EPSILON = 0.0
DIRECT_PROCEDURE = ASKED_PLAINLY.name


@dataclass(frozen=True)
class OptionSpec:
    key: str
    text: Texts


@dataclass(frozen=True)
class QuestionSpec:
    key: str
    kind: str
    text: Texts
    epsilon: float | None  # None: a design's, derived from its parameters
    procedure: str
    options: tuple[OptionSpec, ...] = ()
    # A design's parameters (web/core/surveys/designs/), else none.
    design: DesignParameters = NO_PARAMETERS
    # ε∞, the bound over every wave of its series (a permanent report on the device), or None.
    epsilon_permanent: float | None = None
    # The condition of an experiment this row asks in (web/core/surveys/conditions.py), or None
    # for a question asked the same way in every condition.
    condition: str | None = None
    # The item's true share where it is known (a zero-prevalence item catches false positives).
    known_prevalence: float | None = None
    # A comprehension check's right answer: one of a direct question's option ids.
    correct: str | None = None

    @property
    def type(self) -> QuestionType:
        return question_type(self.kind, self.procedure)

    @property
    def option_count(self) -> int:
        return len(self.options)

    @property
    def asked_with(self) -> SurveyDesign:
        return design_of(self)

    @property
    def derived_epsilon(self) -> float:
        """ε as collected: the stated one for a spinner, the design's own for the others (a
        stated one was checked against it); assumes a checked question."""
        return self.asked_with.epsilon_of(self.epsilon, self.design)


@dataclass(frozen=True)
class SurveySpec:
    slug: str
    title: Texts
    description: Texts
    questions: tuple[QuestionSpec, ...] = field(default_factory=tuple)
    # How many new responses move the published results at once (optional in a file).
    results_batch: int = DEFAULT_RESULTS_BATCH
    # The languages of its texts, the default first.
    languages: tuple[str, ...] = ("en",)
    fielding: Fielding = field(default_factory=Fielding)
    # The series it is a wave of, and which wave (both or neither).
    series: str | None = None
    wave: int | None = None
    # An experiment's conditions, drawn per respondent; none for a survey asked one way.
    conditions: tuple[Condition, ...] = ()

    def to_dict(self) -> dict:
        """The survey in the file format: texts as strings in a one-language survey, else as
        objects with one entry per language."""
        languages = list(self.languages)
        return {
            "slug": self.slug,
            "languages": languages,
            "title": self.title.for_file(languages),
            "description": self.description.for_file(languages),
            **({"series": self.series, "wave": self.wave} if self.series is not None else {}),
            **self.fielding.to_dict(languages),
            "results_batch": self.results_batch,
            **(
                {"conditions": [condition.to_dict() for condition in self.conditions]}
                if self.conditions
                else {}
            ),
            "questions": grouped_for_file(
                [
                    (question.condition, _question_dict(question, languages))
                    for question in self.questions
                ]
            ),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2) + "\n"


def _question_dict(question: QuestionSpec, languages: list[str]) -> dict:
    data: dict[str, Any] = {
        "id": question.key,
        "type": question.kind,
        "text": question.text.for_file(languages),
    }
    if question.type.randomized:
        if question.asked_with.protects:
            data["epsilon"] = question.derived_epsilon
        data["procedure"] = question.procedure
        if question.epsilon_permanent is not None:
            data["epsilon_permanent"] = question.epsilon_permanent
        data |= question.asked_with.file_fields(question.design, languages)
        if question.design.scale is not None:
            data |= question.design.scale.for_file(languages)
    if question.known_prevalence is not None:
        data["known_prevalence"] = question.known_prevalence
    if question.correct is not None:
        data["correct"] = question.correct
    if question.type.has_options:
        data["options"] = [
            {"id": option.key, "text": option.text.for_file(languages)}
            for option in question.options
        ]
    return data


# The checks shared by every way a survey changes.


def survey_problems(
    spec: SurveySpec, question_count: int | None = None, complete: bool = True
) -> list[Problem]:
    """Every mistake in a whole survey: its languages and own fields, then each question.
    ``question_count`` is how many questions there were, when ``spec`` holds only the first of
    them (a file). With ``complete`` every declared language must have every text (a file, or a
    survey about to open); without, a missing translation is not a mistake (a draft)."""
    count = len(spec.questions) if question_count is None else question_count
    languages = spec.languages
    problems = language_problems(languages)
    if problems:
        return problems  # every text is checked against the languages: they must be right first
    problems = survey_field_problems(spec.slug, spec.title, spec.description, languages, complete)
    problems += fielding_text_problems(spec.fielding, languages, complete)
    if count == 0:
        problems.append(Problem("questions", _("must be a non-empty list")))
    problems += question_count_problems(count)
    problems += series_problems(spec.series, spec.wave)
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
    problems += [Problem(*problem) for problem in condition_problems(spec.conditions)]
    seen: set[tuple[str, str | None]] = set()
    places = file_places(spec.questions)
    rows = []
    for question, where in zip(spec.questions, places, strict=True):
        found = question_problems(
            question, where, languages, complete, in_series=spec.series is not None
        )
        problems += _in_condition(found, where, question.condition, problems)
        if not isinstance(question.key, str):
            continue
        rows.append((question.key, question.condition, f"{where}.id"))
        if (question.key, question.condition) in seen:
            problems.append(
                Problem(f"{where}.id", _("duplicate question id %(id)r", id=question.key))
            )
        seen.add((question.key, question.condition))
    problems += [Problem(*problem) for problem in rows_problems(rows, spec.conditions)]
    return problems


def file_places(questions: tuple[QuestionSpec, ...]) -> list[str]:
    """Where each row is in the file: ``questions[i]``, one index per question however many
    conditions it is asked in."""
    places, index, previous = [], -1, None
    for question in questions:
        if question.condition is None or question.key != previous:
            index += 1
        previous = question.key if question.condition is not None else None
        places.append(f"questions[{index}]")
    return places


def _in_condition(
    found: list[Problem], where: str, condition: str | None, before: list[Problem]
) -> list[Problem]:
    """A row's problems, a design's placed under its condition's entry of ``asked``
    (``questions[0].asked.spin.epsilon``), each named once for all of a question's rows."""
    if condition is not None:
        found = [
            Problem(f"{where}.asked.{condition}{problem.place[len(where) :]}", problem.message)
            if problem.place[len(where) + 1 :].split(".")[0].split("[")[0] in _DESIGN_PLACES
            else problem
            for problem in found
        ]
    return [problem for problem in found if problem not in before]


# The fields of a row's problems that are its condition's design.
_DESIGN_PLACES = ASKED_FIELDS | {"innocuous"}


def series_problems(series: Any, wave: Any) -> list[Problem]:
    """A series is named like a survey's address, and its wave is a whole number from 1 to
    MAX_WAVE; a survey names both or neither."""
    if series is None and wave is None:
        return []
    problems = []
    if not isinstance(series, str) or not SLUG.fullmatch(series):
        problems.append(
            Problem(
                "series",
                _("must be 1 to 64 lowercase letters, digits and hyphens, got %(value)r",
                  value=series),
            )
        )  # fmt: skip
    if isinstance(wave, bool) or not isinstance(wave, int) or not 1 <= wave <= MAX_WAVE:
        problems.append(
            Problem(
                "wave",
                _("must be a whole number from 1 to %(high)d, got %(value)r", high=MAX_WAVE,
                  value=wave),
            )
        )  # fmt: skip
    return problems


def language_problems(languages: Any) -> list[Problem]:
    """A survey's languages: a non-empty list of the app's languages, each once."""
    known = ", ".join(LANGUAGES)
    if (
        not isinstance(languages, (list, tuple))
        or not languages
        or not all(isinstance(code, str) for code in languages)
    ):
        return [
            Problem("languages", _("must be a list of language tags from %(known)s", known=known))
        ]
    problems = [
        Problem(
            "languages",
            _("%(code)r is not a language of this app (use %(known)s)", code=code, known=known),
        )
        for code in languages
        if code not in LANGUAGES
    ]
    if len(set(languages)) != len(languages):
        problems.append(Problem("languages", _("names a language twice")))
    return problems


def survey_field_problems(
    slug: Any,
    title: Texts,
    description: Texts,
    languages: tuple[str, ...] = ("en",),
    complete: bool = True,
) -> list[Problem]:
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
    problems += texts_problems(title, "title", MAX_TITLE, languages, complete=complete)
    problems += texts_problems(
        description, "description", MAX_TEXT, languages, required=False, complete=complete
    )
    return problems


def fielding_text_problems(
    fielding: Fielding, languages: tuple[str, ...], complete: bool = True
) -> list[Problem]:
    """Mistakes in the consent and thank-you texts, the completion code and address, the
    schedule and the target."""
    problems = []
    for name in ("consent", "thanks"):
        problems += texts_problems(
            getattr(fielding, name), name, MAX_TEXT, languages, required=False, complete=complete
        )
    return problems + [Problem(place, message) for place, message in fielding_problems(fielding)]


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


def question_problems(
    spec: QuestionSpec,
    where: str = "question",
    languages: tuple[str, ...] = ("en",),
    complete: bool = True,
    in_series: bool = False,
) -> list[Problem]:
    """Every mistake in one question: id, type, wording (in each language), ε, procedure,
    options, and ε∞ (which only a wave of a series, ``in_series``, may have)."""
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
    problems += texts_problems(spec.text, f"{where}.text", MAX_TEXT, languages, complete=complete)
    if kind is not None and not kind.randomized:
        problems += _direct_problems(spec, where)
    elif (
        _protects(spec.procedure)
        and not (_derived(spec.procedure) and spec.epsilon is None)
        and not valid_epsilon(spec.epsilon)
    ):
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
    problems += _procedure_problems(spec, kind, where, languages, complete)
    problems += _permanent_problems(spec, kind, where, in_series)
    problems += _scale_problems(spec, where, languages, complete)
    problems += _known_prevalence_problems(spec, kind, where)
    problems += _correct_problems(spec, kind, where)
    if kind is not None:
        wrong_count = kind.options_problem(len(spec.options))
        if wrong_count is not None:
            problems.append(Problem(f"{where}.options", wrong_count))
    seen: set[str] = set()
    for index, option in enumerate(spec.options):
        place = f"{where}.options[{index}]"
        problems += _key_problems(option.key, f"{place}.id")
        problems += texts_problems(
            option.text, f"{place}.text", MAX_TEXT, languages, complete=complete
        )
        if not isinstance(option.key, str):
            continue
        if option.key in seen:
            problems.append(Problem(f"{place}.id", _("duplicate option id %(id)r", id=option.key)))
        seen.add(option.key)
    return problems


def _known_prevalence_problems(
    spec: QuestionSpec, kind: QuestionType | None, where: str
) -> list[Problem]:
    """A known prevalence is a share, on a yes/no question asked with one line per condition."""
    problem = known_prevalence_problem(spec.known_prevalence)
    if problem is not None:
        return [Problem(f"{where}.known_prevalence", problem)]
    one_share = kind is not None and kind.randomized and not kind.has_options and not kind.has_range
    if spec.known_prevalence is not None and (not one_share or spec.condition is None):
        return [
            Problem(
                f"{where}.known_prevalence",
                _("only a yes/no question asked by condition ('asked') has a known prevalence"),
            )
        ]
    return []


def _protects(procedure) -> bool:
    """Whether ``procedure`` gives an ε (not a design that asks directly; its own check says
    what it takes instead)."""
    design = find_design(procedure)
    return design is None or design.protects


def _correct_problems(spec: QuestionSpec, kind: QuestionType | None, where: str) -> list[Problem]:
    """A comprehension check's right answer is one of a direct question's options."""
    if spec.correct is None:
        return []
    if kind is None or kind.randomized or not kind.has_options:
        return [Problem(f"{where}.correct", _("only a direct question is a comprehension check"))]
    if spec.correct not in [option.key for option in spec.options]:
        return [
            Problem(
                f"{where}.correct",
                _("must be one of the question's option ids, got %(value)r", value=spec.correct),
            )
        ]
    return []


def _derived(procedure) -> bool:
    """Whether ``procedure`` names a design whose ε comes from its parameters."""
    design = find_design(procedure)
    return design is not None and design.derived


def _procedure_problems(
    spec: QuestionSpec, kind: QuestionType | None, where: str, languages, complete: bool
) -> list[Problem]:
    """The procedure and, for a design, its parameters: the spinners fit every randomized type,
    the designs (forced response, unrelated question, crosswise) a yes/no question."""
    if kind is not None and not kind.randomized:
        return []
    allowed = known_designs() if kind is None else kind.procedures
    if spec.procedure not in allowed:
        return [
            Problem(
                f"{where}.procedure",
                _(
                    "unknown procedure %(procedure)r (use %(names)s)",
                    procedure=spec.procedure,
                    names=", ".join(repr(name) for name in allowed),
                ),
            )
        ]
    design = design_named(spec.procedure)
    if not design.derived:
        stated = [name for name, _value in spec.design.shares]
        stated += ["arms"] if spec.design.arms is not None else []
        return [
            Problem(
                f"{where}.{'innocuous' if name == 'prevalence' else name}",
                _(
                    "only a design's question has %(name)r",
                    name="innocuous" if name == "prevalence" else name,
                ),
            )
            for name in stated
        ]
    problems = [
        Problem(f"{where}.{field}", message)
        for field, message in design.problems(spec.epsilon, spec.design)
    ]
    if spec.design.innocuous_text:
        problems += texts_problems(
            spec.design.innocuous_text, f"{where}.innocuous.text", MAX_TEXT, languages,
            complete=complete,
        )  # fmt: skip
    return problems


def _permanent_problems(
    spec: QuestionSpec, kind: QuestionType | None, where: str, in_series: bool
) -> list[Problem]:
    """ε∞: above ε, on a type and design that keep a permanent report (a yes/no, multi-select or
    single-choice question asked with a spinner), in a survey that is a wave of a series."""
    bound = spec.epsilon_permanent
    if bound is None:
        return []
    place = f"{where}.epsilon_permanent"
    if not valid_epsilon(bound):
        return [
            Problem(
                place,
                _("must be a number from %(low)s to %(high)s, got %(value)r",
                  low=f"{MIN_EPSILON:g}", high=f"{MAX_EPSILON:g}", value=_number_or_value(bound)),
            )
        ]  # fmt: skip
    design = find_design(spec.procedure)
    if kind is None or not kind.permanent_layer or design is None or not design.keeps_permanent:
        return [Problem(place, _("only a yes/no, multi-select or single-choice question asked "
                                 "with a spinner keeps a permanent report"))]  # fmt: skip
    problems = []
    if spec.epsilon is not None and valid_epsilon(spec.epsilon) and not spec.epsilon < bound:
        problems.append(
            Problem(
                place,
                _("must be above ε (one wave's), got %(bound)s with ε = %(epsilon)s",
                  bound=f"{bound:g}", epsilon=f"{spec.epsilon:g}"),
            )
        )  # fmt: skip
    if not in_series:
        problems.append(Problem(place, _("a permanent report needs the survey's series and wave")))
    return problems


def _scale_problems(spec: QuestionSpec, where: str, languages, complete: bool) -> list[Problem]:
    """A number question's range (required), and no range on any other type."""
    scale = spec.design.scale
    kind = QUESTION_TYPES.get(spec.kind) if isinstance(spec.kind, str) else None
    if kind is None or not kind.has_range:
        if scale is None:
            return []
        return [
            Problem(
                f"{where}.{name}",
                _("only a %(kinds)s question has %(name)r", kinds=RANGED, name=name),
            )
            for name, value in zip(SCALE_FIELDS, (*scale.numbers(), scale.unit), strict=True)
            if value not in (None, Texts())
        ]
    if scale is None:
        return [
            Problem(f"{where}.min", _("a %(kind)r question needs its min and max", kind=kind.name))
        ]
    problems = [Problem(f"{where}.{field}", message) for field, message in scale_problems(scale)]
    if scale.unit:
        problems += texts_problems(scale.unit, f"{where}.unit", MAX_UNIT, languages,
                                   complete=complete)  # fmt: skip
    return problems


def _direct_problems(spec: QuestionSpec, where: str) -> list[Problem]:
    """A direct question is asked plainly: an ε or a procedure would promise a protection it has not."""
    return [
        Problem(
            f"{where}.{name}",
            _("a %(kind)r question is not randomized: remove %(name)r", kind=spec.kind, name=name),
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


def texts_problems(
    texts: Texts,
    place: str,
    limit: int,
    languages: tuple[str, ...],
    required: bool = True,
    complete: bool = True,
) -> list[Problem]:
    """Mistakes in one text in the survey's languages. A required text (title, question, option)
    needs every language; an optional one (description, consent, thank-you) may be empty, but
    then in every language. Without ``complete`` (a draft) only the default language must be
    there. Each mistake names its language where the survey has more than one."""
    if not isinstance(texts, Texts):
        return [Problem(place, _("must be non-empty text"))]
    many = len(languages) > 1
    problems = [
        Problem(
            f"{place}.{code}",
            _(
                "%(code)r is not one of the survey's languages (%(languages)s)",
                code=code,
                languages=", ".join(languages),
            ),
        )
        for code in texts
        if code not in languages
    ]
    written = any(isinstance(texts.get(code), str) and texts[code].strip() for code in languages)
    for index, code in enumerate(languages):
        where = f"{place}.{code}" if many else place
        value = texts.get(code)
        if value is not None and not isinstance(value, str):
            problems.append(Problem(where, _("must be text")))
        elif value and len(value) > limit:
            problems.append(
                Problem(
                    where,
                    _("at most %(limit)d characters, got %(count)d", limit=limit, count=len(value)),
                )
            )
        elif not (value or "").strip() and (required or written) and (complete or index == 0):
            problems.append(
                Problem(
                    where,
                    _("missing its text in %(language)s", language=language_name(code))
                    if many
                    else _("must be non-empty text"),
                )
            )
    return problems


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
        data = strict_json.loads(raw)
    except strict_json.DuplicateKey as error:
        raise SurveyFileError([f"file: {error}"]) from None
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
    reader = _Reader(data)
    problems = reader.problems
    problems += _unknown_fields(data, SURVEY_FIELDS, "survey")
    items = data.get("questions")
    if not isinstance(items, list):
        items = []
    conditions, shape_problems = read_conditions(data.get("conditions"))
    problems += [Problem(*problem) for problem in shape_problems]
    questions = []
    for index, listed in enumerate(items[: MAX_QUESTIONS + 1]):
        where = f"questions[{index}]"
        if not isinstance(listed, dict):
            problems.append(Problem(where, _("must be an object")))
            continue
        problems += _unknown_fields(listed, QUESTION_FIELDS, where)
        rows, asked_problems = expand_asked(listed, where, conditions)
        problems += [Problem(*problem) for problem in asked_problems]
        for condition, item in rows:
            # Texts and options are the question's: read (and their shapes named) once.
            options = reader.options(item, where)
            kind = QUESTION_TYPES.get(item["type"]) if isinstance(item.get("type"), str) else None
            direct = kind is not None and not kind.randomized
            questions.append(
                QuestionSpec(
                    _field(item, "id"),
                    _field(item, "type"),
                    reader.texts(item, "text", where),
                    _field(item, "epsilon", DIRECT_EPSILON if direct else None),
                    _field(
                        item, "procedure", DIRECT_PROCEDURE if direct else default_design().name
                    ),
                    options,
                    reader.design(item, f"{where}.asked.{condition}" if condition else where),
                    _field(item, "epsilon_permanent"),
                    condition,
                    _field(item, "known_prevalence"),
                    _field(item, "correct"),
                )
            )
    spec = SurveySpec(
        _field(data, "slug"),
        reader.texts(data, "title"),
        reader.texts(data, "description"),
        tuple(questions),
        _field(data, "results_batch", DEFAULT_RESULTS_BATCH),
        reader.languages,
        reader.fielding(data),
        _field(data, "series"),
        _field(data, "wave"),
        conditions,
    )
    # Only the first MAX_QUESTIONS + 1 questions are read: enough to refuse the rest by count.
    if not reader.bad_languages:
        # A text whose shape was wrong is named once, not again as missing in each language.
        problems += [
            problem
            for problem in survey_problems(spec, question_count=len(items))
            if problem.place not in reader.bad_places
            and problem.place.rsplit(".", 1)[0] not in reader.bad_places
        ]
    if problems:
        # A question's texts are read once per condition it is asked in: each mistake named once.
        raise SurveyFileError(list(dict.fromkeys(problems)))
    # A design's ε is its parameters' (a stated one was checked against it).
    derived = tuple(
        replace(question, epsilon=question.derived_epsilon) for question in spec.questions
    )
    return replace(spec, questions=derived)


class _Reader:
    """Reads a file's texts in its languages, collecting the mistakes in their JSON shape (the
    shared checks do the rest)."""

    def __init__(self, data: dict):
        self.problems: list[Problem] = []
        declared = data.get("languages")
        if declared is None:
            # A file from before languages: one language, guessed from its writing.
            self.languages: tuple[str, ...] = (guess_language(_strings(data)),)
            self.declared = False
        else:
            self.problems += language_problems(declared)
            self.languages = tuple(declared) if not self.problems else ("en",)
            self.declared = True
        self.bad_languages = bool(self.problems)
        self.bad_places: set[str] = set()

    def texts(self, item: dict, name: str, where: str = "") -> Texts:
        """The text ``name`` of ``item`` as :class:`Texts` (empty where absent)."""
        place = f"{where}.{name}" if where else name
        value = item.get(name)
        if value is None:
            return Texts()
        if (
            not isinstance(value, (str, dict))
            or (isinstance(value, str) and len(self.languages) > 1)
            or (isinstance(value, dict) and not self.declared)
        ):
            self.bad_places.add(place)
        if isinstance(value, str):
            if len(self.languages) == 1:
                return Texts.one(self.languages[0], value)
            self.problems.append(
                Problem(
                    place,
                    _(
                        "must be an object with the text in each of the survey's languages "
                        "(%(languages)s)",
                        languages=", ".join(self.languages),
                    ),
                )
            )
            return Texts()
        if isinstance(value, dict):
            if not self.declared:
                self.problems.append(
                    Problem(
                        place,
                        _('texts per language need the survey\'s "languages", e.g. ["en", "ko"]'),
                    )
                )
                return Texts()
            return Texts((str(code), text) for code, text in value.items())
        self.problems.append(Problem(place, _("must be text, or an object of texts by language")))
        return Texts()

    def options(self, item: dict, where: str) -> tuple[OptionSpec, ...]:
        """The options as written."""
        items = item.get("options")
        if items is None:
            return ()
        if not isinstance(items, list):
            self.problems.append(Problem(f"{where}.options", _("must be a list of options")))
            return ()
        options = []
        for index, option in enumerate(items):
            place = f"{where}.options[{index}]"
            if not isinstance(option, dict):
                self.problems.append(Problem(place, _("must be an object")))
                continue
            self.problems += _unknown_fields(option, OPTION_FIELDS, place)
            options.append(OptionSpec(_field(option, "id"), self.texts(option, "text", place)))
        return tuple(options)

    def design(self, item: dict, where: str) -> DesignParameters:
        """A design's parameters as written (the shared checks say what is wrong with them)."""
        innocuous = item.get("innocuous")
        if innocuous is not None and not isinstance(innocuous, dict):
            self.problems.append(
                Problem(f"{where}.innocuous", _("must be an object with text and prevalence"))
            )
            innocuous = None
        innocuous = innocuous or {}
        if innocuous:
            self.problems += _unknown_fields(
                innocuous, {"text", "prevalence"}, f"{where}.innocuous"
            )
        return DesignParameters.of(
            **{name: item.get(name) for name in SHARE_NAMES if name != "prevalence"},
            prevalence=innocuous.get("prevalence"),
            innocuous_text=self.texts(innocuous, "text", f"{where}.innocuous")
            if innocuous
            else None,
            randomizer=item.get("randomizer", "page"),
            arms=self.arms(item, where),
            scale=self.scale(item, where),
        )

    def scale(self, item: dict, where: str) -> Scale | None:
        """A number question's range as written; none when no field of it is."""
        if not any(name in item for name in SCALE_FIELDS):
            return None
        unit = self.texts(item, "unit", where)
        kind = item.get("type")
        ranged = QUESTION_TYPES.get(kind) if isinstance(kind, str) else None
        step = item.get("step", 1 if ranged is not None and ranged.has_range else None)
        return Scale(item.get("min"), item.get("max"), step, unit)

    def arms(self, item: dict, where: str):
        """Cheating detection's arms as written: each an object of the three shares."""
        arms = item.get("arms")
        if arms is None:
            return None
        if not isinstance(arms, list) or not all(isinstance(arm, dict) for arm in arms):
            self.problems.append(
                Problem(f"{where}.arms", _("must be a list of two objects of shares"))
            )
            return None
        for index, arm in enumerate(arms):
            self.problems += _unknown_fields(arm, set(ARM_FIELDS), f"{where}.arms[{index}]")
        return tuple(tuple(arm.get(name) for name in ARM_FIELDS) for arm in arms)

    def fielding(self, data: dict) -> Fielding:
        """Consent, thank-you, completion, schedule and target as written."""
        moments = {}
        for name in ("opens_at", "closes_at"):
            value = data.get(name)
            moment = None if value is None else parse_moment(value)
            if isinstance(moment, str):
                self.problems.append(Problem(name, moment))
                moment = None
            moments[name] = moment
        return Fielding(
            consent=self.texts(data, "consent"),
            thanks=self.texts(data, "thanks"),
            completion_code=data.get("completion_code"),
            completion_url=data.get("completion_url"),
            target_n=data.get("target_n"),
            **moments,
        )


def _strings(data: dict) -> list[Any]:
    """The title, description and wording of a decoded file, to guess its language."""
    listed = data.get("questions")
    questions = (
        [item for item in listed if isinstance(item, dict)] if isinstance(listed, list) else []
    )
    options = [
        option
        for item in questions
        if isinstance(item.get("options"), list)
        for option in item["options"]
        if isinstance(option, dict)
    ]
    return [
        data.get("title"),
        data.get("description"),
        *(item.get("text") for item in questions + options),
    ]


def _field(item: dict, name: str, default: Any = None) -> Any:
    """A value as the file has it, of any JSON type: the shared checks say what is wrong with it."""
    return item.get(name, default)


def _unknown_fields(item: dict, allowed: set[str], where: str) -> list[Problem]:
    return [
        Problem(where, _("unknown field %(name)r", name=name))
        for name in sorted(set(item) - allowed, key=str)
    ]
