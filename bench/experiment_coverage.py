"""Coverage of a split ballot's contrast intervals (MOVER on each condition's exact limits, each
condition on its own line), by exact enumeration of both conditions' binomials
(rr.contrast_coverage): each randomized design against asking directly, over condition sizes and
pairs of true shares; and the planner's power against simulation.

Run: python bench/experiment_coverage.py. Prints the tables of docs/statistics.md §20; asserts
nothing.
"""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rr  # noqa: E402

DIRECT = rr.asked_directly()
DESIGNS = [
    ("spinner+coin ε=1", rr.spinner_coin(1.0)),
    ("spinner ε=2", rr.spinner(2.0)),
    ("forced 0.75/0.125/0.125", rr.forced_response(0.75, 0.125, 0.125)),
    ("crosswise q=0.25", rr.crosswise(0.25)),
    ("unrelated 0.7, q=0.25", rr.unrelated_question(0.7, 0.25)),
    ("direct (both direct)", DIRECT),
]
SIZES = [(30, 30), (100, 100), (100, 400), (500, 500), (1000, 1000)]
# (randomized condition's true share, direct condition's): equal, a lift, underreporting
# asked directly, zero-prevalence items and the edges.
SHARES = [(0.0, 0.0), (0.05, 0.0), (0.1, 0.1), (0.3, 0.2), (0.5, 0.3), (0.9, 0.95), (1.0, 0.8)]


def main() -> None:
    print("| design vs direct | " + " | ".join(f"{a}/{b}" for a, b in SIZES) + " |")
    print("|---|" + "---|" * len(SIZES))
    lowest = 1.0
    for name, design in DESIGNS:
        cells = []
        for n_1, n_2 in SIZES:
            worst = min(
                rr.contrast_coverage(design, s_1, n_1, DIRECT, s_2, n_2) for s_1, s_2 in SHARES
            )
            lowest = min(lowest, worst)
            cells.append(f"{worst:.4f}")
        print(f"| {name} | " + " | ".join(cells) + " |")
    print(f"\nlowest coverage over the grid: {lowest:.4f}")
    print("\n| design | baseline | lift | n per condition | planned power | simulated power |")
    print("|---|---|---|---|---|---|")
    for (name, design), (baseline, lift) in itertools.product(
        DESIGNS[:3], [(0.2, 0.1), (0.1, 0.05)]
    ):
        plan = rr.plan_experiment(design, baseline, lift)
        simulated = rr.simulate_power(design, baseline, lift, plan.n_per_condition, seed=1)
        print(
            f"| {name} | {baseline} | {lift} | {plan.n_per_condition} | {plan.power:.3f} "
            f"| {simulated:.3f} |"
        )


if __name__ == "__main__":
    main()
