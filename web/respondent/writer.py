"""The writer of submissions: one per database, with a connection of its own and group commit.

Submissions queue up, and the request thread that leads stores everything queued in one
transaction (see :class:`GroupCommit`). A lecture hall submitting at once then costs one commit
per group instead of one per student, and each request still returns only after the commit that
holds its response. The writer keeps one driver connection outside the pool: only the leading
thread uses it, and neither a pool checkout nor a reset on return sits on the hot path.

Each group's transaction starts with a guarded claim per survey and revision:

    UPDATE survey SET response_count = response_count + k
    WHERE id = ? AND status = 'open' AND revision = ?
      AND (opens_at IS NULL OR opens_at <= now) AND (closes_at IS NULL OR closes_at > now)
      AND (target_n IS NULL OR response_count + k <= target_n)

so responses are stored only while the survey is open at the revision they were checked against,
inside its schedule and up to its target (a group that would pass the target is claimed one
response at a time, so the target is met exactly). Each stored response gets the survey's
completion code and address as they are in that transaction (:class:`Receipt`).
Each response gets a random key, and the group's transaction ends by publishing the survey's
snapshot when a batch of new responses is in (:mod:`web.core.results.publication`).
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from functools import lru_cache
from typing import NamedTuple

from web.core.infrastructure import sqlite_guard
from web.core.models import Option, Question, Response, Survey
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
    mark = "?" if paramstyle == "qmark" else "%s"
    survey, response = quote(Survey.__tablename__), quote(Response.__tablename__)
    return {
        "mark": mark,
        "state": f"SELECT id, status, revision, opens_at, closes_at, target_n, response_count "
        f"FROM {survey} WHERE slug = {mark}",
        "claim": f"UPDATE {survey} SET response_count = response_count + {mark} "
        f"WHERE id = {mark} AND status = 'open' AND revision = {mark} "
        f"AND (opens_at IS NULL OR opens_at <= {mark}) AND (closes_at IS NULL OR closes_at > {mark}) "
        f"AND (target_n IS NULL OR response_count + {mark} <= target_n)",
        "completion": f"SELECT completion_code, completion_url FROM {survey} WHERE id = {mark}",
        "insert": f"INSERT INTO {response} (id, survey_id, bits, published) "
        f"VALUES ({mark}, {mark}, {mark}, {mark})",
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
        "insert_rows": f"INSERT INTO {response} (id, survey_id, bits, published) VALUES {{rows}}",
    }


def statements(engine) -> dict[str, str]:
    """The submission statements for ``engine``'s driver."""
    dialect = engine.dialect
    return _sql(dialect.paramstyle, dialect.identifier_preparer.quote)


@lru_cache(maxsize=256)
def _many(template: str, mark: str, width: int, count: int) -> str:
    """``template`` with ``count`` rows of ``width`` parameters: one statement for many rows."""
    row = "(" + ", ".join([mark] * width) + ")"
    return template.format(rows=", ".join([row] * count))


class Receipt(NamedTuple):
    """What a stored response's respondent is given: the survey's completion code and address
    (with the code filled in), as they were when it was stored; None where the survey has none."""

    code: str | None
    url: str | None


class _Pending:
    """One submission waiting for the transaction that stores it."""

    __slots__ = ("plan", "bits", "wake", "leads", "receipt", "error")

    def __init__(self, plan: Plan, bits: dict):
        self.plan, self.bits = plan, bits
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
        """Store a group in one transaction: per plan a guarded claim, then the rows and the summed
        tallies. Wakes every entry, stored or not, or with the error that stopped the group."""
        by_plan: dict[Plan, list[_Pending]] = {}
        for entry in group:
            by_plan.setdefault(entry.plan, []).append(entry)
        try:
            connection = self._open()
            cursor = connection.cursor()
            accepted = []
            now = int(time.time())
            receipts = {}
            for plan, entries in by_plan.items():
                claimed = self._claim(cursor, plan, entries, now)
                if claimed:
                    accepted.extend(claimed)
                    cursor.execute(self._sql["completion"], (plan.survey_id,))
                    receipts[plan] = receipt(*cursor.fetchone())
            if accepted:
                self._insert(cursor, accepted)
                for table, tallies in _summed_tallies(accepted).items():
                    if tallies:
                        rows = [
                            value for item, (n, yes) in tallies.items() for value in (item, n, yes)
                        ]
                        cursor.execute(self._rows(f"{table}_rows", 3, len(tallies)), rows)
                for survey_id in {entry.plan.survey_id for entry in accepted}:
                    publication.publish_if_due(cursor.execute, self._publication, survey_id)
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

    def _claim(self, cursor, plan: Plan, entries: list[_Pending], now: int) -> list[_Pending]:
        """The entries the survey takes: all at once, or, when that fails (a target it would
        pass, say), one at a time until one is refused."""
        sql = self._sql["claim"]
        cursor.execute(sql, (len(entries), plan.survey_id, plan.revision, now, now, len(entries)))
        if cursor.rowcount == 1:
            return entries
        claimed: list[_Pending] = []
        if len(entries) > 1:
            for entry in entries:
                cursor.execute(sql, (1, plan.survey_id, plan.revision, now, now, 1))
                if cursor.rowcount != 1:
                    break
                claimed.append(entry)
        return claimed

    def _insert(self, cursor, accepted: list[_Pending]) -> None:
        for start in range(0, len(accepted), ROWS_PER_INSERT):
            chunk = accepted[start : start + ROWS_PER_INSERT]
            values: list[object] = []
            for entry in chunk:
                values += (response_key(), entry.plan.survey_id, _compact_json(entry.bits), False)
            cursor.execute(self._rows("insert_rows", 4, len(chunk)), values)

    def _rows(self, name: str, width: int, count: int) -> str:
        return _many(self._sql[name], self._sql["mark"], width, count)

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
