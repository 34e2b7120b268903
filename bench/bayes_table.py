"""The one-item posterior (rr.bayes): its speed, and the frequentist coverage of its 95% credible
intervals, the tables in docs/statistics.md §13.

1. Time of one posterior with its mean, equal-tailed and highest-density intervals at
   n ∈ {25, 10³, 10⁶, 10⁷} (best of 20).
2. Exact frequentist coverage, Σ_y P(Y = y | π)·[π ∈ CrI(y)], of the equal-tailed and the
   highest-density intervals with a uniform prior, spinner_coin at ε = 1, over n ∈ {30, 300,
   3000} and π ∈ {0, 0.1, 0.3, 0.5}, beside the Clopper–Pearson interval's.

Run: python bench/bayes_table.py
"""

from __future__ import annotations

import pathlib
import sys
import time

import numpy as np
from scipy import stats

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
import rr  # noqa: E402

DESIGN = rr.spinner_coin(1.0)


def speed() -> None:
    print("1. One posterior: mean, 95% equal-tailed and highest-density intervals (ms, best of 20)")
    for n in (25, 1000, 1_000_000, 10_000_000):
        best = float("inf")
        for _ in range(20):
            start = time.perf_counter()
            found = rr.posterior(n * 3 // 10, n, DESIGN.offset, DESIGN.slope)
            found.interval()
            found.hdi()
            best = min(best, time.perf_counter() - start)
        print(f"   n = {n:>10,}: {best * 1e3:.2f} ms")


def coverage() -> None:
    print(
        "\n2. Exact coverage of the 95% interval, spinner_coin at ε = 1, uniform prior: "
        "equal-tailed / highest-density / Clopper–Pearson"
    )
    shares = (0.0, 0.1, 0.3, 0.5)
    print(f"   {'n':>6}" + "".join(f"{'π = ' + str(pi):>28}" for pi in shares))
    for n in (30, 300, 3000):
        yes = np.arange(n + 1)
        posteriors = [rr.posterior(int(y), n, DESIGN.offset, DESIGN.slope) for y in yes]
        limits = np.array([found.interval() for found in posteriors])
        densest = np.array([found.hdi() for found in posteriors])
        cells = []
        for pi in shares:
            weights = stats.binom.pmf(yes, n, DESIGN.report_share(pi))
            inside = (limits[:, 0] <= pi) & (pi <= limits[:, 1])
            highest = (densest[:, 0] <= pi) & (pi <= densest[:, 1])
            cells.append(
                f"{weights[inside].sum():.4f} / {weights[highest].sum():.4f} / "
                f"{DESIGN.exact_coverage(pi, n):.4f}"
            )
        print(f"   {n:>6}" + "".join(f"{cell:>28}" for cell in cells))


if __name__ == "__main__":
    speed()
    coverage()
