"""Power to see a change: between two waves of a survey, or between two groups of one wave.

Two independent samples of n₁ and n₂ respondents answer through the same binary design (the line
θ = a + b·π, :class:`rr.Design`); their true shares are π₁ = baseline and π₂ = baseline + change.
The test is the one the app reports with every difference (:func:`rr.difference`): the two-sided
Wald test of π₁ = π₂,

    z = (π̂₂ − π̂₁) / sqrt(se₁² + se₂²),   seᵢ = sqrt(θ̃ᵢ(1 − θ̃ᵢ)/nᵢ) / |b|,

with θ̃ the reported share held inside the shares the design can produce, rejecting when
|z| > z₁₋α/₂. The slope cancels, so the test is the unpooled two-proportion Wald test on the
reported shares, and the design matters through θ₁ and θ₂ alone: randomized response shrinks a
change in π by the factor b before the test sees it, which is why it needs about 1/b² times the
respondents of a direct question.

**Exact power** (n₁, n₂ ≤ ``EXACT_UP_TO``) sums the two binomial distributions of the counts of
reports of 1 over every pair of counts the test rejects (the counts beyond 10⁻¹⁴ of either tail
are left out: at most 4·10⁻¹⁴ of probability). **The normal approximation** (beyond) takes z as
normal with mean Δθ/σ and variance 1, σ² = θ₁(1 − θ₁)/n₁ + θ₂(1 − θ₂)/n₂:

    power ≈ Φ(Δθ/σ − z₁₋α/₂) + Φ(−Δθ/σ − z₁₋α/₂).

The n per wave for a wanted power starts from that formula's

    n₀ = (z₁₋α/₂ + z_power)² · (θ₁(1 − θ₁) + θ₂(1 − θ₂)) / Δθ²

and is the smallest n from which the exact power reaches the target (exact power is a sawtooth
in n, so the search checks a run of the following n as well). The detectable change is the
smallest change (in the direction asked) whose power at n reaches the target.

References: Chow, Shao & Wang (2008), *Sample Size Calculations in Clinical Research*, §4.2;
Blair, Imai & Zhou (2015) for power in randomized response (R's ``rr::power.rr.test``, which
takes the null's standard error at the null shares; ``docs/statistics.md`` compares the two).
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from ._validate import check_count, check_probability, planned_size
from .design import Design
from .errors import OUT_OF_RANGE, ParameterError

# Up to this many respondents per sample the power is summed exactly; beyond, approximated.
EXACT_UP_TO = 10_000
# Counts this far into either tail of a binomial are left out of the exact sum.
TAIL = 1e-14
# The sample size search also checks this many n past the first that reaches the target.
STEADY_RUN = 25


class ChangePower(NamedTuple):
    """The power of the two-sided Wald test of π₁ = π₂ at these sizes and shares."""

    power: float
    n_1: int
    n_2: int
    baseline: float
    change: float
    alpha: float
    method: str  # "exact" or "normal"

    def __repr__(self) -> str:
        return (
            f"ChangePower(power={self.power:.4f}, n={self.n_1}+{self.n_2}, "
            f"{self.baseline:g} -> {self.baseline + self.change:g}, alpha={self.alpha:g}, "
            f"{self.method})"
        )


def change_power(design: Design, n, baseline, change, alpha: float = 0.05, n_2=None) -> ChangePower:
    """Power to detect a change from ``baseline`` to ``baseline + change`` with ``n`` respondents
    (per wave; ``n_2`` for the second sample when it differs).

    Parameters
    ----------
    design : rr.Design
        The binary design both samples answer through (``rr.spinner_coin(1.0)``, …).
    n, n_2 : int
        Respondents in the first and second sample, ≥ 2 (``n_2`` defaults to ``n``).
    baseline : float
        π₁ in [0, 1].
    change : float
        π₂ − π₁, with π₂ in [0, 1]; 0 gives the test's size.
    alpha : float
        Significance level, in (0, 1).

    Returns
    -------
    ChangePower
        Exact up to ``EXACT_UP_TO`` respondents per sample, the normal approximation beyond.

    Raises
    ------
    ValueError
        On a design that is not an :class:`rr.Design`, a size below 2, a share outside [0, 1],
        or α outside (0, 1).

    Examples
    --------
    >>> round(change_power(spinner_coin(2.0), 500, 0.2, 0.1).power, 3)
    0.743
    """
    design, n_1, n_2, baseline, change, alpha = _checked(design, n, n_2, baseline, change, alpha)
    power, method = _power(design, n_1, n_2, baseline, change, alpha)
    return ChangePower(power, n_1, n_2, baseline, change, alpha, method)


def change_sample_size(
    design: Design, baseline, change, power: float = 0.8, alpha: float = 0.05
) -> int:
    """Respondents per wave for the test to reach ``power`` against this change.

    The smallest n (equal in both waves) at which the power reaches ``power`` and stays there for
    the next ``STEADY_RUN`` sizes (exact power wobbles with n), found by bisection and then a
    check of that run; the normal formula's n₀ beyond ``EXACT_UP_TO``.

    Raises
    ------
    ValueError
        On a change of 0 or one that would need more than ``MAX_SAMPLE_SIZE`` respondents, a
        share outside [0, 1], power or α outside (0, 1), or power ≤ α.
    """
    design, _, _, baseline, change, alpha = _checked(design, 2, 2, baseline, change, alpha)
    power = check_probability(power, "power", closed=False)
    if change == 0:
        raise ParameterError("change", "change must not be 0: no n detects no change", value=0)
    if power <= alpha:
        raise ParameterError("power", f"power must be above alpha ({alpha:g}), got {power!r}")
    start = _normal_n(design, baseline, change, power, alpha)
    if start > EXACT_UP_TO:
        return start
    reaches = lambda m: _power(design, m, m, baseline, change, alpha)[0] >= power  # noqa: E731
    # Bisection as if the power grew steadily with n, then a run of sizes checked one by one.
    low, high = 1, start
    while not reaches(high):
        if high == EXACT_UP_TO:
            return max(start, EXACT_UP_TO + 1)  # beyond, the normal formula's n
        low, high = high, min(2 * high, EXACT_UP_TO)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if reaches(middle) else (middle, high)
    n = high
    while n <= EXACT_UP_TO:
        failing = next((m for m in range(n, n + STEADY_RUN) if not reaches(m)), None)
        if failing is None:
            return n
        n = failing + 1
    return EXACT_UP_TO + 1


def detectable_change(
    design: Design,
    n,
    baseline,
    power: float = 0.8,
    alpha: float = 0.05,
    direction: int = 1,
    n_2=None,
) -> float | None:
    """The smallest change from ``baseline`` (up if ``direction`` is 1, down if −1) that ``n``
    respondents per wave (``n`` and ``n_2`` in two groups of one wave) detect with ``power``;
    None when no change within [0, 1] does.

    Found by bisection to 10⁻⁵ on the exact power (the normal approximation past
    ``EXACT_UP_TO``), which grows with the size of the change.
    """
    design, n_1, n_2, baseline, _, alpha = _checked(design, n, n_2, baseline, 0.0, alpha)
    power = check_probability(power, "power", closed=False)
    if direction not in (1, -1):
        raise ParameterError("direction", f"direction must be 1 or -1, got {direction!r}")
    room = 1.0 - baseline if direction == 1 else baseline
    reaches = lambda size: _power(design, n_1, n_2, baseline, direction * size, alpha)[0] >= power  # noqa: E731
    if room <= 0 or not reaches(room):
        return None
    low, high = 0.0, room
    while high - low > 1e-5:
        middle = (low + high) / 2
        low, high = (low, middle) if reaches(middle) else (middle, high)
    return high


def simulate_change_power(
    design: Design, n, baseline, change, alpha: float = 0.05, trials: int = 20_000, seed=None
) -> float:
    """Share of ``trials`` simulated pairs of samples in which the test rejects π₁ = π₂."""
    design, n_1, n_2, baseline, change, alpha = _checked(design, n, None, baseline, change, alpha)
    rng = np.random.default_rng(seed)
    thetas = design.offset + design.slope * np.array([baseline, baseline + change])
    first = rng.binomial(n_1, thetas[0], size=trials)
    second = rng.binomial(n_2, thetas[1], size=trials)
    return float(np.mean(_rejects(design, first, n_1, second, n_2, alpha)))


def _checked(design, n, n_2, baseline, change, alpha):
    if not isinstance(design, Design):
        raise ParameterError("design", f"design must be an rr.Design, got {design!r}")
    n_1 = check_count(n, "n", minimum=2)
    n_2 = n_1 if n_2 is None else check_count(n_2, "n_2", minimum=2)
    baseline = check_probability(baseline, "baseline", closed=True)
    if isinstance(change, bool) or not isinstance(change, int | float) or not math.isfinite(change):
        raise ParameterError("change", f"change must be a finite number, got {change!r}")
    if not 0.0 <= baseline + change <= 1.0:
        raise ParameterError(
            "change",
            f"baseline + change must lie in [0, 1], got {baseline:g} + {change:g}",
            value=change,
        )
    alpha = check_probability(alpha, "alpha", closed=False)
    if alpha / 2 == 0:  # a two-sided test's tail that underflows: no finite critical value
        raise ParameterError(
            "alpha", f"alpha {alpha!r} is too small for a two-sided test", OUT_OF_RANGE, alpha
        )
    return design, n_1, n_2, baseline, float(change), alpha


def _power(design: Design, n_1: int, n_2: int, baseline: float, change: float, alpha: float):
    """(power, method); assumes valid input."""
    theta_1 = design.offset + design.slope * baseline
    theta_2 = design.offset + design.slope * (baseline + change)
    if max(n_1, n_2) > EXACT_UP_TO:
        return _normal_power(theta_1, theta_2, n_1, n_2, alpha), "normal"
    from scipy import stats  # here, not at the top: it would double the cost of `import rr`

    first = np.arange(*_support(stats, n_1, theta_1))
    second = np.arange(*_support(stats, n_2, theta_2))
    weights_1 = stats.binom.pmf(first, n_1, theta_1)
    weights_2 = stats.binom.pmf(second, n_2, theta_2)
    rejected = _rejects(design, first[:, None], n_1, second[None, :], n_2, alpha)
    return float(weights_1 @ rejected @ weights_2), "exact"


def _support(stats, n: int, theta: float) -> tuple[int, int]:
    """The counts [low, high) holding all but ``TAIL`` of each side of Binomial(n, θ)."""
    low = int(stats.binom.ppf(TAIL, n, theta))
    high = int(stats.binom.isf(TAIL, n, theta))
    return max(0, low - 1), min(n, high + 1) + 1


def _rejects(design: Design, yes_1, n_1: int, yes_2, n_2: int, alpha: float) -> np.ndarray:
    """Whether the two-sided Wald test rejects at these counts (arrays broadcast)."""
    lowest, highest = sorted((design.offset, design.offset + design.slope))
    share_1, share_2 = yes_1 / n_1, yes_2 / n_2
    held_1 = np.clip(share_1, lowest, highest)
    held_2 = np.clip(share_2, lowest, highest)
    spread = np.sqrt(held_1 * (1 - held_1) / n_1 + held_2 * (1 - held_2) / n_2)
    gap = np.abs(share_2 - share_1)
    critical = -NormalDist().inv_cdf(alpha / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        # No spread (both shares at an end the design can reach): any gap is certain.
        return np.where(spread > 0, gap > critical * spread, gap > 0).astype(float)


def _normal_power(theta_1, theta_2, n_1, n_2, alpha) -> float:
    sigma = math.sqrt(theta_1 * (1 - theta_1) / n_1 + theta_2 * (1 - theta_2) / n_2)
    critical = -NormalDist().inv_cdf(alpha / 2)
    if sigma == 0:
        return 1.0 if theta_1 != theta_2 else 0.0
    shift = abs(theta_2 - theta_1) / sigma
    normal = NormalDist()
    return normal.cdf(shift - critical) + normal.cdf(-shift - critical)


def _normal_n(design: Design, baseline, change, power, alpha) -> int:
    """The normal formula's n per wave (arguments checked); raises ParameterError past
    ``MAX_SAMPLE_SIZE``."""
    theta_1 = design.offset + design.slope * baseline
    theta_2 = design.offset + design.slope * (baseline + change)
    normal = NormalDist()
    z = -normal.inv_cdf(alpha / 2) + normal.inv_cdf(power)
    spread = theta_1 * (1 - theta_1) + theta_2 * (1 - theta_2)
    return max(2, planned_size(z**2 * spread, (theta_2 - theta_1) ** 2, "change", change))


__all__ = [
    "ChangePower",
    "change_power",
    "change_sample_size",
    "detectable_change",
    "simulate_change_power",
]
