"""Synthetic microdata from the published snapshot: the CSV (m·n rows, an .imp column, notes),
repeatable by seed, pooled margins within the model's intervals, utility by interval overlap,
and the refusals."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from tests.conftest import no_database
from tests.helpers import api_get
from tests.web.core.surveys.designs.test_designs import SURVEY as DESIGNED

pytestmark = pytest.mark.imported(responses=3000, seed=4)


def get(client, token, slug, path, **query):
    return api_get(client, token, f"surveys/{slug}/{path}", **query)


def rows_of(text: str):
    notes = [line for line in text.splitlines() if line.startswith("# ")]
    body = "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    return notes, list(csv.DictReader(io.StringIO(body)))


def test_the_csv_holds_m_datasets_of_n_true_scale_rows(client, token, designed):
    response = get(client, token, designed, "synthetic.csv", m=3, seed=1)
    assert response.status_code == 200 and response.mimetype == "text/csv"
    notes, rows = rows_of(response.get_data(as_text=True))
    assert len(rows) == 3 * 3000
    assert list(rows[0]) == [".imp", "year", "fr", "own", "uq", "cw"]
    assert {row[".imp"] for row in rows} == {"1", "2", "3"}
    assert {row["fr"] for row in rows} == {"0", "1"}
    assert {row["year"] for row in rows} == {"first", "fourth"}
    assert any("posterior draws" in note for note in notes)
    # Each item's pooled share is within the published interval (every item is true for 30%).
    for item in ("fr", "own", "uq", "cw"):
        share = np.mean([row[item] == "1" for row in rows])
        assert abs(share - 0.3) < 0.06, item
    again = get(client, token, designed, "synthetic.csv", m=3, seed=1).get_data(as_text=True)
    assert again == response.get_data(as_text=True)
    other = get(client, token, designed, "synthetic.csv", m=3, seed=2).get_data(as_text=True)
    assert other != again


def test_utility_compares_items_and_pairs_by_interval_overlap(client, token, designed):
    body = get(client, token, designed, "synthetic", m=5, seed=1).json
    assert body["m"] == 5 and body["n"] == 3000
    singles = [row for row in body["rows"] if len(row["items"]) == 1]
    pairs = [row for row in body["rows"] if len(row["items"]) == 2]
    assert [row["items"][0] for row in singles] == ["fr", "own", "uq", "cw"]
    assert len(pairs) == 6
    for row in body["rows"]:
        assert row["overlap"] is not None and -1 < row["overlap"] <= 1
        original, synthetic = row["original"], row["synthetic"]
        assert synthetic["ci_low"] <= synthetic["estimate"] <= synthetic["ci_high"]
        assert original["ci_low"] < synthetic["estimate"] < original["ci_high"], row["items"]


def test_below_the_minimum_n_nothing_is_offered(app, client, token, import_survey):
    app.config["RESULTS_MIN_N"] = 10
    slug = import_survey(DESIGNED)
    response = get(client, token, slug, "synthetic.csv")
    assert response.status_code == 409 and "not offered yet" in response.json["error"]


@pytest.mark.parametrize("query", [{"m": "1"}, {"m": "500"}, {"m": "x"}, {"seed": "-1"}])
@no_database
def test_bad_settings_are_refused(client, token, designed, query):
    response = get(client, token, designed, "synthetic.csv", **query)
    assert response.status_code == 400 and "error" in response.json


def test_a_small_direct_group_is_merged_and_the_file_says_so(
    app, runner, client, token, import_survey, seed_responses
):
    app.config["RESULTS_MIN_N"] = 10
    survey = {
        **DESIGNED,
        "slug": "small-groups",
        "questions": [
            {**DESIGNED["questions"][0], "options": [
                {"id": "first", "text": "First"}, {"id": "fourth", "text": "Fourth"},
                {"id": "fifth", "text": "Fifth"}, {"id": "sixth", "text": "Sixth"}]},
            *DESIGNED["questions"][1:3],
        ],
    }  # fmt: skip
    slug = import_survey(survey)
    by = ("year", {"first": 0.3, "fourth": 0.3})
    seed_responses(slug, 400, seed=2, by=by)
    for _ in range(6):  # six respondents in each of two rare groups: twelve together
        for year in ("fifth", "sixth"):
            body = {"answers": {"year": year, "fr": 1, "own": 0}}
            assert (
                app.test_client().post(f"/api/surveys/{slug}/responses", json=body).status_code
                == 201
            )
    seed_responses(slug, 10, seed=3, by=by)
    text = get(client, token, slug, "synthetic.csv", m=2).get_data(as_text=True)
    notes, rows = rows_of(text)
    assert {row["year"] for row in rows} == {"first", "fourth", "other"}
    assert "# year: fifth, sixth merged into 'other' (fewer than 10 each)" in text


def test_the_command_line_writes_the_same_file(client, token, runner, designed, tmp_path):
    target = tmp_path / "synthetic.csv"
    result = runner.invoke(
        args=["synthesize", designed, "--m", "3", "--seed", "1", "-o", str(target)]
    )
    assert result.exit_code == 0 and "3 synthetic datasets of 3000" in result.output
    served = get(client, token, designed, "synthetic.csv", m=3, seed=1).get_data(as_text=True)
    assert target.read_text(encoding="utf-8") == served


def test_the_researchers_page_shows_utility_notes_and_the_download(researcher, designed):
    page = researcher.get(f"/surveys/{designed}/synthetic?m=3&seed=2").get_data(as_text=True)
    assert "How close the synthetic data come" in page and 'id="utility-table"' in page
    assert "fr &amp; uq" in page and "posterior draws" in page
    assert f"/surveys/{designed}/synthetic.csv?m=3&amp;seed=2" in page
    download = researcher.get(f"/surveys/{designed}/synthetic.csv?m=3&seed=2")
    assert download.status_code == 200
    assert (
        download.headers["Content-Disposition"]
        == f'attachment; filename="{designed}-synthetic.csv"'
    )
    assert "Synthetic data to share" in researcher.get(f"/surveys/{designed}").get_data(
        as_text=True
    )


def test_the_page_says_why_there_is_nothing_yet(app, researcher, import_survey):
    app.config["RESULTS_MIN_N"] = 10
    slug = import_survey(DESIGNED)
    page = researcher.get(f"/surveys/{slug}/synthetic").get_data(as_text=True)
    assert "not offered yet" in page
    assert researcher.get(f"/surveys/{slug}/synthetic.csv").status_code == 409


def test_the_pages_notes_follow_the_viewers_language_and_the_file_stays_english(
    researcher, designed
):
    page = researcher.get(
        f"/surveys/{designed}/synthetic?m=3", headers={"Accept-Language": "ko"}
    ).get_data(as_text=True)
    assert "결합표의 사후분포 추출 3개" in page
    text = researcher.get(f"/surveys/{designed}/synthetic.csv?m=3").get_data(as_text=True)
    assert "# 3 posterior draws of the joint table (Gibbs, every 25th sweep)" in text
    groups = researcher.get(f"/surveys/{designed}/groups?by=year&item=uq").get_data(as_text=True)
    assert f"/surveys/{designed}/joint?a=uq" in groups
