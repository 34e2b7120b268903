"""One rule decides whether a survey takes a response: the Python rule the page and the API
apply, and the SQL the writer's claim and closing hold, agree on every case."""

import itertools
import sqlite3

from tests.conftest import no_database
from web.core.surveys.schedule import (
    ACCEPTING_SQL,
    DUE_SQL,
    NOT_OPEN_YET,
    PAST_CLOSING,
    TARGET_REACHED,
    schedule_refusal,
)

# Nothing here reads or writes the database: it runs once, on SQLite.
pytestmark = no_database


NOW = 1_000


def cases():
    """Every mix of no / past / present / future opening and closing times, and of no target,
    a target not reached, just reached and passed."""
    times = (None, NOW - 10, NOW, NOW + 10)
    targets = ((None, 5), (6, 5), (5, 5), (4, 5))
    for opens_at, closes_at, (target_n, count) in itertools.product(times, times, targets):
        yield opens_at, closes_at, target_n, count


def sql_says(expression: str, case, parameters) -> bool:
    database = sqlite3.connect(":memory:")
    database.execute("CREATE TABLE survey (opens_at, closes_at, target_n, response_count)")
    database.execute("INSERT INTO survey VALUES (?, ?, ?, ?)", case)
    return database.execute(f"SELECT {expression} FROM survey", parameters).fetchone()[0] == 1


def test_the_writers_claim_takes_one_more_response_exactly_when_the_rule_does():
    for case in cases():
        accepted = schedule_refusal(*case, NOW) is None
        assert sql_says(ACCEPTING_SQL.format(now="?", k="?"), case, (NOW, NOW, 1)) == accepted, case


def test_closing_is_due_exactly_past_the_closing_time_or_at_the_target():
    for case in cases():
        due = schedule_refusal(*case, NOW) in (PAST_CLOSING, TARGET_REACHED)
        assert sql_says(DUE_SQL, case, {"now": NOW}) == due, case


def test_the_rule_names_each_reason_in_order():
    assert schedule_refusal(NOW + 1, NOW - 1, 1, 5, NOW) == NOT_OPEN_YET
    assert schedule_refusal(None, NOW, 1, 5, NOW) == PAST_CLOSING
    assert schedule_refusal(None, NOW + 1, 5, 5, NOW) == TARGET_REACHED
    assert schedule_refusal(NOW, NOW + 1, 6, 5, NOW) is None
