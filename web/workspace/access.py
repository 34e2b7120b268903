"""Who may see which researcher page."""

from __future__ import annotations

from flask import abort
from flask_login import current_user

from web.core.infrastructure.extensions import login_manager
from web.core.models import Survey
from web.site.logs import security_event
from web.site.lookup import survey_or_404


def require_login():
    """``before_request`` hook of researcher blueprints: a logged-out visitor goes to /login."""
    if not current_user.is_authenticated:
        return login_manager.unauthorized()
    return None


def researcher_survey(slug: str, one_snapshot: bool = False) -> Survey:
    """The survey if the logged-in researcher may see it; 404 otherwise, as if it did not exist.
    A page of published results asks for ``one_snapshot`` (:func:`find_survey`)."""
    survey = survey_or_404(slug, one_snapshot=one_snapshot)
    if not survey.visible_to(current_user):
        security_event("access.refused", account=current_user.id, survey=slug)
        abort(404)
    return survey
