"""How the writer stores one group of submissions: its SQL, stepwise or in one round trip.

Per survey and revision the group makes a guarded claim,

    UPDATE survey SET response_count = response_count + k
    WHERE id = ? AND status = 'open' AND revision = ?
      AND (opens_at IS NULL OR opens_at <= now) AND (closes_at IS NULL OR closes_at > now)
      AND (target_n IS NULL OR response_count + k <= target_n)
    RETURNING completion_code, completion_url, response_count, published_count, results_batch

(a response that counts in a quota is stored alone, after taking a place in each of its quotas
with an upsert whose update holds only below the quota's limit: ``claim_quotas``), and only where
it matched does it write its rows (into ``pending_response``, with their random
keys) and add to the tallies: per question, per option, per cell of direct answers. Then the
survey's snapshot is published if the counts the claim returned say a batch of new responses is
in (:mod:`web.core.models.publication`), and the transaction commits.

The claim locks the survey's row until the commit, and every writer of the survey, in this process
or on another host, waits for it. So on PostgreSQL the whole group is sent in one round trip
(psycopg's pipeline): one statement per survey and revision that claims, writes and counts
(conditions on the claim inside it), one that publishes if due, and the commit. The lock is then
held only while the server runs them back to back, never while this process waits for its turn
at the interpreter. SQLite, whose one writer is this process, runs them one at a time.
"""

from __future__ import annotations

import json
from functools import lru_cache

from web.core.infrastructure.driver_sql import many_rows, placeholder
from web.core.models import (
    FieldworkCount,
    GroupTally,
    Option,
    PendingResponse,
    Question,
    Response,
    SubmissionKey,
    Survey,
    publication,
)
from web.core.results.cells import cell_counts
from web.core.surveys.schedule import ACCEPTING_SQL
from web.respondent.plan import Plan

# A group of more than this many responses is written in several INSERTs (SQLite's limit on
# parameters; a group is as large as the requests that queued meanwhile).
ROWS_PER_INSERT = 200
# Each kind of tally: the table its row is in, and its respondents' and reports' columns (the
# second arm of a cheating-detection question is counted on the question's own row).
TALLY_COLUMNS = {
    "question": (Question.__tablename__, "n", "noisy_yes"),
    "option": (Option.__tablename__, "n", "noisy_yes"),
    "arm": (Question.__tablename__, "arm_n", "arm_yes"),
}
TALLY_TABLES = tuple(TALLY_COLUMNS)
# The parameters of one row of each part of a group: a question's sums, an option's, a cell's.
WIDTHS = {"questions": 5, "options": 3, "cells": 6}
_compact_json = json.JSONEncoder(separators=(",", ":")).encode  # one encoder, not one per row


