"""Short join codes: characters that cannot be mistaken for one another when read off a screen."""

from __future__ import annotations

import re
import secrets

from web.core.infrastructure.extensions import db
from web.core.models import Survey

# No 0/O/Q, 1/I/L, 2/Z, 5/S, 6/G or 8/B.
ALPHABET = "ACDEFHJKMNPRTUVWXY3479"
LENGTH = 5


def normalize(code: str) -> str:
    """Upper-case and drop spaces and hyphens, so "kx 7-3m" finds "KX73M"."""
    return re.sub(r"[\s-]+", "", code).upper()


def ensure_join_code(survey: Survey) -> str:
    """Give the survey a join code if it has none, unique among all surveys; return it."""
    while survey.join_code is None:
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        if db.session.scalar(db.select(Survey.id).filter_by(join_code=code)) is None:
            survey.join_code = code
    return survey.join_code


def open_survey_for(code: str) -> Survey | None:
    """The open survey with this code, or None."""
    return db.session.scalar(db.select(Survey).filter_by(join_code=normalize(code), status="open"))
