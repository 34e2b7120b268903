"""JSON API: submit reported bits, read results with a bearer token, plan a question."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from flask import Blueprint, abort, current_app, make_response, request
from flask_babel import get_locale
from flask_babel import gettext as _
from flask_limiter.util import get_remote_address

import rr
from web.api.bearer import bearer_user_id
from web.api.change_plan import PLANS_PER_MINUTE
from web.core.infrastructure.extensions import db, limiter
from web.core.models import Survey
from web.core.results.bayes import BayesError, BayesSettings, bayes_settings, with_posteriors
from web.core.results.by_group import GroupingError, by_group, with_groups
from web.core.results.cache import Built, SurveyStamp, results_cache, results_version, survey_stamp
from web.core.results.experiment import NotAnExperiment, experiment_document
from web.core.results.figures import published_results
from web.core.results.joint import joint_document
from web.core.results.list_experiments import list_results
from web.core.results.list_groups import difference_of, with_list_groups
from web.core.results.list_regression import regressed
from web.core.results.methods import survey_methods
from web.core.results.synthetic import (
    MAX_M,
    SyntheticUnavailable,
    synthetic_csv,
    synthetic_data,
    utility,
)
from web.core.surveys.designs import SurveyDesign, default_design, find_design, known_designs
from web.core.surveys.limits import MAX_EPSILON, MAX_OPTIONS, MIN_EPSILON, valid_epsilon
from web.core.surveys.panel import Panel
from web.core.surveys.planned import sample_sizes
from web.respondent import devices
from web.respondent.answered import answered_slugs, remember_answered
from web.respondent.submit import Refused, submit
from web.respondent.writer import Receipt
from web.site.lookup import survey_or_404
from web.site.roles import checked_role

bp = Blueprint("api", __name__, url_prefix="/api")
STORED = b'{"ok":true}\n'  # the whole reply to a stored submission, serialised once


@lru_cache(maxsize=256)
def stored_body(receipt: Receipt) -> bytes:
    """The reply to a stored submission: with the survey's completion code and address, if any
    (the same for every respondent: nothing in it is about the one who answered)."""
    if receipt == (None, None):
        return STORED
    extra = {"completion_code": receipt.code, "completion_url": receipt.url}
    body = {"ok": True, **{name: value for name, value in extra.items() if value is not None}}
    return json.dumps(body, separators=(",", ":")).encode() + b"\n"


def address_and_survey() -> str:
    """Submissions are limited per address and survey: a lecture hall shares one address."""
    return f"{get_remote_address()}:{(request.view_args or {}).get('slug')}"


@bp.post("/surveys/<slug>/responses")
def submit_response(slug: str):
    """Store one respondent's reported bits; nothing else about them is kept."""
    # Flask-Limiter evaluates its limits even when they are switched off; skip it then.
    if current_app.config["RATELIMIT_ENABLED"]:
        return _limited_submission(slug)
    return store_submission(slug)


def store_submission(slug: str):
    """The submission itself, without the rate limit: the body in, the reply and cookie out."""
    limit = current_app.config["SUBMISSION_MAX_BYTES"]
    if (request.content_length or 0) > limit:
        abort(413, f"the body is larger than {limit} bytes")
    request.max_content_length = limit
    device = request.headers.get(devices.HEADER)
    if device is not None and (why := devices.device_refusal(slug, device)):
        abort(403, why)
    # A shared field device answers for one respondent after another: no cookie stops it.
    answered = [] if device else answered_slugs()
    revision = request.headers.get("X-Survey-Revision")
    key = request.headers.get("Idempotency-Key")
    outcome = submit(slug, request.get_data(), request.is_json, revision, answered, key)
    if isinstance(outcome, Refused):
        if outcome.quota is not None:
            return quota_full_reply(slug, outcome)
        abort(outcome.status, outcome.reason)
    response = current_app.response_class(
        stored_body(outcome.receipt), 201, mimetype="application/json"
    )
    if device is None:
        remember_answered(response, answered, slug)
    return response


def quota_full_reply(slug: str, refused: Refused):
    """409 for a response into a full quota: the reason, the quota, and where the panel wants
    such a respondent to go (its placeholders are filled in on the device, never here)."""
    panel = Panel.stored(db.session.scalar(db.select(Survey.panel).where(Survey.slug == slug)))
    redirect = panel.quota_full_url if panel is not None else None
    body = {"error": refused.reason, "quota": refused.quota, "redirect": redirect}
    return current_app.response_class(json.dumps(body), 409, mimetype="application/json")


