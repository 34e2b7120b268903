"""The SQL statements each test sends, recorded as SQLite runs them.

A statement is kept by its shape (:func:`shape`): its values taken out, however many rows or
list items it carries, so that two tests running the same query on different data send the same
statement. The PostgreSQL pass's list of tests (``tests/postgres_pass.py``) is chosen from these
records so that it sends every statement the suite sends.
"""

from __future__ import annotations

import json
import os
import re
import resource
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import IO, NamedTuple

import pytest
from sqlalchemy import event
from sqlalchemy.pool import Pool

# Every value SQLite writes into a statement it traces: a blob, a string, a number, NULL; and
# SQLAlchemy's numbered savepoints. One pattern, so that a statement is scanned once.
_VALUE = re.compile(
    r"(?P<savepoint>\bsa_savepoint_\d+\b)"
    r"|\b[xX]'[0-9A-Fa-f]*'"
    r"|'(?:[^']|'')*'"
    r"|(?<![\w.\"])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b"
    r"|\bNULL\b"
)
_VALUES = re.compile(r"\?(?:, \?)*")
_ROWS = re.compile(r"\(\?…\)(?:, \(\?…\))*")
_SPACE = re.compile(r"\s+")
# What makes or reads the schema (the models' own, made once per test process; a migration's,
# whose tests run in both passes; SQLite's pragmas) is not recorded: a test's statements are
# its queries and changes of rows.
_SCHEMA = re.compile(r"\s*(?:CREATE|DROP|ALTER|PRAGMA)\b", re.IGNORECASE)
# The shapes of statements whose values are taken out, by that text: most statements differ
# only in their values (a sample's rows), and each text is shaped once (a run of
# tests/web/core/results sends 124,000 statements of 160 such texts).
_SHAPES: dict[str, str] = {}


def shape(sql: str) -> str:
    """``sql`` as SQLite ran it (its values written in), with each value, list of values and list
    of rows replaced by one mark: ``INSERT INTO t VALUES (1, 'a'), (2, NULL)`` and
    ``INSERT INTO t VALUES (3, 'b')`` have the same shape."""
    valueless = _VALUE.sub(_mark, sql)
    found = _SHAPES.get(valueless)
    if found is None:
        found = _SPACE.sub(" ", _ROWS.sub("(?…)…", _VALUES.sub("?…", valueless))).strip()
        _SHAPES[valueless] = found
    return found


def _mark(value: re.Match) -> str:
    return "sa_savepoint" if value.group("savepoint") else "?"


class Recorder:
    """What SQLite runs in this process from now on, by any engine's connection opened from now
    on (tests and their live servers' threads alike), until :meth:`close`."""

    def __init__(self) -> None:
        global _recorders
        self.sent: list[str] = []
        if not event.contains(Pool, "connect", _trace):
            event.listen(Pool, "connect", _trace)
        _recorders = (*_recorders, self)

    def take(self) -> set[str]:
        """The shapes of what ran since the last call."""
        sent, self.sent = self.sent, []
        return {shape(sql) for sql in set(sent) if not _SCHEMA.match(sql)}

    def close(self) -> None:
        """Record nothing more."""
        global _recorders
        _recorders = tuple(recorder for recorder in _recorders if recorder is not self)


# Every open recorder, replaced whole when one opens or closes (a connection in a server's
# thread may run a statement meanwhile). A connection has one trace callback, shared by all.
_recorders: tuple[Recorder, ...] = ()


def _trace(connection, _record) -> None:
    if isinstance(connection, sqlite3.Connection):
        connection.set_trace_callback(_ran)


def _ran(sql: str) -> None:
    for recorder in _recorders:
        recorder.sent.append(sql)


class Record(NamedTuple):
    """What one test sent, what it cost its process, and whether the PostgreSQL pass runs it."""

    statements: frozenset[str]
    cpu: float
    on_postgres: bool


def records(folder: Path) -> dict[str, Record]:
    """Each recorded test's :class:`Record`, by test id, from every worker's file in ``folder``."""
    found: dict[str, Record] = {}
    for path in sorted(folder.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            found[row["test"]] = Record(frozenset(row["statements"]), row["cpu"], row["postgres"])
    return found


class RecordingPlugin:
    """Write each test's :class:`Record` to ``folder``, one file per worker; ``on_postgres`` says
    whether the PostgreSQL pass would collect a test."""

    def __init__(self, folder: Path, on_postgres: Callable[[pytest.Item], bool]) -> None:
        self.folder = folder
        self.on_postgres = on_postgres
        self.recorder = Recorder()
        self.file: IO[str] | None = None

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        if self.file is None:  # a process that runs tests: not pytest-xdist's controller
            worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
            self.folder.mkdir(parents=True, exist_ok=True)
            self.file = (self.folder / f"{worker}.jsonl").open("w", encoding="utf-8")
        self.recorder.take()
        before = _processor_seconds()
        yield
        row = {
            "test": item.nodeid,
            "statements": sorted(self.recorder.take()),
            "cpu": round(_processor_seconds() - before, 3),
            "postgres": self.on_postgres(item),
        }
        self.file.write(json.dumps(row) + "\n")
        self.file.flush()

    def pytest_unconfigure(self, config) -> None:
        self.recorder.close()
        if self.file is not None:
            self.file.close()


def _processor_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
