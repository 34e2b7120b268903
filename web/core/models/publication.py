"""Published snapshots: results move in batches, and storage keeps no submission order.

Every output (dashboard, projector, API, CSVs, codebook, command line) shows a survey's published
snapshot, never the running tallies. The snapshot moves only once at least ``results_batch`` new
responses are stored (then it takes them all), and when the survey closes: a change between two
publications covers several responses, so no single one can be read off it.

Nothing stored orders responses in time either, at a cost that does not grow with the survey. A
response is written with a random key into ``pending_response``; the publication that takes it
moves its whole batch into ``response`` in one statement, in key order. A table's physical order
(SQLite keeps a survey's rows in key order; PostgreSQL's heap is filled in the order rows are
written) then says at most which batch a response was published in, which the published snapshots
say anyway. Each response is written twice, never more: once when it is stored and once when it
is published.

The publication runs in a transaction that has already updated the survey's row (the writer's
claim, a close, the bulk simulation), so it holds that row's lock. Every transaction that stores
a response for the survey claims it on that row before it commits (:mod:`web.respondent.writer`),
so none can commit one, or publish, until this one ends: the rows moved are exactly those the
survey's counts hold.

The statements run on whatever executes SQL: the writer's own driver cursor, or a SQLAlchemy
connection's ``exec_driver_sql``.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from web.core.infrastructure.driver_sql import placeholder
from web.core.infrastructure.extensions import db
from web.core.models.questions import Option, Question
from web.core.models.responses import PendingResponse, Response
from web.core.models.surveys import Survey
from web.core.models.tallies import GroupTally

Execute = Callable[..., Any]  # (sql, parameters) -> a cursor or a result with fetchone()


def response_keys(count: int) -> list[int]:
    """``count`` random keys in [1, 2^63), from one draw of the system's generator: a key says
    nothing about when its response came in. One draw for a whole group, because each draw lets
    go of the interpreter lock, and in a busy server every letting go is a thread switch."""
    drawn = secrets.token_bytes(8 * count)
    return [
        (int.from_bytes(drawn[start : start + 8], "big") >> 1) or 1
        for start in range(0, 8 * count, 8)
    ]


@lru_cache(maxsize=8)
def _sql(paramstyle: str, quote, dialect: str) -> dict:
    mark = placeholder(paramstyle)
    survey, question = quote(Survey.__tablename__), quote(Question.__tablename__)
    option, response = quote(Option.__tablename__), quote(Response.__tablename__)
    pending, group = quote(PendingResponse.__tablename__), quote(GroupTally.__tablename__)
    of_survey = f"question_id IN (SELECT id FROM {question} WHERE survey_id = {mark})"
    # A tally's counts change only with its n, so rows whose n stood still are not written again.
    copies = {
        "questions": f"UPDATE {question} SET published_n = n, published_yes = noisy_yes, "
        f"published_arm_n = arm_n, published_arm_yes = arm_yes "
        f"WHERE survey_id = {mark} AND published_n <> n",
        "options": f"UPDATE {option} SET published_n = n, published_yes = noisy_yes "
        f"WHERE {of_survey} AND published_n <> n",
        "groups": f"UPDATE {group} SET published_n = n, published_yes = noisy_yes "
        f"WHERE survey_id = {mark} AND published_n <> n",
    }
    return {
        "state": f"SELECT response_count, published_count, results_batch FROM {survey} "
        f"WHERE id = {mark}",
        "survey": f"UPDATE {survey} SET published_count = response_count, "
        f"publication = publication + 1 WHERE id = {mark}",
        **copies,
        # The batch moves in key order. PostgreSQL does it in one statement; SQLite, which cannot
        # take rows out in a WITH, in two, which only its one writer runs.
        "move": (
            f"WITH moved AS (DELETE FROM {pending} WHERE survey_id = {mark} "
            f"RETURNING id, survey_id, bits) INSERT INTO {response} (id, survey_id, bits) "
            f"SELECT id, survey_id, bits FROM moved ORDER BY id",
        )
        if dialect == "postgresql"
        else (
            f"INSERT INTO {response} (id, survey_id, bits) "
            f"SELECT id, survey_id, bits FROM {pending} WHERE survey_id = {mark} ORDER BY id",
            f"DELETE FROM {pending} WHERE survey_id = {mark}",
        ),
        # PostgreSQL's whole publication in one statement, for the writer's pipeline: it moves
        # only if a batch is in and the survey's row was updated by this very transaction (its
        # claim), so that the row's lock was held before this statement's snapshot was taken and
        # every response committed for the survey is in it.
        "if_due": f"WITH published AS (UPDATE {survey} SET published_count = response_count, "
        f"publication = publication + 1 WHERE id = {mark} "
        f"AND response_count - published_count >= results_batch "
        f"AND xmin = pg_current_xact_id()::xid RETURNING id), "
        f"questions AS ({copies['questions']} AND EXISTS (SELECT FROM published)), "
        f"options AS ({copies['options']} AND EXISTS (SELECT FROM published)), "
        f"groups AS ({copies['groups']} AND EXISTS (SELECT FROM published)), "
        f"moved AS (DELETE FROM {pending} WHERE survey_id = {mark} "
        f"AND EXISTS (SELECT FROM published) RETURNING id, survey_id, bits) "
        f"INSERT INTO {response} (id, survey_id, bits) "
        f"SELECT id, survey_id, bits FROM moved ORDER BY id",
    }


def statements(engine) -> dict:
    """The publication statements in ``engine``'s driver's SQL."""
    dialect = engine.dialect
    return _sql(dialect.paramstyle, dialect.identifier_preparer.quote, dialect.name)


def publish_if_due(execute: Execute, sql: dict, survey_id: int, *, all_in=False) -> bool:
    """Publish the survey's snapshot if a batch of new responses is in (any new response with
    ``all_in``, when the survey closes); whether it moved. Runs in the caller's transaction,
    which has updated the survey's row (see the module docstring)."""
    received, published, batch = execute(sql["state"], (survey_id,)).fetchone()
    if not is_due(received, published, batch, all_in=all_in):
        return False
    publish(execute, sql, survey_id)
    return True


def is_due(received: int, published: int, batch: int, *, all_in=False) -> bool:
    """Whether a survey with these counts and batch publishes (with ``all_in``, any new
    response does)."""
    return received - published >= (1 if all_in else batch)


def publish(execute: Execute, sql: dict, survey_id: int) -> None:
    """Publish the survey's snapshot now, in the caller's transaction, which has read the counts
    that made it due after updating the survey's row (see the module docstring)."""
    for statement in (sql["survey"], sql["questions"], sql["options"], sql["groups"], *sql["move"]):
        execute(statement, (survey_id,))


def publish_in_session(survey_id: int, *, all_in=False) -> bool:
    """:func:`publish_if_due` in the ORM session's transaction (the bulk simulation, closing a
    survey); the session's loaded objects are expired when the snapshot moved."""
    connection = db.session.connection()
    moved = publish_if_due(
        connection.exec_driver_sql, statements(db.engine), survey_id, all_in=all_in
    )
    if moved:
        db.session.expire_all()  # the snapshot's counts changed under the loaded objects
    return moved
