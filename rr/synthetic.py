"""Fully synthetic microdata from the joint model of true answers, and how to analyse it.

m synthetic datasets of n respondents each are drawn from m posterior draws p⁽¹⁾, …, p⁽ᵐ⁾ of the
table of true patterns (:mod:`rr.joint`): dataset ℓ is Multinomial(n, p⁽ˡ⁾) expanded into rows
(the posterior predictive distribution), as Statistics Korea's method draws synthetic data from
posterior draws of its model. Randomized responses are ε-private already, so the synthetic data
are post-processing of them and cost no further ε; they are exactly as informative as the
model's estimates, no more.

An analyst estimates q on each dataset, with variance u, and pools them with the combining rules
for fully synthetic data (Raghunathan, Reiter & Rubin 2003):

    q̄ = Σ qℓ / m,   b = Σ (qℓ − q̄)² / (m − 1),   ū = Σ uℓ / m,
    T = (1 + 1/m)·b − ū,   ν = (m − 1)·(1 − m·ū / ((m + 1)·b))²,

with a t interval on ν degrees of freedom. When T ≤ 0 (possible with few datasets), the
conservative T* = (n_syn / n)·ū is used instead (Reiter 2002). Utility is measured as the report
does, by the overlap of the synthetic and the original confidence intervals (Karr et al. 2006):

    I = ½·[(U − L)/(u_o − l_o) + (U − L)/(u_s − l_s)],   L = max(l_o, l_s), U = min(u_o, u_s),

1 for identical intervals, 0 for touching ones, negative when they are apart.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._validate import check_count
from .errors import ParameterError


class Pooled(NamedTuple):
    """A pooled estimate from m synthetic datasets, with its variance, degrees of freedom and
    95% interval."""

    estimate: float
    variance: float
    df: float
    ci_low: float
    ci_high: float
    between: float
    within: float


def synthesize(tables: np.ndarray, n: int, seed=None) -> np.ndarray:
    """Counts of synthetic respondents per true pattern, one dataset per table.

    Parameters
    ----------
    tables : array, shape (m, k_1, …, k_m)
        Posterior draws of the true-pattern table (each sums to 1).
    n : int
        Respondents per dataset.

    Returns
    -------
    array of int, the shape of ``tables``: each dataset's Multinomial(n, table) counts.
    """
    tables = np.asarray(tables, dtype=float)
    n = check_count(n, "n", minimum=1)
    if tables.ndim < 2 or not np.allclose(tables.reshape(len(tables), -1).sum(axis=1), 1):
        raise ValueError("tables must be one probability table per dataset")
    rng = np.random.default_rng(seed)
    flat = tables.reshape(len(tables), -1)
    counts = np.stack([rng.multinomial(n, row / row.sum()) for row in flat])
    return counts.reshape(tables.shape)


def expand(counts: np.ndarray, seed=None) -> np.ndarray:
    """One dataset's rows from its counts per pattern: an array of shape (n, number of axes)
    holding each row's level per axis, in random order."""
    counts = np.asarray(counts)
    cells = np.array(list(np.ndindex(counts.shape)), dtype=np.int64).reshape(-1, counts.ndim)
    rows = np.repeat(cells, counts.ravel().astype(np.int64), axis=0)
    return np.random.default_rng(seed).permutation(rows)


def combine(estimates, variances, n_synthetic: int, n_original: int, level: float = 0.95) -> Pooled:
    """The fully synthetic combining rules (Raghunathan, Reiter & Rubin 2003).

    Raises
    ------
    ValueError
        On fewer than 2 datasets, estimates and variances of different lengths, a negative
        variance, or counts that are not whole numbers ≥ 1.
    """
    from scipy import stats

    q = np.asarray(estimates, dtype=float)
    u = np.asarray(variances, dtype=float)
    if q.ndim != 1 or len(q) < 2 or u.shape != q.shape or np.any(u < 0):
        raise ValueError("estimates and variances must be two or more numbers each, variances >= 0")
    n_synthetic = check_count(n_synthetic, "n_synthetic", minimum=1)
    n_original = check_count(n_original, "n_original", minimum=1)
    m = len(q)
    mean = float(q.mean())
    between = float(q.var(ddof=1))
    within = float(u.mean())
    total = (1 + 1 / m) * between - within
    if total > 0 and between > 0:
        df = (m - 1) * (1 - m * within / ((m + 1) * between)) ** 2
        df = max(df, 1.0)
    else:
        total = n_synthetic / n_original * within
        df = math.inf
    spread = math.sqrt(max(total, 0.0))
    quantile = (
        stats.t.ppf(0.5 + level / 2, df) if math.isfinite(df) else stats.norm.ppf(0.5 + level / 2)
    )
    return Pooled(
        mean, total, df, mean - quantile * spread, mean + quantile * spread, between, within
    )


def interval_overlap(original: tuple[float, float], synthetic: tuple[float, float]) -> float:
    """Karr et al.'s (2006) overlap of two intervals: 1 when equal, 0 when they touch, below 0
    when apart.

    Raises
    ------
    ValueError
        On an interval whose upper end is not above its lower end.
    """
    (low_o, high_o), (low_s, high_s) = original, synthetic
    if not (high_o > low_o and high_s > low_s):
        raise ParameterError(
            "intervals", f"intervals must have high > low, got {original!r} and {synthetic!r}"
        )
    shared = min(high_o, high_s) - max(low_o, low_s)
    return 0.5 * (shared / (high_o - low_o) + shared / (high_s - low_s))


__all__ = ["Pooled", "combine", "expand", "interval_overlap", "synthesize"]
