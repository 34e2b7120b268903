"""Changing a survey: the lifecycle (open, close, archive, delete, duplicate), its details,
languages, panel and series, and the rule that spun parameters never change.

A question's privacy parameters (ε, procedure, type and options) are frozen once it has a
response; its wording may still be fixed (its edits: :mod:`web.core.surveys.question_edit`).
Every change to what a respondent spins bumps the survey's revision (:func:`new_revision`), so a
page loaded before the change cannot submit under the old parameters.
"""

from __future__ import annotations

import dataclasses

from flask_babel import force_locale
from flask_babel import gettext as _

from web.core.infrastructure.extensions import db
from web.core.infrastructure.i18n import STATUS_LABELS
from web.core.models import (
    AuditEvent,
    FieldDevice,
    FieldworkCount,
    GroupTally,
    Invitation,
    PendingResponse,
    Response,
    SubmissionKey,
    Survey,
    SurveyMember,
)
from web.core.models.publication import publish_in_session
from web.core.surveys.fielding import Fielding
from web.core.surveys.joincode import ensure_join_code
from web.core.surveys.limits import MAX_TITLE
from web.core.surveys.panel import Panel, panel_problems
from web.core.surveys.problems import Problem
from web.core.surveys.series import (
    wave_problems,
)
from web.core.surveys.survey_checks import (
    fielding_text_problems,
    language_problems,
    series_problems,
    survey_field_problems,
    survey_problems,
)
from web.core.surveys.texts import Texts, language_name

TRANSITIONS = {("draft", "open"), ("open", "closed"), ("closed", "open")}


class EditError(ValueError):
    """A change the survey does not allow: each problem names the field it is about and says why,
    in the page's language."""

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(problem.message for problem in problems))


def change_status(survey: Survey, status: str) -> None:
    """Move along draft → open → closed (and reopen a closed survey)."""
    if (survey.status, status) not in TRANSITIONS:
        raise EditError(
            [
                Problem(
                    "status",
                    _(
                        "A %(current)s survey cannot become %(wanted)s.",
                        current=STATUS_LABELS.get(survey.status, survey.status),
                        wanted=STATUS_LABELS.get(status, status),
                    ),
                )
            ]
        )
    if status == "open" and not survey.questions:
        raise EditError(
            [Problem("status", _("Add at least one question before opening the survey."))]
        )
    if status == "open":
        missing = missing_texts(survey)
        if missing:
            raise EditError([missing_texts_problem(missing)])
    survey.status = status
    survey.edits += 1
    if status == "open":
        ensure_join_code(survey)
    if status == "closed":
        publish_everything(survey)


def missing_texts_problem(missing: list[tuple[str, str]]) -> Problem:
    """Why a survey with untranslated texts cannot open, naming each language and text."""
    by_language: dict[str, list[str]] = {}
    for place, language in missing:
        by_language.setdefault(language, []).append(place.rsplit(".", 1)[0])
    listed = "; ".join(
        f"{language_name(language)}: {', '.join(places)}"
        for language, places in by_language.items()
    )
    return Problem(
        "status",
        _(
            "Write every text in each of the survey's languages before opening it. Missing: %(listed)s",
            listed=listed,
        ),
    )


def publish_everything(survey: Survey) -> None:
    """Publish every response stored so far: a closed survey shows all it received."""
    db.session.flush()
    publish_in_session(survey.id, all_in=True)


def set_archived(survey: Survey, archived: bool) -> None:
    """Put a survey away from the researcher's list, or bring it back. An open survey is closed
    first: one hidden while it still took answers would be forgotten, not finished."""
    if archived and survey.status == "open":
        raise EditError([Problem("status", _("Close the survey before archiving it."))])
    survey.archived = archived


def delete_survey(survey: Survey) -> int:
    """Delete the survey, its questions and every response to it; how many responses went."""
    responses = survey.response_count
    for table in (
        Response,
        PendingResponse,
        GroupTally,
        SubmissionKey,
        FieldDevice,
        FieldworkCount,
        SurveyMember,
        Invitation,
        AuditEvent,
    ):
        db.session.execute(db.delete(table).where(table.survey_id == survey.id))
    db.session.delete(survey)
    return responses


def duplicate_survey(survey: Survey, owner, slug: str) -> Survey:
    """A new draft with the same questions and batch size, and no responses."""
    titles = {}
    for language, title in survey.texts("title").items():
        with force_locale(language):
            titles[language] = _("Copy of %(title)s", title=title)[:MAX_TITLE]
    # A copy stands alone: no wave of the series, and so no permanent reports (Next wave makes
    # the series' next survey).
    original = survey.to_spec()
    spec = dataclasses.replace(
        original,
        slug=slug,
        title=Texts(titles),
        series=None,
        wave=None,
        questions=tuple(
            dataclasses.replace(question, epsilon_permanent=None) for question in original.questions
        ),
    )
    copy = Survey.from_spec(spec, owner=owner)
    copy.status = "draft"  # the batch size comes with the spec
    return copy


