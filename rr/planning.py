"""How many respondents a survey needs for a given margin of error."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np

from ._validate import (
    check_count,
    check_epsilon,
    check_plannable,
    check_positive,
    check_probability,
    check_procedure,
    planned_size,
)
from .estimate import clopper_pearson
from .mechanism import noise_line

# Above this many respondents the half-width comes from the normal approximation. SciPy's inverse
# incomplete beta loses digits at such sizes (at 10^15 it gave a sample size 0.999 of the right
# one, at 10^17 0.37), while the exact and normal half-widths already agree to 1e-5 at 10^10.
NORMAL_FROM_N = 10**10


def sample_size(
    margin,
    epsilon,
    procedure: str = "spinner_coin",
    confidence: float = 0.95,
    true_proportion: float = 0.5,
) -> int:
    """Respondents needed for the interval's half-width to be at most ``margin``.

    The normal approximation gives the starting point

        n₀ = ⌈ z² · θ(1 − θ) / (b² · margin²) ⌉,  θ = a + b·π, a = 1/(1 + e^ε), b = tanh(ε/2),

    and the answer is the smallest n ≥ 1 at which the Clopper–Pearson interval that
    :func:`rr.estimate_proportion` reports, evaluated at the expected count n·θ, has half-width
    (high − low)/2 ≤ margin before clipping (above ``NORMAL_FROM_N`` respondents, the normal
    half-width z·sqrt(θ(1 − θ)/n)/b, which it equals there to 1e-5).

    What is promised, exactly: the interval's *mean* half-width over repeated surveys of n is at
    most ``margin`` (the width is concave in the count, so its mean is at most the width at the
    mean count, by Jensen; ``tests/`` checks it by simulation). A single survey's interval is a
    little narrower or wider than that, by chance: about half of single surveys reach the margin
    (53% at π = 0.1, ε = 4, margin 0.03). π = 0.5 maximises θ(1 − θ), which makes the default the
    worst case for the mean.

    Parameters
    ----------
    margin : float
        Wanted half-width of the interval for the true share, > 0 (0.05 means ±5 points).
    epsilon : float
        Privacy loss of one spin, ε > 0.
    procedure : {"spinner_coin", "spinner"}
        Both need the same n at equal ε.
    confidence : float
        Nominal coverage, in (0, 1).
    true_proportion : float
        Anticipated true share π in [0, 1].

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If margin ≤ 0, ε is not finite and > 0, the procedure is unknown, the confidence is outside
        (0, 1) or the true proportion outside [0, 1]; a :class:`rr.ParameterError` naming
        ``margin`` if the margin is too small for any survey (past 10¹⁸ respondents).
    """
    margin = check_positive(margin, "margin")
    epsilon = check_epsilon(epsilon)
    check_procedure(procedure)
    confidence = check_probability(confidence, "confidence", closed=False)
    true_proportion = check_probability(true_proportion, "true_proportion", closed=True)
    return _smallest_n(margin, epsilon, confidence, true_proportion)


def margin_of_error(
    n,
    epsilon,
    procedure: str = "spinner_coin",
    confidence: float = 0.95,
    true_proportion: float = 0.5,
) -> float:
    """Expected half-width of the interval for ``n`` respondents: the inverse of :func:`sample_size`.

    The half-width (high − low)/2, before clipping, of the Clopper–Pearson interval that
    :func:`rr.estimate_proportion` reports, evaluated at the expected count n·θ with
    θ = a + b·π. For large n it approaches z·sqrt(θ(1 − θ)/n)/b.

    Raises
    ------
    ValueError
        If n is not a whole number ≥ 1, or on the bad values :func:`sample_size` refuses.
    """
    n = check_count(n, "n", minimum=1)
    epsilon = check_epsilon(epsilon)
    check_procedure(procedure)
    confidence = check_probability(confidence, "confidence", closed=False)
    true_proportion = check_probability(true_proportion, "true_proportion", closed=True)
    return _half_width(n, epsilon, confidence, true_proportion)


def _half_width(
    n: int, epsilon: float, confidence: float, true_proportion: float, k: int = 2
) -> float:
    """Unclipped half-width on the true-share scale at the expected count, for one answer among
    ``k``; assumes valid input."""
    offset, slope = noise_line(epsilon, k)
    noisy = offset + slope * true_proportion
    if n > NORMAL_FROM_N:
        return _z(confidence) * math.sqrt(noisy * (1 - noisy) / n) / slope
    expected = n * noisy
    low, high = clopper_pearson(np.array(expected), np.array(float(n)), confidence)
    return float(high - low) / (2 * slope)


def _smallest_n(margin: float, epsilon: float, confidence: float, true_proportion: float) -> int:
    """Search upward from the normal approximation, then bisect; assumes valid input."""
    offset, slope = noise_line(epsilon)
    noisy = offset + slope * true_proportion
    z = _z(confidence)
    start = planned_size(z * z * noisy * (1 - noisy), (slope * margin) ** 2, "margin", margin)

    def fits(n: int) -> bool:
        return _half_width(n, epsilon, confidence, true_proportion) <= margin

    high = start
    while not fits(high):
        high = check_plannable(high * 2, "margin", margin)
    # low is the largest n known not to fit; 0 stands for "none checked yet".
    low = 0 if high == start else high // 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if fits(middle) else (middle, high)
    return high


def _z(confidence: float) -> float:
    """The two-sided normal quantile for a confidence in (0, 1)."""
    return -NormalDist().inv_cdf((1 - confidence) / 2)


__all__ = ["margin_of_error", "sample_size"]
