"""The published responses, read: each one's stored answers, for the counts no tally keeps
(patterns of answers, who passed a check). Only published responses are read, so these counts
move with the published snapshot (:mod:`web.core.models.publication`)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from web.core.infrastructure.extensions import db
from web.core.models import Response, Survey


def published_answers(survey: Survey) -> Iterator[dict]:
    """Each published response's stored answers, parsed, in the order the database reads them
    (for counts that no tally keeps: patterns of answers, who passed a check)."""
    rows = db.session.execute(
        db.select(Response.bits)
        .where(Response.survey_id == survey.id)
        .execution_options(yield_per=5000)
    )
    for (bits,) in rows:
        yield json.loads(bits)
