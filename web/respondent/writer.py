"""The writer of submissions: one per database, with a connection of its own and group commit.

Submissions queue up, and the request thread that leads stores everything queued in one
transaction (see :class:`GroupCommit`). A lecture hall submitting at once then costs one commit
per group instead of one per student, and each request still returns only after the commit that
holds its response. The writer keeps one driver connection outside the pool: only the leading
thread uses it, and neither a pool checkout nor a reset on return sits on the hot path.

Each group's transaction first writes its rows into ``pending_response`` (each with a random
key), then makes a guarded claim per survey and revision:

    UPDATE survey SET response_count = response_count + k
    WHERE id = ? AND status = 'open' AND revision = ?
      AND (opens_at IS NULL OR opens_at <= now) AND (closes_at IS NULL OR closes_at > now)
      AND (target_n IS NULL OR response_count + k <= target_n)
    RETURNING completion_code, completion_url, response_count, published_count, results_batch

so responses are stored only while the survey is open at the revision they were checked against,
inside its schedule and up to its target (a group that would pass the target is claimed one
response at a time, so the target is met exactly, and the rows of those refused are taken out
again). Each stored response gets the survey's completion code and address as they are in that
transaction (:class:`Receipt`). The group's transaction ends by adding to the tallies and
publishing the survey's snapshot when a batch of new responses is in
(:mod:`web.core.results.publication`).

The claim locks the survey's row until the commit, and every writer of the survey, in this process
or another, waits for it: so the rows are written before the claim, and everything after it is a
fixed handful of statements (the claim, one per tally table, a publication once per batch).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from functools import lru_cache
from typing import NamedTuple

from web.core.infrastructure import sqlite_guard
from web.core.infrastructure.driver_sql import many_rows, placeholder
from web.core.models import Option, PendingResponse, Question, Response, Survey
from web.core.results import publication
from web.core.results.publication import response_key
from web.core.surveys.fielding import completion_link
from web.respondent.plan import Plan

# Each statement costs the writer a release and re-acquisition of the GIL, and under load every
# re-acquisition waits for another request thread's switch interval (up to 5 ms): so a group is
# stored in a fixed handful of statements (multi-row INSERT, one UPDATE … FROM per tally table),
# whatever its size.
ROWS_PER_INSERT = 200
# Each kind of tally: the table its row is in, and its respondents' and reports' columns (the
# second arm of a cheating-detection question is counted on the question's own row).
TALLY_COLUMNS = {
    "question": (Question.__tablename__, "n", "noisy_yes"),
    "option": (Option.__tablename__, "n", "noisy_yes"),
    "arm": (Question.__tablename__, "arm_n", "arm_yes"),
}
TALLY_TABLES = tuple(TALLY_COLUMNS)
_compact_json = json.JSONEncoder(separators=(",", ":")).encode  # one encoder, not one per row


@lru_cache(maxsize=8)
def _sql(paramstyle: str, quote) -> dict[str, str]:
    """The hot path's statements in the driver's own SQL, rendered once per dialect."""
    mark = placeholder(paramstyle)
    survey, response = quote(Survey.__tablename__), quote(Response.__tablename__)
    pending = quote(PendingResponse.__tablename__)
    return {
        "mark": mark,
        "state": f"SELECT id, status, revision, opens_at, closes_at, target_n, response_count "
        f"FROM {survey} WHERE slug = {mark}",
        "claim": f"UPDATE {survey} SET response_count = response_count + {mark} "
        f"WHERE id = {mark} AND status = 'open' AND revision = {mark} "
        f"AND (opens_at IS NULL OR opens_at <= {mark}) AND (closes_at IS NULL OR closes_at > {mark}) "
        f"AND (target_n IS NULL OR response_count + {mark} <= target_n) "
        f"RETURNING completion_code, completion_url, response_count, published_count, results_batch",
        "insert": f"INSERT INTO {pending} (id, survey_id, bits) VALUES ({mark}, {mark}, {mark})",
        "insert_published": f"INSERT INTO {response} (id, survey_id, bits) "
        f"VALUES ({mark}, {mark}, {mark})",
        "count": f"UPDATE {survey} SET response_count = response_count + {mark} WHERE id = {mark}",
        **{
            kind: f"UPDATE {quote(table)} SET {n} = {n} + {mark}, {yes} = {yes} + {mark} WHERE id = {mark}"
            for kind, (table, n, yes) in TALLY_COLUMNS.items()
        },
        **{
            f"{kind}_rows": f"WITH tally (id, n, yes) AS (VALUES {{rows}}) UPDATE {quote(table)} "
            f"SET {n} = {quote(table)}.{n} + tally.n, {yes} = {quote(table)}.{yes} + tally.yes "
            f"FROM tally WHERE {quote(table)}.id = tally.id"
            for kind, (table, n, yes) in TALLY_COLUMNS.items()
        },
        "insert_rows": f"INSERT INTO {pending} (id, survey_id, bits) VALUES {{rows}}",
        "withdraw_rows": f"DELETE FROM {pending} WHERE id IN ({{rows}})",
    }


def statements(engine) -> dict[str, str]:
    """The submission statements for ``engine``'s driver."""
    dialect = engine.dialect
    return _sql(dialect.paramstyle, dialect.identifier_preparer.quote)


