"""Create the tables and the demo survey once, even when several server processes start together.

On PostgreSQL gunicorn starts several workers, and each one creates the app. Without a lock two of
them race to create the same tables; one dies with a unique violation in the catalogue, and
gunicorn, seeing a worker fail to boot, shuts the whole server down. A session-level advisory
lock makes the processes take turns, and the later ones find the tables and the demo survey
already there. SQLite needs no lock: one process writes to it (web/sqlite_guard.py).
"""

from __future__ import annotations

import contextlib
import zlib

from sqlalchemy import text

from web.core.demo import seed_demo_survey
from web.core.extensions import db

# Any constant shared by every process of this app; advisory lock keys are 64-bit integers.
SCHEMA_LOCK = zlib.crc32(b"randomized-response survey schema")


@contextlib.contextmanager
def schema_lock(engine):
    """Hold the database-wide schema lock (PostgreSQL), or nothing (other databases)."""
    if engine.dialect.name != "postgresql":
        yield
        return
    with engine.connect() as connection:
        connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": SCHEMA_LOCK})
        try:
            yield
        finally:
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": SCHEMA_LOCK})


def prepare_database(with_demo: bool) -> None:
    """Create missing tables and, in an empty database, the demo survey; one process at a time."""
    with schema_lock(db.engine):
        db.create_all()
        if with_demo:
            seed_demo_survey()
