"""Store reported bits and keep the tallies that results are computed from.

A submission is the hot path of a lecture hall answering at once. What a survey expects is kept in
memory per (survey, revision), and the survey's state per slug, so a request reads nothing before
it writes. The write itself (:mod:`web.respondent.writer`) checks that state where it matters, in the guarded
claim that starts its transaction; if the claim matches no row, the kept state was stale (the
survey closed, or what respondents spin changed): nothing is written, and the caller looks again.
So a response is never counted in a closed survey or under parameters other than those it was
checked against.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from sqlalchemy.orm import Session

import rr
from web.core.answers import Shape
from web.core.extensions import db
from web.core.models import Survey
from web.core.questions import QuestionType
from web.respondent.writer import close_writers, statements, writer_for

BULK_CHUNK = 20_000


@dataclass(frozen=True)
class SurveyState:
    id: int
    status: str
    revision: int


@dataclass(frozen=True)
class Tallied:
    """One tally a response feeds: its table and row, and where its bit stands in the answers."""

    table: str  # "question" or "option"
    row_id: int
    question_key: str
    option_key: str | None
    type: QuestionType

    def bit(self, bits: dict) -> int:
        return self.type.bit(bits[self.question_key], self.option_key)


@dataclass(frozen=True)
class Plan:
    """What a submission to one revision of a survey must contain and which tallies it feeds."""

    survey_id: int
    revision: int
    shapes: tuple[Shape, ...]
    tallies: tuple[Tallied, ...]


_states: dict[tuple[object, str], SurveyState] = {}
_states_lock = threading.Lock()


def _statements() -> dict[str, str]:
    return statements(db.engine)


def survey_state(slug: str, fresh: bool = False) -> SurveyState | None:
    """The survey's id, status and revision: kept from an earlier call unless ``fresh``."""
    key = (db.engine, slug)
    if not fresh and key in _states:
        return _states[key]
    with db.engine.connect() as connection:
        row = connection.exec_driver_sql(_statements()["state"], (slug,)).first()
    state = None if row is None else SurveyState(*row)
    with _states_lock:
        if state is None:
            _states.pop(key, None)
        else:
            _states[key] = state
    return state


def submission_plan(state: SurveyState) -> Plan:
    """The plan for a survey's revision, kept per database; assumes that revision is current."""
    return _plan(db.engine, state.id, state.revision)


@lru_cache(maxsize=256)
def _plan(engine, survey_id: int, revision: int) -> Plan:
    # A session of its own, closed at once: a request must not keep a pooled connection while it
    # waits for its turn to write, or a burst on a cold cache would drain the pool.
    with Session(engine) as session:
        survey = session.get_one(Survey, survey_id)
        return Plan(
            survey_id,
            revision,
            tuple(survey.shapes),
            tuple(
                Tallied("question", question.id, question.key, None, question.type)
                if option is None
                else Tallied("option", option.id, question.key, option.key, question.type)
                for question, option in survey.spins()
            ),
        )


def forget_plans() -> None:
    """Drop every kept plan, state and writer (a test that rebuilds its database reuses survey
    ids, and none of them should keep an engine alive)."""
    _plan.cache_clear()
    with _states_lock:
        _states.clear()
    close_writers()


def record_response(plan: Plan, bits: dict) -> bool:
    """Store one checked response and add it to the tallies if the survey is still open at the
    plan's revision; return whether it was stored."""
    return writer_for(db.engine).submit(plan, bits)


def simulate_responses(survey: Survey, n: int, true_proportion: float, seed=None) -> None:
    """Insert ``n`` responses whose bits come from :func:`rr.perturb` on true answers drawn with
    share ``true_proportion``, in chunks, with one tally update at the end."""
    rng = np.random.default_rng(seed)
    spins = _spins(survey)
    template = _bits_template(survey)
    totals = {spin: 0 for spin in spins}
    sql = _statements()
    connection = db.session.connection()
    for start in range(0, n, BULK_CHUNK):
        size = min(BULK_CHUNK, n - start)
        columns = []
        for spin, question in spins.items():
            truth = rng.random(size) < true_proportion
            reported = rr.perturb(truth, question.epsilon, question.procedure, rng=rng)
            totals[spin] += int(reported.sum())
            columns.append(reported)
        rows = np.column_stack(columns).tolist()
        connection.exec_driver_sql(
            sql["insert"], [(survey.id, template % tuple(row)) for row in rows]
        )
    connection.exec_driver_sql(sql["count"], (n, survey.id))
    for table in ("question", "option"):
        counts = [(n, count, item) for (name, item), count in totals.items() if name == table]
        if counts:
            connection.exec_driver_sql(sql[table], counts)
    db.session.commit()
    if db.engine.dialect.name == "sqlite":
        # A bulk insert leaves the whole batch in the WAL; fold it into the database now so that
        # later reads need not search a large log.
        with db.engine.connect() as checkpoint:
            checkpoint.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")


def _spins(survey: Survey) -> dict:
    """Every spin of a response in order: (tally table, row id) → the question it belongs to."""
    return {
        ("question", question.id) if option is None else ("option", option.id): question
        for question, option in survey.spins()
    }


def _bits_template(survey: Survey) -> str:
    """A %-format string that writes one response's bits as the JSON record_response stores."""
    parts = [
        question.type.answer_template(question.key, [option.key for option in question.options])
        for question in survey.questions
    ]
    return "{" + ",".join(parts) + "}"
