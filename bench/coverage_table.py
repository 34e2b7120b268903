"""Print the interval's coverage over the grid of docs/statistics.md as a Markdown table.

Each cell: exact coverage (summed over the binomial distribution) / simulated coverage (10^4
surveys, fixed seed) / mean width. Both procedures give identical reports at equal ε, so one
table serves both. Run: python bench/coverage_table.py
"""

from __future__ import annotations

import itertools
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
import rr  # noqa: E402

SIZES = (30, 100, 1000, 10_000, 1_000_000)
EPSILONS = (0.5, 1.0, 2.0, 4.0)
SHARES = (0.05, 0.1, 0.25, 0.5)


def main() -> None:
    print("| n | ε | " + " | ".join(f"π = {share}" for share in SHARES) + " |")
    print("|---|---|" + "---|" * len(SHARES))
    lowest = 1.0
    for seed, (n, epsilon) in enumerate(itertools.product(SIZES, EPSILONS)):
        cells = []
        for share in SHARES:
            exact = rr.exact_coverage(share, n, epsilon)
            simulated = rr.simulate_coverage(share, n, epsilon, trials=10_000, seed=seed)
            lowest = min(lowest, exact.coverage)
            cells.append(
                f"{exact.coverage:.3f} / {simulated.coverage:.3f} / {exact.mean_width:.3f}"
            )
        print(f"| {n:,} | {epsilon} | " + " | ".join(cells) + " |")
    print(f"\nLowest exact coverage over the grid: {lowest:.4f}")


if __name__ == "__main__":
    main()
