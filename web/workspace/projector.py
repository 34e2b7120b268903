"""The projector: the join code and QR large, a live count, results behind a reveal switch."""

from __future__ import annotations

from flask import Blueprint

from web.workspace.access import require_login, researcher_survey
from web.workspace.dashboard import versioned, with_panel

bp = Blueprint("projector", __name__, url_prefix="/surveys")
bp.before_request(require_login)


@bp.get("/<slug>/present")
def present(slug: str):
    """The projector view: join code and QR large, a live count, results behind a reveal switch."""
    return with_panel("surveys/present.html", researcher_survey(slug, one_snapshot=True))


@bp.get("/<slug>/present/panel")
def present_panel(slug: str):
    """The projector's live part, fetched again every second."""
    return versioned(
        with_panel("surveys/_present_panel.html", researcher_survey(slug, one_snapshot=True))
    )
