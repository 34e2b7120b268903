"""How often the interval of :func:`rr.estimate_proportion` covers the true share, and how wide it is."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._validate import check_count, check_epsilon, check_probability, check_procedure
from .estimate import _estimate
from .mechanism import noise_line
from .simulation import simulate_counts


class Coverage(NamedTuple):
    """Share of intervals that contain the true share, and their mean width."""

    coverage: float
    mean_width: float

    def __repr__(self) -> str:
        return f"Coverage(coverage={self.coverage:.4f}, mean_width={self.mean_width:.4f})"


def simulate_coverage(
    true_proportion,
    n,
    epsilon,
    procedure: str = "spinner_coin",
    confidence: float = 0.95,
    trials: int = 10_000,
    seed=None,
) -> Coverage:
    """Coverage and mean width over ``trials`` simulated surveys (binomial counts, see
    :func:`rr.simulate_estimates`). Its Monte Carlo standard error is sqrt(c(1 − c)/trials).

    Raises
    ------
    ValueError
        On the same bad input as :func:`rr.simulate_estimates`, or a confidence outside (0, 1).
    """
    true_proportion, n, epsilon, confidence = _check(
        true_proportion, n, epsilon, procedure, confidence
    )
    trials = check_count(trials, "trials", minimum=1)
    rng = np.random.default_rng(seed)
    yes = simulate_counts(true_proportion, n, epsilon, trials, rng)
    _, _, low, high, _ = _estimate(yes, np.full_like(yes, n), epsilon, confidence)
    inside = (low <= true_proportion) & (true_proportion <= high)
    return Coverage(float(inside.mean()), float((high - low).mean()))


def exact_coverage(
    true_proportion, n, epsilon, procedure: str = "spinner_coin", confidence: float = 0.95
) -> Coverage:
    """Coverage and mean width computed exactly: Σ_x P(X = x)·[π ∈ CI(x)], X ~ Binomial(n, θ).

    Counts more than 9 standard deviations from n·θ (total probability < 1e-18) are skipped, so
    the cost is O(sqrt(n)).
    """
    from scipy import stats  # here: scipy.stats alone takes ~1 s to import

    true_proportion, n, epsilon, confidence = _check(
        true_proportion, n, epsilon, procedure, confidence
    )
    offset, slope = noise_line(epsilon)
    theta = offset + slope * true_proportion
    spread = 9 * np.sqrt(n * theta * (1 - theta)) + 10
    yes = np.arange(max(0, int(n * theta - spread)), min(n, int(n * theta + spread)) + 1)
    weights = stats.binom.pmf(yes, n, theta)
    _, _, low, high, _ = _estimate(yes, np.full_like(yes, n), epsilon, confidence)
    inside = (low <= true_proportion) & (true_proportion <= high)
    return Coverage(float(weights[inside].sum()), float((weights * (high - low)).sum()))


def _check(true_proportion, n, epsilon, procedure, confidence):
    """Validate the arguments the two coverage functions share."""
    check_procedure(procedure)
    return (
        check_probability(true_proportion, "true_proportion", closed=True),
        check_count(n, "n", minimum=1),
        check_epsilon(epsilon),
        check_probability(confidence, "confidence", closed=False),
    )


__all__ = ["Coverage", "exact_coverage", "simulate_coverage"]
