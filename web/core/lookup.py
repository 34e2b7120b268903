"""Finding a survey by its slug, with its questions and options loaded up front."""

from __future__ import annotations

from sqlalchemy.orm import selectinload

from web.core.extensions import db
from web.core.models import Question, Survey


def find_survey(slug: str) -> Survey | None:
    """The survey with its questions and options (three queries, whatever the responses), or None."""
    return db.session.scalar(
        db.select(Survey)
        .filter_by(slug=slug)
        .options(selectinload(Survey.questions).selectinload(Question.options))
    )
