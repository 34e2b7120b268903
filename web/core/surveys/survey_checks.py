"""The checks of a whole survey, shared by every way a survey changes: its languages, its own
fields, its series and conditions, then each question (:mod:`web.core.surveys.question_checks`),
with the limits of :mod:`web.core.surveys.limits`. Nothing here touches the database."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from web.core.infrastructure.i18n import LANGUAGES
from web.core.surveys.field_checks import texts_problems
from web.core.surveys.fielding import Fielding, fielding_problems
from web.core.surveys.flow.conditions import (
    ASKED_FIELDS,
    condition_problems,
    rows_problems,
)
from web.core.surveys.flow.walk import flow_problems
from web.core.surveys.limits import (
    MAX_QUESTIONS,
    MAX_RESULTS_BATCH,
    MAX_TEXT,
    MAX_TITLE,
    MAX_WAVE,
    MIN_RESULTS_BATCH,
    SLUG,
)
from web.core.surveys.panel import panel_problems
from web.core.surveys.problems import Problem
from web.core.surveys.question_checks import question_problems
from web.core.surveys.specs import QuestionSpec, SurveySpec
from web.core.surveys.texts import Texts


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
    problems += [Problem(*found) for found in panel_problems(spec.panel,
                                                             spec.fielding.completion_url)]  # fmt: skip
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
    questions_valid = not any(problem.place.startswith("questions") for problem in problems)
    problems += flow_problems(
        spec.questions, places, spec.pages, languages, complete, questions_valid, spec.quotas
    )
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
