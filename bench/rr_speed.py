"""Time the statistics core: simulate_estimates at n = 10^6 and estimate_proportion.

Run: python bench/rr_speed.py. Prints figures; asserts nothing.
"""

from __future__ import annotations

import pathlib
import sys
import timeit

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
import rr  # noqa: E402


def best_of(statement, repeat: int = 5, number: int = 1) -> float:
    """Fastest of ``repeat`` runs, in seconds per call."""
    return min(timeit.repeat(statement, repeat=repeat, number=number)) / number


def main() -> None:
    print(f"numpy {np.__version__}")
    seconds = best_of(lambda: rr.simulate_estimates(0.3, 10**6, 1.0, trials=200_000, seed=1))
    print(f"simulate_estimates(n=10^6, trials=2*10^5): {seconds * 1e3:8.1f} ms")
    seconds = best_of(lambda: rr.estimate_proportion(412, 1000, 1.0), number=200)
    print(f"estimate_proportion, one count:            {seconds * 1e6:8.1f} us")
    counts = np.random.default_rng(2).binomial(10**6, 0.4, size=10**6)
    seconds = best_of(lambda: rr.estimate_proportion(counts, 10**6, 1.0), repeat=3)
    print(f"estimate_proportion, 10^6 counts at once:  {seconds * 1e3:8.1f} ms")
    seconds = best_of(lambda: rr.sample_size(0.01, 1.0), number=20)
    print(f"sample_size(margin=0.01, epsilon=1):       {seconds * 1e3:8.2f} ms")
    seconds = best_of(lambda: rr.exact_coverage(0.1, 10**6, 1.0), repeat=3)
    print(f"exact_coverage(n=10^6):                    {seconds * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
