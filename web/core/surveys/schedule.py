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
from datetime import UTC, datetime

from sqlalchemy import CursorResult, and_, or_

from web.core.infrastructure import sqlite_guard
from web.core.infrastructure.extensions import db
from web.core.models import Survey
from web.core.results.publication import publish_in_session


def now_seconds() -> int:
    """The present as whole seconds since 1970, as the schedule is kept."""
    return int(time.time())


def not_yet_open(opens_at: datetime | None, now: int | None = None) -> bool:
    """Whether an open survey is still waiting for its opening time."""
    return opens_at is not None and (now_seconds() if now is None else now) < opens_at.timestamp()


def due_to_close(
    status: str,
    closes_at: datetime | None,
    target_n: int | None,
    response_count: int,
    now: int | None = None,
) -> bool:
    """Whether an open survey has passed its closing time or reached its target."""
    if status != "open":
        return False
    moment = now_seconds() if now is None else now
    past_time = closes_at is not None and moment >= closes_at.timestamp()
    return past_time or (target_n is not None and response_count >= target_n)


def close_if_due(survey_id: int) -> bool:
    """Close the survey if it is open and past its closing time or target, publishing every
    response as a manual close does; whether it closed. One guarded UPDATE decides, so two
    requests that meet the moment together close it once."""
    due = or_(
        and_(Survey.closes_at.is_not(None), Survey.closes_at <= datetime.now(UTC)),
        and_(Survey.target_n.is_not(None), Survey.response_count >= Survey.target_n),
    )
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
