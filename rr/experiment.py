"""Split-ballot experiments: respondents assigned at random to ways of asking one item.

Each condition asks the item through its own binary design (:class:`rr.Design`; asking directly is
the identity line, :func:`rr.asked_directly`), so each condition's share has its own unbiased
estimate, standard error and exact Clopper–Pearson limits on its own line (:mod:`rr.estimate`).

A **contrast** compares condition 1 with condition 2 (the one asked directly, in the "more is
better" test of a socially undesirable trait; Höglinger & Jann 2018):

    d = π̂₁ − π̂₂,
    L = d − sqrt((π̂₁ − l₁)² + (u₂ − π̂₂)²),   U = d + sqrt((u₁ − π̂₁)² + (π̂₂ − l₂)²)

(MOVER on each condition's exact limits, unclipped, as :mod:`rr.difference` builds it for two groups
on one line; Newcombe 1998, Zou & Donner 2008), held inside [−1, 1], and the one-sided Wald p-value
that condition 1 finds more,

    p_more = 1 − Φ(d / sqrt(se₁² + se₂²)).

The **allocation check** is the sample-ratio test of A/B testing: Pearson's χ² of the respondents
per condition against the declared shares, with k − 1 degrees of freedom (Fabijan et al. 2019). A
page that assigns conditions unevenly shows up as a small p-value.

**Planning** the n per condition for the one-sided test at level α that a randomized condition
finds ``lift`` more than direct questioning, which finds ``baseline``:

    n = (z₁₋α + z_power)² · (v_direct + v_randomized) / lift²,

with v the variance of one respondent's contribution: baseline·(1 − baseline) asked directly and
θ(1 − θ)/b² through the design's line, θ = a + b·(baseline + lift).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import NamedTuple, Protocol

import numpy as np

from ._validate import as_int_array, check_count, check_probability, planned_size
from .difference import exact_lines_coverage, mover
from .errors import ParameterError
from .estimate import line_estimate
from .list_experiment import ListExperiment

METHOD = "MOVER on each condition's exact Clopper-Pearson limits; one-sided Wald test of more"


class Line(Protocol):
    """What a contrast needs of a design: E[share of 1] = offset + slope·π."""

    @property
    def offset(self) -> float: ...

    @property
    def slope(self) -> float: ...


class Contrast(NamedTuple):
    """π₁ − π₂ between two conditions, its interval and the p-value that condition 1 finds more."""

    difference: float
    ci_low: float
    ci_high: float
    p_more: float
    confidence: float
    method: str = METHOD

    def __repr__(self) -> str:
        return (
            f"Contrast(difference={self.difference:.4f}, ci=[{self.ci_low:.4f}, "
            f"{self.ci_high:.4f}] at {self.confidence:.0%}, p_more={self.p_more:.4g})"
        )


class Allocation(NamedTuple):
    """Pearson's χ² of the respondents per condition against the declared shares."""

    chi_square: float
    df: int
    p_value: float

    def __repr__(self) -> str:
        return f"Allocation(chi_square={self.chi_square:.4f}, df={self.df}, p={self.p_value:.4g})"


class ExperimentPlan(NamedTuple):
    """Respondents per condition for the one-sided test, or the power at a given n."""

    n_per_condition: int
    power: float
    baseline: float
    lift: float
    alpha: float

    def __repr__(self) -> str:
        return (
            f"ExperimentPlan(n_per_condition={self.n_per_condition}, power={self.power:.4f}, "
            f"baseline={self.baseline:g}, lift={self.lift:g}, alpha={self.alpha:g})"
        )


def contrast(
    design_1: Line, yes_1, n_1, design_2: Line, yes_2, n_2, confidence: float = 0.95
) -> Contrast:
    """Condition 1's true share minus condition 2's, each from its reports through its design.

    Parameters
    ----------
    design_1, design_2 : rr.Design
        How each condition asked (:func:`rr.asked_directly` for plain questioning).
    yes_1, n_1, yes_2, n_2 : int
        Reports of 1 and respondents in each condition; n ≥ 1, 0 ≤ yes ≤ n.
    confidence : float
        Nominal coverage of the interval, in (0, 1).

    Returns
    -------
    Contrast
        The difference, its MOVER interval and ``p_more`` = 1 − Φ(d / sqrt(se₁² + se₂²)).

    Raises
    ------
    ValueError
        If a count is not a whole number in range, or the confidence is outside (0, 1).

    References
    ----------
    Newcombe (1998), Statistics in Medicine 17: 873–890; Höglinger & Jann (2018), PLoS ONE 13(8).
    """
    confidence = check_probability(confidence, "confidence", closed=False)
    figures = [
        _condition_figures(design, yes, n, confidence, number)
        for number, (design, yes, n) in enumerate(
            ((design_1, yes_1, n_1), (design_2, yes_2, n_2)), 1
        )
    ]
    return _combine(figures[0], figures[1], confidence)


