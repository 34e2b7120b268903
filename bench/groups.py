"""Analysis by group: the numbers in docs/statistics.md §10 and docs/performance.md.

1. Speed: 10^6 simulated responses with a 5-option direct question (five groups) in a fresh SQLite
   database; time of the regression from the published counts per group (reading them included),
   and of the grouped results API at 10^3 and at 10^6 responses (it reads counts per cell only).
2. The difference between two groups: coverage of its 95% interval over n per group ∈ {30, 200,
   2000}, ε ∈ {0.5, 1, 2} and several pairs of prevalences (4,000 simulated pairs each, fixed seed).
3. The regression: bias (in standard errors) and coverage of each coefficient's 95% interval over
   2,000 simulated surveys of n = 5,000 and n = 2,000 in three groups.

Run: python bench/groups.py [N]
"""

from __future__ import annotations

import itertools
import json
import pathlib
import sys
import tempfile
import time

import numpy as np
from scipy import special

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
import rr  # noqa: E402
from app import create_app  # noqa: E402
from rr.mechanism import noise_line  # noqa: E402
from web.core.results.analysis import regression  # noqa: E402
from web.core.startup import prepare_database  # noqa: E402
from web.core.surveys.lookup import find_survey  # noqa: E402

SURVEY = {
    "slug": "by-year",
    "title": "By year",
    "questions": [
        {
            "id": "cheated",
            "type": "yesno",
            "text": "Cheated?",
            "epsilon": 1.0,
            "procedure": "spinner_coin",
        },
        {
            "id": "year",
            "type": "direct",
            "text": "Year?",
            "options": [{"id": f"y{index}", "text": f"Year {index}"} for index in range(1, 6)],
        },
    ],
}
SHARES = "year=y1:0.1,y2:0.15,y3:0.2,y4:0.3,y5:0.4"


def best_of(times: int, call) -> float:
    best = float("inf")
    for _ in range(times):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def speed(n: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/b.sqlite3",
                "DEMO_SURVEY": False,
            }
        )
        prepare_database(app)
        runner = app.test_cli_runner()
        path = pathlib.Path(folder) / "survey.json"
        path.write_text(json.dumps(SURVEY), encoding="utf-8")
        runner.invoke(args=["import-survey", str(path)])
        runner.invoke(args=["create-user", "bench@example.org", "--password", "violet kestrel 42"])
        token = runner.invoke(args=["create-token", "bench@example.org"]).output.split()[-1]
        client = app.test_client()
        url = "/api/surveys/by-year/results?by=year"
        headers = {"Authorization": f"Bearer {token}"}
        rows = []
        for total in (10_000, n):
            start = time.perf_counter()
            result = runner.invoke(
                args=[
                    "simulate-responses",
                    "by-year",
                    "--n",
                    str(total - (10_000 if total == n else 0)),
                    "--true-proportion-by",
                    SHARES,
                    "--seed",
                    "1",
                ]
            )
            assert result.exit_code == 0, result.output
            simulated = time.perf_counter() - start
            app.extensions.pop("results_cache", None)
            grouped = best_of(
                5,
                lambda: (
                    app.extensions.pop("results_cache", None),
                    client.get(url, headers=headers),
                ),
            )
            with app.app_context():
                fit_time = best_of(
                    5, lambda: regression(find_survey("by-year"), "cheated", ["year"], 10)
                )
                fit = regression(find_survey("by-year"), "cheated", ["year"], 10)
            rows.append((total, simulated, grouped, fit_time, fit))
        print(
            "| responses | simulate (s) | grouped results API, uncached (ms) | regression, counts read included (ms) |"
        )
        print("|---|---|---|---|")
        for total, simulated, grouped, fit_time, _fit in rows:
            print(f"| {total:,} | {simulated:.1f} | {grouped * 1e3:.1f} | {fit_time * 1e3:.1f} |")
        fit = rows[-1][-1]
        print(
            f"\nAt {fit['n']:,} responses, predicted prevalence per group (truth 10, 15, 20, 30, 40%):"
        )
        print(
            ", ".join(f"{p['group']['year']}: {p['estimate']:.3f}" for p in fit["predicted"]) + "\n"
        )


def difference_table() -> None:
    pairs = [(0.1, 0.1), (0.1, 0.4), (0.3, 0.5), (0.0, 0.2), (0.5, 0.5)]
    print("| n per group | ε | " + " | ".join(f"π = {a}, {b}" for a, b in pairs) + " |")
    print("|---|---|" + "---|" * len(pairs))
    lowest = 1.0
    for n, epsilon in itertools.product((30, 200, 2000), (0.5, 1.0, 2.0)):
        cells = []
        for seed, (a, b) in enumerate(pairs):
            coverage = rr.simulate_difference_coverage(a, b, n, epsilon, trials=4000, seed=seed)
            lowest = min(lowest, coverage)
            cells.append(f"{coverage:.3f}")
        print(f"| {n:,} | {epsilon:g} | " + " | ".join(cells) + " |")
    print(f"\nLowest coverage over the grid: {lowest:.3f}\n")


def regression_table() -> None:
    design = np.array([[1, 0, 0], [1, 1, 0], [1, 0, 1]], dtype=float)
    beta = np.array([-1.5, 1.0, 1.8])
    print("| n | ε | coefficient | truth | mean estimate | bias / SE | coverage |")
    print("|---|---|---|---|---|---|---|")
    for n, epsilon in ((5000, 1.0), (2000, 1.0), (2000, 2.0)):
        a, b = noise_line(epsilon)
        theta = a + b * special.expit(design @ beta)
        estimates, errors, covered = [], [], []
        for seed in range(2000):
            counts = np.full(3, n // 3)
            yes = np.random.default_rng(seed).binomial(counts, theta)
            fit = rr.rr_logistic_regression(design, counts, yes, epsilon)
            estimates.append([c.estimate for c in fit.coefficients])
            errors.append([c.std_error for c in fit.coefficients])
            covered.append(
                [c.ci_low <= t <= c.ci_high for c, t in zip(fit.coefficients, beta, strict=True)]
            )
        mean, se, cover = np.mean(estimates, 0), np.mean(errors, 0), np.mean(covered, 0)
        for name, index in (("intercept", 0), ("group 2", 1), ("group 3", 2)):
            bias = (mean[index] - beta[index]) / se[index]
            cells = [f"{n:,}", f"{epsilon:g}", name, f"{beta[index]:g}", f"{mean[index]:.3f}"]
            print("| " + " | ".join([*cells, f"{bias:+.3f}", f"{cover[index]:.3f}"]) + " |")
    print()


if __name__ == "__main__":
    speed(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
    difference_table()
    regression_table()