_limited_submission = limiter.limit(
    lambda: current_app.config["SUBMISSION_RATE_LIMIT"],
    key_func=address_and_survey,
    scope="submissions",
)(store_submission)


@bp.get("/surveys/<slug>/results")
def results(slug: str):
    """Published estimates for every question, for the survey's owner (any account for an unowned
    survey); built once per version of the results and kept (web/core/results/cache.py)."""
    stamp, received = readable_stamp(slug)
    by = request.args.get("by")
    settings = requested_bayes()
    rest = (current_app.config["RESULTS_MIN_N"], by, settings)
    built = published(slug, stamp, rest, lambda survey: serialized(
        results_document(survey, by, settings)
    ))  # fmt: skip
    if built.version != stamp.version:  # a publication came between the stamp and the build
        received = built.received
    # The document is serialized once per version; the running total and whether the survey is
    # due to close (which only a write acts on) are added per request.
    due = "true" if stamp.due else "false"
    response = make_response(f'{built.document[:-1]},"received":{int(received)},"due":{due}}}')
    response.mimetype = "application/json"
    return response


def serialized(document: dict) -> str:
    """A results document as JSON without its running total (added per request)."""
    return json.dumps({key: value for key, value in document.items() if key != "received"},
                      separators=(",", ":"))  # fmt: skip


def requested_bayes() -> BayesSettings | None:
    """``method=bayes`` (with ``prior=a,b`` and ``threshold=t``) as settings; None for the
    frequentist estimates alone; 400 naming a bad value."""
    method = request.args.get("method", "frequentist")
    if method not in ("frequentist", "bayes"):
        abort(400, f"method must be 'frequentist' or 'bayes', got {method!r}")
    if method == "frequentist":
        return None
    try:
        return bayes_settings(request.args.get("prior"), request.args.get("threshold"))
    except BayesError as error:
        abort(400, str(error))


@bp.get("/surveys/<slug>/regression")
def regression(slug: str):
    """A randomized item (or a list experiment) regressed on direct questions (``item``,
    ``on=a,b``, optionally ``reference=a:option,b:option``), from the published counts per
    group; 400 with the reason when it cannot be estimated."""
    stamp, _received = readable_stamp(slug)
    item = request.args.get("item", "")
    on = [key for key in request.args.get("on", "").split(",") if key]
    reference = dict(
        part.partition(":")[::2] for part in request.args.get("reference", "").split(",") if part
    )
    levels = tuple(sorted(reference.items()))
    rest = ("regression", current_app.config["RESULTS_MIN_N"], item, tuple(on), levels)
    return analysed(
        slug,
        stamp,
        rest,
        lambda survey, min_n: regressed(survey, item, on, min_n, reference),
    )


@bp.get("/surveys/<slug>/difference")
def difference(slug: str):
    """The difference in an item's prevalence between two groups (``item``, ``by``, ``groups=a,b``)."""
    stamp, _received = readable_stamp(slug)
    item, by = request.args.get("item", ""), request.args.get("by", "")
    groups = request.args.get("groups", "").split(",")
    if len(groups) != 2:
        abort(400, "groups must name two options of the direct question, e.g. groups=first,fourth")
    rest = ("difference", current_app.config["RESULTS_MIN_N"], item, by, tuple(groups))
    return analysed(
        slug,
        stamp,
        rest,
        lambda survey, min_n: difference_of(survey, item, by, groups[0], groups[1], min_n),
    )


@bp.get("/surveys/<slug>/methods")
def methods(slug: str):
    """A methods paragraph to paste into a paper, in Markdown and LaTeX, in the language asked
    for (``?lang=ko``, else the browser's): the designs with their probabilities and ε, the
    estimator and interval by name, what was published, a split ballot's conditions; and the
    references."""
    stamp, _received = readable_stamp(slug)
    rest = ("methods", current_app.config["RESULTS_MIN_N"], str(get_locale()))
    return analysed(
        slug, stamp, rest, lambda survey, min_n: survey_methods(survey, min_n).to_dict()
    )


@bp.get("/surveys/<slug>/joint")
def joint(slug: str):
    """The joint distribution of several items' true answers (``items=a,b[,c…]``), from the
    published snapshot: every combination's probability with its 95% interval, and for two
    yes/no items P(B | A) and their correlation; 400 with the reason when it cannot be given."""
    stamp, _received = readable_stamp(slug)
    names = [name for name in request.args.get("items", "").split(",") if name]
    rest = ("joint", current_app.config["RESULTS_MIN_N"], tuple(names))
    return analysed(slug, stamp, rest, lambda survey, min_n: joint_document(survey, names, min_n))