class Receipt(NamedTuple):
    """What a stored response's respondent is given: the survey's completion code and address
    (with the code filled in), as they were when it was stored; None where the survey has none."""

    code: str | None
    url: str | None


class _Pending:
    """One submission waiting for the transaction that stores it."""

    __slots__ = ("plan", "bits", "key", "wake", "leads", "receipt", "error")

    def __init__(self, plan: Plan, bits: dict):
        self.plan, self.bits = plan, bits
        self.key = response_key()
        # Released once: when the entry is stored or has failed, or when it is handed the lead.
        self.wake = threading.Lock()
        self.wake.acquire()
        self.leads = False
        self.receipt: Receipt | None = None
        self.error: Exception | None = None


class GroupCommit:
    """Stores submissions for one engine; see the module docstring.

    Leader and followers: the submission that finds no write under way leads, storing everything
    queued; the others sleep on their own lock until their group is stored. A leader hands the
    lead to the oldest entry still queued, so the next group starts at once and no waiter has to
    pass through a shared lock to learn that its response is stored.
    """

    def __init__(self, engine, sql: dict[str, str] | None = None):
        self._engine = engine
        self._sql = sql or statements(engine)
        self._publication = publication.statements(engine)
        self._lock = threading.Lock()
        self._queue: list[_Pending] = []
        self._writing = False
        self._connection = None
        self._connection_lock = threading.Lock()
        # The writer's own connection bypasses the engine event that claims an SQLite file for
        # this process before other writes, so it claims the file itself.
        self._guarded_file = sqlite_guard.guarded_file(engine)

    @property
    def queued(self) -> int:
        """Submissions waiting for the group under way."""
        return len(self._queue)

    @property
    def busy(self) -> bool:
        """Whether a group is being stored."""
        return self._writing

    @property
    def connected(self) -> bool:
        """Whether the writer holds its connection."""
        return self._connection is not None

    def submit(self, plan, bits: dict) -> Receipt | None:
        """Store ``bits`` under ``plan`` (a :class:`web.respondent.plan.Plan`); its receipt,
        or None when it was not stored: the survey is no longer open at the plan's revision, or
        is outside its schedule, or has met its target."""
        entry = _Pending(plan, bits)
        with self._lock:
            self._queue.append(entry)
            entry.leads, self._writing = not self._writing, True
        if not entry.leads:
            entry.wake.acquire()
        if entry.leads:
            self._lead()
        if entry.error is not None:
            raise entry.error
        return entry.receipt

    def _lead(self) -> None:
        with self._lock:
            group, self._queue = self._queue, []
        try:
            with self._connection_lock:
                self._write(group)
        finally:
            with self._lock:
                if self._queue:
                    successor = self._queue[0]
                    successor.leads = True
                    successor.wake.release()
                else:
                    self._writing = False

    def close(self) -> None:
        """Close the writer's connection (the engine is being disposed)."""
        with self._connection_lock:
            self._drop_connection()

    def _write(self, group: list[_Pending]) -> None:
        """Store a group in one transaction: its rows, then per plan a guarded claim, then the
        summed tallies and the publication if due. Wakes every entry, stored or not, or with the
        error that stopped the group."""
        by_plan: dict[Plan, list[_Pending]] = {}
        for entry in group:
            by_plan.setdefault(entry.plan, []).append(entry)
        try:
            connection = self._open()
            cursor = connection.cursor()
            self._insert(cursor, group)
            accepted, refused = [], []
            now = int(time.time())
            receipts, states = {}, {}
            for plan, entries in by_plan.items():
                claimed, state = self._claim(cursor, plan, entries, now)
                accepted.extend(claimed)
                refused.extend(entries[len(claimed) :])
                if claimed:
                    receipts[plan] = receipt(state[0], state[1])
                    states[plan.survey_id] = state[2:]
            self._withdraw(cursor, refused)
            for table, tallies in _summed_tallies(accepted).items():
                if tallies:
                    rows = [value for item, (n, yes) in tallies.items() for value in (item, n, yes)]
                    cursor.execute(self._rows(f"{table}_rows", 3, len(tallies)), rows)
            for survey_id, state in states.items():
                publication.publish_if_due(
                    cursor.execute, self._publication, survey_id, state=state
                )
            connection.commit()
            for entry in accepted:
                entry.receipt = receipts[entry.plan]
        except Exception as error:
            # Every waiting request must learn that its response was not stored.
            for entry in group:
                entry.error = error
            # A connection in an unknown state (a lost server, say) is not reused.
            self._drop_connection()
        finally:
            for entry in group:
                if not entry.leads:
                    entry.wake.release()

    def _claim(self, cursor, plan: Plan, entries: list[_Pending], now: int):
        """The entries the survey takes (the first ones: all at once, or, when that fails, a
        target it would pass say, one at a time until one is refused), and the survey's row as
        the last claim returned it (completion code and address, received, published, batch)."""
        sql = self._sql["claim"]
        cursor.execute(sql, (len(entries), plan.survey_id, plan.revision, now, now, len(entries)))
        state = cursor.fetchone()
        if state is not None:
            return entries, state
        claimed: list[_Pending] = []
        if len(entries) > 1:
            for entry in entries:
                cursor.execute(sql, (1, plan.survey_id, plan.revision, now, now, 1))
                found = cursor.fetchone()
                if found is None:
                    break
                claimed.append(entry)
                state = found
        return claimed, state

    def _insert(self, cursor, entries: list[_Pending]) -> None:
        for start in range(0, len(entries), ROWS_PER_INSERT):
            chunk = entries[start : start + ROWS_PER_INSERT]
            values: list[object] = []
            for entry in chunk:
                values += (entry.key, entry.plan.survey_id, _compact_json(entry.bits))
            cursor.execute(self._rows("insert_rows", 3, len(chunk)), values)

    def _withdraw(self, cursor, refused: list[_Pending]) -> None:
        """Take out the rows of entries no survey took (closed, past its target, another
        revision): written before the claim, they must not stay."""
        for start in range(0, len(refused), ROWS_PER_INSERT):
            chunk = refused[start : start + ROWS_PER_INSERT]
            cursor.execute(
                self._rows("withdraw_rows", 1, len(chunk)), [entry.key for entry in chunk]
            )

    def _rows(self, name: str, width: int, count: int) -> str:
        return many_rows(self._sql[name], self._sql["mark"], width, count)

    def _open(self):
        if self._guarded_file:
            sqlite_guard.claim(self._guarded_file)
        if self._connection is None:
            pooled = self._engine.raw_connection()
            pooled.detach()  # ours until closed: the pool neither resets nor lends it
            self._connection = pooled
        return self._connection.dbapi_connection

    def _drop_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is None:
            return
        # A broken connection cannot roll back; closing it discards the transaction all the same.
        with contextlib.suppress(Exception):
            connection.rollback()
        connection.close()


@lru_cache(maxsize=256)
def receipt(code: str | None, url: str | None) -> Receipt:
    """A survey's receipt, from its stored completion code and address."""
    return Receipt(code, completion_link(url, code))


def _summed_tallies(entries: list[_Pending]) -> dict[str, dict[int, list[int]]]:
    """Reports and yes counts per tally row over a group."""
    tallies: dict[str, dict[int, list[int]]] = {table: {} for table in TALLY_TABLES}
    for entry in entries:
        for tally in entry.plan.tallies:
            counts = tallies[tally.table].setdefault(tally.row_id, [0, 0])
            respondents, yes = tally.count(entry.bits)
            counts[0] += respondents
            counts[1] += yes
    return tallies
