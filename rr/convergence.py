"""Convergence of Markov chains: split R-hat and the effective sample size.

Both follow Gelman et al., *Bayesian Data Analysis*, 3rd ed. (BDA3), §11.4–11.5: each chain is
split in halves, so that a chain that drifts shows up as two halves that disagree; R-hat compares
the variance between the halves with the variance within them (1 when they agree; above 1.01 the
chains have not mixed), and the effective sample size discounts the draws by their
autocorrelation, summed over lags in pairs until a pair's sum turns negative (Geyer's initial
positive sequence).
"""

from __future__ import annotations

import numpy as np


def _halves(draws: np.ndarray) -> np.ndarray:
    """(sweeps, chains, …) → (sweeps // 2, 2·chains, …): each chain cut in two. Assumes at
    least four sweeps."""
    half = draws.shape[0] // 2
    return np.concatenate([draws[:half], draws[half : 2 * half]], axis=1)


def split_rhat(draws) -> np.ndarray:
    """Split R-hat of draws shaped (sweeps, chains, …), one value per trailing index.

    R̂ = √(var⁺ / W), var⁺ = (s − 1)/s · W + B/s, with W the mean within-half variance and B/s
    the variance of the half means, over halves of s draws (BDA3 eq. 11.3–11.4).

    Raises
    ------
    ValueError
        On fewer than four sweeps or no chain.
    """
    draws = np.asarray(draws, dtype=float)
    if draws.ndim < 2 or draws.shape[0] < 4 or draws.shape[1] < 1:
        raise ValueError(f"draws must be shaped (sweeps ≥ 4, chains ≥ 1, …), got {draws.shape}")
    halves = _halves(draws)
    s = halves.shape[0]
    within = halves.var(axis=0, ddof=1).mean(axis=0)
    between_over_s = halves.mean(axis=0).var(axis=0, ddof=1)
    pooled = (s - 1) / s * within + between_over_s
    with np.errstate(divide="ignore", invalid="ignore"):
        rhat = np.sqrt(pooled / within)
    # Chains that never moved agree only if they stand at one value.
    return np.where(within > 0, rhat, np.where(between_over_s > 0, np.inf, 1.0))


def effective_sample_size(draws) -> np.ndarray:
    """Effective sample size of draws shaped (sweeps, chains, …), one value per trailing index.

    n_eff = m·s / (1 + 2 Σ ρ̂_t), with ρ̂_t = 1 − (W − mean autocovariance at lag t) / var⁺ over
    the split halves, summed while consecutive pairs ρ̂_{2k} + ρ̂_{2k+1} stay positive (BDA3
    eq. 11.7–11.8).

    Raises
    ------
    ValueError
        As :func:`split_rhat`.
    """
    draws = np.asarray(draws, dtype=float)
    split_rhat(draws)  # the same checks
    halves = _halves(draws)
    s, chains = halves.shape[:2]
    centred = halves - halves.mean(axis=0)
    # Autocovariance of every half by FFT, at lags 0 … s − 1.
    size = 1 << (2 * s - 1).bit_length()
    spectrum = np.fft.rfft(centred, n=size, axis=0)
    autocovariance = np.fft.irfft(spectrum * np.conj(spectrum), n=size, axis=0)[:s] / s
    within = halves.var(axis=0, ddof=1).mean(axis=0)
    pooled = (s - 1) / s * within + halves.mean(axis=0).var(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = 1 - (within - autocovariance.mean(axis=1)) / pooled
    rho = np.nan_to_num(rho, nan=0.0)
    pairs = rho[0 : s - 1 : 2] + rho[1:s:2]  # ρ₀+ρ₁, ρ₂+ρ₃, …
    positive = np.cumprod(pairs > 0, axis=0).astype(bool)
    total = 2 * np.where(positive, pairs, 0).sum(axis=0) - 1  # 1 + 2Σρ_t, t ≥ 1
    return chains * s / np.maximum(total, 1 / (chains * s))


__all__ = ["effective_sample_size", "split_rhat"]
