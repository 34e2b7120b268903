"""Finding a survey by its slug, with its questions and options loaded up front."""

from __future__ import annotations

from flask import abort
from flask_babel import gettext as _
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


def load_survey(slug: str, public: bool = False) -> Survey:
    """:func:`find_survey`, or 404; a draft is 404 to the public too."""
    survey = find_survey(slug)
    if survey is None or (public and survey.status == "draft"):
        abort(404, _("No such survey."))
    return survey
