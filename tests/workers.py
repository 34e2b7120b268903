"""What each pytest-xdist worker keeps to itself when the suite runs on shared servers: a
PostgreSQL database and a Redis database of its own, so that two workers never clear each other's
tables or count each other's requests. Without xdist (or on SQLite files) nothing changes."""

from __future__ import annotations

import os
import re

import sqlalchemy

from app import with_driver

WORKER = os.environ.get("PYTEST_XDIST_WORKER")  # "gw0", "gw1", … under xdist


def worker_index() -> int | None:
    """This worker's number, or None outside xdist."""
    return None if WORKER is None else int(WORKER.removeprefix("gw"))


def worker_database(url: str | None) -> str | None:
    """The PostgreSQL database of this worker, created afresh beside ``url``'s (the role may
    create databases: .ci/postgres); ``url`` itself outside xdist."""
    if url is None or WORKER is None:
        return url
    base, name = url.rsplit("/", 1)
    own = f"{name}_{WORKER}"
    engine = sqlalchemy.create_engine(with_driver(url))
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql(f"DROP DATABASE IF EXISTS {own} WITH (FORCE)")
        connection.exec_driver_sql(f"CREATE DATABASE {own}")
    engine.dispose()
    return f"{base}/{own}"


def worker_redis(url: str | None) -> str | None:
    """This worker's Redis database (the URL's number plus one per worker)."""
    index = worker_index()
    if url is None or index is None:
        return url
    match = re.fullmatch(r"(.*)/(\d+)", url)
    assert match is not None, f"a Redis URL ends with its database number: {url}"
    return f"{match.group(1)}/{int(match.group(2)) + 1 + index}"
