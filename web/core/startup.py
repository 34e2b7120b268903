"""What a server does once before it serves: upgrade the schema, add the demo survey to an empty
database, and let go of the database so that the serving processes can take it (gunicorn.conf.py,
the benches and the screenshots call it)."""

from __future__ import annotations

from web.core.infrastructure import sqlite_guard
from web.core.infrastructure.database import upgrade_database
from web.core.infrastructure.extensions import db
from web.core.surveys.demo import seed_demo_if_empty


def prepare_database(app) -> None:
    """What a server does once before it serves: upgrade the schema, add the demo survey to an
    empty database, and let go of the database so that the serving processes can take it."""
    with app.app_context():
        upgrade_database()
        if app.config["DEMO_SURVEY"]:
            seed_demo_if_empty()
        database = sqlite_guard.guarded_file(db.engine)
        db.engine.dispose()
    if database:
        sqlite_guard.release(database)
