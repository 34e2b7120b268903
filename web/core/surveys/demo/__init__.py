"""The bilingual demo survey that a fresh install starts with."""

from pathlib import Path

from sqlalchemy import inspect

from web.core.infrastructure.database import schema_lock
from web.core.infrastructure.extensions import db
from web.core.models import Survey, User
from web.core.surveys.joincode import ensure_join_code
from web.core.surveys.surveyfile import load_survey

DEMO_FILE = Path(__file__).with_name("campus-life.json")


DEMO_SLUG = "campus-life"


def open_demo() -> Survey | None:
    """The demo survey while it is open (the home page and a new researcher's first steps offer
    it), else None."""
    return db.session.scalar(db.select(Survey).filter_by(slug=DEMO_SLUG, status="open"))


def seed_demo_survey() -> None:
    """Add the demo survey to an empty database; leave any other database alone."""
    if db.session.scalar(db.select(Survey.id).limit(1)) is not None:
        return
    survey = Survey.from_spec(load_survey(DEMO_FILE.read_bytes()))
    db.session.add(survey)
    ensure_join_code(survey)
    db.session.commit()


def seed_demo_if_empty() -> None:
    """Add the demo survey to a database that has the schema and no survey yet (a database not
    yet upgraded gets it at the next start after the upgrade)."""
    inspector = inspect(db.engine)
    if not inspector.has_table("survey"):
        return
    # A database of an earlier release, not upgraded yet, lacks the models' newer columns: writing
    # the survey through them would fail (the server's start upgrades it, then seeds).
    have = {column["name"] for column in inspector.get_columns("survey")}
    if not {column.name for column in Survey.__table__.columns} <= have:
        return
    with schema_lock(db.engine):
        seed_demo_survey()


def give_demo_to_first_account(user_id: int) -> None:
    """The demo survey, owned by no account so far, belongs to the first account made: a survey
    with no owner is every account's, which a site with several accounts should not leave it."""
    accounts = db.session.scalar(db.select(db.func.count()).select_from(User))
    if accounts != 1:
        return
    db.session.execute(
        db.update(Survey)
        .where(Survey.slug == DEMO_SLUG, Survey.owner_id.is_(None))
        .values(owner_id=user_id)
    )
