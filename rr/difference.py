"""The difference in prevalence between two groups of respondents, with its interval and test.

Each group's share is estimated as in :mod:`rr.estimate` (or :mod:`rr.choice` for one option of a
single-choice question). The interval for π₁ − π₂ is Newcombe's method of variance estimates
recovery (MOVER, Newcombe 1998; Zou & Donner 2008) built on each group's exact Clopper–Pearson
limits carried through the noise line:

    L = d − sqrt((p₁ − l₁)² + (u₂ − p₂)²),   U = d + sqrt((u₁ − p₁)² + (p₂ − l₂)²),

with p the unbiased estimates, d = p₁ − p₂, and each group's limits l, u mapped through the line
but not clipped (a group whose true share is 0 has estimates and limits spread around 0, and
clipping them would lose coverage). It keeps the exact limits' coverage at small n, where a Wald
interval falls short; the interval is then held inside [−1, 1]. The p-value is the two-sided Wald test of
π₁ = π₂ with the two unbiased estimates and their standard errors.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from ._validate import as_int_array, check_epsilon, check_probability, check_procedure
from .errors import ParameterError
from .estimate import _on_the_line, line_estimate
from .mechanism import noise_line

METHOD = "MOVER (Newcombe) on exact Clopper-Pearson limits; two-sided Wald test"


class Difference(NamedTuple):
    """π₁ − π₂ with its interval and the p-value of π₁ = π₂."""

    estimate: float
    ci_low: float
    ci_high: float
    p_value: float
    confidence: float
    method: str = METHOD

    def __repr__(self) -> str:
        return (
            f"Difference(estimate={self.estimate:.4f}, ci=[{self.ci_low:.4f}, {self.ci_high:.4f}] "
            f"at {self.confidence:.0%}, p={self.p_value:.4g})"
        )


def difference(
    yes_1,
    n_1,
    yes_2,
    n_2,
    epsilon,
    procedure: str = "spinner_coin",
    k: int = 2,
    confidence: float = 0.95,
) -> Difference:
    """The difference between two groups' true shares from their reported counts.

    A convenience for the two spinners (``k = 2``: the same as ``spinner_coin(epsilon).difference(…)``,
    :meth:`rr.Design.difference`) and for one option of a single-choice question (``k`` options).

    Parameters
    ----------
    yes_1, n_1, yes_2, n_2 : int
        Reported yes (or reports of the option) and respondents in each group; n ≥ 1.
    epsilon : float
        Privacy loss the reports were collected under.
    procedure : {"spinner_coin", "spinner"}
    k : int
        2 for yes/no and multi-select options; the option count for a single-choice option.
    confidence : float
        Nominal coverage, in (0, 1).

    Raises
    ------
    ValueError
        If a count is not a whole number with 0 ≤ yes ≤ n and n ≥ 1, or on a bad ε, procedure, k
        or confidence.
    """
    epsilon = check_epsilon(epsilon)
    check_procedure(procedure)
    if isinstance(k, bool) or not isinstance(k, int) or k < 2:
        raise ParameterError("k", f"k must be a whole number >= 2, got {k!r}")
    offset, slope = noise_line(epsilon, k)
    return difference_on_line(yes_1, n_1, yes_2, n_2, offset, slope, confidence)


def difference_on_line(
    yes_1, n_1, yes_2, n_2, offset: float, slope: float, confidence: float = 0.95
) -> Difference:
    """:func:`difference` for any line E[reported share] = a + b·π (a binary design's,
    :meth:`rr.Design.difference`); assumes a valid line."""
    confidence = check_probability(confidence, "confidence", closed=False)
    yes = as_int_array([yes_1, yes_2], "yes")
    n = as_int_array([n_1, n_2], "n")
    if np.any(n < 1) or np.any(yes < 0) or np.any(yes > n):
        raise ValueError(
            f"each group needs n >= 1 and 0 <= yes <= n, got yes={yes.tolist()}, n={n.tolist()}"
        )
    estimate, std_error, low, high = line_estimate(yes, n, offset, slope, confidence)
    return _combine(estimate, std_error, low, high, confidence)


def _combine(estimate, std_error, low, high, confidence: float) -> Difference:
    """MOVER limits and the Wald p-value from two groups' figures; assumes valid input."""
    d, lower, upper = mover((estimate[0], low[0], high[0]), (estimate[1], low[1], high[1]))
    spread = math.hypot(std_error[0], std_error[1])
    p_value = 2 * (1 - NormalDist().cdf(abs(d) / spread))
    return Difference(d, lower, upper, p_value, confidence)


