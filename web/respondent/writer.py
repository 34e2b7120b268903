"""The writer of submissions: one per database, with a connection of its own and group commit.

Submissions queue up, and the request thread that leads stores everything queued in one
transaction (see :class:`GroupCommit`). A lecture hall submitting at once then costs one commit
per group instead of one per student, and each request still returns only after the commit that
holds its response. The writer keeps one driver connection outside the pool: only the leading
thread uses it, and neither a pool checkout nor a reset on return sits on the hot path.

Each group is one transaction (:mod:`web.respondent.storing`): per survey and revision a guarded
claim, so that responses are stored only while the survey is open at the revision they were
checked against, inside its schedule and up to its target; the rows and the tallies where the
claim held; the publication when a batch of new responses is in. A group that would pass a target
is stored again one response at a time, so the target is met exactly. A response that counts in a
quota is stored in a transaction of its own that first takes a place in each of its quotas
(:func:`web.respondent.storing.claim_quotas`): where one has none left, nothing of it is stored
(:class:`QuotaFull`). Each stored response gets the survey's completion code and address as they
are in that transaction (:class:`Receipt`).
"""

from __future__ import annotations

import contextlib
import threading
import time
from functools import lru_cache
from typing import NamedTuple

from web.core.infrastructure import sqlite_guard
from web.core.models import publication
from web.core.models.publication import response_keys
from web.core.surveys.fielding import completion_link
from web.respondent import storing
from web.respondent.plan import Plan


class Receipt(NamedTuple):
    """What a stored response's respondent is given: the survey's completion code and address
    (with the code filled in), as they were when it was stored; None where the survey has none."""

    code: str | None
    url: str | None


class SubmissionId(NamedTuple):
    """A submission's idempotency key as kept: a keyed hash of the key, and one of the key with
    the reports it came with (:class:`web.core.models.SubmissionKey`)."""

    key_hash: bytes
    reports_hash: bytes


class Resent(NamedTuple):
    """A submission whose key was stored before: the survey's receipt, and whether it came with
    the reports stored then (``same``) or with others."""

    receipt: Receipt
    same: bool


class QuotaFull(NamedTuple):
    """A submission not stored: the quota it would count in has taken all its completes."""

    quota: str


