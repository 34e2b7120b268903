"""The lab's reproduction of the reference report's experiment (:mod:`rr.sanitized`): a simulated
normal variable, its Bayesian sufficient statistics sanitized once by the Laplace mechanism,
Gibbs sampling and m synthetic sets, at ε = 0.1, 1 and 10; and the experiment repeated R times at
the report's setting, its published figures beside the runs' range in both accountings."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from rr.sanitized import (
    ReportRuns,
    SanitizedSynthesis,
    report_runs,
    sanitized_synthesis,
)

EPSILONS = (0.1, 1.0, 10.0)
# The report's setting: net income of 1,476 firms, in millions of won (its Tables 2 to 5).
REPORT_SETTING = {
    "n": 1476, "low": -31806.73, "high": 47003.02, "mean": 4356.87, "variance": 164224210.03,
}  # fmt: skip
# Its published figures per ε: Table 6's overlap, Table 4's posterior means of μ and 1/λ.
PUBLISHED = {
    0.1: {"overlap": 0.44, "mu": 4838.92, "variance": 152340333.14},
    1.0: {"overlap": 0.84, "mu": 4468.82, "variance": 161545480.38},
    10.0: {"overlap": 0.91, "mu": 4348.23, "variance": 164158464.03},
}
REPORT_RUNS = 100  # the default number of repetitions
MAX_REPORT_RUNS = 200
# Values simulated in all (runs × n, each drawn again as five synthetic sets): 200 runs at the
# report's n, 1,476, and no more, so the experiment's cost has a bound whatever n is asked.
MAX_REPORT_VALUES = 300_000
SETS = 5
TRACE_STEP = 10  # every 10th sweep on the page's trace plots
RHAT_WARNING = 1.01  # above it, the chains have not mixed (Vehtari et al. 2021)
SEED = 2023


@lru_cache(maxsize=32)
def report_experiment(n: int, low: float, high: float) -> tuple[SanitizedSynthesis, ...]:
    """The experiment for n values of N(middle, (0.15·width)²) held inside [low, high]; the same
    settings always give the same numbers (fixed seeds)."""
    width = high - low
    values = np.clip(
        np.random.default_rng(SEED).normal(low + width / 2, 0.15 * width, n), low, high
    )
    return tuple(
        sanitized_synthesis(values, low, high, epsilon, m=SETS, seed=SEED + index)
        for index, epsilon in enumerate(EPSILONS)
    )


@lru_cache(maxsize=64)
def repeated(
    n: int, low: float, high: float, mean: float, variance: float, runs: int, accounting: str,
    posterior: str,
) -> tuple[ReportRuns, ...]:  # fmt: skip
    """The experiment repeated ``runs`` times at each ε, each on fresh data (fixed seeds: the same
    settings give the same numbers)."""
    return tuple(
        report_runs(
            n,
            low,
            high,
            mean,
            variance,
            epsilon,
            runs,
            accounting=accounting,
            posterior=posterior,
            m=SETS,
            seed=SEED + index,
        )  # fmt: skip
        for index, epsilon in enumerate(EPSILONS)
    )


def report_figures(
    n: int, low: float, high: float, mean: float, variance: float, runs: int, accounting: str,
    posterior: str,
) -> dict:  # fmt: skip
    """``GET /api/lab/report``'s answer for checked arguments (seconds of work: it runs in the
    compute pool, web/site/compute.py)."""
    return report_document(repeated(n, low, high, mean, variance, runs, accounting, posterior))


def lab_report(n: int, low: float, high: float) -> tuple[tuple[SanitizedSynthesis, ...], list]:
    """The lab page's experiment and its trace plots' points, for checked arguments."""
    runs = report_experiment(n, low, high)
    return runs, traces(runs)


def report_document(runs: tuple[ReportRuns, ...]) -> dict:
    """The API's answer: per ε what it spends in all, the runs' overlap (median, 10th and 90th
    percentiles), the medians of the posterior means, the pooled interval's coverage of the mean,
    the variance interval's coverage of the data's variance, and the largest split R-hat."""
    return {
        "accounting": runs[0].accounting,
        "posterior": runs[0].posterior,
        "runs": runs[0].runs,
        "epsilons": [
            {
                "epsilon": run.epsilon,
                "total_epsilon": run.total_epsilon,
                "overlap_median": run.overlap[0],
                "overlap_p10": run.overlap[1],
                "overlap_p90": run.overlap[2],
                "mu_median": run.posterior_mu[0],
                "variance_median": run.posterior_variance[0],
                "coverage": run.coverage,
                "variance_coverage": run.variance_coverage,
                "rhat_max": run.rhat_max,
                "published": PUBLISHED.get(run.epsilon),
            }
            for run in runs
        ],
    }


def reproduction(runs: int) -> list[dict]:
    """The page's table at the report's setting: per ε the report's overlap, the runs' range as
    the report accounts (ε on each statistic, naive sampler) and spending ε once, and the pooled
    interval's coverage with the naive and the noise-aware sampler (ε once)."""
    as_report = repeated(**REPORT_SETTING, runs=runs, accounting="report", posterior="naive")
    once = repeated(**REPORT_SETTING, runs=runs, accounting="total", posterior="naive")
    aware = repeated(**REPORT_SETTING, runs=runs, accounting="total", posterior="noise_aware")
    return [
        {"epsilon": report.epsilon, "published": PUBLISHED[report.epsilon], "report": report,
         "total": total, "aware": noise_aware}
        for report, total, noise_aware in zip(as_report, once, aware, strict=True)
    ]  # fmt: skip


def traces(runs: tuple[SanitizedSynthesis, ...]) -> list[dict]:
    """Each ε's first chain of μ and λ, thinned for the page."""
    return [
        {
            "epsilon": run.epsilon,
            "sweeps": len(run.mu_chain),
            "burnIn": run.burn_in,
            "step": TRACE_STEP,
            "mu": _plotted(run.mu_chain[::TRACE_STEP], run.burn_in // 2 // TRACE_STEP),
            "lambda": _plotted(run.lambda_chain[::TRACE_STEP], run.burn_in // 2 // TRACE_STEP),
        }
        for run in runs
    ]


def _plotted(chain: np.ndarray, settled_from: int) -> list[float]:
    """The chain rounded to a ten-thousandth of its settled spread (the part the plot scales
    to, as lab.js does): a 200-pixel plot shows no more, and the page carries half the digits."""
    settled = chain[settled_from:]
    spread = float(np.ptp(settled)) or float(np.abs(settled).max()) or 1.0
    decimals = int(np.ceil(-np.log10(spread / 10_000)))
    return [float(value) for value in np.round(chain, decimals)]
