"""The fieldwork's counts: the page asks which quotas are full and tells of a respondent screened
out (nothing else of them); the researcher reads each quota's completes and each page's
screen-outs, published in batches (web/core/results/fieldwork.py)."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, request
from flask_babel import gettext as _

from web.api.bearer import bearer_user_id
from web.api.surveys import readable_survey
from web.api.views import address_and_survey
from web.core.infrastructure import strict_json
from web.core.infrastructure.extensions import limiter
from web.core.results.fieldwork import fieldwork_counts, full_quotas
from web.core.surveys.pages import stored_pages
from web.core.surveys.panel import Panel
from web.respondent.submissions import submissions
from web.respondent.submit import BAD_KEY, KEY_FORMAT
from web.site.lookup import survey_or_404

bp = Blueprint("fieldwork_api", __name__, url_prefix="/api")


@bp.get("/surveys/<slug>/quotas/full")
def quotas_full(slug: str):
    """The ids of the survey's full quotas, for the page to turn a respondent of one away before
    they answer more (the page sends nothing of theirs to ask)."""
    survey = survey_or_404(slug, public=True)
    return {"full": full_quotas(survey)}, 200, {"Cache-Control": "no-store"}


@bp.post("/surveys/<slug>/screen-outs")
@limiter.limit(
    lambda: current_app.config["SUBMISSION_RATE_LIMIT"],
    key_func=address_and_survey,
    scope="submissions",
)
def screen_out(slug: str):
    """Count a respondent screened out at a page (``{"page": id}``), once per Idempotency-Key;
    where the panel wants them to go (its placeholders filled in on the device)."""
    survey = survey_or_404(slug, public=True)
    key = request.headers.get("Idempotency-Key", "")
    if not KEY_FORMAT.fullmatch(key):
        abort(400, BAD_KEY)
    if not request.is_json:
        abort(415, "send the page as application/json")
    try:
        body = strict_json.loads(request.get_data())
    except (ValueError, RecursionError):
        abort(400, "the body is not valid JSON")
    pages = [page.key for page in stored_pages(survey.pages) if page.screen_out_if is not None]
    page = body.get("page") if isinstance(body, dict) else None
    if set(body if isinstance(body, dict) else ()) != {"page"} or page not in pages:
        abort(400, f"send {{'page': id}} with the id of a page that screens out: {pages}")
    if survey.status != "open":
        abort(409, _("This survey is closed."))
    counted = submissions().store_screen_out(survey.id, page, key)
    panel = Panel.stored(survey.panel)
    redirect = panel.screen_out_url if panel is not None else None
    return {"counted": counted, "redirect": redirect}, 201 if counted else 200


@bp.get("/surveys/<slug>/fieldwork")
def fieldwork(slug: str):
    """Each quota's completes against its limit and each page's screen-outs, published in
    batches and never below the minimum n; whether each quota is full."""
    survey = readable_survey(slug, bearer_user_id())
    return fieldwork_counts(survey, current_app.config["RESULTS_MIN_N"]).to_dict()