class _Pending:
    """One submission waiting for the transaction that stores it."""

    __slots__ = (
        "plan",
        "bits",
        "id",
        "quotas",
        "wake",
        "leads",
        "receipt",
        "resent",
        "full",
        "error",
    )

    def __init__(
        self,
        plan: Plan,
        bits: dict,
        submission_id: SubmissionId | None,
        quotas: tuple[tuple[str, int], ...],
    ):
        self.plan, self.bits, self.id, self.quotas = plan, bits, submission_id, quotas
        self.resent: Resent | None = None
        self.full: QuotaFull | None = None
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
        self._sql = sql or storing.statements(engine)
        self._publication = publication.statements(engine)
        # PostgreSQL stores a group in one round trip; SQLite, in this process, a step at a time.
        self._pipelined = engine.dialect.name == "postgresql"
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

    def submit(
        self,
        plan,
        bits: dict,
        submission_id: SubmissionId | None = None,
        quotas: tuple[tuple[str, int], ...] = (),
    ) -> Receipt | Resent | QuotaFull | None:
        """Store ``bits`` under ``plan`` (a :class:`web.respondent.plan.Plan`) once per
        ``submission_id``, counting it in ``quotas`` (ids and limits); its receipt, :class:`Resent`
        when that id was stored before, :class:`QuotaFull` when a quota has no place left, or
        None when it was not stored: the survey is no longer open at the plan's revision, or is
        outside its schedule, or has met its target."""
        entry = _Pending(plan, bits, submission_id, quotas)
        with self._lock:
            self._queue.append(entry)
            entry.leads, self._writing = not self._writing, True
        if not entry.leads:
            entry.wake.acquire()
        if entry.leads:
            self._lead()
        if entry.error is not None:
            raise entry.error
        return entry.resent or entry.full or entry.receipt

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
        """Store a group in one transaction. Wakes every entry, stored or not, or with the error
        that stopped the group."""
        firsts, echoes = _first_of_each_id(group)
        by_plan: dict[Plan, list[_Pending]] = {}
        # A response that counts in a quota is stored on its own, each quota claimed with it.
        in_quotas = [entry for entry in firsts if entry.quotas]
        for entry in firsts:
            if not entry.quotas:
                by_plan.setdefault(entry.plan, []).append(entry)
        decided: set[int] = set()  # entries stored or refused, whatever happens next
        try:
            connection = self._open()
            for entry in in_quotas:
                self._store_in_quotas(connection, entry)
                decided.add(id(entry))
            claims = self._store(connection, list(by_plan.items()))
            for plan, entries in by_plan.items():
                new = [entry for entry in entries if entry.resent is None]
                decided.update(id(entry) for entry in entries if entry.resent is not None)
                claimed = claims.get(plan)
                if claimed is not None or len(new) <= 1:
                    for entry in new:
                        entry.receipt = None if claimed is None else receipt(*claimed)
                        decided.add(id(entry))
                    continue
                # Refused as a whole: a target it would pass, say. One at a time up to it, each
                # committed on its own.
                for entry in new:
                    claimed = self._store(connection, [(plan, [entry])]).get(plan)
                    entry.receipt = None if claimed is None else receipt(*claimed)
                    decided.add(id(entry))
                    if claimed is None and entry.resent is None:
                        decided.update(id(other) for other in new)
                        break
            for echo, first in echoes:
                echo.resent = _echo(echo, first)
                decided.add(id(echo))
        except Exception as error:
            # Every request still waiting must learn that its response was not stored.
            for entry in group:
                if id(entry) not in decided:
                    entry.error = error
            # A connection in an unknown state (a lost server, say) is not reused.
            self._drop_connection()
        finally:
            for entry in group:
                if not entry.leads:
                    entry.wake.release()

    def _store(self, connection, work: list[tuple[Plan, list[_Pending]]]) -> dict:
        """Store each plan's entries in one committed transaction, except those whose id was
        stored before (their ``resent`` is set); each plan's claim (completion code and address),
        or None where its survey did not take them. A plan with no new entry has no claim."""
        now = int(time.time())
        self._find_resent(connection, [entry for _, entries in work for entry in entries])
        news = [
            (plan, [entry for entry in entries if entry.resent is None]) for plan, entries in work
        ]
        keys = iter(response_keys(sum(len(new) for _, new in news)))  # one draw for the group
        rows = []
        for plan, new in news:
            if new:
                hashes = [entry.id.key_hash for entry in new if entry.id is not None]
                rows.append(
                    (plan, [next(keys) for _ in new], [entry.bits for entry in new], hashes)
                )
        if self._pipelined:
            claims = storing.store_pipelined(connection, self._sql, self._publication, rows, now)
        else:
            claims = [
                storing.store_stepwise(connection, self._sql, self._publication, *row, now)
                for row in rows
            ]
            connection.commit()
        return {row[0]: claimed for row, claimed in zip(rows, claims, strict=True)}

    def _store_in_quotas(self, connection, entry: _Pending) -> None:
        """Store one response and count it in its quotas, in one committed transaction; where a
        quota is full, store nothing (``full`` says which quota)."""
        self._find_resent(connection, [entry])
        if entry.resent is not None:
            connection.commit()
            return
        full = storing.claim_quotas(connection, self._sql, entry.plan.survey_id, entry.quotas)
        if full is not None:
            connection.rollback()  # the submission's key too: it was not stored
            entry.full = QuotaFull(full)
            return
        hashes = [entry.id.key_hash] if entry.id is not None else []
        claimed = storing.store_stepwise(
            connection, self._sql, self._publication, entry.plan,
            response_keys(1), [entry.bits], hashes, int(time.time()),
        )  # fmt: skip
        if claimed is None:
            connection.rollback()  # the quotas' places too: the survey did not take it
        else:
            connection.commit()
        entry.receipt = None if claimed is None else receipt(*claimed)

    def _find_resent(self, connection, entries: list[_Pending]) -> None:
        """Insert the ids of ``entries`` (in the transaction that will store them) and mark those
        stored before as resent, with the survey's receipt and whether their reports match."""
        keyed = {entry.id: entry for entry in entries if entry.id is not None}
        if not keyed:
            return
        rows = [
            (id_.key_hash, entry.plan.survey_id, id_.reports_hash) for id_, entry in keyed.items()
        ]
        inserted = storing.insert_keys(connection, self._sql, rows, self._pipelined)
        seen = [id_ for id_ in keyed if id_.key_hash not in inserted]
        if not seen:
            return
        hashes = [id_.key_hash for id_ in seen]
        stored = storing.stored_keys(connection, self._sql, hashes, self._pipelined)
        receipts: dict[int, Receipt] = {}
        for id_ in seen:
            entry = keyed[id_]
            survey = entry.plan.survey_id
            if survey not in receipts:
                receipts[survey] = receipt(*storing.survey_receipt(connection, self._sql, survey))
            entry.resent = Resent(receipts[survey], stored.get(id_.key_hash) == id_.reports_hash)

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


def _first_of_each_id(group: list[_Pending]) -> tuple[list[_Pending], list[tuple]]:
    """The entries to store (every entry without an id, and the first with each id), and each
    later entry with an id paired with the first that has it (a resend that came while the first
    was still queued)."""
    firsts: list[_Pending] = []
    echoes: list[tuple[_Pending, _Pending]] = []
    by_id: dict[bytes, _Pending] = {}
    for entry in group:
        if entry.id is None:
            firsts.append(entry)
        elif entry.id.key_hash in by_id:
            echoes.append((entry, by_id[entry.id.key_hash]))
        else:
            by_id[entry.id.key_hash] = entry
            firsts.append(entry)
    return firsts, echoes


def _echo(echo: _Pending, first: _Pending) -> Resent | None:
    """What a resend answers that came in the group of the first send of its id: as the first
    did (None where the survey did not take it)."""
    if first.resent is not None:
        same = first.resent.same and echo.id == first.id
        return Resent(first.resent.receipt, same)
    if first.receipt is None:
        return None
    return Resent(first.receipt, echo.id == first.id)
