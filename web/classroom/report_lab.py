"""The lab's reproduction of the reference report's experiment (:mod:`rr.sanitized`): a simulated
normal variable, its Bayesian sufficient statistics sanitized by the Laplace mechanism, Gibbs
sampling and m synthetic sets, at ε = 0.1, 1 and 10."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from rr.sanitized import BURN_IN, SWEEPS, SanitizedSynthesis, sanitized_synthesis

EPSILONS = (0.1, 1.0, 10.0)
SETS = 5
TRACE_STEP = 10  # every 10th sweep on the page's trace plots
SEED = 2023


@lru_cache(maxsize=32)
def report_experiment(n: int, low: float, high: float) -> tuple[SanitizedSynthesis, ...]:
    """The experiment for n values of N(middle, (0.15·width)²) held inside [low, high]; the same
    settings always give the same numbers (fixed seeds)."""
    width = high - low
    values = np.clip(
        np.random.default_rng(SEED).normal(low + width / 2, 0.15 * width, n), low, high
    )
    return tuple(
        sanitized_synthesis(values, low, high, epsilon, m=SETS, seed=SEED + index)
        for index, epsilon in enumerate(EPSILONS)
    )


def traces(runs: tuple[SanitizedSynthesis, ...]) -> list[dict]:
    """Each ε's chains of μ and λ (the first set's), thinned for the page."""
    return [
        {
            "epsilon": run.epsilon,
            "sweeps": SWEEPS,
            "burnIn": BURN_IN,
            "step": TRACE_STEP,
            "mu": run.mu_chain[::TRACE_STEP].round(6).tolist(),
            "lambda": run.lambda_chain[::TRACE_STEP].tolist(),
        }
        for run in runs
    ]
