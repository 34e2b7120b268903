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

import hashlib
import hmac
import json
import threading

from flask import Flask, current_app
from sqlalchemy import event
from sqlalchemy.orm import Session

from web.core.infrastructure.extensions import db
from web.core.models import Survey
from web.core.results.cells import direct_questions
from web.core.surveys.answers import Checked
from web.core.surveys.flow.quotas import stored_quotas
from web.core.surveys.flow.walk import survey_flow
from web.core.surveys.questions import Tallied
from web.respondent import storing
from web.respondent.plan import Plan, SurveyState
from web.respondent.storing import statements
from web.respondent.writer import GroupCommit, QuotaFull, Receipt, Resent, SubmissionId, receipt

_canonical_json = json.JSONEncoder(separators=(",", ":"), sort_keys=True).encode


class Submissions:
    """The submission path of one app, made by the app factory and kept in ``app.extensions``:
    the survey states and plans it keeps, and the writer (group commit) that stores responses.
    Nothing of it lives at module level, so each app (each test) has its own."""

    MAX_PLANS = 256  # kept (survey, revision) plans; past it the oldest half is dropped

    def __init__(self, engine):
        self.engine = engine
        self.statements = statements(engine)
        self.writer = GroupCommit(engine)
        self._states: dict[str, SurveyState] = {}
        self._plans: dict[tuple[int, int], Plan] = {}
        self._lock = threading.Lock()

    def state(self, slug: str, fresh: bool = False) -> SurveyState | None:
        """The survey's id, status and revision: kept from an earlier call unless ``fresh``."""
        if not fresh and slug in self._states:
            return self._states[slug]
        with self.engine.connect() as connection:
            row = connection.exec_driver_sql(self.statements["state"], (slug,)).first()
        state = None if row is None else SurveyState(*row)
        with self._lock:
            if state is None:
                self._states.pop(slug, None)
            else:
                self._states[slug] = state
        return state

    def plan(self, state: SurveyState) -> Plan:
        """What a submission to the survey's current revision must hold; kept per revision."""
        key = (state.id, state.revision)
        plan = self._plans.get(key)
        if plan is None:
            plan = self._read_plan(*key)
            with self._lock:
                if len(self._plans) >= self.MAX_PLANS:
                    for old in list(self._plans)[: self.MAX_PLANS // 2]:
                        del self._plans[old]
                self._plans[key] = plan
        return plan

    def record(
        self, plan: Plan, checked: Checked, submission_id: SubmissionId | None = None
    ) -> Receipt | Resent | QuotaFull | None:
        """Store one checked response and add it to the tallies if the survey still takes it at
        the plan's revision (open, inside its schedule, short of its target), every quota it
        counts in has a place, and its id was not stored before; its receipt, :class:`Resent`
        for an id stored before, :class:`QuotaFull`, or None when it was not stored."""
        return self.writer.submit(plan, checked.bits, submission_id, checked.quotas)

    def submission_id(self, plan: Plan, key: str, bits: dict) -> SubmissionId:
        """The kept form of a submission's key: HMAC-SHA-256 under the app's secret of the
        survey and key, and of those with the reports (in a canonical JSON): 128 bits of each."""
        return kept_key(plan.survey_id, key, bits)

    def store_ending(self, survey_id: int, kind: str, where: str, key: str) -> bool:
        """Count a respondent whose survey ended early (screened out at page ``where``, or
        turned away by the full quota ``where``: ``kind``) once per submission key, kept as a
        submission's is, so that the key can never send a response after; whether it counted."""
        kept = kept_key(survey_id, key, {kind: where})
        connection = self.engine.raw_connection()
        try:
            sql = self.statements
            rows = [(kept.key_hash, survey_id, kept.reports_hash)]
            counted = bool(storing.insert_keys(connection, sql, rows, False))
            if counted:
                storing.count_ending(connection, sql, survey_id, kind, where)
            connection.commit()
        finally:
            connection.close()
        return counted

    def stored_before(self, plan: Plan, submission_id: SubmissionId) -> Resent | None:
        """What a submission with this id was answered when it was stored, if it was."""
        connection = self.engine.raw_connection()
        try:
            sql = self.statements
            found = storing.stored_keys(connection, sql, [submission_id.key_hash], False)
            if submission_id.key_hash not in found:
                return None
            claimed = storing.survey_receipt(connection, sql, plan.survey_id)
        finally:
            connection.close()
        same = found[submission_id.key_hash] == submission_id.reports_hash
        return Resent(receipt(*claimed), same)

    def close(self) -> None:
        """Let go of the writer's connection (the engine is being disposed)."""
        self.writer.close()

    def _read_plan(self, survey_id: int, revision: int) -> Plan:
        # A session of its own, closed at once: a request must not keep a pooled connection while
        # it waits for its turn to write, or a burst on a cold cache would drain the pool.
        with Session(self.engine) as session:
            survey = session.get_one(Survey, survey_id)
            flow = survey_flow(survey)
            return Plan(
                survey_id,
                revision,
                tuple(survey.shapes),
                tuple(Tallied.of(question, option) for question, option in survey.spins()),
                tuple(question.key for question in direct_questions(survey.questions)),
                tuple(condition.id for condition in survey.condition_list),
                None if flow.simple else flow,
                stored_quotas(survey.quotas),
            )


def kept_key(survey_id: int, key: str, bits: dict) -> SubmissionId:
    """HMAC-SHA-256 under the app's secret of the survey and key, and of those with ``bits``
    (in a canonical JSON): 128 bits of each."""
    secret = current_app.secret_key
    assert isinstance(secret, str | bytes), "the app needs a secret key"
    secret_bytes = secret.encode() if isinstance(secret, str) else secret
    scoped = f"{survey_id}\0{key}".encode()
    reports = _canonical_json(bits).encode()
    key_hash = _hmac_sha256(secret_bytes, b"submission\0" + scoped)
    reports_hash = _hmac_sha256(secret_bytes, b"reports\0" + scoped + b"\0" + reports)
    return SubmissionId(key_hash[:16], reports_hash[:16])


def _hmac_sha256(secret: bytes, message: bytes) -> bytes:
    # Not hmac.digest: it lets go of the interpreter lock for every call, however short the
    # message, and in a busy server each letting go is a thread switch (about three times the
    # hash's own time). An HMAC object lets go only for messages of 2 KiB or more.
    return hmac.new(secret, message, hashlib.sha256).digest()


def init_app(app: Flask) -> None:
    """Make the app's submission service; it closes its connection with the app's engine."""
    with app.app_context():
        service = Submissions(db.engine)
    app.extensions["submissions"] = service
    event.listen(service.engine, "engine_disposed", lambda _engine: service.close())


def submissions() -> Submissions:
    """The current app's submission service."""
    return current_app.extensions["submissions"]
