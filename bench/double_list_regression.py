"""The double list's regression (rr.DoubleList.regression) over simulated samples: the mean of
each coefficient's estimates against the truth (in standard errors of that mean), and the fit's
own standard errors against the spread of its estimates; with the CPU time of one fit.

A double list of 3 and 4 control items, n respondents with one 0/1 covariate (half each), each
drawn into arm a or b half and half; β = (−1, 1), γ_A = (0.2, −0.3), γ_B = (−0.4, 0.5).

    python bench/double_list_regression.py [--samples 60] [--n 1500]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rr  # noqa: E402

TRUTH = {"β": (-1.0, 1.0), "γ_A": (0.2, -0.3), "γ_B": (-0.4, 0.5)}


def sample(rng, n: int):
    """One simulated double list: arms, both counts, the covariates."""
    x = np.column_stack([np.ones(n), rng.integers(0, 2, n)])

    def share(coefficients):
        return 1 / (1 + np.exp(-(x @ np.array(coefficients))))

    holds = rng.random(n) < share(TRUTH["β"])
    arms = np.where(rng.random(n) < 0.5, "a", "b")
    counts_a = rng.binomial(3, share(TRUTH["γ_A"])) + (holds & (arms == "a"))
    counts_b = rng.binomial(4, share(TRUTH["γ_B"])) + (holds & (arms == "b"))
    return list(arms), counts_a, counts_b, x


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--n", type=int, default=1500)
    args = parser.parse_args()
    model = rr.double_list(3, 4)
    estimates, errors, seconds = [], [], 0.0
    for seed in range(args.samples):
        arms, counts_a, counts_b, x = sample(np.random.default_rng(seed), args.n)
        started = time.process_time()
        fit = model.regression(arms, counts_a, counts_b, x)
        seconds += time.process_time() - started
        every = (*fit.sensitive, *fit.control, *fit.control_b)
        estimates.append([c.estimate for c in every])
        errors.append([c.std_error for c in every])
    found, spread = np.mean(estimates, axis=0), np.std(estimates, axis=0, ddof=1)
    truth = [value for values in TRUTH.values() for value in values]
    print(f"{args.samples} samples of {args.n}; {seconds / args.samples:.2f} CPU s a fit")
    print("coefficient  truth   mean of estimates  (z)    SD of estimates  mean SE")
    for index, name in enumerate(f"{part}[{k}]" for part in TRUTH for k in range(2)):
        z = (found[index] - truth[index]) / (spread[index] / np.sqrt(args.samples))
        print(f"{name:11}  {truth[index]:5.2f}   {found[index]:17.3f}  ({z:+.2f})  "
              f"{spread[index]:15.3f}  {np.mean(errors, axis=0)[index]:7.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
