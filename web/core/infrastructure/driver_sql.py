"""SQL in the driver's own dialect, for the few statements that bypass the ORM on the hot paths."""

from __future__ import annotations

from functools import lru_cache


def placeholder(paramstyle: str) -> str:
    """The driver's parameter marker: ``?`` for SQLite's qmark, ``%s`` for psycopg's format."""
    return "?" if paramstyle == "qmark" else "%s"


@lru_cache(maxsize=256)
def many_rows(template: str, mark: str, width: int, count: int) -> str:
    """``template`` with its ``{rows}`` filled by ``count`` rows of ``width`` parameters: one
    statement for many rows (each statement costs a round trip, and under load a wait for the
    GIL)."""
    row = "(" + ", ".join([mark] * width) + ")"
    return template.format(rows=", ".join([row] * count))


def first_row(engine, sql: str, parameters: tuple):
    """The first row of one read on a pooled connection, straight through the driver's cursor:
    the two reads of every results request and survey page (through ``exec_driver_sql`` they
    took a third of a cached results request)."""
    connection = engine.raw_connection()
    try:
        cursor = connection.cursor()
        cursor.execute(sql, parameters)
        row = cursor.fetchone()
        cursor.close()
        return row
    finally:
        connection.close()  # back to the pool, which ends the read transaction
