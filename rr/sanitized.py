"""Statistics Korea's Bayesian synthetic data with differential privacy, for one normal variable,
as its report makes them and done better.

The method of the project's reference report (its third document): a normal model
x ~ N(μ, 1/λ) with a vague Normal–Gamma prior (μ ~ N(μ₀, σ₀²), λ ~ Gamma(α₀, β₀), both variances
10¹⁰), whose posterior depends on the data only through the Bayesian sufficient statistics
s = (x̄, s²), s² = Σ(xᵢ − x̄)²/n.

1. **One sanitization.** s is sanitized once with the Laplace mechanism, s* = s + e:
   x̄* = x̄ + Laplace(0, Δ₁/ε₁) and s²* = s² + Laplace(0, Δ₂/ε₂), with Δ₁ = w/n and Δ₂ = w²/n the
   global sensitivities of x̄ and s² for n values in a range of width w (changing one value moves
   x̄ by at most w/n and s² by at most w²/n; the report's Tables 2 and 3 are these numbers). Two
   accountings (:data:`ACCOUNTINGS`):

   - ``"total"``: ε₁ = ε₂ = ε/2, so that the release is ε-DP by sequential composition;
   - ``"report"``: ε₁ = ε₂ = ε, as the report's figures are made: 2ε in all.

   The m synthetic sets are m draws from the one posterior: post-processing, which costs no ε
   (drawing m sanitizations at ε/m each, as this module did before, carries m times the noise).
2. **Sampling** (the report's M = 5000 sweeps with burn-in 4000; 3000 with burn-in 1500 for the
   noise-aware sampler, whose steps are tuned in the burn-in), with one of two posteriors
   (:data:`POSTERIORS`):

   - ``"naive"``, the report's: the full conditionals given s* as if it were s,
     μ | λ ~ N((λn x̄* + μ₀/σ₀²)/(λn + 1/σ₀²), 1/(λn + 1/σ₀²)),
     λ | μ ~ Gamma(n/2 + α₀, rate = (n s²* + n(x̄* − μ)²)/2 + β₀);
   - ``"noise_aware"``: the true statistics are latent (Bernstein & Sheldon 2018,
     "Differentially private Bayesian inference for exponential families"), and the model
     respects what is public and certain: every value lies in [low, high]. So μ lies in the range
     (uniform prior there), and σ² = 1/λ in (0, w²/4], the largest variance values in a range of
     width w can have, with σ uniform on (0, w/2] (p(σ²) ∝ σ⁻¹: proper, and as vague on σ as the
     range allows). Given μ and σ², x̄ ~ N(μ, σ²/n) and s² ~ Gamma((n − 1)/2, rate n/(2σ²)) held
     to (0, w²/4]; each observed statistic is its latent one plus Laplace noise. The latent
     statistics are integrated out: x̄* | μ, σ² is the normal–Laplace convolution (closed form)
     and s²* | σ² the Gamma–Laplace one (a quadrature on the gamma's quantiles). Random-walk
     Metropolis on (μ, log σ²), inside the bounds, its steps tuned during burn-in only. With the
     vague Gamma prior and no bounds (this module's sampler until 2026-11), a sanitized variance
     near or below 0 let the posterior run along λ·s² = const towards s² → 0, λ → ∞: at ε = 0.1
     the posterior variance fell under 1 in a third of runs.

   Both run :data:`CHAINS` chains per run from dispersed starts, so that split R-hat and the
   effective sample size (:mod:`rr.convergence`) can say whether they mixed. The naive sampler's
   own failure is not one of mixing: it mixes at once, around the wrong posterior, since it takes
   s²* for s² (floored just above 0), and its intervals are too narrow at small ε.
3. **Synthetic sets**: each of m draws (μ, λ), evenly spaced after burn-in, gives n values of
   N(μ, 1/λ).

The report's measures follow: posterior means of μ and 1/λ, the original's and the first
synthetic set's summary statistics, the overlap of their 95% intervals of the mean (Karr et al.
2006, :func:`rr.synthetic.interval_overlap`), and the m sets' pooled interval by the fully
synthetic combining rules (:func:`rr.synthetic.combine`). :func:`report_runs` repeats the whole
experiment on fresh data, runs side by side as arrays, for its Monte Carlo range and the pooled
interval's coverage of the original mean.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._validate import check_count, check_epsilon, check_one_of
from .convergence import effective_sample_size, split_rhat
from .errors import ParameterError
from .sanitized_samplers import AWARE_BURN_IN, AWARE_SWEEPS, CHAINS, Chains, chains_of
from .synthetic import combine, interval_overlap

ACCOUNTINGS = ("total", "report")
POSTERIORS = ("naive", "noise_aware")
Z95 = 1.959963984540054


class Summary(NamedTuple):
    """The report's statistics of one dataset."""

    mean: float
    variance: float
    minimum: float
    q1: float
    median: float
    q3: float
    maximum: float


