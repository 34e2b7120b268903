"""``flask backup``: a copy of the embedded database that holds what it held, readable by its
owner alone, never over another file; PostgreSQL is sent to its own tools."""

from __future__ import annotations

import sqlite3
import stat

import pytest

from tests.conftest import ON_POSTGRES, sqlite_only


@sqlite_only
def test_the_copy_holds_every_response_and_only_its_owner_reads_it(runner, survey, tmp_path):
    simulated = runner.invoke(args=["simulate-responses", survey, "--n", "37", "--seed", "1"])
    assert simulated.exit_code == 0, simulated.output
    target = tmp_path / "backup.sqlite3"
    made = runner.invoke(args=["backup", str(target)])
    assert made.exit_code == 0, made.output
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    with sqlite3.connect(target) as copy:
        stored = sum(
            copy.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("response", "pending_response")
        )
        slugs = [row[0] for row in copy.execute("SELECT slug FROM survey")]
    assert stored == 37 and slugs == [survey]


@sqlite_only
def test_an_existing_file_is_never_overwritten(runner, survey, tmp_path):
    target = tmp_path / "backup.sqlite3"
    target.write_text("yesterday's backup")
    refused = runner.invoke(args=["backup", str(target)])
    assert refused.exit_code == 1 and "File exists" in refused.output
    assert target.read_text() == "yesterday's backup"


@pytest.mark.skipif(not ON_POSTGRES, reason="PostgreSQL's refusal")
def test_postgresql_is_backed_up_with_its_own_tools(runner, tmp_path):
    refused = runner.invoke(args=["backup", str(tmp_path / "backup.sqlite3")])
    assert refused.exit_code == 1 and "pg_dump" in refused.output
    assert not (tmp_path / "backup.sqlite3").exists()
