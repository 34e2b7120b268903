"""The database's schema: migrations, applied one process at a time.

The schema is made and changed only by the migrations in ``migrations/`` (Alembic, through
Flask-Migrate): ``flask --app app db upgrade`` applies them, and so does the production server once
at start (gunicorn.conf.py). The app never creates tables itself. A database made before migrations
existed has tables but no version: :func:`upgrade_database` recognises which release made it and
records that before upgrading, so its data is kept.

On PostgreSQL several processes may start together; a session-level advisory lock makes them take
turns, and the later ones find the schema and the demo survey already there. SQLite needs no lock:
one process writes to it (web/core/infrastructure/sqlite_guard.py).
"""

from __future__ import annotations

import contextlib
import sqlite3
import zlib
from pathlib import Path

import flask_migrate
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError, IntegrityError

from web.core.infrastructure.extensions import db

MIGRATIONS = Path(__file__).resolve().parents[3] / "migrations"
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


def add_unique(record) -> bool:
    """Add and commit ``record``; False, with nothing saved, when a value that must be unique (an
    address, an email) is already taken. The database's constraint decides, so two requests that
    race for the same value cannot both win, as they could after a look-up."""
    db.session.add(record)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return False
    return True


def upgrade_database() -> None:
    """Apply every migration not yet applied, one process at a time (needs an app context)."""
    with schema_lock(db.engine):
        flask_migrate.upgrade(directory=str(MIGRATIONS))


# How each database says a table is missing: SQLite's message, PostgreSQL's SQLSTATE.
SQLITE_NO_TABLE = "no such table"
POSTGRES_UNDEFINED_TABLE = "42P01"


def is_missing_schema(error: BaseException | None) -> bool:
    """Whether ``error`` is a query on a table the database does not have: a database whose
    migrations were never applied (``flask --app app db upgrade``). Reads SQLAlchemy's errors and
    the drivers' own (raised by the SQL the app sends its driver directly, driver_sql.py)."""
    original = error.orig if isinstance(error, DBAPIError) else error
    if isinstance(original, sqlite3.OperationalError):
        return str(original).startswith(SQLITE_NO_TABLE)
    return getattr(original, "sqlstate", None) == POSTGRES_UNDEFINED_TABLE
