"""Number questions cost what yes/no questions cost: the figures in docs/performance.md.

Two surveys alike but for their type: five yes/no questions, or five number questions (0 to 30,
step 1), each at ε = 1, with a direct question. A number question's report is one bit, as a yes/no
question's is, so both should take submissions at the same rate and build their results as fast.

1. Submissions: rounds of 2,000 POSTs through the app in process (the WSGI stack, the checks and
   the writer, no network), the two surveys alternating; the median rate of each.
2. Results: the results API uncached (the document built from the published counts) at 10^4 and
   10^6 simulated responses; the best of 7.

Run: python bench/numbers_speed.py [--rounds 5]. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from app import create_app  # noqa: E402
from web.core.startup import prepare_database  # noqa: E402

KEYS = ("q1", "q2", "q3", "q4", "q5")
RANGE = {"min": 0, "max": 30, "step": 1}


def survey(kind: str) -> dict:
    questions = [
        {"id": key, "type": kind, "text": f"Question {key}?", "epsilon": 1.0}
        | (RANGE if kind == "number" else {})
        for key in KEYS
    ]
    questions.append(
        {
            "id": "year",
            "type": "direct",
            "text": "Year?",
            "options": [{"id": "first", "text": "First"}, {"id": "fourth", "text": "Fourth"}],
        }
    )
    return {"slug": kind, "title": kind, "results_batch": 100, "questions": questions}


def submit_round(client, slug: str, count: int) -> float:
    body = {"answers": {**dict.fromkeys(KEYS, 1), "year": "first"}}
    start = time.perf_counter()
    for _ in range(count):
        response = client.post(f"/api/surveys/{slug}/responses", json=body)
        assert response.status_code == 201, response.get_data(as_text=True)
    return count / (time.perf_counter() - start)


def best_of(times: int, call) -> float:
    best = float("inf")
    for _ in range(times):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/b.sqlite3",
                "DEMO_SURVEY": False,
                "RATELIMIT_ENABLED": False,
            }
        )
        prepare_database(app)
        runner = app.test_cli_runner()
        for kind in ("yesno", "number"):
            path = pathlib.Path(folder) / f"{kind}.json"
            path.write_text(json.dumps(survey(kind)), encoding="utf-8")
            assert runner.invoke(args=["import-survey", str(path)]).exit_code == 0
        runner.invoke(args=["create-user", "bench@example.org", "--password", "violet kestrel 42"])
        token = runner.invoke(args=["create-token", "bench@example.org"]).output.split()[-1]
        # No cookies: each POST is a new browser (one answered survey per browser otherwise).
        client = app.test_client(use_cookies=False)
        rates: dict[str, list[float]] = {"yesno": [], "number": []}
        for round_number in range(arguments.rounds):
            order = ("yesno", "number") if round_number % 2 == 0 else ("number", "yesno")
            for kind in order:
                rates[kind].append(submit_round(client, kind, 2000))
        print("1. Submissions through the app in process, median of rounds of 2,000 (per second)")
        for kind, values in rates.items():
            print(f"   {kind:7} {statistics.median(values):8.0f}  (rounds: "
                  + ", ".join(f"{value:.0f}" for value in values) + ")")  # fmt: skip
        ratio = statistics.median(rates["number"]) / statistics.median(rates["yesno"])
        print(f"   number / yes-no: {ratio:.2f}")
        print("\n2. Results API, uncached (ms, best of 7)")
        headers = {"Authorization": f"Bearer {token}"}
        stored = 2000 * arguments.rounds
        for total in (10_000, 1_000_000):
            cells = []
            for kind in ("yesno", "number"):
                more = total - stored
                if more > 0:
                    result = runner.invoke(
                        args=["simulate-responses", kind, "--n", str(more), "--seed", "1"]
                    )
                    assert result.exit_code == 0, result.output
                url = f"/api/surveys/{kind}/results"
                elapsed = best_of(
                    7,
                    lambda url=url: (
                        app.extensions.pop("results_cache", None),
                        client.get(url, headers=headers),
                    ),
                )
                cells.append(f"{kind} {elapsed * 1e3:.2f}")
            stored = total
            print(f"   {total:>9,} responses: " + "; ".join(cells))


if __name__ == "__main__":
    main()
