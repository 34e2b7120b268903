"""Which tests the PostgreSQL pass of ``make test`` runs.

Every test runs in the SQLite pass. The PostgreSQL pass checks the app's SQL on the stricter
database, and most tests send only statements other tests send too: running all 830 of them a
second time checked 655 statements (measured 2026-11-30) at the price of a fifth of the suite's
processor time. So the pass runs

- the tests of the database code itself (:data:`DATABASE_CODE`: the models, storage, migrations,
  exactly-once submissions), and those marked for PostgreSQL (``postgres_only``,
  ``stricter_database``);
- the tests listed in ``tests/postgres_pass.txt``: the fewest, cheapest further tests that send,
  between them, every statement any test sends (a greedy weighted set cover, :func:`cover`).

``make postgres-list`` records what each test sends (``tests/statements.py``) and writes the
list again. The SQLite pass of ``make test`` records too, and fails if some statement is sent by
no test the PostgreSQL pass runs, naming the statement, a test that sends it and the command
that mends the list; ``POSTGRES_PASS=all`` runs every test of ``tests/web`` on PostgreSQL.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from tests.statements import Record, records

# POSTGRES_LIST names another list (tests/test_postgres_pass.py checks the checks with one).
LIST = Path(os.environ.get("POSTGRES_LIST", Path(__file__).with_name("postgres_pass.txt")))
DATABASE_CODE = (
    "tests/web/core/models/",
    "tests/web/core/infrastructure/",
    "tests/web/core/test_migrations.py",
    "tests/web/respondent/test_idempotency.py",
    "tests/web/respondent/test_writer.py",
)
# The tests whose steps drive the app, whose statements the list must send; the suite's own
# tests (tests/test_*.py) send SQL of their own making.
APP_TESTS = ("tests/web/", "tests/browser/", "tests/r/")
# A test's price in the cover: its processor seconds, and what any test costs to set up.
_EACH_TEST = 0.05


def database_code(test: str) -> bool:
    """Whether ``test`` (a pytest id) tests the database code itself."""
    return test.startswith(DATABASE_CODE)


def listed() -> set[str]:
    """The ids in :data:`LIST` (its ``#`` lines are comments)."""
    lines = LIST.read_text(encoding="utf-8").splitlines()
    return {line for line in lines if line and not line.startswith("#")}


def cover(found: Mapping[str, Record]) -> list[str]:
    """The tests to list: after the database code's own, each in turn the test that sends the
    most statements not yet sent per second it costs, until every statement that a test the
    PostgreSQL pass collects sends is sent.

    A greedy cover is within a factor ln(n) of the cheapest (Chvátal, "A greedy heuristic for the
    set-covering problem", Math. Oper. Res. 4, 1979); assumes ``found`` holds valid records.
    """
    candidates = {test: record for test, record in found.items() if record.on_postgres}
    left = _statements(candidates.values()) - _statements(
        record for test, record in candidates.items() if database_code(test)
    )
    chosen = []
    while left:
        test = max(
            sorted(candidates),
            key=lambda name: (
                len(candidates[name].statements & left) / (candidates[name].cpu + _EACH_TEST)
            ),
        )
        chosen.append(test)
        left -= candidates.pop(test).statements
    return sorted(chosen)


def unsent(found: Mapping[str, Record], runs: Iterable[str]) -> dict[str, str]:
    """Each statement some test of the app (:data:`APP_TESTS`) in ``found`` sends and none of
    ``runs`` (or the database code's tests) does, with the first test that sends it."""
    runs = set(runs)
    sent = _statements(
        record for test, record in found.items() if test in runs or database_code(test)
    )
    missing: dict[str, str] = {}
    for test in sorted(test for test in found if test.startswith(APP_TESTS)):
        for statement in sorted(found[test].statements - sent):
            missing.setdefault(statement, test)
    return missing


def _statements(chosen: Iterable[Record]) -> set[str]:
    return set().union(*(record.statements for record in chosen))


def write(folder: Path) -> list[str]:
    """Write :data:`LIST` from the records in ``folder``; return the tests listed."""
    chosen = cover(records(folder))
    header = [
        "# The tests the PostgreSQL pass runs besides the database code's own and those marked",
        "# for PostgreSQL: together they send every SQL statement the suite sends",
        "# (tests/postgres_pass.py). Written by `make postgres-list`; do not edit.",
    ]
    LIST.write_text("\n".join([*header, *chosen]) + "\n", encoding="utf-8")
    return chosen


if __name__ == "__main__":
    print(f"{len(write(Path(sys.argv[1])))} tests listed in {LIST}")
