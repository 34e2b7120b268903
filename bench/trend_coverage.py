"""Coverage of the trend's change intervals (MOVER on each wave's exact limits), by exact
enumeration of both waves' binomials (rr.Design.difference_coverage), over designs, wave sizes
and pairs of true shares; with a simulated check of the enumeration.

Run: python bench/trend_coverage.py. Prints the table of docs/statistics.md §19; asserts nothing.
A number question's mean is min + (max − min)·π on its value wheel's line, and a single-choice
option is one binary line of k options, so these lines cover every item type.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rr  # noqa: E402
from rr.mechanism import noise_line  # noqa: E402

offset, slope = noise_line(1.0, 4)
LINES = [
    ("spinner+coin ε=0.5", rr.spinner_coin(0.5)),
    ("spinner+coin ε=1", rr.spinner_coin(1.0)),
    ("spinner+coin ε=2", rr.spinner_coin(2.0)),
    ("spinner ε=5", rr.spinner(5.0)),
    ("forced 0.75/0.15/0.10", rr.forced_response(0.75, 0.15, 0.10)),
    ("choice k=4 ε=1 (one option)", rr.Design("choice", offset, slope, 1.0)),
]
SIZES = [(30, 30), (100, 100), (100, 400), (500, 500), (2000, 2000)]
SHARES = [(0.0, 0.0), (0.05, 0.0), (0.1, 0.1), (0.3, 0.2), (0.5, 0.3), (0.9, 0.95), (1.0, 0.8)]


def main() -> None:
    print(f"{'line':28} {'n₁/n₂':>10} {'lowest':>8} {'at π₁→π₂':>11} {'mean':>7}")
    lowest_overall = 1.0
    for (label, design), (n_1, n_2) in itertools.product(LINES, SIZES):
        found = [(design.difference_coverage(a, b, n_1, n_2), (a, b)) for a, b in SHARES]
        low, at = min(found)
        mean = sum(c for c, _ in found) / len(found)
        lowest_overall = min(lowest_overall, low)
        print(
            f"{label:28} {f'{n_1}/{n_2}':>10} {low:8.4f} {f'{at[0]:.2f}→{at[1]:.2f}':>11} {mean:7.4f}"
        )
    print(f"lowest coverage over the grid: {lowest_overall:.4f}")
    exact = rr.spinner_coin(1.0).difference_coverage(0.3, 0.2, 200)
    simulated = rr.simulate_difference_coverage(0.3, 0.2, 200, 1.0, trials=40_000, seed=2026)
    print(f"check: exact {exact:.4f}, simulated {simulated:.4f} (40,000 pairs; s.e. 0.0010)")


if __name__ == "__main__":
    main()
