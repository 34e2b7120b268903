"""Statistics Korea's Bayesian synthetic data with differential privacy, for one normal variable.

The method of the project's reference report (its third document; after the "sanitization
through Bayesian sufficiency" approach): a normal model x ~ N(μ, 1/λ) with a vague Normal–Gamma
prior (μ ~ N(μ₀, σ₀²), λ ~ Gamma(α₀, β₀), both variances 10¹⁰), whose posterior depends on the
data only through the Bayesian sufficient statistics s = (x̄, s²), s² = Σ(xᵢ − x̄)²/n. Each of m
synthetic sets

1. sanitizes s with the Laplace mechanism, s* = s + e: x̄ + Laplace(0, (w/n)/ε′) and
   s² + Laplace(0, (w²/n)/ε′), w/n and w²/n being the global sensitivities of x̄ and s² for n
   values in a range of width w (changing one value moves x̄ by at most w/n and s² by at most
   w²/n), with ε′ = ε/(2m): half of each set's share to each statistic, so that the m sets
   together are ε-DP (sequential composition);
2. runs the Gibbs sampler on the full conditionals given s* (M = 5000 sweeps, burn-in 4000):
   μ | λ ~ N((λn x̄* + μ₀/σ₀²)/(λn + 1/σ₀²), 1/(λn + 1/σ₀²)),
   λ | μ ~ Gamma(n/2 + α₀, rate = (n s²* + n(x̄* − μ)²)/2 + β₀);
3. draws n synthetic values from N(μ, 1/λ) at the chain's last draw.

The report's measures follow: posterior means of μ and 1/λ, the original's and the first
synthetic set's summary statistics, and the overlap of their 95% intervals of the mean (Karr et
al. 2006, :func:`rr.synthetic.interval_overlap`); the m sets pooled by the combining rules
(:func:`rr.synthetic.combine`) are given too. The chains run side by side, one per set, as
arrays.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._validate import check_count, check_epsilon
from .synthetic import combine, interval_overlap

PRIOR_VARIANCE = 1e10
SWEEPS, BURN_IN = 5000, 4000


class Summary(NamedTuple):
    """The report's statistics of one dataset."""

    mean: float
    variance: float
    minimum: float
    q1: float
    median: float
    q3: float
    maximum: float


class SanitizedSynthesis(NamedTuple):
    """One ε's run: the posterior means of μ and 1/λ (averaged over the m chains), the original's
    and the first synthetic set's statistics, the two 95% intervals of the mean and their
    overlap, the chains of the first set (for trace plots) and the synthetic sets."""

    epsilon: float
    posterior_mu: float
    posterior_variance: float
    original: Summary
    synthetic: Summary
    original_interval: tuple[float, float]
    synthetic_interval: tuple[float, float]
    overlap: float
    pooled_interval: tuple[float, float] | None  # the m sets pooled (combining rules)
    mu_chain: np.ndarray
    lambda_chain: np.ndarray
    datasets: np.ndarray


def summarize(values: np.ndarray) -> Summary:
    """Mean, variance (over n), minimum, quartiles and maximum."""
    q1, median, q3 = np.quantile(values, [0.25, 0.5, 0.75])
    return Summary(
        float(values.mean()), float(values.var()), float(values.min()), float(q1), float(median),
        float(q3), float(values.max()),
    )  # fmt: skip


def sanitized_synthesis(values, low, high, epsilon, m: int = 5, seed=None) -> SanitizedSynthesis:
    """m ε-DP synthetic sets of a normal variable whose values lie in [low, high].

    Raises
    ------
    ValueError
        On fewer than 2 values, a value outside [low, high] or a range with low ≥ high, ε not
        finite and > 0, or m not a whole number from 1 to 100.
    """
    x = np.asarray(values, dtype=float)
    if x.ndim != 1 or len(x) < 2 or not np.all(np.isfinite(x)):
        raise ValueError("values must be two or more finite numbers")
    if not (isinstance(low, (int, float)) and isinstance(high, (int, float)) and low < high):
        raise ValueError(f"the range must have low < high, got {low!r}, {high!r}")
    if np.any(x < low) or np.any(x > high):
        raise ValueError(f"values must lie in [{low:g}, {high:g}]")
    epsilon = check_epsilon(epsilon)
    m = check_count(m, "m", minimum=1)
    if m > 100:
        raise ValueError(f"m must be at most 100, got {m}")
    rng = np.random.default_rng(seed)
    n = len(x)
    width = float(high - low)
    # Each set spends ε/m, half on x̄ and half on s², each through its own sensitivity.
    share = epsilon / m / 2
    mean, spread = float(x.mean()), float(x.var())
    noisy_mean = mean + rng.laplace(0, width / n / share, m)
    # A sanitized variance can come out at or below 0: it is held at a sliver of the range.
    noisy_spread = np.maximum(spread + rng.laplace(0, width**2 / n / share, m), (width * 1e-6) ** 2)
    mu_chain, lambda_chain = _gibbs(noisy_mean, noisy_spread, n, rng)
    mu, lam = mu_chain[-1], lambda_chain[-1]
    datasets = rng.normal(mu[:, None], 1 / np.sqrt(lam)[:, None], size=(m, n))
    original = summarize(x)
    z = 1.959963984540054
    half = z * math.sqrt(original.variance / n)
    original_interval = (original.mean - half, original.mean + half)
    first = summarize(datasets[0])
    spread_s = z * math.sqrt(first.variance / n)
    # As the report measures it: the first synthetic set's own interval of its mean.
    synthetic_interval = (first.mean - spread_s, first.mean + spread_s)
    pooled_interval = None
    if m >= 2:
        pooled = combine(datasets.mean(axis=1), datasets.var(axis=1) / n, n, n)
        pooled_interval = (pooled.ci_low, pooled.ci_high)
    kept = slice(BURN_IN, SWEEPS)
    return SanitizedSynthesis(
        epsilon,
        float(mu_chain[kept].mean()),
        float((1 / lambda_chain[kept]).mean()),
        original,
        first,
        original_interval,
        synthetic_interval,
        interval_overlap(original_interval, synthetic_interval),
        pooled_interval,
        mu_chain[:, 0],
        lambda_chain[:, 0],
        datasets,
    )


def _gibbs(noisy_mean: np.ndarray, noisy_spread: np.ndarray, n: int, rng) -> tuple:
    """SWEEPS sweeps of the two full conditionals for each set's sanitized statistics, the sets
    side by side; chains of shape (SWEEPS, m). Assumes checked input."""
    mu0, precision0 = 0.0, 1 / PRIOR_VARIANCE
    # Gamma(α₀, β₀) with variance α₀/β₀² = 10¹⁰ and mean α₀/β₀ = 1: vague, as in the report.
    beta0 = 1 / PRIOR_VARIANCE
    alpha0 = beta0
    m = len(noisy_mean)
    mu = noisy_mean.copy()
    lam = 1 / noisy_spread
    mu_chain = np.empty((SWEEPS, m))
    lambda_chain = np.empty((SWEEPS, m))
    shape = n / 2 + alpha0
    for sweep in range(SWEEPS):
        precision = lam * n + precision0
        mu = rng.normal(
            (lam * n * noisy_mean + mu0 * precision0) / precision, 1 / np.sqrt(precision)
        )
        rate = (n * noisy_spread + n * (noisy_mean - mu) ** 2) / 2 + beta0
        lam = rng.gamma(shape, 1 / rate)
        mu_chain[sweep], lambda_chain[sweep] = mu, lam
    return mu_chain, lambda_chain


__all__ = ["SanitizedSynthesis", "Summary", "sanitized_synthesis", "summarize"]
