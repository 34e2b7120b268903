"""The mean of a bounded quantity from one reported bit per respondent.

A respondent's value x in [lo, hi] ("how many drinks last week?") is turned into a share
s = (x − lo)/(hi − lo). A second wheel whose yes share is s is spun, and its outcome goes through
the yes/no spinner in place of a true answer:

- ``spinner_coin``: light (p = tanh(ε/2)) reports the value wheel's outcome, dark a fair coin, so
  P(report 1 | x) = p·s + (1 − p)/2;
- ``spinner``: light (p = e^ε/(1 + e^ε)) reports the value wheel's outcome, dark its opposite,
  so P(report 1 | x) = (1 − p) + (2p − 1)·s.

Both are the symmetric line a + b·s of :func:`rr.mechanism.noise_line`, so among respondents
drawn from a population whose mean is μ, every report is 1 with probability θ = a + b·(μ − lo)/w
(w = hi − lo), independently, and

    x̄̂ = lo + w·(θ̂ − a)/b,   Var(x̄̂) = w²·θ(1 − θ)/(n·b²),

with the Clopper–Pearson interval of θ carried through the line and clipped to [lo, hi]: exactly
the yes/no estimator at π = (μ − lo)/w, which is why the interval's exact coverage depends on the
population only through its mean. The mechanism is ε-DP whatever x is: for any two values the
report probabilities differ by at most the factor e^ε of the yes/no spinner. It is the one-bit mean
of Ding, Kulkarni & Yekhanin (2017, "Collecting telemetry data privately", 1BitMean), which reaches
the optimal rate of Duchi, Jordan & Wainwright (2013). Per respondent its variance at ε = 1 is
about 0.6 of the Laplace mechanism's 2(w/ε)² (:func:`mechanism_variances`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from ._validate import check_count, check_probability, check_procedure
from .design import Design, spinner, spinner_coin
from .difference import Difference
from .errors import NOT_A_NUMBER, ParameterError
from .linear import linear_on_line
from .mechanism import dark_report


class MeanEstimate(NamedTuple):
    """An estimated mean in the question's units, with its standard error and interval.

    ``estimate`` is the raw unbiased estimate of the mean (it can fall outside [low, high]);
    ``ci_low`` and ``ci_high`` lie inside [low, high]. The fields are named as every estimate of
    rr names them (:class:`rr.Estimate`).
    """

    estimate: float
    std_error: float
    ci_low: float
    ci_high: float
    n: int
    noisy_yes: int
    low: float
    high: float
    confidence: float

    def __repr__(self) -> str:
        return (
            f"MeanEstimate(estimate={self.estimate:.4g}, std_error={self.std_error:.4g}, "
            f"ci=[{self.ci_low:.4g}, {self.ci_high:.4g}] at {self.confidence:.0%}, n={self.n}, "
            f"noisy_yes={self.noisy_yes}, range=[{self.low:g}, {self.high:g}])"
        )


class MechanismVariances(NamedTuple):
    """Variance of the estimated mean per respondent (n·Var) at the same ε, three ways."""

    one_bit: float
    laplace: float
    gaussian: float


@dataclass(frozen=True)
class BoundedMean:
    """One-bit reports of a value in [low, high] through a yes/no spinner's design.

    Build it with :func:`bounded_mean`, which checks the arguments.
    """

    low: float
    high: float
    design: Design

    def __repr__(self) -> str:
        return (
            f"BoundedMean([{self.low:g}, {self.high:g}], {self.design.name}, "
            f"epsilon={self.design.epsilon:.4g})"
        )

    @property
    def width(self) -> float:
        """w = hi − lo: every figure of the share scale is multiplied by it."""
        return self.high - self.low

    @property
    def epsilon(self) -> float:
        return self.design.epsilon

    def share(self, values) -> np.ndarray:
        """s = (x − lo)/w, the value wheel's yes share for each value.

        Raises
        ------
        ValueError
            If a value is not finite or lies outside [low, high].
        """
        values = np.asarray(values, dtype=float)
        if (
            not np.all(np.isfinite(values))
            or np.any(values < self.low)
            or np.any(values > self.high)
        ):
            raise ValueError(
                f"values must lie in [{self.low:g}, {self.high:g}], got "
                f"{values[~((values >= self.low) & (values <= self.high))][:3].tolist()!r}"
            )
        return (values - self.low) / self.width

    def report_share(self, true_mean) -> float:
        """θ = a + b·(μ − lo)/w, the expected share of reports of 1."""
        return self.design.report_share(self._mean_share(true_mean))

    def perturb(self, values, rng=None) -> np.ndarray:
        """One reported bit per value: the value wheel (yes with s), then the spinner."""
        generator = np.random.default_rng(rng)
        wheel = generator.random(np.shape(values)) < self.share(values)
        return self.design.perturb(wheel, generator)

    def estimate(self, noisy_yes, n, confidence: float = 0.95) -> MeanEstimate:
        """x̄̂ = lo + w·(θ̂ − a)/b with its standard error and exact interval.

        Raises
        ------
        ValueError
            As :meth:`rr.Design.estimate`: counts that are not whole, n < 1, noisy_yes outside
            [0, n], a confidence outside (0, 1).
        """
        if np.ndim(noisy_yes) or np.ndim(n):
            raise ValueError(f"noisy_yes and n must be single counts, got {noisy_yes!r}, {n!r}")
        found = self.design.estimate(noisy_yes, n, confidence)
        return MeanEstimate(
            self.low + self.width * float(found.estimate),
            self.width * float(found.std_error),
            self.low + self.width * float(found.ci_low),
            self.low + self.width * float(found.ci_high),
            int(found.n),
            int(found.noisy_yes),
            self.low,
            self.high,
            found.confidence,
        )

    def variance(self, true_mean, n) -> float:
        """Var(x̄̂) = w²·θ(1 − θ)/(n·b²) for ``n`` respondents whose mean is μ."""
        return self.width**2 * self.design.variance(self._mean_share(true_mean), n)

    def margin_of_error(self, n, confidence: float = 0.95, true_mean=None) -> float:
        """The interval's expected half-width in the question's units (at the middle of the
        range unless ``true_mean`` is given, where it is largest)."""
        return self.width * self.design.margin_of_error(
            n, confidence, self._mean_share(self._middle(true_mean))
        )

    def sample_size(self, margin, confidence: float = 0.95, true_mean=None) -> int:
        """The least n whose :meth:`margin_of_error` is at most ``margin`` (in units)."""
        if not (isinstance(margin, (int, float)) and margin > 0 and math.isfinite(margin)):
            raise ParameterError("margin", f"margin must be a finite number > 0, got {margin!r}")
        share = self._mean_share(self._middle(true_mean))
        return self.design.sample_size(margin / self.width, confidence, share)

    def difference(self, yes_1, n_1, yes_2, n_2, confidence: float = 0.95) -> Difference:
        """μ₁ − μ₂ between two groups: :meth:`rr.Design.difference` on the shares, in units
        (MOVER on the exact limits, clipped to ±w)."""
        found = self.design.difference(yes_1, n_1, yes_2, n_2, confidence)
        return Difference(
            self.width * found.estimate,
            self.width * found.ci_low,
            self.width * found.ci_high,
            found.p_value,
            found.confidence,
        )

    def regression(self, covariates, n, yes, terms=None, confidence: float = 0.95):
        """The value regressed on cells' covariates: least squares on the reports rescaled by the
        line, with sandwich standard errors (:func:`rr.linear.linear_on_line`)."""
        design = self.design
        return linear_on_line(
            covariates, n, yes, design.offset, design.slope, self.low, self.width, terms, confidence
        )

    def exact_coverage(self, true_mean, n, confidence: float = 0.95) -> float:
        """The interval's exact coverage for respondents drawn from any population of mean μ:
        Σₓ P(X = x)·[μ ∈ CI(x)], X ~ Binomial(n, θ)."""
        return self.design.exact_coverage(self._mean_share(true_mean), n, confidence)

    def simulate_estimates(self, values, n, trials: int = 1000, seed=None) -> np.ndarray:
        """Estimated means of ``trials`` classes of ``n`` respondents drawn from ``values`` (a
        population, sampled with replacement), each reporting through :meth:`perturb`."""
        n = check_count(n, "n", minimum=1)
        trials = check_count(trials, "trials", minimum=1)
        population = np.asarray(values, dtype=float)
        self.share(population)
        rng = np.random.default_rng(seed)
        drawn = rng.choice(population, size=(trials, n))
        reports = self.perturb(drawn, rng).sum(axis=1)
        share = (reports / n - self.design.offset) / self.design.slope
        return self.low + self.width * share

    def _mean_share(self, true_mean) -> float:
        if isinstance(true_mean, bool) or not isinstance(true_mean, (int, float)):
            raise ParameterError("true_mean", f"true_mean must be a number, got {true_mean!r}")
        if not self.low <= true_mean <= self.high:
            raise ValueError(
                f"true_mean must lie in [{self.low:g}, {self.high:g}], got {true_mean!r}"
            )
        return (true_mean - self.low) / self.width

    def _middle(self, true_mean):
        return (self.low + self.high) / 2 if true_mean is None else true_mean


def bounded_mean(low, high, epsilon, procedure: str = "spinner_coin") -> BoundedMean:
    """The one-bit mean of a value in [low, high] reported at ``epsilon``.

    Parameters
    ----------
    low, high : float
        The range every respondent's value lies in (low < high).
    epsilon : float
        The privacy loss of the one report.
    procedure : {"spinner_coin", "spinner"}
        What dark does: a coin, or the opposite of the value wheel.

    Raises
    ------
    ValueError
        If a bound is not a finite number, low ≥ high, ε is not finite and > 0, or the procedure
        is unknown.

    Examples
    --------
    >>> drinks = bounded_mean(0, 30, 1.0)
    >>> drinks.estimate(350, 1000)
    MeanEstimate(estimate=5.262, std_error=0.9792, ci=[3.342, 7.24] at 95%, n=1000, noisy_yes=350, range=[0, 30])
    """
    bounds = []
    for name, value in (("low", low), ("high", high)):
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
        ):
            raise ParameterError(
                name, f"{name} must be a finite number, got {value!r}", NOT_A_NUMBER, value
            )
        bounds.append(float(value))
    if bounds[0] >= bounds[1]:
        raise ParameterError("low", f"low must be below high, got low={low!r}, high={high!r}")
    check_procedure(procedure)
    design = spinner_coin(epsilon) if dark_report(procedure) == "coin" else spinner(epsilon)
    return BoundedMean(bounds[0], bounds[1], design)


def mechanism_variances(
    low, high, epsilon, true_mean, value_variance, delta: float = 1e-5
) -> MechanismVariances:
    """n·Var of the estimated mean at the same ε for a value in [low, high], three ways:

    - one bit (:class:`BoundedMean`, ``spinner_coin``): w²·θ(1 − θ)/b², whatever the spread of
      the values (they enter only through their mean);
    - Laplace: each respondent sends x + Laplace(w/ε): σ²ₓ + 2(w/ε)² (Dwork et al. 2006);
    - Gaussian, (ε, δ)-DP with the analytic σ (Balle & Wang 2018): σ²ₓ + σ².

    ``value_variance`` is σ²ₓ, the spread of the respondents' values around ``true_mean``.

    Raises
    ------
    ValueError
        On the arguments of :func:`bounded_mean`, a mean outside the range, a variance below 0 or
        above what the range allows ((μ − lo)(hi − μ)), or δ outside (0, 1).
    """
    from .noise import gaussian_sigma, laplace_scale

    mean = bounded_mean(low, high, epsilon)
    mean.report_share(true_mean)
    delta = check_probability(delta, "delta", closed=False)
    most = (true_mean - mean.low) * (mean.high - true_mean)
    if isinstance(value_variance, bool) or not isinstance(value_variance, (int, float)):
        raise ParameterError(
            "value_variance", f"value_variance must be a number, got {value_variance!r}"
        )
    if not 0 <= value_variance <= most * (1 + 1e-12):
        raise ValueError(
            f"value_variance must lie in [0, {most:g}] for a mean of {true_mean:g} in "
            f"[{mean.low:g}, {mean.high:g}], got {value_variance!r}"
        )
    laplace = value_variance + 2 * laplace_scale(mean.width, epsilon) ** 2
    gaussian = value_variance + gaussian_sigma(mean.width, epsilon, delta) ** 2
    return MechanismVariances(mean.variance(true_mean, 1), laplace, gaussian)


__all__ = [
    "BoundedMean",
    "MeanEstimate",
    "MechanismVariances",
    "bounded_mean",
    "mechanism_variances",
]
