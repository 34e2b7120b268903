"""``GET /api/plan/experiment``: the respondents per condition a split ballot needs to show that
a randomized design finds ``lift`` more than asking directly, or its power at a given n
(:func:`rr.plan_experiment`), for a design of one line or a list experiment."""

from __future__ import annotations

import math

from flask import Blueprint, abort, request

import rr
from web.api.change_plan import MAX_WAVE_N, PLANS_PER_MINUTE, planned_design
from web.core.infrastructure.extensions import limiter
from web.core.surveys.designs import default_design, find_design
from web.core.surveys.limits import MAX_LIST_ITEMS, MIN_LIST_ITEMS
from web.site.query import number_argument

bp = Blueprint("experiment_plan", __name__, url_prefix="/api")
TEST = "one-sided Wald test at level alpha that the randomized condition finds more than direct"


@bp.get("/plan/experiment")
@limiter.limit(PLANS_PER_MINUTE, scope="plan")
def plan_experiment():
    """n per condition for the one-sided test of ``lift`` over ``baseline``, and the power at n."""
    design = planned_condition()
    baseline = number_argument("baseline", None, 0.0, 1.0)
    lift = number_argument("lift", None, 0.0, 1.0 - baseline)
    target = number_argument("power", 0.8, 0.01, 0.99)
    alpha = number_argument("alpha", 0.05, 0.001, 0.5)
    n = number_argument("n", None, 1, MAX_WAVE_N, kind=int) if "n" in request.args else None
    if target <= alpha:
        abort(400, f"power must be above alpha ({alpha:g})")
    try:
        needed = rr.plan_experiment(design, baseline, lift, target, alpha=alpha)
        at_n = None if n is None else rr.plan_experiment(design, baseline, lift, n=n, alpha=alpha)
    except ValueError as error:  # a lift of 0, or baseline + lift past 1
        abort(400, str(error))
    return {
        "procedure": request.args.get("procedure", default_design().name),
        "epsilon": None if math.isinf(design.epsilon) else design.epsilon,
        "baseline": baseline,
        "lift": lift,
        "alpha": alpha,
        "target_power": target,
        "n_per_condition": needed.n_per_condition,
        "n": n,
        "power": None if at_n is None else at_n.power,
        "test": TEST,
    }


def planned_condition() -> rr.Design | rr.ListExperiment:
    """The query's way of asking: a design's line (:func:`planned_design`), or a list experiment
    of ``controls`` control items."""
    design = find_design(request.args.get("procedure"))
    if design is None or "controls" not in design.fields.parameters:
        return planned_design()
    controls = number_argument("controls", None, MIN_LIST_ITEMS, MAX_LIST_ITEMS, kind=int)
    return rr.list_experiment(controls)