def edit_details(
    survey: Survey,
    title: Texts,
    description: Texts,
    results_batch: int | None,
    fielding: Fielding | None = None,
) -> None:
    """Change the survey's title and description (in its languages), batch size (kept when
    None), and consent, thank-you, completion, schedule and target (kept when None), after the
    checks a survey file goes through; a translation may still be missing (a draft)."""
    languages = tuple(survey.language_list)
    title, description = title.stripped(), description.stripped()
    problems = survey_field_problems(survey.slug, title, description, languages, complete=False)
    if fielding is not None:
        fielding = dataclasses.replace(
            fielding, consent=fielding.consent.stripped(), thanks=fielding.thanks.stripped()
        )
        problems += fielding_text_problems(fielding, languages, complete=False)
    if problems:
        raise EditError(problems)
    survey.set_texts("title", title)
    survey.set_texts("description", description)
    if fielding is not None:
        survey.set_fielding(fielding)
    survey.results_batch = results_batch or survey.results_batch
    survey.edits += 1


def set_panel(survey: Survey, panel: Panel | None) -> None:
    """Field the survey on an online panel (its parameters' names and completion address), or on
    none, after the checks a survey file goes through (web/core/surveys/panel.py)."""
    problems = [Problem(*found) for found in panel_problems(panel, survey.completion_url)]
    if problems:
        raise EditError(problems)
    stored = None if panel is None else panel.to_dict()
    if stored != survey.panel:
        survey.panel = stored
        survey.edits += 1


def set_series(survey: Survey, series: str | None, wave: int | None) -> None:
    """Make the survey wave ``wave`` of ``series`` (None, None: a survey on its own), after the
    checks a file's series goes through. Once it has responses its series cannot change: the
    permanent reports its respondents' devices keep are filed under the series' name."""
    series = series.strip() if isinstance(series, str) else series
    if series == "":
        series = None
    if (series, wave) == (survey.series, survey.wave):
        return
    spec = dataclasses.replace(survey.to_spec(), series=series, wave=wave)
    problems = series_problems(series, wave)
    if not problems and survey.response_count > 0 and series != survey.series:
        problems.append(Problem("series", _("The survey has responses, so its series is fixed.")))
    if not problems and series is None:
        kept = [q.key for q in survey.questions if q.epsilon_permanent is not None]
        if kept:
            problems.append(
                Problem("series", _("Questions %(ids)s keep a permanent report over the "
                                    "series' waves: remove their ε∞ first.", ids=", ".join(kept)))
            )  # fmt: skip
    problems = problems or wave_problems(spec, survey.owner_id, survey.id)
    if problems:
        raise EditError(problems)
    survey.series, survey.wave = series, wave
    survey.edits += 1


def set_languages(survey: Survey, languages: list[str]) -> None:
    """Declare the survey's languages, the default first. Every text is kept in the languages
    that stay; a language that goes takes its texts with it; a new one starts with none (marked
    as missing until written). What respondents spin does not change, so draws are kept."""
    problems = language_problems(languages)
    if problems:
        raise EditError(problems)
    names = ("title", "description", "consent", "thanks")
    own = {name: survey.texts(name) for name in names}
    wording = [(question, question.texts) for question in survey.questions]
    options = [
        (option, option.texts) for question in survey.questions for option in question.options
    ]
    survey.languages = ",".join(languages)
    for name, texts in own.items():
        survey.set_texts(name, texts)
    for question, texts in wording:
        question.text, question.translations = texts.to_store(languages)
    for option, texts in options:
        option.text, option.translations = texts.to_store(languages)
    for question in survey.questions:
        design = question.design
        if design.innocuous_text or design.rows or design.arm_texts:
            question.design_parameters = question.design.with_languages(languages).to_store()
    survey.edits += 1


def new_revision(survey: Survey) -> None:
    """Move the survey to a new revision in the database now, before the question's responses
    are counted: from here on no submission to the old revision can be stored (the writer's claim
    names the revision), and the row is locked against other edits until the transaction ends.
    So the count read next is final, and checking and changing are one step."""
    survey.revision = Survey.revision + 1  # computed by the database, not from a stale read
    db.session.flush()


def missing_texts(survey: Survey) -> list[tuple[str, str]]:
    """Every text of the survey lacking a declared language, as (what, language): what the
    builder marks, and why an incomplete survey cannot open."""
    return [
        (problem.place, problem.language or "")
        for problem in survey_problems(survey.to_spec())
        if problem.language is not None
    ]
