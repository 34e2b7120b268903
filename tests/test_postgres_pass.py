"""The PostgreSQL pass's list of tests (tests/postgres_pass.py): statements kept by their shape,
a cover that sends every one, and the SQLite pass's check that fails when the list misses one."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import sqlalchemy

from tests import postgres_pass
from tests.statements import Record, Recorder, records, shape

ROOT = Path(__file__).resolve().parent.parent
# One cheap test whose steps run SQL, outside the database code's own tests.
SENDS_SQL = "tests/web/cli/test_cli.py::test_import_prints_the_slug_last"


def test_a_statement_keeps_its_shape_whatever_its_values():
    one = "INSERT INTO response (survey_id, body) VALUES (1, 'it''s'), (2, NULL)"
    other = "INSERT INTO response (survey_id, body) VALUES (-3.5e2, x'00ff')"
    assert shape(one) == shape(other) == "INSERT INTO response (survey_id, body) VALUES (?…)…"
    assert shape("SELECT q2.id FROM question AS q2 WHERE q2.id IN (4, 5, 6)") == (
        "SELECT q2.id FROM question AS q2 WHERE q2.id IN (?…)…"
    )
    assert shape("RELEASE SAVEPOINT sa_savepoint_12") == "RELEASE SAVEPOINT sa_savepoint"
    assert shape("SELECT 1 FROM t WHERE a = 1") != shape("SELECT 1 FROM t WHERE b = 1")


def test_the_recorder_sees_what_sqlite_runs_through_any_engine(tmp_path):
    """Two recorders see the same statements: a second one once took the first one's."""
    recorder, other = Recorder(), Recorder()
    engine = sqlalchemy.create_engine(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE t (a INTEGER, b TEXT)")
        connection.exec_driver_sql("INSERT INTO t VALUES (?, ?)", [(1, "x"), (2, "y")])
        connection.exec_driver_sql("SELECT b FROM t WHERE a = 2")
    # The schema's statements are not a test's: the models' schema is made once per process.
    assert recorder.take() == {
        "BEGIN",
        "INSERT INTO t VALUES (?…)…",
        "SELECT b FROM t WHERE a = ?…",
        "COMMIT",
    }
    assert recorder.take() == set()
    assert "INSERT INTO t VALUES (?…)…" in other.take()
    other.close()
    recorder.close()
    with engine.begin() as connection:
        connection.exec_driver_sql("SELECT a FROM t")
    assert recorder.take() == set()
    engine.dispose()


def test_the_cover_sends_every_statement_a_collected_test_sends_and_prefers_cheap_tests():
    found = {
        "tests/web/core/models/test_a.py::test_own": Record(frozenset({"A"}), 1.0, True),
        "tests/web/x.py::test_dear": Record(frozenset({"A", "B", "C"}), 9.0, True),
        "tests/web/x.py::test_b": Record(frozenset({"B"}), 0.1, True),
        "tests/web/x.py::test_c": Record(frozenset({"C", "B"}), 0.2, True),
        "tests/web/x.py::test_sqlite_only": Record(frozenset({"D"}), 0.1, False),
        "tests/test_suite.py::test_its_own_sql": Record(frozenset({"E"}), 0.1, False),
    }
    assert postgres_pass.cover(found) == ["tests/web/x.py::test_c"]
    assert postgres_pass.unsent(found, ["tests/web/x.py::test_c"]) == {
        "D": "tests/web/x.py::test_sqlite_only"
    }
    assert postgres_pass.unsent(found, []) == {
        "B": "tests/web/x.py::test_b",
        "C": "tests/web/x.py::test_c",
        "D": "tests/web/x.py::test_sqlite_only",
    }


def run_pytest(tmp_path, listed: list[str], *arguments: str, **environment: str):
    """pytest on SENDS_SQL with the given list, recording into tmp_path and checking."""
    listing = tmp_path / "list.txt"
    listing.write_text("# a comment\n" + "\n".join(listed) + "\n", encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST_XDIST")}
    env.pop("TEST_DATABASE_URL", None)
    env.update(POSTGRES_LIST=str(listing), **environment)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", *arguments],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip


def test_the_sqlite_pass_fails_when_the_list_misses_a_statement(tmp_path):
    recorded = tmp_path / "statements"
    check = {"RECORD_STATEMENTS": str(recorded), "CHECK_POSTGRES_PASS": "1"}
    renamed = "tests/web/x.py::test_renamed"
    missed = run_pytest(tmp_path, [renamed], SENDS_SQL, **check)
    assert missed.returncode == 1, missed.stdout
    assert "1 passed" in missed.stdout
    assert "sent by no test of the PostgreSQL pass: INSERT INTO survey" in missed.stdout
    assert f"(sent by {SENDS_SQL})" in missed.stdout
    assert f"listed but not run: {renamed}" in missed.stdout
    assert "make postgres-list" in missed.stdout
    found = records(recorded)
    assert list(found) == [SENDS_SQL] and found[SENDS_SQL].on_postgres

    kept = run_pytest(tmp_path, [SENDS_SQL], SENDS_SQL, **check)
    assert kept.returncode == 0, kept.stdout


def test_the_postgres_pass_collects_the_listed_the_database_codes_and_the_marked(tmp_path):
    module = Path(SENDS_SQL.split("::")[0])
    modules = [str(module), "tests/web/core/models/test_publication.py"]
    modules.append("tests/web/core/infrastructure/test_postgres_server.py")
    collected = run_pytest(
        tmp_path, [SENDS_SQL], "--collect-only", "-q", *modules,
        TEST_DATABASE_URL="postgresql://nobody@127.0.0.1:1/none", POSTGRES_PASS="listed",
    ).stdout.splitlines()  # fmt: skip
    tests = {line for line in collected if "::" in line}
    imports = {test for test in tests if test.startswith(str(module))}
    assert imports == {SENDS_SQL}
    assert any(test.startswith("tests/web/core/models/") for test in tests)
    assert any("test_postgres_server" in test for test in tests)


def test_the_list_names_tests_that_exist():
    assert len(postgres_pass.listed()) > 20
    for test in postgres_pass.listed():
        assert (ROOT / test.split("::")[0]).is_file(), test