@lru_cache(maxsize=8)
def _sql(paramstyle: str, quote) -> dict[str, str]:
    """The statements in the driver's own SQL, rendered once per dialect; ``{rows}`` stands for
    as many rows of parameters as a group has."""
    mark = placeholder(paramstyle)
    survey, response = quote(Survey.__tablename__), quote(Response.__tablename__)
    pending, group = quote(PendingResponse.__tablename__), quote(GroupTally.__tablename__)
    question, option = quote(Question.__tablename__), quote(Option.__tablename__)
    question_sums = (
        f"SET n = {question}.n + tally.n, noisy_yes = {question}.noisy_yes + tally.yes, "
        f"arm_n = {question}.arm_n + tally.arm_n, arm_yes = {question}.arm_yes + tally.arm_yes "
        f"FROM {{tally}} WHERE {question}.id = tally.id"
    )
    option_sums = (
        f"SET n = {option}.n + tally.n, noisy_yes = {option}.noisy_yes + tally.yes "
        f"FROM {{tally}} WHERE {option}.id = tally.id"
    )
    cells = (
        f"INSERT INTO {group} (survey_id, item_kind, item_id, cell, n, noisy_yes, published_n, "
        f"published_yes) SELECT survey_id, item_kind, item_id, cell, n, yes, 0, 0 FROM {{cells}} "
        # SQLite needs a WHERE before an upsert's ON CONFLICT to tell them apart.
        f"WHERE true ON CONFLICT (item_kind, item_id, cell) DO UPDATE SET n = {group}.n + excluded.n, "
        f"noisy_yes = {group}.noisy_yes + excluded.noisy_yes"
    )
    claim = (
        f"UPDATE {survey} SET response_count = response_count + {mark} "
        f"WHERE id = {mark} AND status = 'open' AND revision = {mark} "
        f"AND {ACCEPTING_SQL.format(now=mark, k=mark)} "
        # The counts after the claim, which say whether the group's transaction publishes.
        f"RETURNING completion_code, completion_url, response_count, published_count, "
        f"results_batch"
    )
    claimed = "EXISTS (SELECT FROM claimed)"
    keys = quote(SubmissionKey.__tablename__)
    counts = quote(FieldworkCount.__tablename__)
    new_keys = f"INSERT INTO {keys} (key_hash, survey_id, reports_hash) "
    return {
        "mark": mark,
        # A submission's key goes in first: where it is already there, the submission was
        # stored before (or is being stored by another writer, whose commit this one awaits).
        "keys": new_keys + "VALUES {rows} ON CONFLICT (key_hash) DO NOTHING RETURNING key_hash",
        "stored_keys": f"SELECT key_hash, reports_hash FROM {keys} WHERE key_hash IN ({{rows}})",
        "release_keys": f"DELETE FROM {keys} WHERE key_hash IN ({{rows}})",
        "keys_array": new_keys + f"SELECT key_hash, survey_id, reports_hash FROM unnest("
        f"{mark}::bytea[], {mark}::int[], {mark}::bytea[]) AS new_keys (key_hash, survey_id, "
        "reports_hash) ORDER BY key_hash ON CONFLICT (key_hash) DO NOTHING RETURNING key_hash",
        "stored_keys_array": f"SELECT key_hash, reports_hash FROM {keys} "
        f"WHERE key_hash = ANY({mark}::bytea[])",
        # A place in a quota, taken only while one is left: the row's lock (PostgreSQL) or the
        # database's (SQLite) holds every other writer of it until this transaction ends.
        "quota": f"INSERT INTO {counts} (survey_id, kind, {quote('key')}, count, quota_limit) "
        f"VALUES ({mark}, '{FieldworkCount.QUOTA}', {mark}, 1, {mark}) "
        f"ON CONFLICT (survey_id, kind, {quote('key')}) DO UPDATE SET count = {counts}.count + 1 "
        f"WHERE {counts}.count < {counts}.quota_limit RETURNING count",
        "ending": f"INSERT INTO {counts} (survey_id, kind, {quote('key')}, count) "
        f"VALUES ({mark}, {mark}, {mark}, 1) ON CONFLICT (survey_id, kind, {quote('key')}) "
        f"DO UPDATE SET count = {counts}.count + 1",
        "receipt": f"SELECT completion_code, completion_url FROM {survey} WHERE id = {mark}",
        "state": f"SELECT id, status, revision, opens_at, closes_at, target_n, response_count "
        f"FROM {survey} WHERE slug = {mark}",
        "claim": claim,
        "insert": f"INSERT INTO {pending} (id, survey_id, bits) VALUES ({mark}, {mark}, {mark})",
        "insert_published": f"INSERT INTO {response} (id, survey_id, bits) "
        f"VALUES ({mark}, {mark}, {mark})",
        "insert_rows": f"INSERT INTO {pending} (id, survey_id, bits) VALUES {{rows}}",
        "count": f"UPDATE {survey} SET response_count = response_count + {mark} WHERE id = {mark}",
        # The bulk simulation's updates, a tally at a time.
        **{
            kind: f"UPDATE {quote(table)} SET {n} = {n} + {mark}, {yes} = {yes} + {mark} WHERE id = {mark}"
            for kind, (table, n, yes) in TALLY_COLUMNS.items()
        },
        # SQLite names the columns of VALUES in a WITH (it takes no column list after AS).
        "questions": "WITH tally (id, n, yes, arm_n, arm_yes) AS (VALUES {rows}) "
        f"UPDATE {question} " + question_sums.format(tally="tally"),
        "options": "WITH tally (id, n, yes) AS (VALUES {rows}) "
        f"UPDATE {option} " + option_sums.format(tally="tally"),
        "cells": "WITH cell_counts (survey_id, item_kind, item_id, cell, n, yes) AS "
        "(VALUES {rows}) " + cells.format(cells="cell_counts"),
        # PostgreSQL: one statement claims, writes and counts, each part only if the claim held.
        # Its parts take arrays, so that its text is the same for every group: prepared once per
        # connection and planned once, however many rows a group has.
        "group": f"WITH claimed AS ({claim}), "
        f"stored AS (INSERT INTO {pending} (id, survey_id, bits) "
        f"SELECT id, {mark}, bits FROM unnest({mark}::bigint[], {mark}::text[]) "
        f"AS new_rows (id, bits) WHERE {claimed}), "
        f"questions AS (UPDATE {question} "
        + question_sums.format(
            tally=f"unnest({mark}::int[], {mark}::int[], {mark}::int[], {mark}::int[], "
            f"{mark}::int[]) AS tally (id, n, yes, arm_n, arm_yes)"
        )
        + f" AND {claimed}), options AS (UPDATE {option} "
        + option_sums.format(
            tally=f"unnest({mark}::int[], {mark}::int[], {mark}::int[]) AS tally (id, n, yes)"
        )
        + f" AND {claimed}), cells AS ("
        + cells.format(
            cells=f"unnest({mark}::int[], {mark}::text[], {mark}::int[], {mark}::text[], "
            f"{mark}::int[], {mark}::int[]) AS cell_counts (survey_id, item_kind, item_id, cell, "
            "n, yes)"
        ).replace("WHERE true", f"WHERE {claimed}")
        # The keys of submissions the survey did not take go again: they were not stored.
        + f"), released AS (DELETE FROM {keys} WHERE key_hash = ANY({mark}::bytea[]) "
        f"AND NOT {claimed}) SELECT completion_code, completion_url FROM claimed",
    }


