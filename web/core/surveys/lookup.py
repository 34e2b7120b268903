"""Finding a survey by its slug, with its questions and options loaded up front."""

from __future__ import annotations

from sqlalchemy.orm import selectinload

from web.core.infrastructure.extensions import db
from web.core.infrastructure.snapshot import begin_one_snapshot
from web.core.models import Question, Survey
from web.core.surveys.schedule import close_if_due, due_to_close


def find_survey(slug: str, *, one_snapshot: bool = False) -> Survey | None:
    """The survey with its questions and options (three queries, whatever the responses), or None.
    An open survey past its closing time or target is closed first (:mod:`web.core.surveys.schedule`).

    With ``one_snapshot`` the request's later reads see the same committed state as these
    (:mod:`web.core.infrastructure.snapshot`): what every output of published results needs."""
    query = (
        db.select(Survey)
        .filter_by(slug=slug)
        .options(selectinload(Survey.questions).selectinload(Question.options))
    )
    if one_snapshot:
        begin_one_snapshot()
    survey = db.session.scalar(query)
    if survey is not None and due_to_close(
        survey.status, survey.closes_at, survey.target_n, survey.response_count
    ):
        db.session.commit()  # closing writes, and must not in the snapshot's transaction
        close_if_due(survey.id)
        if one_snapshot:
            begin_one_snapshot()
        survey = db.session.scalar(query)
    return survey