def contrast_of(first, second, confidence: float = 0.95) -> Contrast:
    """Condition 1's true share minus condition 2's from each one's figures (estimate, standard
    error, interval limits), for a way of asking with no single line (the lie detector's two
    arms): the difference, its MOVER interval on the two intervals and ``p_more``.

    Raises
    ------
    ValueError
        If either is not four finite numbers with ci_low ≤ ci_high, or the confidence is outside
        (0, 1).
    """
    confidence = check_probability(confidence, "confidence", closed=False)
    for number, figures in enumerate((first, second), 1):
        values = tuple(float(value) for value in figures)
        if len(values) != 4 or not all(math.isfinite(v) for v in values) or values[2] > values[3]:
            raise ValueError(
                f"condition {number} needs (estimate, std_error, ci_low, ci_high) with "
                f"ci_low <= ci_high, got {figures!r}"
            )
    return _combine(tuple(first), tuple(second), confidence)


def _condition_figures(design: Line, yes, n, confidence: float, number: int):
    """(estimate, se, low, high) of one condition, unclipped; validates its counts."""
    yes_array = as_int_array(yes, f"yes_{number}")
    n_array = as_int_array(n, f"n_{number}")
    if n_array < 1 or yes_array < 0 or yes_array > n_array:
        raise ParameterError(
            f"n_{number}",
            f"condition {number} needs n >= 1 and 0 <= yes <= n, got yes={yes!r}, n={n!r}",
        )
    estimate, std_error, low, high = line_estimate(
        np.array([yes_array]), np.array([n_array]), design.offset, design.slope, confidence
    )
    return float(estimate[0]), float(std_error[0]), float(low[0]), float(high[0])


def _combine(first, second, confidence: float) -> Contrast:
    """MOVER limits and the one-sided p-value from two conditions' figures; assumes valid input."""
    (p1, se1, l1, u1), (p2, se2, l2, u2) = first, second
    d, lower, upper = mover((p1, l1, u1), (p2, l2, u2))
    p_more = 1 - NormalDist().cdf(d / math.hypot(se1, se2))
    return Contrast(d, lower, upper, p_more, confidence)


def contrast_coverage(
    design_1: Line,
    share_1,
    n_1,
    design_2: Line,
    share_2,
    n_2,
    confidence: float = 0.95,
) -> float:
    """The exact coverage of :func:`contrast`'s interval for π₁ − π₂:

        Σ_{x₁, x₂} P(X₁ = x₁)·P(X₂ = x₂)·[π₁ − π₂ ∈ CI(x₁, x₂)],  X_i ~ Binomial(n_i, a_i + b_i·π_i),

    every pair of counts enumerated ((n₁ + 1)(n₂ + 1) of them).

    Raises
    ------
    ValueError
        On a share outside [0, 1], a size below 1 or above 5,000, or a bad confidence.
    """
    confidence = check_probability(confidence, "confidence", closed=False)
    checked = []
    for number, (share, n) in enumerate(((share_1, n_1), (share_2, n_2)), 1):
        share = check_probability(share, f"share_{number}", closed=True)
        n = check_count(n, f"n_{number}", minimum=1)
        if n > 5000:
            raise ParameterError(
                f"n_{number}", f"n_{number} must be at most 5000 to enumerate, got {n}"
            )
        checked.append((share, n))
    (share_1, n_1), (share_2, n_2) = checked
    return exact_lines_coverage(
        (design_1.offset, design_1.slope), share_1, n_1,
        (design_2.offset, design_2.slope), share_2, n_2, confidence,
    )  # fmt: skip


def allocation_check(counts: Sequence[int], shares: Sequence[float]) -> Allocation:
    """Pearson's χ² of ``counts`` (respondents per condition) against the declared ``shares``.

        χ² = Σ (n_i − N·s_i)² / (N·s_i),  s_i = share_i / Σ share,  df = k − 1,

    p = P(χ²_df ≥ χ²). With no respondents yet, χ² = 0 and p = 1.

    Raises
    ------
    ValueError
        If fewer than two conditions are given, the lengths differ, a count is not a whole number
        ≥ 0, or a share is not a finite number > 0.
    """
    from scipy import stats  # here: scipy.stats alone takes ~1 s to import

    observed = as_int_array(list(counts), "counts")
    if observed.ndim != 1 or observed.size < 2:
        raise ParameterError("counts", f"counts needs two conditions or more, got {counts!r}")
    if np.any(observed < 0):
        raise ParameterError("counts", f"counts must be >= 0, got {list(counts)!r}")
    if len(shares) != observed.size:
        raise ParameterError(
            "shares", f"shares must have one entry per count ({observed.size}), got {len(shares)}"
        )
    weights = np.array([_positive(share, index) for index, share in enumerate(shares)])
    total = int(observed.sum())
    df = observed.size - 1
    if total == 0:
        return Allocation(0.0, df, 1.0)
    expected = total * weights / weights.sum()
    chi_square = float(((observed - expected) ** 2 / expected).sum())
    return Allocation(chi_square, df, float(stats.chi2.sf(chi_square, df)))


