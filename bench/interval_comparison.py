"""Compare candidate intervals by exact coverage over the docs' grid at small n.

Prints, for each interval, its lowest exact coverage and mean width over n in {20, 30, 50, 100, 1000},
ε in {0.5, 1, 2, 4}, π in {0.05, 0.1, 0.25, 0.5}; this is the evidence for the choice of
Clopper–Pearson in docs/statistics.md. Run: python bench/interval_comparison.py
"""

from __future__ import annotations

import itertools
import pathlib
import sys

import numpy as np
from scipy import stats

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from rr.estimate import clopper_pearson  # noqa: E402
from rr.mechanism import noise_line  # noqa: E402

Z = stats.norm.ppf(0.975)


def wald(yes, n):
    share = yes / n
    half = Z * np.sqrt(share * (1 - share) / n)
    return share - half, share + half


def wilson(yes, n):
    share = yes / n
    centre = (share + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * np.sqrt(share * (1 - share) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


def agresti_coull(yes, n):
    total = n + Z * Z
    centre = (yes + Z * Z / 2) / total
    half = Z * np.sqrt(centre * (1 - centre) / total)
    return centre - half, centre + half


def jeffreys(yes, n):
    low = np.where(yes == 0, 0.0, stats.beta.ppf(0.025, yes + 0.5, n - yes + 0.5))
    high = np.where(yes == n, 1.0, stats.beta.ppf(0.975, yes + 0.5, n - yes + 0.5))
    return low, high


def exact(yes, n):
    return clopper_pearson(yes, np.full_like(yes, n), 0.95)


def coverage(interval, share, n, epsilon):
    """Exact coverage and mean width of ``interval`` mapped to the true-share scale and clipped."""
    offset, slope = noise_line(epsilon)
    yes = np.arange(n + 1)
    weights = stats.binom.pmf(yes, n, offset + slope * share)
    low, high = interval(yes, n)
    low = np.clip((low - offset) / slope, 0, 1)
    high = np.clip((high - offset) / slope, 0, 1)
    inside = (low <= share) & (share <= high)
    return weights[inside].sum(), (weights * (high - low)).sum()


def main() -> None:
    grid = list(itertools.product((20, 30, 50, 100, 1000), (0.5, 1, 2, 4), (0.05, 0.1, 0.25, 0.5)))
    candidates = {
        "Wald": wald,
        "Jeffreys": jeffreys,
        "Wilson": wilson,
        "Agresti-Coull": agresti_coull,
        "Clopper-Pearson": exact,
    }
    print(f"{'interval':16s} {'lowest':>7s} {'mean':>7s} {'width':>7s}  where lowest (n, eps, pi)")
    for name, interval in candidates.items():
        results = [
            (*coverage(interval, share, n, epsilon), (n, epsilon, share))
            for n, epsilon, share in grid
        ]
        lowest = min(results)
        print(
            f"{name:16s} {lowest[0]:7.4f} {np.mean([r[0] for r in results]):7.4f} "
            f"{np.mean([r[1] for r in results]):7.4f}  {lowest[2]}"
        )


if __name__ == "__main__":
    main()
