"""Power to see a change: rr's exact power against simulation, its normal approximation, R's
rr::power.rr.test (Blair, Imai & Zhou) on the same inputs, and the power a researcher finds by
simulating each wave with RRreg's RRsimu (Heck & Moshagen) and testing the two RRuni estimates
with the same two-sided Wald test (RRsimu's own power is for a regression slope on a normal
covariate, not for two samples).

Run: python bench/change_power.py [--trials 20000]. Needs Rscript with the rr package for the last
column (``make r`` installs it into .r-lib; set R_LIBS=.r-lib); prints figures, asserts nothing.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rr  # noqa: E402
from rr.power import _normal_power  # noqa: E402

# (label, design, forced-response shares for R (truth, forced yes, forced no), n, π₁, π₂ − π₁)
CASES = [
    ("spinner+coin ε=1", rr.spinner_coin(1.0), 200, 0.2, 0.1),
    ("spinner+coin ε=1", rr.spinner_coin(1.0), 1000, 0.2, 0.1),
    ("spinner+coin ε=2", rr.spinner_coin(2.0), 500, 0.2, 0.1),
    ("spinner+coin ε=2", rr.spinner_coin(2.0), 100, 0.1, 0.2),
    ("spinner+coin ε=0.5", rr.spinner_coin(0.5), 2000, 0.3, -0.1),
    ("forced 0.75/0.15/0.10", rr.forced_response(0.75, 0.15, 0.10), 300, 0.3, -0.1),
    ("forced 0.75/0.15/0.10", rr.forced_response(0.75, 0.15, 0.10), 60, 0.05, 0.25),
]


def forced_shares(design: rr.Design) -> tuple[float, float, float]:
    """A line a + b·π as forced response: truth b, forced yes a, forced no 1 − a − b."""
    return design.slope, design.offset, 1 - design.offset - design.slope


def r_power(cases) -> list[float | None]:
    rscript = shutil.which("Rscript")
    if rscript is None:
        return [None] * len(cases)
    calls = []
    for _, design, n, baseline, change in cases:
        truth, yes, no = forced_shares(design)
        calls.append(
            f"cat(power.rr.test(p = {truth!r}, p1 = {yes!r}, p0 = {no!r}, n = {n}, "
            f"prespT = {baseline + change!r}, prespC = {baseline!r}, prespC.null = {baseline!r}, "
            'design = "forced-known", sig.level = 0.05, type = "two.sample", '
            'alternative = "two.sided")$power, "\\n")'
        )
    script = "suppressMessages(library(rr))\n" + "\n".join(calls)
    result = subprocess.run(
        [rscript, "-e", script], capture_output=True, text=True, env=os.environ, check=False
    )
    if result.returncode != 0:
        print("R failed:", result.stderr[-500:], file=sys.stderr)
        return [None] * len(cases)
    return [float(line) for line in result.stdout.split()]


RRSIMU_REPLICATIONS = 2000


def rrsimu_power(cases, replications: int = RRSIMU_REPLICATIONS) -> list[float | None]:
    """Per case: simulate each wave ``replications`` times with RRsimu (forced response "FR",
    p = c(forced no, forced yes)), pair the replications, and count how often |z| > 1.96 with
    z = (π̂₂ − π̂₁)/√(se₁² + se₂²) from RRuni's estimates and standard errors."""
    rscript = shutil.which("Rscript")
    if rscript is None:
        return [None] * len(cases)
    calls = ["suppressMessages(library(RRreg))", "set.seed(2026)"]
    for _, design, n, baseline, change in cases:
        truth, yes, no = forced_shares(design)
        wave = (
            'RRsimu({reps}, {n}, {pi!r}, "FR", c({no!r}, {yes!r}), method = "RRuni", '
            "getPower = FALSE)$parEsts"
        )
        first = wave.format(reps=replications, n=n, pi=baseline, no=no, yes=yes)
        second = wave.format(reps=replications, n=n, pi=baseline + change, no=no, yes=yes)
        calls.append(
            f"a <- {first}; b <- {second}; "
            'z <- (b[, "pi.RRuni"] - a[, "pi.RRuni"]) / '
            'sqrt(a[, "piSE.RRuni"]^2 + b[, "piSE.RRuni"]^2); '
            'cat(mean(abs(z) > qnorm(0.975), na.rm = TRUE), "\\n")'
        )
    result = subprocess.run(
        [rscript, "-e", "\n".join(calls)], capture_output=True, text=True, env=os.environ,
        check=False,
    )  # fmt: skip
    if result.returncode != 0:
        print("R failed:", result.stderr[-500:], file=sys.stderr)
        return [None] * len(cases)
    return [float(line) for line in result.stdout.split()]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=20_000)
    arguments = parser.parse_args()
    r_figures = r_power(CASES)
    simulated_in_r = rrsimu_power(CASES)
    print(
        f"{'design':24} {'n':>5} {'π₁→π₂':>11} {'exact':>7} {'simulated ± 2se':>17} "
        f"{'normal':>7} {'power.rr.test':>13} {'RRsimu+Wald':>11}"
    )
    for (label, design, n, baseline, change), r_value, rrsimu in zip(
        CASES, r_figures, simulated_in_r, strict=True
    ):
        exact = rr.change_power(design, n, baseline, change).power
        simulated = rr.simulate_change_power(
            design, n, baseline, change, trials=arguments.trials, seed=2026
        )
        se = math.sqrt(simulated * (1 - simulated) / arguments.trials)
        theta = [design.offset + design.slope * share for share in (baseline, baseline + change)]
        normal = _normal_power(theta[0], theta[1], n, n, 0.05)
        shown = "—" if r_value is None else f"{r_value:.4f}"
        shown_rrsimu = "—" if rrsimu is None else f"{rrsimu:.4f}"
        print(
            f"{label:24} {n:5d} {baseline:5.2f}→{baseline + change:4.2f} {exact:7.4f} "
            f"{simulated:9.4f} ± {2 * se:.4f} {normal:7.4f} {shown:>13} {shown_rrsimu:>11}"
        )


if __name__ == "__main__":
    main()
