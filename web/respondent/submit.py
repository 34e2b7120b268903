"""One submission from its body to its outcome: stored (with the survey's receipt) or refused
(with a status and a reason in the respondent's language).

A kept survey state may only say yes: every refusal is decided on a fresh read. A survey found
past its closing time or target is closed on the way (:func:`web.core.surveys.schedule
.close_if_due`). That commits the request's ORM session in the middle of the submission, and it
is safe: the submission path writes through its own connections (:mod:`web.respondent.writer`),
so the session holds nothing of this submission, and a refused submission stores nothing.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from datetime import UTC, datetime
from typing import NamedTuple

from flask_babel import gettext as _

from web.core.infrastructure import strict_json
from web.core.surveys.answers import AnswerError, Checked, check_answers
from web.core.surveys.fielding import format_utc
from web.core.surveys.schedule import (
    NOT_OPEN_YET,
    PAST_CLOSING,
    close_if_due,
    now_seconds,
    schedule_refusal,
)
from web.respondent.plan import Plan, SurveyState
from web.respondent.submissions import submissions
from web.respondent.writer import QuotaFull, Receipt, Resent

# A submission's idempotency key: at least 128 bits in base64url (hex, a UUID: any random id).
KEY_FORMAT = re.compile(r"[A-Za-z0-9_-]{22,128}")
BAD_KEY = "the Idempotency-Key header must be 22 to 128 letters, digits, '-' or '_'"


class Stored(NamedTuple):
    """A stored submission: what the reply tells the respondent (completion code and address)."""

    receipt: Receipt


class Refused(NamedTuple):
    """A submission the survey does not take: the reply's status and reason, and the quota that
    is full where that is why."""

    status: int
    reason: str
    quota: str | None = None


class _Refusal(Exception):
    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.refused = Refused(status, reason)


def submit(
    slug: str,
    body: bytes,
    is_json: bool,
    revision: str | None,
    answered: Collection[str],
    key: str | None = None,
) -> Stored | Refused:
    """Check ``body`` (a JSON object of reported bits) against the survey's current revision and
    store it once; ``revision`` is the one the page was loaded with (if it says), ``answered``
    the surveys this browser has answered, ``key`` the submission's idempotency key (if any):
    a key stored before with the same reports is answered as its first send was."""
    if key is not None and not KEY_FORMAT.fullmatch(key):
        return Refused(400, BAD_KEY)
    service = submissions()
    for fresh in (False, True):
        try:
            plan = service.plan(accepting_state(service.state(slug, fresh=fresh), revision))
            checked = checked_body(body, is_json, plan)
        except _Refusal as refusal:
            if fresh:
                return refusal.refused
            continue
        submission_id = None if key is None else service.submission_id(plan, key, checked.bits)
        if slug in answered:
            # The reply to a stored send may have been lost after its cookie arrived.
            before = submission_id and service.stored_before(plan, submission_id)
            if before and before.same:
                return Stored(before.receipt)
            return Refused(409, _("This browser has already answered this survey."))
        outcome = service.record(plan, checked, submission_id)
        if isinstance(outcome, QuotaFull):
            return Refused(409, quota_full(), outcome.quota)
        if isinstance(outcome, Resent):
            return Stored(outcome.receipt) if outcome.same else Refused(409, reused_key())
        if outcome is not None:
            return Stored(outcome)
    return Refused(409, changed_after_loading())


def accepting_state(state: SurveyState | None, revision: str | None) -> SurveyState:
    """The state of a survey that takes answers from this page; refuses otherwise."""
    if state is None or state.status == "draft":
        raise _Refusal(404, _("No such survey."))
    if state.status == "closed":
        raise _Refusal(409, _("This survey is closed."))
    why = schedule_refusal(
        state.opens_at, state.closes_at, state.target_n, state.response_count, now_seconds()
    )
    if why == NOT_OPEN_YET:
        when = utc_text(state.opens_at)
        raise _Refusal(409, _("This survey is not open yet: it opens at %(time)s.", time=when))
    if why is not None:
        close_if_due(state.id)
        if why == PAST_CLOSING:
            when = utc_text(state.closes_at)
            raise _Refusal(409, _("This survey is closed: it closed at %(time)s.", time=when))
        raise _Refusal(
            409,
            _(
                "This survey is closed: it has reached its target of %(n)d responses.",
                n=state.target_n,
            ),
        )
    if revision is not None and revision != str(state.revision):
        raise _Refusal(409, changed_after_loading())
    return state


def checked_body(body: bytes, is_json: bool, plan: Plan) -> Checked:
    """The body checked once against the plan; refuses a body that does not fit."""
    if not is_json:
        raise _Refusal(415, "send the answers as application/json")
    try:
        data = strict_json.loads(body)
    except strict_json.DuplicateKey as error:
        raise _Refusal(400, f"the body is not valid: {error}") from None
    except (ValueError, RecursionError):
        # Bad UTF-8 or JSON, or nesting deeper than the parser goes.
        raise _Refusal(400, "the body is not valid JSON") from None
    try:
        return check_answers(data, plan.shapes, plan.conditions, plan.flow, plan.quotas)
    except AnswerError as error:
        raise _Refusal(400, str(error)) from None


def utc_text(seconds) -> str:
    return format_utc(datetime.fromtimestamp(seconds, UTC))


def changed_after_loading() -> str:
    return _("This survey changed after the page was loaded. Reload the page to answer it.")


def reused_key() -> str:
    return _(
        "This submission id was already used with other answers: nothing was stored. "
        "A new submission needs a new id."
    )


def quota_full() -> str:
    return _(
        "Thank you: the survey has all the responses it needs from respondents like you, so "
        "your answers were not stored."
    )
