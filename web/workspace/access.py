"""Who may see which researcher page."""

from __future__ import annotations

from flask_login import current_user

from web.core.infrastructure.extensions import login_manager
from web.core.models import Survey
from web.site.lookup import survey_or_404
from web.site.roles import checked_role


def require_login():
    """``before_request`` hook of researcher blueprints: a logged-out visitor goes to /login."""
    if not current_user.is_authenticated:
        return login_manager.unauthorized()
    return None


def researcher_survey(slug: str, one_snapshot: bool = False, needs: str = "estimates") -> Survey:
    """The survey if the logged-in researcher's role on it may ``needs`` (a capability of
    web/core/surveys/permissions.py); 404 where they have no role (as if it did not exist), 403
    where it is too small. A page of published results asks for ``one_snapshot``
    (:func:`find_survey`)."""
    survey = survey_or_404(slug, one_snapshot=one_snapshot)
    checked_role(survey.role_of(current_user.id), needs, slug, current_user.id)
    return survey
