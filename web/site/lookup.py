"""A survey by its address, or the 404 page."""

from __future__ import annotations

from flask import abort
from flask_babel import gettext as _

from web.core.models import Survey
from web.core.surveys.lookup import find_survey, find_survey_closing_due


def survey_or_404(slug: str, public: bool = False, one_snapshot: bool = False) -> Survey:
    """:func:`find_survey` (read in one snapshot with ``one_snapshot``), or 404; a draft is 404
    to the public too. The respondent's pages (``public``) close a due survey first, as the
    survey's own check: the researcher's pages and the API only read."""
    survey = (
        find_survey_closing_due(slug) if public else find_survey(slug, one_snapshot=one_snapshot)
    )
    if survey is None or (public and survey.status == "draft"):
        abort(404, _("No such survey."))
    return survey