def wald_difference(first, second, confidence: float, method: str) -> Difference:
    """The first estimate less the second, each (estimate, std_error) of independent groups:
    its Wald interval and two-sided p-value, the standard errors added in quadrature. Assumes
    finite figures and a checked confidence."""
    difference = first[0] - second[0]
    std_error = math.hypot(first[1], second[1])
    z = -NormalDist().inv_cdf((1 - confidence) / 2)
    statistic = difference / std_error if std_error > 0 else 0.0
    return Difference(
        estimate=difference,
        ci_low=difference - z * std_error,
        ci_high=difference + z * std_error,
        p_value=math.erfc(abs(statistic) / math.sqrt(2)),
        confidence=confidence,
        method=method,
    )


def mover(first, second) -> tuple[float, float, float]:
    """d = p₁ − p₂ and its MOVER limits, held inside [−1, 1], from each group's (estimate, low,
    high) on its own line; assumes valid input."""
    (p1, l1, u1), (p2, l2, u2) = first, second
    d = float(p1 - p2)
    lower = d - math.hypot(p1 - l1, u2 - p2)
    upper = d + math.hypot(u1 - p1, p2 - l2)
    return d, max(lower, -1.0), min(upper, 1.0)


def exact_difference_coverage(
    offset: float,
    slope: float,
    share_1: float,
    share_2: float,
    n_1: int,
    n_2: int,
    confidence: float = 0.95,
) -> float:
    """The MOVER interval's exact coverage of π₁ − π₂ for two independent samples on one line:

        Σ_{x₁, x₂} P(X₁ = x₁)·P(X₂ = x₂)·[π₁ − π₂ ∈ CI(x₁, x₂)],  X_i ~ Binomial(n_i, a + b·π_i),

    every pair of counts enumerated ((n₁ + 1)(n₂ + 1) of them). Assumes a valid line; the public
    way in is :meth:`rr.Design.difference_coverage`."""
    line = (offset, slope)
    return exact_lines_coverage(line, share_1, n_1, line, share_2, n_2, confidence)


def exact_lines_coverage(
    line_1, share_1: float, n_1: int, line_2, share_2: float, n_2: int, confidence: float
) -> float:
    """:func:`exact_difference_coverage` for two samples each on its own line (offset, slope), as
    a split ballot's conditions are (:func:`rr.contrast_coverage`); assumes valid input."""
    from scipy import stats  # here: scipy.stats alone takes ~1 s to import

    parts = []
    for (offset, slope), share, n in ((line_1, share_1, n_1), (line_2, share_2, n_2)):
        yes = np.arange(n + 1)
        estimate, _, low, high = line_estimate(yes, np.full_like(yes, n), offset, slope, confidence)
        weight = stats.binom.pmf(yes, n, offset + slope * share)
        parts.append((estimate, low, high, weight))
    (p1, l1, u1, w1), (p2, l2, u2, w2) = parts
    d = p1[:, None] - p2[None, :]
    lower = np.maximum(d - np.hypot((p1 - l1)[:, None], (u2 - p2)[None, :]), -1.0)
    upper = np.minimum(d + np.hypot((u1 - p1)[:, None], (p2 - l2)[None, :]), 1.0)
    truth = share_1 - share_2
    covered = (lower <= truth + 1e-12) & (truth - 1e-12 <= upper)
    return float(w1 @ covered @ w2)


def simulate_difference_coverage(
    share_1,
    share_2,
    n,
    epsilon,
    confidence: float = 0.95,
    trials: int = 4000,
    seed=None,
    k: int = 2,
) -> float:
    """Share of ``trials`` simulated pairs of groups of ``n`` whose interval covered π₁ − π₂."""
    share_1 = check_probability(share_1, "share_1", closed=True)
    share_2 = check_probability(share_2, "share_2", closed=True)
    epsilon = check_epsilon(epsilon)
    offset, slope = noise_line(epsilon, k)
    rng = np.random.default_rng(seed)
    yes = rng.binomial(n, offset + slope * np.array([share_1, share_2]), size=(trials, 2))
    estimate, std_error, low, high = _on_the_line(yes, np.full_like(yes, n), epsilon, confidence, k)
    truth = share_1 - share_2
    covered = 0
    for row in range(trials):
        result = _combine(estimate[row], std_error[row], low[row], high[row], confidence)
        covered += result.ci_low <= truth <= result.ci_high
    return covered / trials


__all__ = [
    "METHOD",
    "Difference",
    "difference",
    "exact_difference_coverage",
    "simulate_difference_coverage",
]