@bp.get("/surveys/<slug>/experiment")
def experiment(slug: str):
    """A split-ballot experiment's figures: respondents per condition and the allocation check,
    each item per condition, and the contrasts with the condition asked directly; 409 for a
    survey with no conditions."""
    stamp, _received = readable_stamp(slug)
    rest = ("experiment", current_app.config["RESULTS_MIN_N"])
    return analysed(slug, stamp, rest, experiment_or_409)


def experiment_or_409(survey: Survey, min_n: int) -> dict:
    """The experiment's document, or 409 for a survey that is not one."""
    try:
        return experiment_document(survey, min_n)
    except NotAnExperiment as error:
        abort(409, str(error))


@bp.get("/surveys/<slug>/synthetic.csv")
def synthetic_file(slug: str):
    """m synthetic datasets of the published snapshot in one CSV (``m``, ``seed``); 409 below the
    minimum n."""
    stamp, _received = readable_stamp(slug)
    m, seed = synthetic_request()
    rest = ("synthetic.csv", current_app.config["RESULTS_MIN_N"], m, seed)
    built = published(slug, stamp, rest, lambda survey: synthetic_csv(synthesized(survey, m, seed)))
    response = make_response(built.document)
    response.headers["Content-Type"] = "text/csv; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="{slug}-synthetic.csv"'
    return response


@bp.get("/surveys/<slug>/synthetic")
def synthetic_utility(slug: str):
    """How close the synthetic data come to the randomized-response estimates, item by item and
    pair by pair (interval overlap)."""
    stamp, _received = readable_stamp(slug)
    m, seed = synthetic_request()
    rest = ("synthetic", current_app.config["RESULTS_MIN_N"], m, seed)
    return published(
        slug,
        stamp,
        rest,
        lambda survey: utility(synthesized(survey, m, seed), published_results(survey)),
    ).document


def synthetic_request() -> tuple[int, int]:
    """``m`` (1 to 100, default 5) and ``seed`` (default 1) from the query; 400 otherwise."""
    m = _number(request.args.get("m", "5"), int)
    seed = _number(request.args.get("seed", "1"), int)
    if m is None or not 2 <= m <= MAX_M:
        abort(400, f"m must be a whole number from 2 to {MAX_M}")
    if seed is None or not 0 <= seed < 2**32:
        abort(400, "seed must be a whole number from 0 to 2^32 - 1")
    return m, seed


def synthesized(survey: Survey, m: int, seed: int):
    """The survey's synthetic data, or the refusal: 409 below the minimum n, 400 otherwise."""
    try:
        return synthetic_data(survey, m, seed, current_app.config["RESULTS_MIN_N"])
    except SyntheticUnavailable as error:
        abort(409, str(error))
    except GroupingError as error:
        abort(400, str(error))


def analysed(slug: str, stamp: SurveyStamp, rest: tuple, compute) -> dict:
    """``compute(survey, min_n)`` of the published snapshot (kept as :func:`published` keeps
    it), or a 400 with its reason."""

    def computed(survey: Survey) -> dict:
        try:
            return compute(survey, current_app.config["RESULTS_MIN_N"])
        except GroupingError as error:
            abort(400, str(error))

    return published(slug, stamp, rest, computed).document


def published(slug: str, stamp: SurveyStamp, rest: tuple, build: Callable[[Survey], Any]) -> Built:
    """``build(survey)`` of the survey's published results, read in one snapshot and kept under
    the version that snapshot holds (``rest`` says which document); the stamp's version the
    first time is looked up."""

    def built() -> Built:
        survey = survey_or_404(slug, one_snapshot=True)
        return Built(results_version(survey), survey.response_count, build(survey))

    return results_cache().published(stamp.version, rest, built)


def readable_stamp(slug: str):
    """The survey's stamp and running total if the request's token may read it (as an analyst);
    401, 403 or 404."""
    user_id = bearer_user_id()
    found = survey_stamp(slug)
    if found is None:
        abort(404, _("No such survey."))
    checked_role(found[0].role_of(user_id), "api", slug, user_id, by="token")
    return found


def results_document(survey: Survey, by: str | None, settings: BayesSettings | None = None) -> dict:
    """The published results, with every randomized item per group of direct question ``by``,
    and each item's posterior with ``settings``."""
    results = published_results(survey)
    document = results.to_dict()
    # Read from the published counts, not from tallies (list_experiments.py).
    document["lists"] = [
        entry.to_dict(list(results.languages)) for entry in list_results(survey, results.min_n)
    ]
    if by is not None:
        try:
            groups = by_group(survey, by, results.min_n)
        except GroupingError as error:
            abort(400, str(error))
        document = with_list_groups(with_groups(document, groups, by), survey, by, results.min_n)
    if settings is not None:
        document = with_posteriors(document, results, settings)
    return document


