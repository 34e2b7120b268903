"""Single-choice questions (generalized randomized response): the numbers in docs/statistics.md.

1. The variance of each option's estimate, asked as single choice at total ε versus as
   multi-select with ε/k per option (the same total), from the formulas and checked by simulation.
2. The coverage of each option's 95% interval over n ∈ {30, 200, 2000}, ε ∈ {0.5, 1, 2, 4},
   k ∈ {3, 5, 8} and several true distributions (one with a zero share): the lowest over the
   options, exact (summed over the binomial law) / simulated (4,000 questions, fixed seed).

Run: python bench/choice_table.py
"""

from __future__ import annotations

import itertools
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
import rr  # noqa: E402
from rr.mechanism import noise_line  # noqa: E402

AUDIT = ((3, 3.0), (5, 5.0), (8, 8.0), (8, 4.0))
DISTRIBUTIONS = {
    3: {"uniform": (1 / 3,) * 3, "skewed, one zero": (0.0, 0.2, 0.8)},
    5: {"uniform": (0.2,) * 5, "skewed, one zero": (0.5, 0.3, 0.1, 0.1, 0.0)},
    8: {"uniform": (0.125,) * 8, "skewed, one zero": (0.65,) + (0.05,) * 5 + (0.1, 0.0)},
}


def variance(share: float, n: int, epsilon: float, k: int) -> float:
    offset, slope = noise_line(epsilon, k)
    theta = offset + slope * share
    return theta * (1 - theta) / (n * slope**2)


def variance_table() -> None:
    print(
        "| k options | total ε | multi-select (ε/k per option) | single choice at total ε | simulated ratio |"
    )
    print("|---|---|---|---|---|")
    n, trials = 1000, 4000
    for k, total in AUDIT:
        share = 1 / k
        ratio = variance(share, n, total, k) / variance(share, n, total / k, 2)
        distribution = (share,) * k
        counts = rr.simulate_choice_counts(distribution, n, total, trials=trials, seed=k)
        grr = np.array([rr.estimate_choice(row, total).estimate[0] for row in counts]).var(ddof=1)
        multi = rr.simulate_estimates(share, n, total / k, trials=trials, seed=k).var(ddof=1)
        print(f"| {k} | {total:g} | 1.00 | {ratio:.2f}× | {grr / multi:.2f}× |")
    print(f"\n(π = 1/k for every option; simulated: {trials:,} questions of n = {n:,} each way.)\n")


def coverage_table() -> None:
    print("| n | ε | k | distribution | lowest coverage over the options: exact / simulated |")
    print("|---|---|---|---|---|")
    lowest = 1.0
    for seed, (n, epsilon, k) in enumerate(
        itertools.product((30, 200, 2000), (0.5, 1.0, 2.0, 4.0), (3, 5, 8))
    ):
        for name, distribution in DISTRIBUTIONS[k].items():
            exact = rr.exact_choice_coverage(distribution, n, epsilon).min()
            simulated = rr.simulate_choice_coverage(
                distribution, n, epsilon, trials=4000, seed=seed
            ).min()
            lowest = min(lowest, exact)
            print(f"| {n:,} | {epsilon:g} | {k} | {name} | {exact:.3f} / {simulated:.3f} |")
    print(f"\nLowest exact coverage over the grid: {lowest:.4f}")


if __name__ == "__main__":
    variance_table()
    coverage_table()
