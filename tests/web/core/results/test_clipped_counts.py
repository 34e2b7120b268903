"""An estimated count is clipped to 0 and n alike on every output (the dashboard, the API, the
estimates CSV, flask results), with the raw estimate beside it where a file gives figures."""

import csv
import io

import pytest

import rr
from tests.helpers import bearer

# Ten responses, every one reporting no: the raw estimate of "cheated" falls below 0.
ALL_NO = {"answers": {"cheated": 0, "substances": {"alcohol": 0, "tobacco": 0}}}
RAW = rr.spinner_coin(1.0).estimate(0, 10).estimated_count


@pytest.fixture
def below_zero(app, survey):
    for _ in range(10):
        assert (
            app.test_client().post(f"/api/surveys/{survey}/responses", json=ALL_NO).status_code
            == 201
        )
    assert RAW < -1
    return survey


def test_the_api_gives_the_clipped_count_and_the_raw_one(client, below_zero, token):
    body = client.get(f"/api/surveys/{below_zero}/results", headers=bearer(token)).json
    cheated = body["questions"][0]
    assert cheated["estimated_count"] == 0
    assert cheated["estimated_count_raw"] == pytest.approx(RAW, rel=1e-10)


def test_the_estimates_csv_gives_the_clipped_count_and_the_raw_one(below_zero, researcher):
    text = researcher.get(f"/surveys/{below_zero}/estimates.csv").get_data(as_text=True)
    rows = {row["question"] + "." + row["option"]: row for row in csv.DictReader(io.StringIO(text))}
    assert float(rows["cheated."]["estimated_count"]) == 0
    assert float(rows["cheated."]["estimated_count_raw"]) == pytest.approx(RAW, rel=1e-10)
    for option in ("alcohol", "tobacco"):
        assert float(rows[f"substances.{option}"]["estimated_count"]) == 0


def test_flask_results_says_clipped_as_the_dashboard_does(runner, below_zero, researcher):
    printed = runner.invoke(args=["results", below_zero]).output
    line = next(line for line in printed.splitlines() if line.startswith("cheated"))
    assert line.endswith("0 (clipped)") and "-" not in line.split("]")[-1]
    page = researcher.get(f"/surveys/{below_zero}").get_data(as_text=True)
    assert "(clipped)" in page
