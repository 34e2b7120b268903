"""Single-choice questions: one true answer among k, reported by generalized randomized response.

Generalized randomized response (GRR, also k-RR or direct encoding; Warner 1965, Kairouz, Oh &
Viswanath 2016, Wang et al. 2017) reports the respondent's one true option with probability

    P(report j | true j) = e^ε/(e^ε + k − 1)    and each other option with    1/(e^ε + k − 1).

The ratio of the two is e^ε, so one report is ε-differentially private, whatever k: a question
costs ε, not k·ε. Both spinner procedures give exactly this distribution:

``spinner_coin`` → spinner + die
    Light share q = (e^ε − 1)/(e^ε + k − 1): light reports the truth; dark rolls a fair k-sided die
    over all options. P(j | j) = q + (1 − q)/k = e^ε/(e^ε + k − 1). For k = 2 the die is the coin.
``spinner`` → spinner + die over the others
    Light share q = e^ε/(e^ε + k − 1): light reports the truth; dark rolls a fair (k − 1)-sided die
    over the other options. P(j | j) = q. For k = 2 that die always shows the opposite answer.

The share f_j of reports of j has E[f_j] = a + b·π_j with a = 1/(e^ε + k − 1) and
b = (e^ε − 1)/(e^ε + k − 1), so

    π̂_j = (f_j − a)/b = (f_j·(e^ε + k − 1) − 1)/(e^ε − 1)

is unbiased, Σ_j π̂_j = 1, and Var(π̂_j) = θ_j(1 − θ_j)/(n·b²) with θ_j = a + b·π_j. The count of
reports of j is Binomial(n, θ_j), so the Clopper–Pearson interval carried through the same line
covers each π_j with at least the nominal probability, exactly as for yes/no
(:mod:`rr.estimate`). For k = 2 every number here equals the yes/no one.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._validate import (
    as_int_array,
    check_count,
    check_epsilon,
    check_probability,
    check_procedure,
)
from .errors import ParameterError
from .estimate import _estimate
from .mechanism import dark_report, noise_line
from .planning import _half_width

MAX_CHOICES = 1000  # far above any question's options; a guard against a count passed as k


class ChoiceProbabilities(NamedTuple):
    """P(report the true option) and P(report one given other option)."""

    truth: float
    other: float


class ChoiceEstimate(NamedTuple):
    """Per-option estimates of a single-choice question, arrays of length k in option order.

    ``estimate`` sums to 1 (unclipped, each may fall outside [0, 1]); ``ci_low``/``ci_high`` are
    each option's Clopper–Pearson interval mapped through the line and clipped to [0, 1];
    ``estimated_count`` is π̂·n.
    """

    estimate: np.ndarray
    std_error: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    estimated_count: np.ndarray
    counts: np.ndarray
    n: int
    confidence: float

    def __repr__(self) -> str:
        shares = ", ".join(f"{value:.4f}" for value in self.estimate)
        return f"ChoiceEstimate(k={len(self.counts)}, n={self.n}, estimate=[{shares}])"


def check_choices(k) -> int:
    """Return k as an int, or raise if it is not a whole number in [2, MAX_CHOICES]."""
    k = check_count(k, "k", minimum=2)
    if k > MAX_CHOICES:
        raise ParameterError("k", f"k must be <= {MAX_CHOICES}, got {k!r}")
    return k


def choice_light_fraction(epsilon, k, procedure: str = "spinner_coin") -> float:
    """The spinner's light share q for a single-choice question of k options.

    ``spinner_coin``: q = (e^ε − 1)/(e^ε + k − 1), the dark share rolls a die over all k options;
    ``spinner``: q = e^ε/(e^ε + k − 1), the dark share rolls a die over the other k − 1.

    Raises
    ------
    ValueError
        If ε is not a finite number ≥ ``MIN_EPSILON``, k is not a whole number ≥ 2, or the
        procedure is unknown.
    """
    epsilon, k = check_epsilon(epsilon), check_choices(k)
    offset, slope = noise_line(epsilon, k)
    return slope if dark_report(procedure) == "coin" else offset + slope


def choice_probabilities(epsilon, k) -> ChoiceProbabilities:
    """P(report j | true j) = e^ε/(e^ε + k − 1) and P(report i | true j) = 1/(e^ε + k − 1), i ≠ j;
    the same for both procedures. Their ratio, e^ε, is the privacy-loss ratio.

    Raises
    ------
    ValueError
        If ε is not a finite number ≥ ``MIN_EPSILON`` or k is not a whole number ≥ 2.
    """
    offset, slope = noise_line(check_epsilon(epsilon), check_choices(k))
    return ChoiceProbabilities(offset + slope, offset)


def perturb_choice(true_options, epsilon, k, procedure: str = "spinner_coin", rng=None):
    """Run the respondent's procedure on true options 0…k−1: spin, and on dark roll the die.

    The reference the browser's spinner and die are tested against, and what simulations of
    single respondents use: the wheel is spun, then (on dark) the die, as on the page.

    Parameters
    ----------
    true_options : array_like of int
        Each respondent's true option, an index in [0, k).
    epsilon : float
        Privacy loss of the question, ε > 0.
    k : int
        Number of options, ≥ 2.
    procedure : {"spinner_coin", "spinner"}
    rng : numpy.random.Generator, int or None
        Source of randomness; an int seeds a new generator.

    Returns
    -------
    numpy.ndarray of int64
        The reported options, with the shape of ``true_options``.
    """
    q = choice_light_fraction(epsilon, k, procedure)
    truth = as_int_array(true_options, "true_options")
    if np.any(truth < 0) or np.any(truth >= k):
        raise ParameterError(
            "true_options",
            f"true_options must lie in [0, {k}), got values {np.unique(truth)[:5]!r}",
        )
    generator = np.random.default_rng(rng)
    light = generator.random(truth.shape) < q
    if dark_report(procedure) == "coin":
        die = generator.integers(0, k, size=truth.shape)
    else:
        # A die over the k − 1 others: roll 0…k−2 and step over the true option.
        roll = generator.integers(0, k - 1, size=truth.shape)
        die = roll + (roll >= truth)
    return np.where(light, truth, die)


def estimate_choice(counts, epsilon, procedure: str = "spinner_coin", confidence: float = 0.95):
    """Estimate each option's true share from the number of reports of each option.

    Parameters
    ----------
    counts : array_like of int, length k ≥ 2
        Reports of each option; n = Σ counts ≥ 1.
    epsilon : float
        Privacy loss the reports were collected under.
    procedure : {"spinner_coin", "spinner"}
        Both give the same numbers at equal ε.
    confidence : float
        Nominal coverage of each option's interval, in (0, 1).

    Returns
    -------
    ChoiceEstimate

    Raises
    ------
    ValueError
        If the counts are not whole numbers ≥ 0 of length ≥ 2 with a positive sum, ε is not
        finite and > 0, the procedure is unknown or the confidence is outside (0, 1).

    Examples
    --------
    >>> estimate_choice([50, 30, 20], epsilon=2.0)
    ChoiceEstimate(k=3, n=100, estimate=[0.5783, 0.2843, 0.1374])
    """
    epsilon = check_epsilon(epsilon)
    check_procedure(procedure)
    confidence = check_probability(confidence, "confidence", closed=False)
    reports = as_int_array(counts, "counts")
    if reports.ndim != 1 or len(reports) < 2:
        raise ParameterError("counts", f"counts must list at least 2 options, got {counts!r}")
    k = check_choices(len(reports))
    if np.any(reports < 0) or reports.sum() < 1:
        raise ParameterError("counts", f"counts must be >= 0 with a positive sum, got {counts!r}")
    n = int(reports.sum())
    estimate, std_error, low, high, count = _estimate(
        reports, np.full_like(reports, n), epsilon, confidence, k
    )
    return ChoiceEstimate(estimate, std_error, low, high, count, reports, n, confidence)


def choice_margin_of_error(
    n, epsilon, k, confidence: float = 0.95, true_proportion: float = 0.5
) -> float:
    """Expected half-width of one option's interval with ``n`` respondents (the interval of
    :func:`estimate_choice` at the expected count; the worst case over shares is near π = 0.5).

    Raises
    ------
    ValueError
        If n is not a whole number ≥ 1, ε is not finite and > 0, k is not a whole number ≥ 2, the
        confidence is outside (0, 1) or the share outside [0, 1].
    """
    return _half_width(
        check_count(n, "n", minimum=1),
        check_epsilon(epsilon),
        check_probability(confidence, "confidence", closed=False),
        check_probability(true_proportion, "true_proportion", closed=True),
        check_choices(k),
    )


def simulate_choice_counts(distribution, n, epsilon, trials: int = 1, seed=None) -> np.ndarray:
    """Report counts of ``trials`` simulated questions of ``n`` respondents, shape (trials, k).

    Respondents' true options are drawn from ``distribution`` and perturbed; the reports are then
    exactly Multinomial(n, a + b·π), which is drawn directly (O(trials·k), not O(n)).

    Raises
    ------
    ValueError
        If the distribution is not k ≥ 2 shares in [0, 1] summing to 1 (within 1e-9), n or trials
        is not a whole number ≥ 1, or ε is not finite and > 0.
    """
    shares = _check_distribution(distribution)
    n = check_count(n, "n", minimum=1)
    epsilon = check_epsilon(epsilon)
    trials = check_count(trials, "trials", minimum=1)
    offset, slope = noise_line(epsilon, len(shares))
    theta = offset + slope * shares
    return np.random.default_rng(seed).multinomial(n, theta / theta.sum(), size=trials)


def simulate_choice_coverage(
    distribution, n, epsilon, confidence: float = 0.95, trials: int = 2000, seed=None
) -> np.ndarray:
    """Share of ``trials`` simulated questions whose interval covered each option's true share.

    Returns
    -------
    numpy.ndarray of float, length k
        Coverage of each option's interval; its Monte Carlo standard error is sqrt(c(1 − c)/trials).
    """
    shares = _check_distribution(distribution)
    confidence = check_probability(confidence, "confidence", closed=False)
    counts = simulate_choice_counts(shares, n, epsilon, trials, seed)
    total = np.full_like(counts, counts[0].sum())
    _, _, low, high, _ = _estimate(counts, total, check_epsilon(epsilon), confidence, len(shares))
    return ((low <= shares) & (shares <= high)).mean(axis=0)


def exact_choice_coverage(distribution, n, epsilon, confidence: float = 0.95) -> np.ndarray:
    """Each option's interval coverage computed exactly: Σ_x P(X_j = x)·[π_j ∈ CI(x)] with
    X_j ~ Binomial(n, a + b·π_j), counts beyond 9 standard deviations skipped (< 1e-18).

    Returns
    -------
    numpy.ndarray of float, length k
    """
    from scipy import stats  # here: scipy.stats alone takes ~1 s to import

    shares = _check_distribution(distribution)
    n = check_count(n, "n", minimum=1)
    epsilon = check_epsilon(epsilon)
    confidence = check_probability(confidence, "confidence", closed=False)
    offset, slope = noise_line(epsilon, len(shares))
    coverage = []
    for share in shares:
        theta = offset + slope * share
        spread = 9 * math.sqrt(n * theta * (1 - theta)) + 10
        counts = np.arange(max(0, int(n * theta - spread)), min(n, int(n * theta + spread)) + 1)
        weights = stats.binom.pmf(counts, n, theta)
        _, _, low, high, _ = _estimate(
            counts, np.full_like(counts, n), epsilon, confidence, len(shares)
        )
        coverage.append(float(weights[(low <= share) & (share <= high)].sum()))
    return np.array(coverage)


def _check_distribution(distribution) -> np.ndarray:
    shares = np.asarray(distribution, dtype=float)
    if shares.ndim != 1 or len(shares) < 2 or len(shares) > MAX_CHOICES:
        raise ParameterError(
            "distribution",
            f"distribution must list 2 to {MAX_CHOICES} shares, got {distribution!r}",
        )
    if (
        np.any(~np.isfinite(shares))
        or np.any(shares < 0)
        or not math.isclose(shares.sum(), 1, abs_tol=1e-9)
    ):
        raise ParameterError(
            "distribution", f"distribution must be shares >= 0 summing to 1, got {distribution!r}"
        )
    return shares


__all__ = [
    "ChoiceEstimate",
    "ChoiceProbabilities",
    "choice_light_fraction",
    "exact_choice_coverage",
    "choice_margin_of_error",
    "choice_probabilities",
    "estimate_choice",
    "perturb_choice",
    "simulate_choice_counts",
    "simulate_choice_coverage",
]
