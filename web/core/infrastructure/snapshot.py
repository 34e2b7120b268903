"""Reads that see one committed state of the database, whatever commits meanwhile.

An output is read in several statements: the survey's row, its questions and options, the counts
per group, the published rows. In PostgreSQL's default READ COMMITTED each statement sees what was
committed when it began, so a publication that commits between two of them would give an output
whose parts come from two publications (a survey's n from one, its questions' counts from the
next). A transaction begun here sees one state from its first read to its end: REPEATABLE READ
on PostgreSQL; on SQLite an explicit ``BEGIN``, since a read transaction in WAL mode keeps the
state of its first read (without it, the driver runs each SELECT in a transaction of its own).
The transaction is for reading: a write in it would meet PostgreSQL's serialization errors when
a submission has changed the same row.
"""

from __future__ import annotations

from web.core.infrastructure.extensions import db


def begin_one_snapshot() -> None:
    """End the session's transaction (committing nothing: call it before any change) and begin
    one in which every read sees the same committed state."""
    session = db.session
    session.commit()
    if db.engine.dialect.name == "postgresql":
        session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    else:
        session.connection().exec_driver_sql("BEGIN")