@bp.get("/plan")
@limiter.limit(PLANS_PER_MINUTE, scope="plan")
def plan():
    """Spinner and planning figures for ε, procedure and a planned n: what the builder previews."""
    epsilon = _number(request.args.get("epsilon", ""), float)
    n = _number(request.args.get("n", "100"), int)
    procedure = request.args.get("procedure", default_design().name)
    design = find_design(procedure)
    if design is not None and design.derived:
        return design_plan(design, n)
    if epsilon is None or not valid_epsilon(epsilon):
        abort(400, f"epsilon must be a number from {MIN_EPSILON:g} to {MAX_EPSILON:g}")
    if n is None or not 1 <= n <= MAX_PLANNED_N:
        abort(400, f"n must be a whole number from 1 to {MAX_PLANNED_N}")
    if design is None:
        abort(400, f"procedure must be one of {', '.join(known_designs())}")
    if "k" in request.args:
        return choice_plan(epsilon, n, procedure)
    if "min" in request.args or "max" in request.args:
        return number_plan(epsilon, n, procedure)
    return {
        "epsilon": epsilon,
        "procedure": procedure,
        "n": n,
        "light_fraction": rr.light_fraction(epsilon, procedure),
        "truth_probability": rr.truth_probability(epsilon),
        "privacy_loss_ratio": rr.privacy_loss_ratio(epsilon, procedure),
        "margin_of_error": rr.margin_of_error(n, epsilon, procedure),
        "sample_size": sample_sizes(lambda margin: rr.sample_size(margin, epsilon, procedure)),
    }


def design_plan(design: SurveyDesign, n: int | None) -> dict:
    """The plan of a yes/no question asked with a design, from the parameters in the query."""
    if n is None or not 1 <= n <= MAX_PLANNED_N:
        abort(400, f"n must be a whole number from 1 to {MAX_PLANNED_N}")
    try:
        return design.plan(design.fields.from_query(request.args), n)
    except ValueError as error:
        abort(400, str(error))


def number_plan(epsilon: float, n: int, procedure: str) -> dict:
    """The plan of a number question on [min, max]: its margin in the question's units (at the
    middle of the range, where it is widest) and the respondents a margin of 10%, 5% or 3% of
    the range needs."""
    low = _number(request.args.get("min", ""), float)
    high = _number(request.args.get("max", ""), float)
    try:
        mean = rr.bounded_mean(low, high, epsilon, procedure)
    except ValueError as error:
        abort(400, f"a number question's range: {error}")
    return {
        "epsilon": epsilon,
        "procedure": procedure,
        "n": n,
        "min": low,
        "max": high,
        "light_fraction": rr.light_fraction(epsilon, procedure),
        "truth_probability": rr.truth_probability(epsilon),
        "margin_of_error": mean.margin_of_error(n),
        "sample_size": sample_sizes(lambda share: mean.sample_size(share * mean.width)),
    }


def choice_plan(epsilon: float, n: int, procedure: str) -> dict:
    """The plan of a single-choice question of k options, beside asking it as multi-select."""
    k = _number(request.args["k"], int)
    if k is None or not 2 <= k <= MAX_OPTIONS:
        abort(400, f"k must be a whole number from 2 to {MAX_OPTIONS}")
    truth, other = rr.choice_probabilities(epsilon, k)
    return {
        "epsilon": epsilon,
        "procedure": procedure,
        "n": n,
        "k": k,
        "light_fraction": rr.choice_light_fraction(epsilon, k, procedure),
        "truth_probability": truth,
        "privacy_loss_ratio": truth / other,
        "margin_of_error": rr.choice_margin_of_error(n, epsilon, k),
        "as_multi": {
            # The same ε per option: k times the cost. The same total: ε/k per option.
            "epsilon_total": k * epsilon,
            "margin_of_error": rr.margin_of_error(n, epsilon, procedure),
            "same_total_margin_of_error": (
                rr.margin_of_error(n, epsilon / k, procedure)
                if epsilon / k >= rr.MIN_EPSILON
                else None
            ),
        },
    }


MAX_PLANNED_N = 10**9


def _number(text: str, kind):
    """``text`` read as ``kind`` (int or float), or None when it is not such a number."""
    try:
        return kind(text)
    except (ValueError, OverflowError):
        return None
