"""The joint model and synthetic data at scale: the figures in docs/performance.md.

Ten yes/no items (spinner_coin at ε = 1, true shares 5% to 50%, B correlated with A) and a
4-level direct question, n = 10⁵ simulated respondents: time of EM on the 4,096 cells, of five
synthetic datasets from five bootstrap refits, and of a two-item Gibbs run (2,000 draws).
Then a survey's joint model, as its synthetic data and its page of two answers fit it: six
yes/no items and two 4-level direct questions (1,024 cells) answered by 200 respondents, Gibbs
with 2,000 draws after 500, and its split of the reports drawn each way: per respondent (what
the sampler chooses there) and per reported pattern (a multinomial draw each). Last, the
reference report's experiment (its sanitized mean and variance, n = 1,476) repeated 100 times at
ε = 1 under each posterior: the report's Gibbs sampler and the noise-aware one.

Run: python bench/joint_speed.py
"""

from __future__ import annotations

import pathlib
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
import rr  # noqa: E402
from rr.joint import (  # noqa: E402
    _Split,
    bootstrap_tables,
    joint_em,
    joint_gibbs,
    margin_table,
    report_matrix,
)
from rr.sanitized import report_runs  # noqa: E402
from rr.synthetic import expand, synthesize  # noqa: E402
from web.classroom.report_lab import REPORT_SETTING  # noqa: E402

N = 100_000
ITEMS = 10


def timed(call):
    start = time.perf_counter()
    value = call()
    return value, time.perf_counter() - start


def main() -> None:
    rng = np.random.default_rng(2026)
    design = rr.spinner_coin(1.0)
    shares = np.linspace(0.05, 0.5, ITEMS)
    truth = rng.random((N, ITEMS)) < shares
    truth[:, 1] = np.where(truth[:, 0], rng.random(N) < 0.6, rng.random(N) < 0.05)
    reports = np.stack([design.perturb(truth[:, i], rng) for i in range(ITEMS)], axis=1)
    group = rng.integers(0, 4, N)
    counts = np.zeros((2,) * ITEMS + (4,))
    np.add.at(counts, (*reports.T, group), 1)
    matrices = [report_matrix(design.yes_given_yes, design.yes_given_no)] * ITEMS + [np.eye(4)]
    fit, em_time = timed(lambda: joint_em(counts, matrices))
    print(f"EM, {counts.size:,} cells, n = {N:,}: {em_time:.3f} s ({fit.iterations} iterations)")
    both = float(margin_table(fit.table, (0, 1))[1, 1])
    print(f"   P(item 1 and item 2): {both:.4f} (truth {np.mean(truth[:, 0] & truth[:, 1]):.4f})")

    def five_datasets():
        tables = bootstrap_tables(counts, matrices, replicates=5, seed=1)
        synthetic = synthesize(tables, N, seed=1)
        return [expand(dataset, seed=index) for index, dataset in enumerate(synthetic)]

    datasets, synthetic_time = timed(five_datasets)
    print(
        f"5 synthetic datasets of {N:,} rows (bootstrap refits, draws, rows): {synthetic_time:.3f} s"
    )
    pair = counts.sum(axis=tuple(range(2, ITEMS + 1)))
    _, gibbs_time = timed(lambda: joint_gibbs(pair, matrices[:2], draws=2000, seed=1))
    print(f"Gibbs, two items, 2,000 draws after 500: {gibbs_time:.3f} s")
    print(f"   rows in the last dataset: {len(datasets[-1]):,}")
    survey_sized(rng, design)
    reports_experiment()


def reports_experiment() -> None:
    """The report's setting (the lab's defaults), 100 runs at ε = 1, best of three each."""
    for posterior in ("naive", "noise_aware"):
        seconds = min(
            timed(
                lambda p=posterior: report_runs(**REPORT_SETTING, epsilon=1.0, posterior=p, seed=1)
            )[1]
            for _ in range(3)
        )
        print(f"the report's experiment, 100 runs at ε = 1, {posterior} posterior: {seconds:.3f} s")


def survey_sized(rng, design) -> None:
    """Gibbs on 1,024 cells with 200 respondents, and its split of the reports each way."""
    respondents = 200
    truth = rng.random((respondents, 6)) < np.linspace(0.1, 0.5, 6)
    reports = np.stack([design.perturb(truth[:, i], rng) for i in range(6)], axis=1)
    groups = rng.integers(0, 4, (respondents, 2))
    counts = np.zeros((2,) * 6 + (4, 4))
    np.add.at(counts, (*reports.T, *groups.T), 1)
    matrices = [report_matrix(design.yes_given_yes, design.yes_given_no)] * 6 + [np.eye(4)] * 2
    _, seconds = timed(lambda: joint_gibbs(counts, matrices, draws=2000, seed=1))
    print(
        f"Gibbs, {counts.size:,} cells, {respondents} respondents, 2,000 draws after 500: "
        f"{seconds:.3f} s"
    )
    full = matrices[0]
    for matrix in matrices[1:]:
        full = np.kron(full, matrix)
    reported = counts.ravel().astype(np.int64)
    rows = np.flatnonzero(reported)
    table = np.full(counts.size, 1 / counts.size)
    for per_respondent in (True, False):
        split = _Split(full[rows], reported[rows])
        split.per_respondent = per_respondent
        _, seconds = timed(lambda split=split: [split.true_counts(table, rng) for _ in range(2500)])
        way = "per respondent" if per_respondent else "per reported pattern (multinomial)"
        print(f"   its split of the reports, 2,500 sweeps, {way}: {seconds:.3f} s")


if __name__ == "__main__":
    main()
