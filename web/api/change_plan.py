"""``GET /api/plan/change``: the power to see a change between two waves (or two groups), the n
per wave it needs, the smallest change it detects, and the power curve the planner draws."""

from __future__ import annotations

import math

from flask import Blueprint, abort, request

import rr
from web.core.infrastructure.extensions import limiter
from web.core.surveys.designs import default_design, design_of_plan, find_design, known_designs
from web.core.surveys.limits import MAX_EPSILON, MIN_EPSILON
from web.site.compute import computed
from web.site.query import number_argument

bp = Blueprint("change_plan", __name__, url_prefix="/api")
# As the lab's: generous for a researcher typing in the planner, a brake for a script.
PLANS_PER_MINUTE = "240/minute"

MAX_WAVE_N = 10**7
# The power curve: this many changes, evenly spaced from 0 to the largest the baseline allows.
CURVE_POINTS = 41


@bp.get("/plan/change")
@limiter.limit(PLANS_PER_MINUTE, scope="plan")
def plan_change():
    """Power, n per wave and detectable change for a design, n, baseline and change."""
    design = planned_design()
    n = number_argument("n", None, 2, MAX_WAVE_N, kind=int)
    # Two groups of one wave may differ in size: n and n_2 (the second wave's size otherwise n).
    n_2 = number_argument("n_2", n, 2, MAX_WAVE_N, kind=int)
    baseline = number_argument("baseline", None, 0.0, 1.0)
    change = number_argument("change", None, -baseline, 1.0 - baseline)
    target = number_argument("power", 0.8, 0.01, 0.99)
    alpha = number_argument("alpha", 0.05, 0.001, 0.5)
    if target <= alpha:
        abort(400, f"power must be above alpha ({alpha:g})")
    try:
        figures = computed(change_figures, design, n, n_2, baseline, change, target, alpha)
    except ValueError as error:
        abort(400, str(error))
    return {
        "procedure": request.args.get("procedure", default_design().name),
        # None for a question asked directly: no ε protects it.
        "epsilon": design.epsilon if math.isfinite(design.epsilon) else None,
        "yes_given_yes": design.yes_given_yes,
        "yes_given_no": design.yes_given_no,
        **figures,
    }


def change_figures(
    design: rr.Design, n: int, n_2: int, baseline: float, change: float, target: float,
    alpha: float,
) -> dict:  # fmt: skip
    """The planner's figures for checked arguments: up to a second of work at 10⁴ per wave, so
    it runs in the compute pool (web/site/compute.py)."""
    at_n = rr.change_power(design, n, baseline, change, alpha, n_2)
    return {
        "n": n,
        "n_2": n_2,
        "baseline": baseline,
        "change": change,
        "alpha": alpha,
        "target_power": target,
        "power": at_n.power,
        "method": at_n.method,
        "test": "two-sided Wald test of equal shares, unpooled, on the reported shares",
        "n_per_wave": None if change == 0 else rr.change_sample_size(
            design, baseline, change, target, alpha
        ),
        "detectable_change": {
            "up": rr.detectable_change(design, n, baseline, target, alpha, 1, n_2),
            "down": rr.detectable_change(design, n, baseline, target, alpha, -1, n_2),
        },
        "curve": power_curve(design, n, n_2, baseline, change, alpha),
    }  # fmt: skip


def planned_design() -> rr.Design:
    """The query's design: a spinner at ``epsilon``, or a design from its own shares."""
    procedure = request.args.get("procedure", default_design().name)
    design = find_design(procedure)
    if design is None:
        abort(400, f"procedure must be one of {', '.join(known_designs())}")
    epsilon = 0.0
    if not design.derived:
        epsilon = number_argument("epsilon", None, MIN_EPSILON, MAX_EPSILON)
    try:
        return design_of_plan(design, design.fields.from_query(request.args), epsilon)
    except ValueError as error:
        abort(400, str(error))


def power_curve(
    design: rr.Design, n: int, n_2: int, baseline: float, change: float, alpha: float
) -> list:
    """Power against the size of the change, in the direction of ``change`` (up when 0)."""
    room = baseline if change < 0 else 1.0 - baseline
    sign = -1.0 if change < 0 else 1.0
    last = CURVE_POINTS - 1
    # The last point is the room itself: room · last / last can round past it, and a change past
    # the room is no change a share can make.
    sizes = [room if step == last else room * step / last for step in range(CURVE_POINTS)]
    return [
        {
            "change": sign * size,
            "power": rr.change_power(design, n, baseline, sign * size, alpha, n_2).power,
        }
        for size in sizes
    ]
