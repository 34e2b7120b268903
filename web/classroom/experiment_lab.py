"""The lab's split ballot: a simulated class asked one sensitive question directly and through
the spinner, with respondents who deny it when asked directly and respondents who say "no"
whatever the spinner says (:func:`rr.split_ballot`); the page draws it from the query
(``?experiment_epsilon=…``) and ``GET /api/lab/experiment`` gives the same figures."""

from __future__ import annotations

from flask import Blueprint

import rr
from rr.split_ballot import ClassFigures
from web.core.infrastructure.extensions import limiter
from web.site.compute import computed
from web.site.query import number_argument, seed_argument

bp = Blueprint("experiment_lab", __name__)
LAB_REQUESTS = "240/minute"  # as the lab's other computations
limiter.limit(LAB_REQUESTS, scope="lab")(bp)
MAX_CONDITION_N = 20_000
TRIALS = 1000
DEFAULTS = {"epsilon": 1.0, "prevalence": 0.3, "denial": 0.5, "noncompliance": 0.05, "n": 1000}


def experiment_arguments(prefix: str = "") -> dict:
    """The split ballot's numbers from the query (each ``prefix`` + name), defaults where absent;
    400 naming a bad one."""
    arguments = {
        name: number_argument(f"{prefix}{name}", DEFAULTS[name], low, high)
        for name, low, high in (
            ("epsilon", 0.05, 10.0),
            ("prevalence", 0.0, 1.0),
            ("denial", 0.0, 1.0),
            ("noncompliance", 0.0, 1.0),
        )
    }
    arguments["n"] = int(
        number_argument(f"{prefix}n", DEFAULTS["n"], 10, MAX_CONDITION_N, kind=int)
    )
    return arguments


@bp.get("/api/lab/experiment")
def experiment():
    """A simulated split ballot: what each condition finds, a zero-prevalence item, the power."""
    arguments = experiment_arguments()
    return computed(experiment_figures, *arguments.values(), seed_argument())


def experiment_figures(
    epsilon: float, prevalence: float, denial: float, noncompliance: float, n: int, seed=None
) -> dict:
    """The split ballot's figures for checked arguments (tens of milliseconds at the largest n)."""
    found = rr.split_ballot(
        rr.spinner_coin(epsilon), prevalence, denial, noncompliance, n, trials=TRIALS, seed=seed
    )
    return {
        "epsilon": epsilon,
        "prevalence": prevalence,
        "denial": denial,
        "noncompliance": noncompliance,
        "n": n,
        "trials": TRIALS,
        # The expectations and the power as numbers; each condition's figures in this class, and
        # its contrast, as objects.
        **{
            name: value._asdict() if isinstance(value, (ClassFigures, rr.Contrast)) else value
            for name, value in found._asdict().items()
        },
    }


def experiment_query() -> dict:
    """The page's split ballot, from its ``experiment_`` query arguments."""
    return computed(experiment_figures, *experiment_arguments("experiment_").values(), None)
