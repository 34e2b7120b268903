"""A survey's schedule and target, applied by the requests that meet it (no daemon).

An open survey takes answers from ``opens_at`` (if set) until ``closes_at`` (if set) or until it
has ``target_n`` responses. Before ``opens_at`` it answers like a closed survey, with the opening
time. Past ``closes_at`` or the target the first request that looks the survey up closes it, and
closing publishes the last batch, as a manual close does. The writer's claim names the same
conditions (:mod:`web.respondent.writer`), so no response is stored outside the window or past
the target, whichever process or kept state took it.
"""

from __future__ import annotations

import time
from datetime import datetime

from sqlalchemy import CursorResult, text

from web.core.infrastructure import sqlite_guard
from web.core.infrastructure.extensions import db
from web.core.models import Survey
from web.core.models.publication import publish_in_session

# Why an open survey takes no response now (the one rule, below).
NOT_OPEN_YET, PAST_CLOSING, TARGET_REACHED = "not open yet", "past closing", "target reached"
# The same rule as SQL over the survey's row, for ``k`` more responses at ``now`` (in this order
# of parameters: now, now, k): the writer's claim (web/respondent/storing.py) holds it in the
# statement that counts them, and closing a survey that is due (below) takes its negation.
ACCEPTING_SQL = (
    "(opens_at IS NULL OR opens_at <= {now}) AND (closes_at IS NULL OR closes_at > {now}) "
    "AND (target_n IS NULL OR response_count + {k} <= target_n)"
)
# Due to close: open already, and taking not one more response.
DUE_SQL = (
    f"(opens_at IS NULL OR opens_at <= :now) AND NOT ({ACCEPTING_SQL.format(now=':now', k=1)})"
)


def now_seconds() -> int:
    """The present as whole seconds since 1970, as the schedule is kept."""
    return int(time.time())


def schedule_refusal(
    opens_at: int | None,
    closes_at: int | None,
    target_n: int | None,
    response_count: int,
    now: int,
) -> str | None:
    """Why an open survey takes no response at ``now`` (times in seconds since 1970), or None:
    before its opening time, from its closing time on, or once it has its target. The page, the
    API, looking a survey up and the writer's claim (:data:`ACCEPTING_SQL`) all apply this rule."""
    if opens_at is not None and now < opens_at:
        return NOT_OPEN_YET
    if closes_at is not None and now >= closes_at:
        return PAST_CLOSING
    if target_n is not None and response_count >= target_n:
        return TARGET_REACHED
    return None


def _seconds(moment: datetime | None) -> int | None:
    return None if moment is None else int(moment.timestamp())


def not_yet_open(opens_at: datetime | None, now: int | None = None) -> bool:
    """Whether an open survey is still waiting for its opening time."""
    moment = now_seconds() if now is None else now
    return schedule_refusal(_seconds(opens_at), None, None, 0, moment) == NOT_OPEN_YET


def due_to_close(
    status: str,
    closes_at: datetime | None,
    target_n: int | None,
    response_count: int,
    now: int | None = None,
) -> bool:
    """Whether an open survey has passed its closing time or reached its target."""
    moment = now_seconds() if now is None else now
    refusal = schedule_refusal(None, _seconds(closes_at), target_n, response_count, moment)
    return status == "open" and refusal in (PAST_CLOSING, TARGET_REACHED)


def close_if_due(survey_id: int) -> bool:
    """Close the survey if it is open and past its closing time or target, publishing every
    response as a manual close does; whether it closed. One guarded UPDATE decides, so two
    requests that meet the moment together close it once."""
    due = text(DUE_SQL).bindparams(now=now_seconds())
    try:
        closed: CursorResult = db.session.execute(  # type: ignore[assignment]
            db.update(Survey)
            .where(Survey.id == survey_id, Survey.status == "open", due)
            .values(status="closed", edits=Survey.edits + 1)
            .execution_options(synchronize_session=False)
        )
        if closed.rowcount:
            publish_in_session(survey_id, all_in=True)
        db.session.commit()  # ends the write transaction either way: SQLite holds its lock till then
        if not closed.rowcount:
            return False
    except sqlite_guard.AnotherWriter:
        # A command beside the server reads, and may not write: the server closes it instead.
        db.session.rollback()
        return False
    db.session.expire_all()
    return True
