"""What every ``flask`` command looks up by name: a survey by its address, an account by its
email; a name that finds nothing is the user's mistake, one line on stderr."""

from __future__ import annotations

import click

from web.core.infrastructure.extensions import db
from web.core.models import Survey, User
from web.core.surveys.lookup import find_survey, find_survey_closing_due


def survey_named(slug: str, one_snapshot: bool = False) -> Survey:
    """The survey at ``slug`` (see :func:`find_survey`), or a ClickException saying none is. A
    command is on the write side: a due survey is closed first (but not in a read of one
    snapshot, which stays a read)."""
    survey = find_survey(slug, one_snapshot=True) if one_snapshot else find_survey_closing_due(slug)
    if survey is None:
        raise click.ClickException(f"no survey with slug {slug!r}")
    return survey


def user_named(email: str) -> User:
    """The account with ``email``, or a ClickException saying none has it."""
    user = db.session.scalar(db.select(User).filter_by(email=email.lower()))
    if user is None:
        raise click.ClickException(f"no user with email {email!r}")
    return user
