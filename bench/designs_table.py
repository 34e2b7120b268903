"""Binary designs at the same ε, and the exact coverage of each design's interval: the tables in
docs/statistics.md §11.

1. Variance per respondent n·Var(π̂) = θ(1 − θ)/b² at ε = 1 and ε = 2, for π ∈ {0.1, 0.3, 0.5},
   from the formula and from 200,000 simulated surveys of 1,000 (fixed seed), for the symmetric
   spinner, forced response with a die (forced "yes" twice as likely as forced "no"), the
   unrelated question with q = 0.25 and the crosswise model, each set to the same ε.
2. The exact coverage of each design's 95% interval over n ∈ {30, 300, 3000} and
   π ∈ {0, 0.1, 0.3, 0.5} (the lowest over π), at the parameters a study would publish.
3. Cheating detection: bias and coverage of π̂ and γ̂ at n = 10,000, honest respondents and 20%
   cheaters, 4,000 simulated surveys (fixed seed).

Run: python bench/designs_table.py
"""

from __future__ import annotations

import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
import rr  # noqa: E402

PRIORS = (0.1, 0.3, 0.5)


NAMES = {
    "spinner_coin": "spinner (= symmetric forced response)",
    "forced_response": "forced response, forced yes = 2 × forced no",
    "unrelated_question": "unrelated question, q = 0.25",
    "crosswise": "crosswise (q = e^ε/(1 + e^ε))",
}


def at_epsilon(epsilon: float) -> dict[str, rr.Design]:
    """Each design with its free parameter set so that its ε is ``epsilon``."""
    return {NAMES[name]: design for name, design in rr.designs_at_epsilon(epsilon).items()}


def variance_table() -> None:
    rng = np.random.default_rng(2026)
    print("1. Variance per respondent n·Var(π̂), formula / simulated (200,000 surveys of 1,000)")
    for epsilon in (1.0, 2.0):
        print(f"\nε = {epsilon:g}")
        print(
            f"{'design':48} {'λ₁':>7} {'λ₀':>7}" + "".join(f"{'π = ' + str(p):>20}" for p in PRIORS)
        )
        for name, design in at_epsilon(epsilon).items():
            cells = []
            for pi in PRIORS:
                formula = design.variance(pi, 1)
                counts = design.simulate_counts(pi, 1000, trials=200_000, seed=rng)
                simulated = (
                    design.estimate(counts, np.full_like(counts, 1000)).estimate.var() * 1000
                )
                cells.append(f"{formula:9.3f} / {simulated:7.3f}")
            print(
                f"{name:48} {design.yes_given_yes:7.4f} {design.yes_given_no:7.4f}"
                + "".join(f"{cell:>20}" for cell in cells)
            )


PUBLISHED = {
    "spinner_coin, ε = 1": rr.spinner_coin(1.0),
    "forced response, die: 1–4 truth, 5 yes, 6 no": rr.forced_response(4 / 6, 1 / 6, 1 / 6),
    "forced response, coin twice (3/4, 1/8, 1/8)": rr.forced_response(0.75, 0.125, 0.125),
    "unrelated question, t = 0.7, q = 0.25": rr.unrelated_question(0.7, 0.25),
    "crosswise, q = 0.25 (born Jan–Mar)": rr.crosswise(0.25),
    "crosswise, q = 0.15": rr.crosswise(0.15),
}


def coverage_table() -> None:
    print("\n2. Exact coverage of the 95% interval, lowest over π ∈ {0, 0.1, 0.3, 0.5}")
    print(f"{'design':48} {'ε':>7}" + "".join(f"{'n = ' + str(n):>12}" for n in (30, 300, 3000)))
    for name, design in PUBLISHED.items():
        lowest = [
            min(design.exact_coverage(pi, n) for pi in (0.0, 0.1, 0.3, 0.5))
            for n in (30, 300, 3000)
        ]
        print(f"{name:48} {design.epsilon:7.3f}" + "".join(f"{value:12.4f}" for value in lowest))


def cheating_table() -> None:
    print("\n3. Cheating detection, arms (t, f_yes, f_no) = (0.6, 0.3, 0.1) and (0.6, 0.1, 0.3)")
    model = rr.cheating_detection([(0.6, 0.3, 0.1), (0.6, 0.1, 0.3)])
    print(f"ε = {model.epsilon:.4f}; n = 10,000, 4,000 surveys; bias in units of one survey's SE")
    for gamma in (0.0, 0.2):
        yes, n = model.simulate_counts(0.2, gamma, 10_000, trials=4000, seed=7)
        found = [model.estimate(y, m) for y, m in zip(yes, n, strict=True)]
        for label, name, truth in (("π", "honest_yes", 0.2), ("γ", "cheating", gamma)):
            values = np.array([getattr(f, name).estimate for f in found])
            inside = np.mean(
                [getattr(f, name).ci_low <= truth <= getattr(f, name).ci_high for f in found]
            )
            print(
                f"  γ = {gamma:.1f}: {label} mean {values.mean():.4f} (true {truth}), SE {values.std():.4f}, "
                f"bias {(values.mean() - truth) / values.std():+.3f} SE, coverage {inside:.4f}"
            )


if __name__ == "__main__":
    variance_table()
    coverage_table()
    cheating_table()