class Convergence(NamedTuple):
    """Split R-hat and the effective sample size of μ and of λ over a run's chains."""

    rhat_mu: float
    rhat_lambda: float
    ess_mu: float
    ess_lambda: float

    @property
    def rhat_max(self) -> float:
        return max(self.rhat_mu, self.rhat_lambda)


class SanitizedSynthesis(NamedTuple):
    """One ε's run: what it spends in all, the posterior means of μ and 1/λ, the original's and
    the first synthetic set's statistics, the two 95% intervals of the mean and their overlap,
    the m sets' pooled interval, the first chain (for trace plots), the synthetic sets, the 95%
    posterior interval of the variance and the chains' convergence."""

    epsilon: float
    total_epsilon: float
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
    variance_interval: tuple[float, float]
    convergence: Convergence
    burn_in: int


class ReportRuns(NamedTuple):
    """``runs`` repetitions of the experiment at one ε, each on fresh data: the medians and the
    10th and 90th percentiles of the overlap, the posterior means and the first synthetic set's
    mean and variance, the share of runs whose pooled interval covers the original mean
    (``coverage``) and whose 95% posterior interval of the variance covers the data's
    (``variance_coverage``), and the largest split R-hat of μ and λ over the runs (``rhat_max``)."""

    epsilon: float
    total_epsilon: float
    accounting: str
    posterior: str
    runs: int
    overlap: tuple[float, float, float]  # median, 10th, 90th percentile
    posterior_mu: tuple[float, float, float]
    posterior_variance: tuple[float, float, float]
    synthetic_mean: tuple[float, float, float]
    synthetic_variance: tuple[float, float, float]
    coverage: float
    variance_coverage: float
    rhat_max: float


def summarize(values: np.ndarray) -> Summary:
    """Mean, variance (over n), minimum, quartiles and maximum."""
    q1, median, q3 = np.quantile(values, [0.25, 0.5, 0.75])
    return Summary(
        float(values.mean()), float(values.var()), float(values.min()), float(q1), float(median),
        float(q3), float(values.max()),
    )  # fmt: skip


def laplace_scales(n: int, width: float, epsilon: float, accounting: str) -> tuple[float, float]:
    """The Laplace scales b = Δ/ε of x̄ and s² (Δ₁ = w/n, Δ₂ = w²/n) under an accounting:
    ``"total"`` spends ε/2 on each (ε in all), ``"report"`` ε on each (2ε in all).

    Raises
    ------
    ValueError
        On an unknown accounting.
    """
    check_one_of(accounting, "accounting", ACCOUNTINGS)
    each = epsilon / 2 if accounting == "total" else epsilon
    return width / n / each, width**2 / n / each


def total_epsilon(epsilon: float, accounting: str) -> float:
    """What one sanitization spends in all: ε (``"total"``) or 2ε (``"report"``)."""
    return epsilon if accounting == "total" else 2 * epsilon