def _positive(share, index: int) -> float:
    if isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 < share < math.inf:
        raise ParameterError(
            f"shares[{index}]", f"shares[{index}] must be a number > 0, got {share!r}"
        )
    return float(share)


def plan_experiment(
    design: Line | ListExperiment, baseline, lift, power=0.8, n=None, alpha: float = 0.05
) -> ExperimentPlan:
    """Respondents per condition for the one-sided test that ``design`` finds ``lift`` more than
    asking directly (which finds ``baseline``), at level ``alpha`` with ``power``; or, given
    ``n``, the power at n per condition.

        n = ⌈(z₁₋α + z_power)²·(v_d + v_r)/lift²⌉,  power(n) = Φ(lift·√n/√(v_d + v_r) − z₁₋α),

    v_d = β(1 − β), v_r = θ(1 − θ)/b², θ = a + b·(β + lift); for a list experiment of J control
    items (each held with ½, half the condition in each list), v_r = 2(J/2 + π(1 − π)) with
    π = β + lift.

    Raises
    ------
    ValueError
        If ``baseline`` is outside [0, 1], ``lift`` not in (0, 1 − baseline], ``power`` or
        ``alpha`` outside (0, 1), or ``n`` not a whole number ≥ 1.
    """
    baseline = check_probability(baseline, "baseline", closed=True)
    lift = check_probability(lift, "lift", closed=True)
    if lift == 0 or baseline + lift > 1:
        raise ParameterError(
            "lift",
            f"lift must be > 0 with baseline + lift <= 1, got lift={lift!r}, baseline={baseline!r}",
        )
    alpha = check_probability(alpha, "alpha", closed=False)
    spread = baseline * (1 - baseline) + _spread(design, baseline + lift)
    z_alpha = -NormalDist().inv_cdf(alpha)
    if n is None:
        power = check_probability(power, "power", closed=False)
        z_sum = max(0.0, z_alpha + NormalDist().inv_cdf(power))
        size = planned_size(z_sum**2 * spread, lift**2, "lift", lift)
    else:
        size = check_count(n, "n", minimum=1)
    # With no spread either way, any n tells the conditions apart.
    achieved = 1.0 if spread == 0 else NormalDist().cdf(lift * math.sqrt(size / spread) - z_alpha)
    return ExperimentPlan(size, achieved, baseline, lift, alpha)


def _spread(design, share: float) -> float:
    """n·Var(π̂) of one condition of n respondents at true ``share``: θ(1 − θ)/b² through a line
    (θ = a + b·share), or a list experiment's 2(2Jψ(1 − ψ) + π(1 − π)) at ψ = ½ (half its
    respondents in each list: :meth:`rr.ListExperiment.margin_of_error`'s variance). Assumes a
    valid share."""
    if isinstance(design, ListExperiment):
        return 2 * (2 * design.controls * 0.25 + share * (1 - share))
    theta = design.offset + design.slope * share
    return theta * (1 - theta) / design.slope**2


def simulate_power(
    design: Line, baseline, lift, n, alpha: float = 0.05, trials: int = 4000, seed=None
) -> float:
    """Share of ``trials`` simulated experiments (n per condition, binomial counts) whose
    :func:`contrast` against direct questioning has p_more < ``alpha``: the power
    :func:`plan_experiment` predicts, checked by simulation."""
    from .design import asked_directly

    n = check_count(n, "n", minimum=1)
    rng = np.random.default_rng(seed)
    theta = design.offset + design.slope * (baseline + lift)
    randomized = rng.binomial(n, theta, size=trials)
    direct = rng.binomial(n, baseline, size=trials)
    return float(np.mean(p_more_of(design, randomized, asked_directly(), direct, n) < alpha))


def p_more_of(design_1: Line, yes_1, design_2: Line, yes_2, n: int) -> np.ndarray:
    """:func:`contrast`'s ``p_more`` for arrays of counts, n in each condition; assumes valid
    counts (the simulations' fast path)."""
    from scipy import special  # here: scipy alone takes a while to import

    total = np.full(np.shape(yes_1), n)
    first, first_se, _, _ = line_estimate(
        np.asarray(yes_1), total, design_1.offset, design_1.slope, 0.95
    )
    second, second_se, _, _ = line_estimate(
        np.asarray(yes_2), total, design_2.offset, design_2.slope, 0.95
    )
    return 1 - special.ndtr((first - second) / np.hypot(first_se, second_se))


__all__ = [
    "METHOD",
    "Allocation",
    "Contrast",
    "ExperimentPlan",
    "allocation_check",
    "contrast",
    "contrast_coverage",
    "contrast_of",
    "plan_experiment",
    "simulate_power",
]
