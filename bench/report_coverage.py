"""The reference report's experiment, repeated: its published figures against the Monte Carlo
range of the runs in both accountings, and how often the m synthetic sets' pooled interval covers
the original mean with the report's (naive) posterior and with the noise-aware one; and the
variance: its median posterior mean against the truth, how often its 95% interval covers the
data's, and the largest split R-hat over the runs.

The report's setting (Statistics Korea, net income of 1,476 firms in millions of won): n = 1,476
values of N(4,356.87, 164,224,210.03) held inside [−31,806.73, 47,003.02]; m = 5 synthetic sets
pooled by the fully synthetic combining rules (rr.combine). Each run draws fresh data.

    python bench/report_coverage.py [--runs 500]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rr.sanitized import report_runs  # noqa: E402

SETTING = {"n": 1476, "low": -31806.73, "high": 47003.02, "mean": 4356.87, "variance": 164224210.03}
# The report's Table 6 (overlap of the 95% intervals of the mean) and Table 4 (posterior mean of
# mu), net income.
PUBLISHED = {0.1: (0.44, 4838.92), 1.0: (0.84, 4468.82), 10.0: (0.91, 4348.23)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=500)
    arguments = parser.parse_args()
    print(f"{arguments.runs} runs per row; m = 5; seeds fixed\n")
    print("epsilon | accounting | total epsilon | posterior | report's overlap | overlap: median "
          "[10%, 90%] | mu: median [10%, 90%] (report) | pooled interval covers the mean | "
          "variance: median posterior mean / truth | variance interval covers | largest R-hat | s")  # fmt: skip
    print("---|---|---|---|---|---|---|---|---|---|---|---")
    for epsilon, (overlap, mu) in PUBLISHED.items():
        for accounting in ("report", "total"):
            for posterior in ("naive", "noise_aware"):
                started = time.perf_counter()
                runs = report_runs(**SETTING, epsilon=epsilon, runs=arguments.runs,
                                   accounting=accounting, posterior=posterior, seed=2026)  # fmt: skip
                o, m = runs.overlap, runs.posterior_mu
                print(
                    f"{epsilon:g} | {accounting} | {runs.total_epsilon:g} | {posterior} | "
                    f"{overlap} | {o[0]:.2f} [{o[1]:.2f}, {o[2]:.2f}] | "
                    f"{m[0]:,.0f} [{m[1]:,.0f}, {m[2]:,.0f}] ({mu:,.0f}) | "
                    f"{runs.coverage:.3f} | "
                    f"{runs.posterior_variance[0] / SETTING['variance']:.2f} | "
                    f"{runs.variance_coverage:.3f} | {runs.rhat_max:.3f} | "
                    f"{time.perf_counter() - started:.1f}"
                )


if __name__ == "__main__":
    main()