def statements(engine) -> dict[str, str]:
    """The submission statements for ``engine``'s driver."""
    dialect = engine.dialect
    return _sql(dialect.paramstyle, dialect.identifier_preparer.quote)


class Counts:
    """What a group of responses to one survey adds: per question (n, yes, arm n, arm yes), per
    option (n, yes), and per cell of direct answers (survey, kind, item, cell) → (n, yes)."""

    def __init__(self, plan: Plan, answers: list[dict]):
        self.questions: dict[int, list[int]] = {}
        self.options: dict[int, list[int]] = {}
        self.cells: dict[tuple[str, int, str], list[int]] = {}
        for bits in answers:
            for tally in plan.tallies:
                respondents, yes = tally.count(bits)
                if tally.table == "option":
                    counts = self.options.setdefault(tally.row_id, [0, 0])
                    counts[0] += respondents
                    counts[1] += yes
                else:
                    counts = self.questions.setdefault(tally.row_id, [0, 0, 0, 0])
                    at = 2 if tally.table == "arm" else 0
                    counts[at] += respondents
                    counts[at + 1] += yes
        if plan.direct:
            randomized = [tally for tally in plan.tallies if tally.question_key not in plan.direct]
            self.cells = cell_counts(answers, list(plan.direct), randomized)

    def question_values(self) -> list:
        return [value for row, counts in self.questions.items() for value in (row, *counts)]

    def option_values(self) -> list:
        return [value for row, counts in self.options.items() for value in (row, *counts)]

    def cell_values(self, survey_id: int) -> list:
        return [
            value
            for (kind, item, cell), (n, yes) in self.cells.items()
            for value in (survey_id, kind, item, cell, n, yes)
        ]


def claim_parameters(plan: Plan, count: int, now: int) -> tuple:
    return (count, plan.survey_id, plan.revision, now, now, count)


def row_values(plan: Plan, keys: list[int], answers: list[dict]) -> list:
    return [
        value
        for key, bits in zip(keys, answers, strict=True)
        for value in (key, plan.survey_id, _compact_json(bits))
    ]


