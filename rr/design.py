"""Binary randomized-response designs, each given by its report probabilities.

Every binary design is a pair

    λ₁ = P(report 1 | true yes),   λ₀ = P(report 1 | true no),

so the share of reports of 1 has mean θ = λ₀ + (λ₁ − λ₀)·π: a line with offset a = λ₀ and slope
b = λ₁ − λ₀ (negative for a crosswise design whose innocuous prevalence is below ½). The estimator,
its variance and its exact interval are those of :mod:`rr.estimate` on that line:

    π̂ = (θ̂ − a)/b,   Var(π̂) = θ(1 − θ)/(n·b²),

with the Clopper–Pearson interval of θ carried through the line (its ends swap when b < 0). The
privacy loss of one report is the larger log-ratio of the two reports' probabilities,

    ε = max(|ln(λ₁/λ₀)|, |ln((1 − λ₁)/(1 − λ₀))|),

finite only when neither report is impossible under one truth and possible under the other.

The designs (each a :class:`Design`):

- :func:`spinner_coin`, :func:`spinner`: this app's symmetric spinner, λ₁ = e^ε/(1 + e^ε) and
  λ₀ = 1/(1 + e^ε) (Warner 1965); the numbers of :func:`rr.estimate_proportion` exactly.
- :func:`forced_response`: the truth with probability t, a forced "yes" with f₁, a forced "no"
  with f₀ (t + f₁ + f₀ = 1): λ₁ = t + f₁, λ₀ = f₁ (Boruch 1971; RRreg "FR", rr "forced-known").
- :func:`unrelated_question`: the sensitive question with probability t, otherwise an innocuous
  one whose prevalence q is known: λ₁ = t + (1 − t)q, λ₀ = (1 − t)q (Greenberg et al. 1969;
  RRreg "UQTknown", rr "unrelated-known").
- :func:`kuk`: a card drawn from one of two decks, the deck chosen by the true answer, its colour
  reported: λ₁ = θ₁, λ₀ = θ₂, the decks' shares of red (Kuk 1990; RRreg "Kuk").
- :func:`crosswise`: "are your answers to both questions the same?", with an innocuous question of
  known prevalence q ≠ ½: λ₁ = q, λ₀ = 1 − q, ε = |ln(q/(1 − q))| (Yu, Tian & Tang 2008; Jann,
  Jerke & Krumpal 2012; RRreg "Crosswise").

Cheating detection, with two arms and respondents who answer "no" whatever they are told, is
:class:`CheatingDetection` in :mod:`rr.cheating`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from ._validate import (
    as_int_array,
    check_count,
    check_epsilon,
    check_plannable,
    check_probability,
    check_procedure,
    planned_size,
)
from .difference import Difference, difference_on_line, exact_difference_coverage
from .errors import INFINITE_EPSILON, NO_INFORMATION, NOT_ONE, ParameterError
from .estimate import Estimate, clopper_pearson, line_estimate
from .mechanism import noise_line
from .regression import fit_on_line

# Parameters stated beside derived ones are accepted within this relative difference.
TOLERANCE = 1e-9


@dataclass(frozen=True)
class Design:
    """A binary design: the line E[share of 1] = offset + slope·π, and its privacy loss.

    Attributes
    ----------
    name : str
        The design (``spinner_coin``, ``spinner``, ``forced_response``, ``unrelated_question``,
        ``crosswise``).
    offset, slope : float
        a = λ₀ and b = λ₁ − λ₀, kept as the closed forms give them.
    epsilon : float
        ε, the larger |log-ratio| of the two reports' probabilities.
    parameters : tuple of (str, float)
        The design's own parameters, as a survey states them.
    """

    name: str
    offset: float
    slope: float
    epsilon: float
    parameters: tuple[tuple[str, float], ...] = field(default=())

    def __repr__(self) -> str:
        stated = ", ".join(f"{name}={value:g}" for name, value in self.parameters)
        return (
            f"Design({self.name}: {stated}; P(1|yes)={self.yes_given_yes:.4f}, "
            f"P(1|no)={self.yes_given_no:.4f}, epsilon={self.epsilon:.4f})"
        )

    @property
    def yes_given_yes(self) -> float:
        """λ₁ = P(report 1 | true yes)."""
        return self.offset + self.slope

    @property
    def yes_given_no(self) -> float:
        """λ₀ = P(report 1 | true no)."""
        return self.offset

    def report_share(self, true_proportion) -> float:
        """θ = λ₀ + (λ₁ − λ₀)·π, the expected share of reports of 1."""
        return self.offset + self.slope * check_probability(
            true_proportion, "true_proportion", closed=True
        )

    def variance(self, true_proportion, n) -> float:
        """Var(π̂) = θ(1 − θ)/(n·b²) for ``n`` respondents with true share π."""
        theta = self.report_share(true_proportion)
        return theta * (1 - theta) / (check_count(n, "n", minimum=1) * self.slope**2)

    def estimate(self, noisy_yes, n, confidence: float = 0.95) -> Estimate:
        """π̂, its standard error and exact interval from ``noisy_yes`` reports of 1 among ``n``.

        The same estimator as :func:`rr.estimate_proportion`, on this design's line: the raw
        estimate is never clipped; the standard error holds θ̂ inside the shares the design can
        produce; the Clopper–Pearson limits of θ, carried through the line, are clipped to [0, 1].

        Raises
        ------
        ValueError
            If a count is not a whole number, n < 1, noisy_yes is outside [0, n] or the confidence
            outside (0, 1).
        """
        confidence = check_probability(confidence, "confidence", closed=False)
        yes = as_int_array(noisy_yes, "noisy_yes")
        total = as_int_array(n, "n")
        if np.any(total < 1):
            raise ParameterError("n", f"n must be >= 1, got {n!r}")
        yes, total = np.broadcast_arrays(yes, total)
        if np.any(yes < 0) or np.any(yes > total):
            raise ParameterError(
                "noisy_yes", f"noisy_yes must lie in [0, n], got noisy_yes={noisy_yes!r}, n={n!r}"
            )
        estimate, std_error, low, high = line_estimate(
            yes, total, self.offset, self.slope, confidence
        )
        low, high = np.clip(low, 0.0, 1.0), np.clip(high, 0.0, 1.0)
        count = estimate * total
        if np.ndim(noisy_yes) == 0 and np.ndim(n) == 0:
            return Estimate(
                float(estimate), float(std_error), float(low), float(high), float(count),
                int(total), int(yes), confidence,
            )  # fmt: skip
        return Estimate(estimate, std_error, low, high, count, total, yes, confidence)

    def margin_of_error(self, n, confidence: float = 0.95, true_proportion: float = 0.5) -> float:
        """The interval's expected half-width for ``n`` respondents: the Clopper–Pearson
        half-width at the expected count, on the true-share scale (as :func:`rr.margin_of_error`)."""
        n = check_count(n, "n", minimum=1)
        confidence = check_probability(confidence, "confidence", closed=False)
        theta = self.report_share(true_proportion)
        low, high = clopper_pearson(np.array(n * theta), np.array(float(n)), confidence)
        return float(high - low) / (2 * abs(self.slope))

    def sample_size(self, margin, confidence: float = 0.95, true_proportion: float = 0.5) -> int:
        """The least n whose :meth:`margin_of_error` is at most ``margin``, searched from the
        normal approximation n₀ = z²·θ(1 − θ)/(b²·margin²)."""
        if not (isinstance(margin, (int, float)) and margin > 0 and math.isfinite(margin)):
            raise ParameterError("margin", f"margin must be a finite number > 0, got {margin!r}")
        confidence = check_probability(confidence, "confidence", closed=False)
        theta = self.report_share(true_proportion)
        z = -NormalDist().inv_cdf((1 - confidence) / 2)
        start = planned_size(
            z**2 * theta * (1 - theta), (self.slope * margin) ** 2, "margin", margin
        )
        low, high = max(1, start // 2), start
        while self.margin_of_error(high, confidence, true_proportion) > margin:
            low, high = high, check_plannable(high * 2, "margin", margin)
        while low < high:
            middle = (low + high) // 2
            if self.margin_of_error(middle, confidence, true_proportion) <= margin:
                high = middle
            else:
                low = middle + 1
        return high

    def perturb(self, true_bits, rng=None) -> np.ndarray:
        """Reports of respondents with the given true answers: 1 with probability λ₁ or λ₀."""
        truth = np.asarray(true_bits)
        if truth.dtype != bool and not np.isin(truth, (0, 1)).all():
            raise ParameterError(
                "true_bits", f"true_bits must be 0 or 1, got values {np.unique(truth)[:5]!r}"
            )
        chance = np.where(truth.astype(bool), self.yes_given_yes, self.yes_given_no)
        return (np.random.default_rng(rng).random(truth.shape) < chance).astype(np.uint8)

    def simulate_counts(self, true_proportion, n, trials: int = 1000, seed=None) -> np.ndarray:
        """Reports of 1 in ``trials`` surveys of ``n``: exactly Binomial(n, θ)."""
        theta = self.report_share(true_proportion)
        n = check_count(n, "n", minimum=1)
        trials = check_count(trials, "trials", minimum=1)
        return np.random.default_rng(seed).binomial(n, theta, size=trials)

    def difference(self, yes_1, n_1, yes_2, n_2, confidence: float = 0.95) -> Difference:
        """π₁ − π₂ between two groups with its MOVER interval and p-value (:func:`rr.difference`
        on this design's line)."""
        return difference_on_line(yes_1, n_1, yes_2, n_2, self.offset, self.slope, confidence)

    def difference_coverage(
        self, share_1, share_2, n_1, n_2=None, confidence: float = 0.95
    ) -> float:
        """The exact coverage of :meth:`difference`'s interval for π₁ − π₂ with ``n_1`` and
        ``n_2`` (default ``n_1``) respondents, by enumerating both binomials
        (:func:`rr.difference.exact_difference_coverage`).

        Raises
        ------
        ValueError
            On a share outside [0, 1], a size below 1 or above 5,000, or a bad confidence.
        """
        share_1 = check_probability(share_1, "share_1", closed=True)
        share_2 = check_probability(share_2, "share_2", closed=True)
        n_1 = check_count(n_1, "n_1", minimum=1)
        n_2 = n_1 if n_2 is None else check_count(n_2, "n_2", minimum=1)
        for name, size in (("n_1", n_1), ("n_2", n_2)):
            if size > 5000:
                raise ParameterError(name, f"{name} must be at most 5000 to enumerate, got {size}")
        confidence = check_probability(confidence, "confidence", closed=False)
        return exact_difference_coverage(
            self.offset, self.slope, share_1, share_2, n_1, n_2, confidence
        )

    def regression(self, covariates, n, yes, terms=None, confidence: float = 0.95):
        """P(report 1 | x) = a + b·logistic(xᵀβ) by maximum likelihood on grouped counts
        (:func:`rr.rr_logistic_regression` on this design's line)."""
        return fit_on_line(covariates, n, yes, self.offset, self.slope, terms, confidence)

    def exact_coverage(self, true_proportion, n, confidence: float = 0.95) -> float:
        """Σₓ P(X = x)·[π ∈ CI(x)] with X ~ Binomial(n, θ): the interval's exact coverage."""
        from scipy import stats  # here: scipy.stats alone takes ~1 s to import

        true_proportion = check_probability(true_proportion, "true_proportion", closed=True)
        n = check_count(n, "n", minimum=1)
        theta = self.report_share(true_proportion)
        yes = np.arange(n + 1)
        found = self.estimate(yes, np.full_like(yes, n), confidence)
        inside = (found.ci_low <= true_proportion) & (true_proportion <= found.ci_high)
        return float(stats.binom.pmf(yes, n, theta)[inside].sum())


def design_epsilon(yes_given_yes: float, yes_given_no: float) -> float:
    """ε = max(|ln(λ₁/λ₀)|, |ln((1 − λ₁)/(1 − λ₀))|); ``math.inf`` when a report is possible
    under one truth and impossible under the other. Assumes λ₀, λ₁ in [0, 1]."""
    losses = []
    for given_yes, given_no in (
        (yes_given_yes, yes_given_no),
        (1 - yes_given_yes, 1 - yes_given_no),
    ):
        if given_yes == given_no:
            losses.append(0.0)
        elif given_yes == 0 or given_no == 0:
            return math.inf
        else:
            losses.append(abs(math.log(given_yes) - math.log(given_no)))
    return max(losses)


def spinner_coin(epsilon) -> Design:
    """The spinner with light share p = tanh(ε/2), a coin on dark: λ₁ = e^ε/(1 + e^ε)."""
    epsilon = check_epsilon(epsilon)
    offset, slope = noise_line(epsilon)
    return Design("spinner_coin", offset, slope, epsilon, (("epsilon", epsilon),))


def spinner(epsilon) -> Design:
    """The spinner with light share p = e^ε/(1 + e^ε), the opposite answer on dark: the same
    report probabilities as :func:`spinner_coin`."""
    epsilon = check_epsilon(epsilon)
    offset, slope = noise_line(epsilon)
    return Design("spinner", offset, slope, epsilon, (("epsilon", epsilon),))


def forced_response(p_truth, p_forced_yes, p_forced_no) -> Design:
    """The forced-response design: λ₁ = t + f₁, λ₀ = f₁.

    Raises
    ------
    ValueError
        If a probability is outside [0, 1], the three do not add up to 1, a forced share is 0 (a
        report then gives the truth away: infinite ε), or the truth share is 0 (no information).
    """
    truth = check_probability(p_truth, "p_truth", closed=True)
    forced_yes = check_probability(p_forced_yes, "p_forced_yes", closed=True)
    forced_no = check_probability(p_forced_no, "p_forced_no", closed=True)
    if abs(truth + forced_yes + forced_no - 1) > TOLERANCE:
        raise ParameterError(
            "p_forced_no",
            "p_truth + p_forced_yes + p_forced_no must be 1, got "
            f"{truth:g} + {forced_yes:g} + {forced_no:g} = {truth + forced_yes + forced_no:g}",
            NOT_ONE,
            truth + forced_yes + forced_no,
        )
    for name, value in (("p_forced_yes", forced_yes), ("p_forced_no", forced_no)):
        if value == 0:
            raise ParameterError(
                name,
                f"{name} must be > 0: without it one report can come only from one true answer "
                "(infinite epsilon)",
                INFINITE_EPSILON,
                value,
            )
    parameters = (("p_truth", truth), ("p_forced_yes", forced_yes), ("p_forced_no", forced_no))
    return _checked("forced_response", forced_yes, truth, parameters, "p_truth")


def unrelated_question(p_truth, prevalence) -> Design:
    """The unrelated-question design with a known innocuous prevalence q:
    λ₁ = t + (1 − t)q, λ₀ = (1 − t)q.

    Raises
    ------
    ValueError
        If t is not in (0, 1) (t = 1 asks the sensitive question plainly: infinite ε) or q is not
        in (0, 1).
    """
    truth = check_probability(p_truth, "p_truth", closed=True)
    q = check_probability(prevalence, "prevalence", closed=False)
    if truth == 1:
        raise ParameterError(
            "p_truth",
            "p_truth must be < 1: at 1 every report is the true answer (infinite epsilon)",
            INFINITE_EPSILON,
            truth,
        )
    innocuous = (1 - truth) * q
    return _checked(
        "unrelated_question", innocuous, truth, (("p_truth", truth), ("prevalence", q)), "p_truth"
    )


def kuk(theta_yes, theta_no) -> Design:
    """Kuk's card design: two decks with known shares of red cards, θ₁ (the deck a true "yes"
    draws from) and θ₂ (a true "no"); the respondent reports the colour drawn (1 = red):
    λ₁ = θ₁, λ₀ = θ₂ (Kuk 1990; RRreg "Kuk" with p = c(θ₁, θ₂)).

    Raises
    ------
    ValueError
        If a share is not in (0, 1) (a deck of one colour gives a report away: infinite ε) or
        θ₁ = θ₂ (both decks alike: the colour says nothing).
    """
    red_yes = check_probability(theta_yes, "theta_yes", closed=False)
    red_no = check_probability(theta_no, "theta_no", closed=False)
    parameters = (("theta_yes", red_yes), ("theta_no", red_no))
    return _checked("kuk", red_no, red_yes - red_no, parameters, "theta_no")


def crosswise(prevalence) -> Design:
    """The crosswise model with a known innocuous prevalence q: report 1 ("both answers the
    same") with λ₁ = q, λ₀ = 1 − q; ε = |ln(q/(1 − q))|.

    Raises
    ------
    ValueError
        If q is not in (0, 1), or q = ½ (reports then say nothing about the sensitive answer).
    """
    q = check_probability(prevalence, "prevalence", closed=False)
    return _checked("crosswise", 1 - q, 2 * q - 1, (("prevalence", q),), "prevalence")


def asked_directly() -> Design:
    """Asking plainly as a design: the report is the true answer, λ₁ = 1 and λ₀ = 0 (offset 0,
    slope 1). Its ε is infinite: a report gives the answer away. It is the baseline of a split-ballot
    experiment (:mod:`rr.experiment`), whose estimate is the share of yes with its exact interval."""
    return Design("direct", 0.0, 1.0, math.inf)


def _checked(name: str, offset: float, slope: float, parameters, culprit: str) -> Design:
    """A design from its line, refused (naming ``culprit``, the parameter its slope turns on)
    when its reports carry no information or give the truth away (infinite ε); assumes
    probabilities already in range."""
    if slope == 0:
        raise ParameterError(
            culprit,
            f"{name} with {dict(parameters)} gives no information: reports of 1 are as likely "
            "under either true answer",
            NO_INFORMATION,
            dict(parameters)[culprit],
        )
    epsilon = design_epsilon(offset + slope, offset)
    if not math.isfinite(epsilon):
        raise ParameterError(
            culprit,
            f"{name} with {dict(parameters)} has infinite epsilon",
            INFINITE_EPSILON,
            dict(parameters)[culprit],
        )
    return Design(name, offset, slope, epsilon, tuple(parameters))


def estimate_proportion(
    noisy_yes, n, epsilon, procedure: str = "spinner_coin", confidence: float = 0.95
) -> Estimate:
    """Estimate the true share of yes from ``noisy_yes`` reported yes among ``n`` reports.

    A convenience for the two spinners: the same as ``spinner_coin(epsilon).estimate(noisy_yes,
    n, confidence)`` (:meth:`Design.estimate`), which every other design uses.

    Parameters
    ----------
    noisy_yes : int or array_like of int
        Reported yes answers, 0 ≤ noisy_yes ≤ n.
    n : int or array_like of int
        Reports, n ≥ 1; broadcast against ``noisy_yes``.
    epsilon : float
        Privacy loss of each spin the reports were collected under.
    procedure : {"spinner_coin", "spinner"}
        The procedure the reports were collected under. Both give the same numbers at equal ε.
    confidence : float
        Nominal coverage of the interval, in (0, 1).

    Returns
    -------
    Estimate
        Scalars for scalar input, arrays for array input.

    Raises
    ------
    ValueError
        If a count is not a whole number, n < 1, noisy_yes is outside [0, n], ε is not finite and
        > 0, the procedure is unknown or the confidence is outside (0, 1).

    Examples
    --------
    >>> estimate_proportion(60, 100, epsilon=1.0)
    Estimate(estimate=0.7164, std_error=0.1060, ci=[0.4940, 0.9257] at 95%, n=100, noisy_yes=60)
    """
    check_procedure(procedure)
    # Both procedures report through the same design at equal ε: one estimator serves them.
    return spinner_coin(epsilon).estimate(noisy_yes, n, confidence)


def check_stated_epsilon(design: Design, stated) -> None:
    """Refuse a stated ε that differs from the design's by more than 1e-9 (relative), naming both."""
    if abs(stated - design.epsilon) > TOLERANCE * max(abs(design.epsilon), 1e-300):
        raise ParameterError(
            "epsilon",
            f"epsilon is {design.epsilon!r} for this design's parameters, but {stated!r} was stated",
        )


__all__ = [
    "Design",
    "check_stated_epsilon",
    "crosswise",
    "design_epsilon",
    "estimate_proportion",
    "forced_response",
    "kuk",
    "spinner",
    "spinner_coin",
    "unrelated_question",
]
