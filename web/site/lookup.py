"""A survey by its address, or the 404 page."""

from __future__ import annotations

from flask import abort
from flask_babel import gettext as _

from web.core.models import Survey
from web.core.surveys.lookup import find_survey


def survey_or_404(slug: str, public: bool = False, one_snapshot: bool = False) -> Survey:
    """:func:`find_survey` (read in one snapshot with ``one_snapshot``), or 404; a draft is 404
    to the public too."""
    survey = find_survey(slug, one_snapshot=one_snapshot)
    if survey is None or (public and survey.status == "draft"):
        abort(404, _("No such survey."))
    return survey
