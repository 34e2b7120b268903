"""A survey's audit log for its owner's token: what researchers did to it, to the minute."""

from __future__ import annotations

from flask import Blueprint

from web.api.bearer import bearer_user_id
from web.api.surveys import readable_survey
from web.core.surveys.team import audit_log

bp = Blueprint("team_api", __name__, url_prefix="/api")


@bp.get("/surveys/<slug>/audit")
def audit(slug: str):
    """The survey's audit log, the latest first: who shared it with whom, edited, imported,
    opened, closed, downloaded or made a device link, and when (UTC, to the minute)."""
    survey = readable_survey(slug, bearer_user_id(), needs="team")
    return {"events": [event.to_dict() for event in audit_log(survey)]}
