"""The one-bit mean of a bounded quantity (rr.mean): the tables in docs/statistics.md §12.

1. Exact coverage of the 95% interval over n ∈ {30, 300, 3000} and ε ∈ {0.5, 1, 2}, for four
   populations on [0, 30]: a point mass at 0, a point mass at 30, a uniform and a skewed one.
   Reports of respondents drawn from a population are independent Bernoulli(θ) with θ set by its
   mean alone, so the coverage is exact: Σₓ P(X = x)·[μ ∈ CI(x)].
2. Bias over 10,000 simulated classes of 300 (fixed seed), in standard errors.
3. Variance per respondent n·Var(x̄̂) at the same ε for a value on [0, 1] whose population is half
   0 and half 1 (the widest spread): one bit, Laplace (b = 1/ε) and Gaussian (analytic σ at
   δ = 1e-5), by formula and by simulation (4,000 classes of 500).

Run: python bench/number_table.py
"""

from __future__ import annotations

import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
import rr  # noqa: E402
from rr.noise import gaussian_sigma  # noqa: E402

VALUES = np.arange(0, 31)
WEIGHTS = 0.5 ** (VALUES / 3)
POPULATIONS = {
    "point mass at 0": np.array([0.0]),
    "point mass at 30": np.array([30.0]),
    "uniform 0..30": VALUES.astype(float),
    "skewed (halving every 3)": np.repeat(
        VALUES, np.round(1000 * WEIGHTS / WEIGHTS.sum()).astype(int)
    ).astype(float),
}


def coverage_table() -> None:
    print("1. Exact coverage of the 95% interval of the mean (spinner_coin, range [0, 30])")
    header = "".join(f"{f'ε={e:g} n={n}':>14}" for e in (0.5, 1.0, 2.0) for n in (30, 300, 3000))
    print(f"{'population':26} {'mean':>6}{header}")
    for name, population in POPULATIONS.items():
        mean = float(population.mean())
        cells = [
            rr.bounded_mean(0, 30, epsilon).exact_coverage(mean, n)
            for epsilon in (0.5, 1.0, 2.0)
            for n in (30, 300, 3000)
        ]
        print(f"{name:26} {mean:6.2f}" + "".join(f"{cell:14.4f}" for cell in cells))


def bias_table() -> None:
    print("\n2. Bias over 10,000 classes of 300 at ε = 1, in standard errors")
    for procedure in rr.PROCEDURES:
        quantity = rr.bounded_mean(0, 30, 1.0, procedure)
        cells = []
        for name, population in POPULATIONS.items():
            truth = float(population.mean())
            estimates = quantity.simulate_estimates(population, 300, trials=10_000, seed=2026)
            error = np.sqrt(quantity.variance(truth, 300))
            cells.append(f"{name}: {(estimates.mean() - truth) / error:+.4f}")
        print(f"{procedure:13} " + "; ".join(cells))


def variance_table() -> None:
    print("\n3. n·Var of the mean per respondent, value in [0, 1], half 0 and half 1")
    print(
        f"{'ε':>5} {'one bit':>17} {'Laplace':>17} {'Gaussian δ=1e-5':>19} {'one bit/Laplace':>16}"
    )
    rng = np.random.default_rng(2026)
    for epsilon in (0.5, 1.0, 2.0, 4.0):
        formula = rr.mechanism_variances(0, 1, epsilon, true_mean=0.5, value_variance=0.25)
        values = rng.choice([0.0, 1.0], size=(4000, 500))
        one_bit = rr.bounded_mean(0, 1, epsilon).perturb(values, rng).mean(axis=1)
        one_bit_var = (
            500 * ((one_bit - (1 - np.tanh(epsilon / 2)) / 2) / np.tanh(epsilon / 2)).var()
        )
        laplace = 500 * (values + rng.laplace(0, 1 / epsilon, values.shape)).mean(axis=1).var()
        sigma = gaussian_sigma(1.0, epsilon, 1e-5)
        gaussian = 500 * (values + rng.normal(0, sigma, values.shape)).mean(axis=1).var()
        print(
            f"{epsilon:5g} {formula.one_bit:8.3f} / {one_bit_var:6.3f} "
            f"{formula.laplace:8.3f} / {laplace:6.3f} {formula.gaussian:9.3f} / {gaussian:7.3f} "
            f"{formula.one_bit / formula.laplace:16.3f}"
        )


if __name__ == "__main__":
    coverage_table()
    bias_table()
    variance_table()
