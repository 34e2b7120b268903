"""One writing process per SQLite file, while the SQLite in use has the WAL-reset bug.

SQLite before 3.51.3 can corrupt a database in WAL mode when two processes write and checkpoint it
at the same time. The SQLite linked here is older, so each process claims an exclusive lock on
``<database>.lock`` before its first write and keeps it until it exits (the operating system
releases it even after kill -9). A second process that tries to write waits briefly, then stops
with an explanation instead of risking the database. Threads of one process share the claim:
SQLite itself serialises their writes safely.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
import time

FIXED_IN = (3, 51, 3)
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLAC", "CREATE", "DROP T", "DROP I", "ALTER ")

_claims: dict[str, int] = {}
_lock = threading.Lock()


class AnotherWriter(RuntimeError):
    """Another process is writing to this SQLite database."""


def needed(version: tuple[int, ...] = sqlite3.sqlite_version_info) -> bool:
    return version < FIXED_IN


def guarded_file(engine) -> str | None:
    """The SQLite file this engine's writes must claim, or None: another database, one in memory,
    or an SQLite with the fix."""
    database = engine.url.database
    if engine.dialect.name == "sqlite" and database and database != ":memory:" and needed():
        return database
    return None


def is_write(statement: str) -> bool:
    return statement.lstrip()[:6].upper() in WRITES


def claim(database: str, wait: float = 5.0) -> None:
    """Hold ``database``'s write lock for this process, waiting up to ``wait`` seconds for it."""
    if database in _claims:
        return
    with _lock:
        if database in _claims:
            return
        descriptor = os.open(f"{database}.lock", os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    holder = os.pread(descriptor, 32, 0).decode(errors="replace").strip() or "?"
                    os.close(descriptor)
                    raise AnotherWriter(
                        f"another process (pid {holder}) is writing to {database}. The SQLite "
                        f"linked here ({sqlite3.sqlite_version}) can corrupt a WAL database when two "
                        "processes write to it at once (fixed in 3.51.3), so this one will not. "
                        "Stop the other process, or set DATABASE_URL to a PostgreSQL database to "
                        "run several processes."
                    ) from None
                time.sleep(0.05)
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, str(os.getpid()).encode(), 0)
        _claims[database] = descriptor


def release(database: str) -> None:
    """Give up this process's claim (tests, and a process about to exec another)."""
    with _lock:
        descriptor = _claims.pop(database, None)
        if descriptor is not None:
            os.close(descriptor)
