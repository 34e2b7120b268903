"""The bilingual demo survey that a fresh install starts with."""

from pathlib import Path

from web.core.infrastructure.extensions import db
from web.core.models import Survey
from web.core.surveys.joincode import ensure_join_code
from web.core.surveys.surveyfile import load_survey

DEMO_FILE = Path(__file__).with_name("campus-life.json")


def seed_demo_survey() -> None:
    """Add the demo survey to an empty database; leave any other database alone."""
    if db.session.scalar(db.select(Survey.id).limit(1)) is not None:
        return
    survey = Survey.from_spec(load_survey(DEMO_FILE.read_bytes()))
    db.session.add(survey)
    ensure_join_code(survey)
    db.session.commit()