def store_stepwise(connection, sql, published_sql, plan: Plan, keys, answers, key_hashes, now):
    """Store one plan's responses statement by statement (SQLite); the claim's row (completion
    code and address), or None when the survey did not take them (their submission keys,
    ``key_hashes``, are then removed). Commits nothing."""
    cursor = connection.cursor()
    cursor.execute(sql["claim"], claim_parameters(plan, len(answers), now))
    row = cursor.fetchone()
    if row is None:
        for chunk in _chunks(key_hashes):
            cursor.execute(many_rows(sql["release_keys"], sql["mark"], 1, len(chunk)), chunk)
        return None
    for start in range(0, len(answers), ROWS_PER_INSERT):
        values = row_values(
            plan, keys[start : start + ROWS_PER_INSERT], answers[start : start + ROWS_PER_INSERT]
        )
        cursor.execute(many_rows(sql["insert_rows"], sql["mark"], 3, len(values) // 3), values)
    counts = Counts(plan, answers)
    for name, values in (
        ("questions", counts.question_values()),
        ("options", counts.option_values()),
        ("cells", counts.cell_values(plan.survey_id)),
    ):
        if values:
            width = WIDTHS[name]
            cursor.execute(many_rows(sql[name], sql["mark"], width, len(values) // width), values)
    claimed, counts_after = row[:2], row[2:]
    if publication.is_due(*counts_after):
        publication.publish(cursor.execute, published_sql, plan.survey_id)
    return claimed


def store_pipelined(connection, sql, published_sql, work, now) -> list:
    """Store each (plan, keys, answers, key hashes) of ``work`` in one transaction sent in one
    round trip (PostgreSQL), and commit; each plan's claim row, or None where the survey did not
    take it (its submission keys are then removed)."""
    cursors = []
    with connection.pipeline():
        for plan, keys, answers, key_hashes in work:
            counts = Counts(plan, answers)
            parameters = [
                *claim_parameters(plan, len(answers), now),
                plan.survey_id,
                keys,
                [_compact_json(bits) for bits in answers],
                *_columns(counts.question_values(), WIDTHS["questions"]),
                *_columns(counts.option_values(), WIDTHS["options"]),
                *_columns(counts.cell_values(plan.survey_id), WIDTHS["cells"]),
                key_hashes,
            ]
            cursors.append(connection.execute(sql["group"], parameters))
        for survey_id in {plan.survey_id for plan, *_ in work}:
            connection.execute(published_sql["if_due"], (survey_id,) * 5)
        connection.commit()
    return [cursor.fetchone() for cursor in cursors]


def _columns(values: list, width: int) -> list[list]:
    """Row-major values as ``width`` columns, each one array parameter."""
    return [values[column::width] for column in range(width)]


def insert_keys(
    connection, sql, rows: list[tuple[bytes, int, bytes]], pipelined: bool
) -> set[bytes]:
    """Insert the (key hash, survey id, reports hash) of submissions about to be stored, in the
    transaction that stores them; the key hashes inserted. A hash left out was there already:
    its submission was stored before, or by a writer whose commit this insert waited for. Every
    writer inserts in hash order, so two writers never wait on each other's keys."""
    rows = sorted(rows)
    cursor = connection.cursor()
    if pipelined:
        cursor.execute(sql["keys_array"], [list(column) for column in zip(*rows, strict=True)])
        return {bytes(row[0]) for row in cursor.fetchall()}
    inserted: set[bytes] = set()
    for chunk in _chunks(rows):
        values = [value for row in chunk for value in row]
        cursor.execute(many_rows(sql["keys"], sql["mark"], 3, len(chunk)), values)
        inserted.update(bytes(row[0]) for row in cursor.fetchall())
    return inserted


def stored_keys(connection, sql, key_hashes: list[bytes], pipelined: bool) -> dict[bytes, bytes]:
    """The reports hash stored with each of ``key_hashes`` (all of them stored before)."""
    cursor = connection.cursor()
    if pipelined:
        cursor.execute(sql["stored_keys_array"], (key_hashes,))
        return {bytes(key): bytes(reports) for key, reports in cursor.fetchall()}
    found: dict[bytes, bytes] = {}
    for chunk in _chunks(key_hashes):
        cursor.execute(many_rows(sql["stored_keys"], sql["mark"], 1, len(chunk)), chunk)
        found.update((bytes(key), bytes(reports)) for key, reports in cursor.fetchall())
    return found


def claim_quotas(
    connection, sql, survey_id: int, quotas: tuple[tuple[str, int], ...]
) -> str | None:
    """Take a place in each of ``quotas`` (id, limit), in id order so that two writers never
    wait on each other; the id of the first quota with no place left (the caller rolls back), or
    None when every place was taken. The limit that counts is the row's (the survey's quotas
    write it); ``limit`` only starts a row that is not there yet."""
    cursor = connection.cursor()
    for key, limit in sorted(quotas):
        cursor.execute(sql["quota"], (survey_id, key, limit))
        if cursor.fetchone() is None:
            return key
    return None


def count_ending(connection, sql, survey_id: int, kind: str, key: str) -> None:
    """Add one to the respondents whose survey ended early: screened out at a page, or turned
    away by a full quota (``kind``, and the page's or quota's id)."""
    connection.cursor().execute(sql["ending"], (survey_id, kind, key))


def survey_receipt(connection, sql, survey_id: int) -> tuple:
    """The survey's completion code and address as they are now."""
    cursor = connection.cursor()
    cursor.execute(sql["receipt"], (survey_id,))
    return cursor.fetchone() or (None, None)


def _chunks(items: list) -> list[list]:
    """``items`` in runs of at most ``ROWS_PER_INSERT``: one statement's worth each."""
    return [
        items[start : start + ROWS_PER_INSERT] for start in range(0, len(items), ROWS_PER_INSERT)
    ]
