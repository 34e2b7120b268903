"""Finding a survey by its slug, with its questions and options loaded up front."""

from __future__ import annotations

from sqlalchemy.orm import selectinload

from web.core.infrastructure.extensions import db
from web.core.infrastructure.snapshot import begin_one_snapshot
from web.core.models import Question, Survey
from web.core.surveys.schedule import close_if_due, due_to_close


def find_survey(slug: str, *, one_snapshot: bool = False) -> Survey | None:
    """The survey with its questions and options (three queries, whatever the responses), or None.
    It only reads: an open survey past its closing time or target is found open and due
    (:func:`is_due`); the write side closes it (:func:`find_survey_closing_due`).

    With ``one_snapshot`` the request's later reads see the same committed state as these
    (:mod:`web.core.infrastructure.snapshot`): what every output of published results needs."""
    if one_snapshot:
        begin_one_snapshot()
    return db.session.scalar(
        db.select(Survey)
        .filter_by(slug=slug)
        .options(selectinload(Survey.questions).selectinload(Question.options))
    )


def find_survey_closing_due(slug: str) -> Survey | None:
    """:func:`find_survey`, but an open survey past its closing time or target is closed first,
    publishing every response (:mod:`web.core.surveys.schedule`): for the write side, the
    respondent's pages and the commands."""
    survey = find_survey(slug)
    if survey is not None and is_due(survey):
        db.session.commit()  # ends the read, so that closing starts a write of its own
        close_if_due(survey.id)
        survey = find_survey(slug)
    return survey


def is_due(survey: Survey) -> bool:
    """Whether an open survey has passed its closing time or reached its target, and closes at
    the next write that finds it."""
    return due_to_close(survey.status, survey.closes_at, survey.target_n, survey.response_count)
