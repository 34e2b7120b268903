"""The fieldwork's counts: the page asks which quotas are full and tells of a respondent screened
out or turned away by a full quota (nothing else of them); the researcher reads each quota's
completes and turn-aways and each page's screen-outs, published in batches
(web/core/results/fieldwork.py)."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, request
from flask_babel import gettext as _

from web.api.bearer import bearer_user_id
from web.api.surveys import readable_survey
from web.api.views import address_and_survey
from web.core.infrastructure import strict_json
from web.core.infrastructure.extensions import limiter
from web.core.models import FieldworkCount
from web.core.results.fieldwork import fieldwork_counts, full_quotas
from web.core.surveys.flow.pages import stored_pages
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


# An early end counts as a submission does: under the same limit, in the same scope.
submission_limit = limiter.limit(
    lambda: current_app.config["SUBMISSION_RATE_LIMIT"],
    key_func=address_and_survey,
    scope="submissions",
)


@bp.post("/surveys/<slug>/screen-outs")
@submission_limit
def screen_out(slug: str):
    """Count a respondent screened out at a page (``{"page": id}``), once per Idempotency-Key;
    where the panel wants them to go (its placeholders filled in on the device)."""
    survey = survey_or_404(slug, public=True)
    pages = [page.key for page in stored_pages(survey.pages) if page.screen_out_if is not None]
    key, page = ending_request(survey, "page", pages, "a page that screens out")
    return ended(survey, FieldworkCount.SCREEN_OUT, page, key)


@bp.post("/surveys/<slug>/turned-away")
@submission_limit
def turned_away(slug: str):
    """Count a respondent turned away because their quota is full (``{"quota": id}``), once per
    Idempotency-Key; where the panel wants them to go."""
    survey = survey_or_404(slug, public=True)
    key, quota = ending_request(survey, "quota", full_quotas(survey), "a full quota")
    return ended(survey, FieldworkCount.TURNED_AWAY, quota, key)


def ended(survey, kind: str, where: str, key: str):
    """Count an early end of ``kind`` at ``where`` once per key; the reply says whether it
    counted and where the panel wants such a respondent to go (None: nowhere)."""
    counted = submissions().store_ending(survey.id, kind, where, key)
    panel = Panel.stored(survey.panel)
    redirect = None
    if panel is not None:
        redirect = (
            panel.screen_out_url if kind == FieldworkCount.SCREEN_OUT else panel.quota_full_url
        )
    return {"counted": counted, "redirect": redirect}, 201 if counted else 200


def ending_request(survey, field: str, allowed: list[str], what: str) -> tuple[str, str]:
    """The Idempotency-Key and the one id (``{field: id}``, one of ``allowed``) a page sends
    when a respondent's survey ends early; aborts with the reason otherwise."""
    key = request.headers.get("Idempotency-Key", "")
    if not KEY_FORMAT.fullmatch(key):
        abort(400, BAD_KEY)
    if not request.is_json:
        abort(415, f"send the {field} as application/json")
    try:
        body = strict_json.loads(request.get_data())
    except (ValueError, RecursionError):
        abort(400, "the body is not valid JSON")
    named = body.get(field) if isinstance(body, dict) else None
    if set(body if isinstance(body, dict) else ()) != {field} or named not in allowed:
        abort(400, f"send {{{field!r}: id}} with the id of {what}: {allowed}")
    if survey.status != "open":
        abort(409, _("This survey is closed."))
    return key, named


@bp.get("/surveys/<slug>/fieldwork")
def fieldwork(slug: str):
    """Each quota's completes against its limit and each page's screen-outs, published in
    batches and never below the minimum n; whether each quota is full."""
    survey = readable_survey(slug, bearer_user_id())
    return fieldwork_counts(survey, current_app.config["RESULTS_MIN_N"]).to_dict()