def sanitized_synthesis(
    values, low, high, epsilon, m: int = 5, seed=None, *, accounting="total",
    posterior="noise_aware",
) -> SanitizedSynthesis:  # fmt: skip
    """m synthetic sets of a normal variable whose values lie in [low, high], from one
    sanitization of its sufficient statistics (ε in all with ``accounting="total"``).

    Raises
    ------
    ValueError
        On fewer than 2 values, a value outside [low, high] or a range with low ≥ high, ε not
        finite and > 0, m not a whole number from 2 to 100, or an unknown accounting or
        posterior.
    """
    x = np.asarray(values, dtype=float)
    if x.ndim != 1 or len(x) < 2 or not np.all(np.isfinite(x)):
        raise ValueError("values must be two or more finite numbers")
    _check_range(low, high)
    if np.any(x < low) or np.any(x > high):
        raise ParameterError("values", f"values must lie in [{low:g}, {high:g}]")
    epsilon, m = _checked(epsilon, m, accounting, posterior)
    rng = np.random.default_rng(seed)
    n, width = len(x), float(high - low)
    scales = laplace_scales(n, width, epsilon, accounting)
    noisy_mean, noisy_spread = _sanitize(np.array([x.mean()]), np.array([x.var()]), scales, rng)
    chains = chains_of(noisy_mean, noisy_spread, n, scales, posterior, low, high, rng)
    mu, lam = _posterior_draws(chains, m)
    datasets = rng.normal(mu[:, 0, None], 1 / np.sqrt(lam[:, 0, None]), size=(m, n))
    original, first = summarize(x), summarize(datasets[0])
    original_interval = _interval(original.mean, original.variance, n)
    synthetic_interval = _interval(first.mean, first.variance, n)
    pooled = combine(datasets.mean(axis=1), datasets.var(axis=1) / n, n, n)
    variance_low, variance_high = _variance_intervals(chains)
    return SanitizedSynthesis(
        epsilon,
        total_epsilon(epsilon, accounting),
        float(chains.kept_mu.mean()),
        float((1 / chains.kept_lambda).mean()),
        original,
        first,
        original_interval,
        synthetic_interval,
        interval_overlap(original_interval, synthetic_interval),
        (pooled.ci_low, pooled.ci_high),
        chains.mu[:, 0, 0],
        chains.lam[:, 0, 0],
        datasets,
        (float(variance_low[0]), float(variance_high[0])),
        _convergence(chains)[0],
        chains.burn_in,
    )


def report_runs(
    n: int, low: float, high: float, mean: float, variance: float, epsilon: float, runs: int = 100,
    *, accounting: str = "report", posterior: str = "naive", m: int = 5, seed=None,
) -> ReportRuns:  # fmt: skip
    """The experiment repeated ``runs`` times at one ε, each time on fresh data: n values of
    N(mean, variance) held inside [low, high], then one sanitization, Gibbs and m synthetic sets
    (the chains of all runs side by side). The defaults are the report's own procedure.

    Raises
    ------
    ValueError
        On n or runs not a whole number ≥ 2, low ≥ high, a variance not > 0, a mean outside the
        range, and as :func:`sanitized_synthesis`.
    """
    n = check_count(n, "n", minimum=2)
    runs = check_count(runs, "runs", minimum=2)
    _check_range(low, high)
    if not (math.isfinite(variance) and variance > 0):
        raise ParameterError("variance", f"variance must be a finite number > 0, got {variance!r}")
    if not low <= mean <= high:
        raise ParameterError("mean", f"mean must lie in [{low:g}, {high:g}], got {mean!r}")
    epsilon, m = _checked(epsilon, m, accounting, posterior)
    rng = np.random.default_rng(seed)
    width = float(high - low)
    data = np.clip(rng.normal(mean, math.sqrt(variance), size=(runs, n)), low, high)
    means, spreads = data.mean(axis=1), data.var(axis=1)
    scales = laplace_scales(n, width, epsilon, accounting)
    noisy_mean, noisy_spread = _sanitize(means, spreads, scales, rng)
    chains = chains_of(noisy_mean, noisy_spread, n, scales, posterior, low, high, rng)
    mu, lam = _posterior_draws(chains, m)  # (m, runs)
    sets = rng.normal(mu[..., None], 1 / np.sqrt(lam)[..., None], size=(m, runs, n))
    set_means, set_spreads = sets.mean(axis=2), sets.var(axis=2)
    low_o, high_o = _interval(means, spreads, n)
    low_s, high_s = _interval(set_means[0], set_spreads[0], n)
    shared = np.minimum(high_o, high_s) - np.maximum(low_o, low_s)
    overlap = 0.5 * (shared / (high_o - low_o) + shared / (high_s - low_s))
    covered = np.empty(runs, dtype=bool)
    for run in range(runs):
        pooled = combine(set_means[:, run], set_spreads[:, run] / n, n, n)
        covered[run] = pooled.ci_low <= means[run] <= pooled.ci_high
    variance_low, variance_high = _variance_intervals(chains)
    return ReportRuns(
        epsilon,
        total_epsilon(epsilon, accounting),
        accounting,
        posterior,
        runs,
        _spread_of(overlap),
        _spread_of(chains.kept_mu.mean(axis=(0, 1))),
        _spread_of((1 / chains.kept_lambda).mean(axis=(0, 1))),
        _spread_of(set_means[0]),
        _spread_of(set_spreads[0]),
        float(covered.mean()),
        float(np.mean((variance_low <= spreads) & (spreads <= variance_high))),
        max(diagnosis.rhat_max for diagnosis in _convergence(chains)),
    )


