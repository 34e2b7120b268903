"""The two samplers of :mod:`rr.sanitized`'s posteriors, for many runs at once as arrays: the
report's Gibbs sampler (``"naive"``: the sanitized statistics taken for the true ones) and
random-walk Metropolis under the bounded model (``"noise_aware"``: the true statistics latent,
integrated out; the model is described in :mod:`rr.sanitized`'s docstring).

Private to :mod:`rr.sanitized`: every function assumes input it has checked.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

PRIOR_VARIANCE = 1e10
SWEEPS, BURN_IN = 5000, 4000  # the report's Gibbs sampler (the naive posterior)
# The noise-aware sampler: its steps are tuned in the first half, and four chains of the second
# half give it several thousand draws whose mixing R-hat can check.
AWARE_SWEEPS, AWARE_BURN_IN = 3000, 1500
CHAINS = 4  # per run, from dispersed starts: split R-hat and ESS compare them
GAMMA_NODES = 48  # the quadrature of s²* | σ²: equal-probability quantiles of the gamma
SPREAD_GRID = 2048  # log σ² points at which s²* | σ² is tabulated per run (≈ 0.013 apart)
TARGET_ACCEPTANCE = 0.35  # the random walk's steps are tuned to it during burn-in
TUNE_EVERY = 50


class Chains(NamedTuple):
    """Every run's chains of μ and λ, shaped (sweeps, CHAINS, runs), and how many sweeps of
    them are burn-in."""

    mu: np.ndarray
    lam: np.ndarray
    burn_in: int

    @property
    def kept_mu(self) -> np.ndarray:
        return self.mu[self.burn_in :]

    @property
    def kept_lambda(self) -> np.ndarray:
        return self.lam[self.burn_in :]


def chains_of(noisy_mean, noisy_spread, n, scales, posterior, low, high, rng) -> Chains:
    """:data:`CHAINS` chains of (μ, λ) for every run by the named posterior. Assumes checked
    input."""
    runs = len(noisy_mean)
    observed = (
        np.broadcast_to(noisy_mean, (CHAINS, runs)),
        np.broadcast_to(noisy_spread, (CHAINS, runs)),
    )
    if posterior == "naive":
        mu, lam = _naive_gibbs(*observed, n, float(high - low), rng)
        return Chains(mu, lam, BURN_IN)
    mu, lam = _bounded_metropolis(*observed, n, scales, float(low), float(high), rng)
    return Chains(mu, lam, AWARE_BURN_IN)


def _naive_gibbs(noisy_mean, noisy_spread, n: int, width: float, rng) -> tuple:
    """The report's Gibbs sampler: s* taken for s, a vague Normal–Gamma prior. Chains start from
    dispersed means (the conjugate steps forget them at once). Assumes checked input."""
    mu0, precision0 = 0.0, 1 / PRIOR_VARIANCE
    # Gamma(α₀, β₀) with variance α₀/β₀² = 10¹⁰ and mean α₀/β₀ = 1: vague, as in the report.
    beta0 = 1 / PRIOR_VARIANCE
    alpha0 = beta0
    # A sanitized variance can come out at or below 0: the report's sampler needs it above.
    spread = np.maximum(noisy_spread, (width * 1e-6) ** 2)
    mu = noisy_mean + width * rng.uniform(-0.5, 0.5, noisy_mean.shape)
    mu_chain, lambda_chain = np.empty((2, SWEEPS, *noisy_mean.shape))
    shape, size = n / 2 + alpha0, noisy_mean.shape
    # The standard draws scaled here are the ones rng.gamma(shape, scale) and rng.normal(loc,
    # scale) make and scale alike (the same numbers), without their checks of every scale, which
    # were a fifth of the sampler's time.
    for sweep in range(SWEEPS):
        rate = (n * spread + n * (noisy_mean - mu) ** 2) / 2 + beta0
        lam = (1 / rate) * rng.standard_gamma(shape, size)
        precision = lam * n + precision0
        centre = (lam * n * noisy_mean + mu0 * precision0) / precision
        mu = centre + (1 / np.sqrt(precision)) * rng.standard_normal(size)
        mu_chain[sweep], lambda_chain[sweep] = mu, lam
    return mu_chain, lambda_chain


def _bounded_metropolis(noisy_mean, noisy_spread, n: int, scales, low: float, high: float, rng):
    """Random-walk Metropolis on (μ, log σ²) under the bounded model (the module's docstring),
    its two steps tuned during burn-in towards :data:`TARGET_ACCEPTANCE`; chains of (μ, λ).
    Proposals outside the bounds are refused, so no chain leaves them. Assumes checked input."""
    from scipy import stats  # here: scipy.stats alone takes ~1 s to import

    width = high - low
    log_top, log_floor = math.log(width**2 / 4), math.log((width * 1e-6) ** 2)
    nodes = stats.gamma.ppf((np.arange(GAMMA_NODES) + 0.5) / GAMMA_NODES, (n - 1) / 2, scale=2 / n)
    model = _BoundedModel(noisy_mean, noisy_spread, n, scales, (log_floor, log_top), nodes)
    # Dispersed starts: anywhere in the range, and over the top eight e-folds of the variance.
    mu = rng.uniform(low, high, noisy_mean.shape)
    log_v = rng.uniform(log_top - 8, log_top, noisy_mean.shape)
    steps = np.array([np.full(mu.shape, width / 10), np.ones(mu.shape)])
    accepted = np.zeros((2, *mu.shape))
    mean_part, spread_part = model.mean_part(mu, log_v), model.spread_part(log_v)
    mu_chain, lambda_chain = np.empty((2, AWARE_SWEEPS, *mu.shape))
    for sweep in range(AWARE_SWEEPS):
        proposal = mu + steps[0] * rng.normal(size=mu.shape)
        inside = (proposal >= low) & (proposal <= high)
        new_mean = np.where(inside, model.mean_part(_clip(proposal, low, high), log_v), -np.inf)
        take = np.log(rng.random(mu.shape)) < new_mean - mean_part
        mu, mean_part = np.where(take, proposal, mu), np.where(take, new_mean, mean_part)
        accepted[0] += take
        proposal = log_v + steps[1] * rng.normal(size=mu.shape)
        inside = (proposal >= log_floor) & (proposal <= log_top)
        bounded = _clip(proposal, log_floor, log_top)
        new_mean = model.mean_part(mu, bounded)
        new_spread = np.where(inside, model.spread_part(bounded), -np.inf)
        # σ uniform on (0, w/2]: in log σ² the prior density is ∝ σ = e^{log σ² / 2}.
        gain = new_mean + new_spread + bounded / 2 - (mean_part + spread_part + log_v / 2)
        take = np.log(rng.random(mu.shape)) < gain
        log_v = np.where(take, proposal, log_v)
        mean_part = np.where(take, new_mean, mean_part)
        spread_part = np.where(take, new_spread, spread_part)
        accepted[1] += take
        if sweep < AWARE_BURN_IN and (sweep + 1) % TUNE_EVERY == 0:
            steps *= np.exp(2 * (accepted / TUNE_EVERY - TARGET_ACCEPTANCE))
            accepted[:] = 0
        mu_chain[sweep], lambda_chain[sweep] = mu, np.exp(-log_v)
    return mu_chain, lambda_chain


class _BoundedModel:
    """The log-likelihood of the sanitized statistics under the bounded model, in two parts: the
    mean's (it moves with μ and σ²) and the variance's (with σ² alone, so it is computed once per
    run on a fine grid of log σ² and read off by linear interpolation). Assumes checked input."""

    def __init__(self, noisy_mean, noisy_spread, n, scales, log_range, nodes):
        self.noisy_mean, self.n = noisy_mean, n
        self.b_mean, b_spread = scales
        self.log_floor, log_top = log_range
        grid = np.linspace(self.log_floor, log_top, SPREAD_GRID)
        self.step = grid[1] - grid[0]
        # Every chain of a run shares its observation: one table per run, (runs, SPREAD_GRID).
        table = _spread_likelihood(noisy_spread[0][:, None], grid, n, b_spread, log_top, nodes)
        self.table = np.maximum(table, -1e300)  # −inf would make 0·(−inf) in the interpolation
        self.runs = np.arange(table.shape[0])

    def mean_part(self, mu, log_v):
        """log p(x̄* | μ, σ²): N(μ, σ²/n) convolved with Laplace(b), in closed form,
        (1/2b)·e^{s²/2b²}[e^{−d/b}Φ(d/s − s/b) + e^{d/b}Φ(−d/s − s/b)], d = x̄* − μ, s² = σ²/n."""
        from scipy import special

        sd, b = np.sqrt(np.exp(log_v) / self.n), self.b_mean
        d, half = self.noisy_mean - mu, np.exp(log_v) / self.n / (2 * b * b)
        return np.logaddexp(
            half - d / b + special.log_ndtr(d / sd - sd / b),
            half + d / b + special.log_ndtr(-d / sd - sd / b),
        ) - math.log(2 * b)

    def spread_part(self, log_v):
        """log p(s²* | σ²), interpolated in the run's table."""
        position = (log_v - self.log_floor) / self.step
        index = _clip(np.floor(position).astype(int), 0, SPREAD_GRID - 2)
        share = _clip(position - index, 0.0, 1.0)
        below, above = self.table[self.runs, index], self.table[self.runs, index + 1]
        return below + share * (above - below)


def _spread_likelihood(noisy, log_v, n: int, b: float, log_top: float, nodes) -> np.ndarray:
    """log p(s²* | σ²): the latent s² ~ Gamma((n−1)/2, n/(2σ²)) held to (0, w²/4], convolved
    with Laplace(b), by the mean over the gamma's equal-probability quantiles ``nodes`` (of
    s²/σ²). ``noisy`` (runs, 1) against ``log_v`` (grid,): (runs, grid). Assumes checked input."""
    from scipy import special

    top = math.exp(log_top)
    v = np.exp(log_v)
    latent = v[:, None] * nodes  # (grid, nodes)
    kernel = np.where(latent <= top, -np.abs(noisy[..., None] - latent) / b, -np.inf)
    held = special.gammainc((n - 1) / 2, n * top / (2 * v))
    with np.errstate(divide="ignore"):
        return _logsumexp_last(kernel) - math.log(len(nodes)) - np.log(held) - math.log(2 * b)


def _clip(values, low, high):
    """``np.clip``'s values, by its two ufuncs called directly: the sampler clips small arrays
    twice a sweep, and ``np.clip``'s own checks took a fifth of a run of one chain set."""
    return np.minimum(np.maximum(values, low), high)


def _logsumexp_last(values: np.ndarray) -> np.ndarray:
    """log Σ exp over the last axis, shifted by its largest value; −inf where every value is.
    ``scipy.special.logsumexp`` gives the same to 1e-15 but takes nine times as long on the
    (runs, grid, nodes) array, which was a third of a noise-aware run. Assumes real values."""
    largest = values.max(axis=-1)
    shift = np.where(np.isfinite(largest), largest, 0.0)
    with np.errstate(divide="ignore"):
        return shift + np.log(np.exp(values - shift[..., None]).sum(axis=-1))
