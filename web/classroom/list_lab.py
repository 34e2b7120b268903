"""The lab's list experiment: a simulated class given the short list or the long one, saying only
how many items apply (:mod:`rr.list_experiment`). It shows what the counts estimate, how many in
the long list gave their answer away (a count of 0 or of J + 1: no ε bound), and whether Blair &
Imai's test sees a design effect when some leave out a control item once the sensitive one is
added. The page draws it from the query (``?list_controls=…``) and ``GET /api/lab/list`` gives
the same figures."""

from __future__ import annotations

from flask import Blueprint

import rr
from web.core.infrastructure.extensions import limiter
from web.site.compute import computed
from web.site.query import number_argument, seed_argument

bp = Blueprint("list_lab", __name__)
LAB_REQUESTS = "240/minute"  # as the lab's other computations
limiter.limit(LAB_REQUESTS, scope="lab")(bp)
MAX_LIST_N = 20_000
MIN_CONTROLS, MAX_CONTROLS = 2, 10
DEFAULTS = {"controls": 4, "prevalence": 0.2, "control_share": 0.5, "dropping": 0.0, "n": 500}


def list_arguments(prefix: str = "") -> dict:
    """The list experiment's numbers from the query (each ``prefix`` + name), defaults where
    absent; 400 naming a bad one."""
    shares = {
        name: number_argument(f"{prefix}{name}", DEFAULTS[name], 0.0, 1.0)
        for name in ("prevalence", "control_share", "dropping")
    }
    controls = number_argument(
        f"{prefix}controls", DEFAULTS["controls"], MIN_CONTROLS, MAX_CONTROLS, kind=int
    )
    n = number_argument(f"{prefix}n", DEFAULTS["n"], 10, MAX_LIST_N, kind=int)
    return {"controls": int(controls), **shares, "n": int(n)}


@bp.get("/api/lab/list")
def list_experiment():
    """A simulated list experiment: its estimates, the answers given away, the design effect."""
    arguments = list_arguments()
    return computed(list_figures, *arguments.values(), seed_argument())


def list_figures(
    controls: int, prevalence: float, control_share: float, dropping: float, n: int, seed=None
) -> dict:
    """One class's figures for checked arguments (milliseconds; the design-effect test's weights
    are simulated, a fraction of a second, where a family keeps five inequalities or more)."""
    model = rr.list_experiment(controls)
    short, long = model.simulate(n, prevalence, control_share, dropping, seed)
    found = model.estimate(short, long)
    effect = model.design_effect(short, long)
    return {
        "controls": controls,
        "prevalence": prevalence,
        "control_share": control_share,
        "dropping": dropping,
        "n": n,
        "control": [int(value) for value in short],
        "treatment": [int(value) for value in long],
        "estimate": found.estimate,
        "std_error": found.std_error,
        "ci_low": found.ci_low,
        "ci_high": found.ci_high,
        "ml": {"estimate": found.ml.estimate, "std_error": found.ml.std_error},
        "by_arm": [arm._asdict() for arm in found.by_arm],
        # The long list's answers that gave the sensitive one away: J + 1 says yes, 0 says no.
        "ceiling": found.ceiling,
        "floor": found.floor,
        "design_effect": {"p_value": effect.p_value},
    }


def list_query() -> dict:
    """The page's list experiment, from its ``list_`` query arguments."""
    return computed(list_figures, *list_arguments("list_").values(), None)
