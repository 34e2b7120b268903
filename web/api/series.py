"""``GET /api/series/<series>/trend``: each item's estimate per wave of a series, and the change
between consecutive waves, for the token's owner (whole sample, or per group with ``by``)."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, request

from web.api.bearer import bearer_user_id
from web.core.results.by_group import GroupingError
from web.core.results.trend import readable_trend

bp = Blueprint("series_api", __name__, url_prefix="/api")


@bp.get("/series/<series>/trend")
def trend(series: str):
    """The series' trend from every wave's published results; 404 for no series the token's
    account can read."""
    user_id = bearer_user_id()
    try:
        found = readable_trend(
            series, user_id, current_app.config["RESULTS_MIN_N"], request.args.get("by") or None
        )
    except GroupingError as error:
        abort(400, str(error))
    if found is None:
        abort(404, f"no series {series!r} among the surveys this token can read")
    return found.to_dict()
