"""Survey files, read: a file's JSON shape, then the checks every change to a survey goes through.

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
from dataclasses import replace
from typing import Any

from flask_babel import gettext as _

from web.core.infrastructure import strict_json
from web.core.surveys.designs import (
    ARM_FIELDS,
    DESIGN_FIELDS,
    SHARE_NAMES,
    DesignParameters,
    GridRow,
    default_design,
    find_design,
)
from web.core.surveys.fielding import Fielding, parse_moment
from web.core.surveys.flow.conditions import (
    expand_asked,
    read_conditions,
)
from web.core.surveys.flow.display import read_rule
from web.core.surveys.flow.pages import in_asked_order, read_pages
from web.core.surveys.flow.quotas import read_quotas
from web.core.surveys.limits import (
    DEFAULT_ANSWER_LENGTH,
    DEFAULT_RESULTS_BATCH,
    MAX_QUESTIONS,
)
from web.core.surveys.panel import read_panel
from web.core.surveys.problems import Problem, SurveyFileError
from web.core.surveys.questions import QUESTION_TYPES, FixedFields
from web.core.surveys.scales import SCALE_FIELDS, Scale
from web.core.surveys.specs import OptionSpec, QuestionSpec, SurveySpec
from web.core.surveys.survey_checks import language_problems, survey_problems
from web.core.surveys.texts import Texts, guess_language

SURVEY_FIELDS = {"slug", "languages", "title", "description", "results_batch", "questions"}
SURVEY_FIELDS |= {"consent", "thanks", "completion_code", "completion_url"}
SURVEY_FIELDS |= {"opens_at", "closes_at", "target_n", "series", "wave", "conditions", "pages"}
SURVEY_FIELDS |= {"panel", "quotas"}
QUESTION_FIELDS = {
    "id", "type", "text", "epsilon", "epsilon_permanent", "procedure", "options", *DESIGN_FIELDS,
    *SCALE_FIELDS, "asked", "known_prevalence", "correct", "required", "show_if", "shuffle_options",
    "max_length", "rows", "hint",
}  # fmt: skip
OPTION_FIELDS = {"id", "text", "fixed"}
ROW_FIELDS = {"id", "text"}


# Reading a file: its JSON shape first, then the shared checks.


def _first_procedure(kind) -> str:
    """The procedure a question of ``kind`` is asked with where its file names none: the default
    design, where the type may be asked with it, else the type's first (a list's)."""
    default = default_design().name
    if kind is None or default in kind.procedures:
        return default
    return kind.procedures[0]


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
            fixed = kind.fixed_fields() if kind is not None else FixedFields()
            rule = None
            if item.get("show_if") is not None:
                rule, rule_problems = read_rule(item["show_if"], f"{where}.show_if")
                problems += rule_problems
            questions.append(
                QuestionSpec(
                    _field(item, "id"),
                    _field(item, "type"),
                    reader.texts(item, "text", where),
                    _field(item, "epsilon", fixed.get("epsilon")),
                    _field(item, "procedure", fixed.get("procedure", _first_procedure(kind))),
                    options,
                    reader.design(item, f"{where}.asked.{condition}" if condition else where),
                    _field(item, "epsilon_permanent"),
                    condition,
                    _field(item, "known_prevalence"),
                    _field(item, "correct"),
                    _field(item, "required", False),
                    rule,
                    _field(item, "shuffle_options", False),
                    reader.texts(item, "hint", where),
                )
            )
    panel, panel_shape = read_panel(data.get("panel"))
    problems += [Problem(*problem) for problem in panel_shape]
    quotas, quota_shape = read_quotas(data.get("quotas"))
    problems += quota_shape
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
        read_pages(data.get("pages"), reader.texts, problems),
        panel,
        quotas,
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
    # A design's ε is its parameters' (a stated one was checked against it); the questions are
    # kept in the order their pages ask them.
    derived = tuple(
        replace(question, epsilon=question.derived_epsilon) for question in spec.questions
    )
    return replace(spec, questions=in_asked_order(derived, spec.pages))


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
            options.append(
                OptionSpec(
                    _field(option, "id"),
                    self.texts(option, "text", place),
                    _field(option, "fixed", False),
                )
            )
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
        arms, arm_texts = self.arms(item, where)
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
            arms=arms,
            arm_texts=arm_texts,
            scale=self.scale(item, where),
            max_length=self.max_length(item),
            rows=self.rows(item, where),
            controls=self.rows(item, where, "controls"),
            controls_b=self.rows(item, where, "controls_b"),
            sensitive_text=self.sensitive(item, where),
        )

    def sensitive(self, item: dict, where: str) -> Texts | None:
        """A list experiment's sensitive item's wording as written."""
        sensitive = item.get("sensitive")
        if sensitive is None:
            return None
        if not isinstance(sensitive, dict):
            self.problems.append(Problem(f"{where}.sensitive", _("must be an object with text")))
            return None
        self.problems += _unknown_fields(sensitive, {"text"}, f"{where}.sensitive")
        return self.texts(sensitive, "text", f"{where}.sensitive")

    def rows(self, item: dict, where: str, name: str = "rows") -> tuple[GridRow, ...] | None:
        """A grid's rows or a list's control items as written (their ids and texts are checked
        with the question's)."""
        rows = item.get(name)
        if rows is None:
            return None
        if not isinstance(rows, list):
            self.problems.append(Problem(f"{where}.{name}", _("must be a list of items")))
            self.bad_places.add(f"{where}.{name}")
            return None
        read = []
        for index, row in enumerate(rows):
            place = f"{where}.{name}[{index}]"
            if not isinstance(row, dict):
                self.problems.append(Problem(place, _("must be an object")))
                continue
            self.problems += _unknown_fields(row, ROW_FIELDS, place)
            read.append(GridRow(_field(row, "id"), self.texts(row, "text", place)))
        return tuple(read)

    def max_length(self, item: dict):
        """An open answer's longest length as written; the default where its type takes one."""
        kind = item.get("type")
        written = isinstance(kind, str) and kind in QUESTION_TYPES and QUESTION_TYPES[kind].written
        return item.get("max_length", DEFAULT_ANSWER_LENGTH if written else None)

    def scale(self, item: dict, where: str) -> Scale | None:
        """A number question's range as written; none when no field of it is."""
        if not any(name in item for name in SCALE_FIELDS):
            return None
        unit = self.texts(item, "unit", where)
        kind = item.get("type")
        ranged = QUESTION_TYPES.get(kind) if isinstance(kind, str) else None
        step = item.get("step", 1 if ranged is not None and ranged.has_range else None)
        return Scale(item.get("min"), item.get("max"), step, unit)

    def arms(self, item: dict, where: str) -> tuple[tuple | None, tuple[Texts, ...] | None]:
        """A design of two arms' arms as written, each an object of the design's shares (those
        of cheating detection where the procedure names no design of arms), and each arm's
        innocuous question's wording where its arms ask one (the extended crosswise model)."""
        arms = item.get("arms")
        if arms is None:
            return None, None
        if not isinstance(arms, list) or not all(isinstance(arm, dict) for arm in arms):
            self.problems.append(
                Problem(f"{where}.arms", _("must be a list of two objects of shares"))
            )
            return None, None
        design = find_design(item.get("procedure"))
        names = design.fields.arm_fields if design is not None else ARM_FIELDS
        for index, arm in enumerate(arms):
            self.problems += _unknown_fields(arm, set(names), f"{where}.arms[{index}]")
        if design is None or not design.fields.arm_innocuous:
            return tuple(tuple(arm.get(name) for name in names) for arm in arms), None
        questions = []
        for index, arm in enumerate(arms):
            place = f"{where}.arms[{index}].innocuous"
            innocuous = arm.get("innocuous")
            if not isinstance(innocuous, dict):
                self.problems.append(
                    Problem(place, _("must be an object with text and prevalence"))
                )
                innocuous = {}
            self.problems += _unknown_fields(innocuous, {"text", "prevalence"}, place)
            questions.append((innocuous.get("prevalence"), self.texts(innocuous, "text", place)))
        return tuple((share,) for share, _text in questions), tuple(text for _s, text in questions)

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
