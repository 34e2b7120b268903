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
2. **Gibbs sampling** (M = 5000 sweeps, burn-in 4000), with one of two posteriors
   (:data:`POSTERIORS`):

   - ``"naive"``, the report's: the full conditionals given s* as if it were s,
     μ | λ ~ N((λn x̄* + μ₀/σ₀²)/(λn + 1/σ₀²), 1/(λn + 1/σ₀²)),
     λ | μ ~ Gamma(n/2 + α₀, rate = (n s²* + n(x̄* − μ)²)/2 + β₀);
   - ``"noise_aware"``: the true statistics are latent (Bernstein & Sheldon 2018, "Differentially
     private Bayesian inference for exponential families"). Given μ and λ, x̄ ~ N(μ, 1/(nλ)) and
     s² ~ Gamma((n − 1)/2, rate = nλ/2), independent; each observed statistic is its latent one
     plus Laplace noise, written as a normal with a latent variance τ ~ Exp(1/(2b²)) so that
     x̄ | … is normal, 1/τ | … is inverse Gaussian (mean 1/(b|e|), shape 1/b²), and s² | … is
     drawn by an independence Metropolis step from the normal approximation of its conditional.
     The posterior then carries the privacy noise, and so do the synthetic sets.
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
from .errors import ParameterError
from .synthetic import combine, interval_overlap

PRIOR_VARIANCE = 1e10
SWEEPS, BURN_IN = 5000, 4000
ACCOUNTINGS = ("total", "report")
POSTERIORS = ("naive", "noise_aware")
Z95 = 1.959963984540054
RIDGE_STEP = 0.3  # the log-scale of the joint move of λ and s² (noise-aware posterior)


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
    """One ε's run: what it spends in all, the posterior means of μ and 1/λ, the original's and
    the first synthetic set's statistics, the two 95% intervals of the mean and their overlap,
    the m sets' pooled interval, the chains (for trace plots) and the synthetic sets."""

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


class ReportRuns(NamedTuple):
    """``runs`` repetitions of the experiment at one ε, each on fresh data: the medians and the
    10th and 90th percentiles of the overlap, the posterior means and the first synthetic set's
    mean and variance, and the share of runs whose pooled interval covers the original mean."""

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
    mu_chain, lambda_chain = _gibbs(noisy_mean, noisy_spread, n, scales, posterior, width, rng)
    mu, lam = _posterior_draws(mu_chain, lambda_chain, m)
    datasets = rng.normal(mu[:, 0, None], 1 / np.sqrt(lam[:, 0, None]), size=(m, n))
    original, first = summarize(x), summarize(datasets[0])
    original_interval = _interval(original.mean, original.variance, n)
    synthetic_interval = _interval(first.mean, first.variance, n)
    pooled = combine(datasets.mean(axis=1), datasets.var(axis=1) / n, n, n)
    kept = slice(BURN_IN, SWEEPS)
    return SanitizedSynthesis(
        epsilon,
        total_epsilon(epsilon, accounting),
        float(mu_chain[kept].mean()),
        float((1 / lambda_chain[kept]).mean()),
        original,
        first,
        original_interval,
        synthetic_interval,
        interval_overlap(original_interval, synthetic_interval),
        (pooled.ci_low, pooled.ci_high),
        mu_chain[:, 0],
        lambda_chain[:, 0],
        datasets,
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
    mu_chain, lambda_chain = _gibbs(noisy_mean, noisy_spread, n, scales, posterior, width, rng)
    mu, lam = _posterior_draws(mu_chain, lambda_chain, m)  # (m, runs)
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
    kept = slice(BURN_IN, SWEEPS)
    return ReportRuns(
        epsilon,
        total_epsilon(epsilon, accounting),
        accounting,
        posterior,
        runs,
        _spread_of(overlap),
        _spread_of(mu_chain[kept].mean(axis=0)),
        _spread_of((1 / lambda_chain[kept]).mean(axis=0)),
        _spread_of(set_means[0]),
        _spread_of(set_spreads[0]),
        float(covered.mean()),
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


def _posterior_draws(mu_chain, lambda_chain, m: int) -> tuple[np.ndarray, np.ndarray]:
    """m draws of (μ, λ) per chain, evenly spaced after burn-in: shape (m, chains)."""
    picks = BURN_IN - 1 + (SWEEPS - BURN_IN) * np.arange(1, m + 1) // m
    return mu_chain[picks], lambda_chain[picks]


def _gibbs(noisy_mean, noisy_spread, n: int, scales, posterior: str, width: float, rng) -> tuple:
    """SWEEPS sweeps for each chain (one per run, side by side); chains of shape (SWEEPS, runs).
    Assumes checked input."""
    mu0, precision0 = 0.0, 1 / PRIOR_VARIANCE
    # Gamma(α₀, β₀) with variance α₀/β₀² = 10¹⁰ and mean α₀/β₀ = 1: vague, as in the report.
    beta0 = 1 / PRIOR_VARIANCE
    alpha0 = beta0
    # A sanitized variance can come out at or below 0: the chains start from a sliver above it.
    floor = (width * 1e-6) ** 2
    mean, spread = noisy_mean.copy(), np.maximum(noisy_spread, floor)
    aware = posterior == "noise_aware"
    if not aware:
        noisy_spread = spread  # the report's sampler takes s²* as s², held above 0
    b_mean, b_spread = scales
    tau_mean = np.full(mean.shape, 2 * b_mean**2)
    tau_spread = np.full(mean.shape, 2 * b_spread**2)
    mu, lam = mean.copy(), 1 / spread
    mu_chain = np.empty((SWEEPS, len(mean)))
    lambda_chain = np.empty((SWEEPS, len(mean)))
    shape = n / 2 + alpha0
    for sweep in range(SWEEPS):
        if aware:
            # μ with the latent x̄ integrated out (x̄* | μ ~ N(μ, 1/(nλ) + τ)), then x̄ given μ:
            # drawn one after the other they would crawl along their ridge.
            spread_of_noisy = 1 / (lam * n) + tau_mean
            precision = 1 / spread_of_noisy + precision0
            mu = rng.normal(
                (noisy_mean / spread_of_noisy + mu0 * precision0) / precision,
                1 / np.sqrt(precision),
            )
            mean, tau_mean = _latent_mean(mean, noisy_mean, mu, lam, n, b_mean, tau_mean, rng)
        else:
            precision = lam * n + precision0
            mu = rng.normal((lam * n * mean + mu0 * precision0) / precision, 1 / np.sqrt(precision))
        rate = (n * spread + n * (mean - mu) ** 2) / 2 + beta0
        lam = rng.gamma(shape, 1 / rate)
        if aware:
            spread, tau_spread = _latent_spread(
                spread, noisy_spread, lam, n, b_spread, tau_spread, floor, rng
            )
            lam, spread = _along_the_ridge(
                lam, spread, noisy_spread, tau_spread, n * (mean - mu) ** 2 / 2 + beta0,
                n, alpha0, floor, rng,
            )  # fmt: skip
        mu_chain[sweep], lambda_chain[sweep] = mu, lam
    return mu_chain, lambda_chain


def _latent_mean(mean, noisy, mu, lam, n, b, tau, rng):
    """x̄ | μ, λ, τ, x̄* (normal), then τ | x̄, x̄* (1/τ inverse Gaussian). Assumes valid input."""
    precision = n * lam + 1 / tau
    mean = rng.normal((n * lam * mu + noisy / tau) / precision, 1 / np.sqrt(precision))
    error = np.maximum(np.abs(noisy - mean), 1e-12 * b)
    tau = 1 / rng.wald(1 / (b * error), 1 / b**2)
    return mean, tau


def _latent_spread(spread, noisy, lam, n, b, tau, floor, rng):
    """s² | λ, τ, s²* by an independence Metropolis step whose proposal is the normal
    approximation of Gamma((n − 1)/2, nλ/2) times N(s²*; s², τ); then τ | s², s²*. Assumes valid
    input."""
    shape, rate = (n - 1) / 2, n * lam / 2
    prior_mean, prior_variance = shape / rate, shape / rate**2
    precision = 1 / prior_variance + 1 / tau
    centre = (prior_mean / prior_variance + noisy / tau) / precision
    proposal = rng.normal(centre, 1 / np.sqrt(precision))

    def log_ratio(value):
        # log target − log proposal, both up to constants; the likelihood term cancels.
        safe = np.maximum(value, floor)
        return (
            (shape - 1) * np.log(safe)
            - rate * safe
            + (safe - prior_mean) ** 2 / (2 * prior_variance)
        )

    accept = (proposal > floor) & (
        np.log(rng.random(spread.shape)) < log_ratio(proposal) - log_ratio(spread)
    )
    spread = np.where(accept, proposal, spread)
    error = np.maximum(np.abs(noisy - spread), 1e-12 * b)
    tau = 1 / rng.wald(1 / (b * error), 1 / b**2)
    return spread, tau


def _along_the_ridge(lam, spread, noisy, tau, rest, n, alpha0, floor, rng):
    """A Metropolis move of λ and s² together that keeps their product (λ' = λ/c, s²' = c s²,
    a volume-preserving move): given each other they are tied within a few percent, so drawn
    one after the other they would crawl along the ridge that the noisy s²* leaves them.
    ``rest`` is the rate's part that does not hold s² (n(x̄ − μ)²/2 + β₀). Assumes valid input."""

    def log_density(lam_, spread_):
        return (
            (n / 2 + alpha0 - 1) * np.log(lam_) - lam_ * (n * spread_ / 2 + rest)
            + (n - 3) / 2 * np.log(spread_) - (noisy - spread_) ** 2 / (2 * tau)
        )  # fmt: skip

    scale = np.exp(rng.normal(0, RIDGE_STEP, lam.shape))
    lam_new, spread_new = lam / scale, spread * scale
    accept = (spread_new > floor) & (
        np.log(rng.random(lam.shape))
        < log_density(lam_new, np.maximum(spread_new, floor)) - log_density(lam, spread)
    )
    return np.where(accept, lam_new, lam), np.where(accept, spread_new, spread)


__all__ = [
    "ACCOUNTINGS",
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