def _check_range(low, high) -> None:
    if not (
        isinstance(low, (int, float)) and isinstance(high, (int, float))
        and math.isfinite(low) and math.isfinite(high) and low < high
    ):  # fmt: skip
        raise ValueError(f"the range must have low < high, got {low!r}, {high!r}")


def _checked(epsilon, m, accounting: str, posterior: str) -> tuple[float, int]:
    epsilon = check_epsilon(epsilon)
    m = check_count(m, "m", minimum=2)
    if m > 100:
        raise ParameterError("m", f"m must be at most 100, got {m}")
    check_one_of(accounting, "accounting", ACCOUNTINGS)
    check_one_of(posterior, "posterior", POSTERIORS)
    return epsilon, m


def _interval(mean, variance, n: int):
    """The 95% interval of a mean from a dataset's mean and variance (over n)."""
    half = Z95 * np.sqrt(variance / n)
    if np.ndim(half) == 0:
        return (float(mean - half), float(mean + half))
    return mean - half, mean + half


def _spread_of(values: np.ndarray) -> tuple[float, float, float]:
    median, p10, p90 = np.quantile(values, [0.5, 0.1, 0.9])
    return float(median), float(p10), float(p90)


def _sanitize(means: np.ndarray, spreads: np.ndarray, scales, rng) -> tuple:
    """Each run's statistics plus Laplace noise at ``scales``. Assumes checked input."""
    return (
        means + rng.laplace(0, scales[0], means.shape),
        spreads + rng.laplace(0, scales[1], spreads.shape),
    )


def _posterior_draws(chains: Chains, m: int) -> tuple[np.ndarray, np.ndarray]:
    """m draws of (μ, λ) per run from its first chain, evenly spaced after burn-in: shape
    (m, runs)."""
    picks = chains.burn_in - 1 + (len(chains.mu) - chains.burn_in) * np.arange(1, m + 1) // m
    return chains.mu[picks, 0], chains.lam[picks, 0]


def _variance_intervals(chains: Chains) -> tuple[np.ndarray, np.ndarray]:
    """Each run's 95% posterior interval of the variance 1/λ, over every chain after burn-in."""
    kept = 1 / chains.kept_lambda
    pooled = kept.reshape(-1, kept.shape[-1])
    low, high = np.quantile(pooled, [0.025, 0.975], axis=0)
    return low, high


def _convergence(chains: Chains) -> list[Convergence]:
    """Each run's split R-hat and effective sample size of μ and λ after burn-in."""
    mu, lam = chains.kept_mu, chains.kept_lambda
    figures = zip(
        split_rhat(mu), split_rhat(lam), effective_sample_size(mu), effective_sample_size(lam),
        strict=True,
    )  # fmt: skip
    return [Convergence(*map(float, run)) for run in figures]


__all__ = [
    "ACCOUNTINGS",
    "AWARE_BURN_IN",
    "AWARE_SWEEPS",
    "CHAINS",
    "Convergence",
    "POSTERIORS",
    "ReportRuns",
    "SanitizedSynthesis",
    "Summary",
    "laplace_scales",
    "report_runs",
    "sanitized_synthesis",
    "summarize",
    "total_epsilon",
]
