"""The reference report's experiment in the lab: the API repeats it with either accounting and
either posterior, the page shows the report's figures beside the runs' range when asked."""

from __future__ import annotations

import pytest

from rr.sanitized import AWARE_BURN_IN, AWARE_SWEEPS
from tests.conftest import no_database
from web.classroom.report_lab import PUBLISHED

# The lab computes without a database.
pytestmark = no_database

SMALL = "n=300&runs=10"


def test_the_api_gives_each_epsilon_what_it_spends_and_the_runs_range(client):
    report = client.get(f"/api/lab/report?{SMALL}").json
    assert (report["accounting"], report["posterior"], report["runs"]) == ("report", "naive", 10)
    assert [row["epsilon"] for row in report["epsilons"]] == [0.1, 1.0, 10.0]
    for row in report["epsilons"]:
        assert row["total_epsilon"] == 2 * row["epsilon"]  # the report spends ε on each statistic
        assert row["overlap_p10"] <= row["overlap_median"] <= row["overlap_p90"] <= 1
        assert 0 <= row["coverage"] <= 1
        assert row["published"] == PUBLISHED[row["epsilon"]]
    once = client.get(f"/api/lab/report?{SMALL}&accounting=total&posterior=noise_aware").json
    assert [row["total_epsilon"] for row in once["epsilons"]] == [0.1, 1.0, 10.0]
    assert once["posterior"] == "noise_aware"
    # The same request gives the same numbers (fixed seeds, and kept).
    assert client.get(f"/api/lab/report?{SMALL}").json == report


@pytest.mark.parametrize(
    "query",
    ["runs=201", "runs=1", "n=20000", "accounting=both", "posterior=exact", "low=5&high=1",
     "mean=1e8", "variance=0"],
)  # fmt: skip
def test_the_api_refuses_what_it_cannot_run(client, query):
    response = client.get(f"/api/lab/report?{query}")
    assert response.status_code == 400 and response.json["error"]


def test_the_page_shows_the_reports_figures_beside_the_runs_when_asked(client):
    plain = client.get("/lab?report_n=200").get_data(as_text=True)
    assert "report-reproduction" not in plain and 'id="reproduction-controls"' in plain
    page = client.get("/lab?report_n=200&reproduce=4").get_data(as_text=True)
    table = page[
        page.index('id="report-reproduction"') : page.index(
            "</table>", page.index('id="report-reproduction"')
        )
    ]
    assert table.count("<tr>") == 4  # the header and one row per ε
    for published in PUBLISHED.values():
        assert f">{published['overlap']:.2f}<" in table
    assert client.get("/lab?reproduce=500").status_code == 400


@no_database
def test_the_experiments_size_is_bounded_before_any_work(client):
    refused = client.get("/api/lab/report?runs=200&n=10000")
    assert refused.status_code == 400
    assert "runs × n must be at most 300,000" in refused.json["error"]


@pytest.mark.parametrize(
    ("language", "sweeps", "kept", "gibbs"),
    [("en", " sweeps", "discarded", "Gibbs"), ("ko", "회", "버림", "깁스")],
)
def test_the_page_describes_the_sampler_its_figures_come_from(
    client, language, sweeps, kept, gibbs
):
    """The lab's figures come from the noise-aware sampler: its sweeps and burn-in, read from rr,
    not the report's Gibbs sampler's 5,000 and 4,000 (the page once said those)."""
    response = client.get("/lab?report_n=200", headers={"Accept-Language": language})
    page = response.get_data(as_text=True)
    assert f"{AWARE_SWEEPS:,}{sweeps}" in page
    assert f"{AWARE_BURN_IN:,}" in page and kept in page
    assert "5,000" not in page and gibbs not in page
