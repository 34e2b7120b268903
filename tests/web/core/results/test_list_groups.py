"""A list experiment by group: the results API's groups, the difference between two groups and the
analysis-by-group page give rr's figures on each group's published rows, withheld below the
minimum n."""

from __future__ import annotations

import numpy as np
import pytest

import rr
from rr.difference import wald_difference
from tests.helpers import api_get
from tests.web.core.surveys.designs.test_list import submit_by_year

# The surveys of tests/conftest.py's `imported`: results from 2 responses, moving every 20 (200
# submitted, all published).
pytestmark = pytest.mark.imported(batch=20)


def expected_by_year(rows) -> dict[str, rr.ListEstimate]:
    """rr's estimate on each year's (year, arm, count) rows."""
    found = {}
    for year in ("first", "fourth"):
        counts = [(arm, count) for each, arm, count in rows if each == year]
        short, long = (np.bincount([count for a, count in counts if a == arm], minlength=4 + arm)
                       for arm in (0, 1))  # fmt: skip
        found[year] = rr.list_experiment(3).estimate(short, long)
    return found


def test_each_group_has_its_lists_estimate_and_two_groups_their_difference(
    app, listed, token, researcher
):
    expected = expected_by_year(submit_by_year(app, 6))
    client = app.test_client()
    (entry,) = api_get(client, token, "surveys/listed/results", by="year").json["lists"]
    groups = {group["id"]: group for group in entry["groups"]}
    for year, estimate in expected.items():
        for name in ("estimate", "std_error", "ci_low", "ci_high"):
            assert groups[year][name] == pytest.approx(getattr(estimate, name), rel=1e-9), name
    difference = api_get(client, token, "surveys/listed/difference", item="drove", by="year",
                         groups="fourth,first").json  # fmt: skip
    wald = wald_difference(*((expected[year].estimate, expected[year].std_error)
                             for year in ("fourth", "first")), 0.95, "")  # fmt: skip
    for name in ("ci_low", "ci_high", "p_value"):
        assert difference[name] == pytest.approx(getattr(wald, name), rel=1e-9), name
    assert difference["difference"] == pytest.approx(wald.estimate, rel=1e-9)
    assert "Wald" in difference["method"]
    page = researcher.get(
        "/surveys/listed/groups?by=year&item=drove&a=fourth&b=first&ref=first"
    ).get_data(as_text=True)
    for year, estimate in expected.items():
        row = page.split(f'<tr data-group="{year}">')[1].split("</tr>")[0]
        assert f"{estimate.estimate * 100:.1f}%" in row
    assert f"{wald.estimate * 100:.1f} percentage points" in page
    assert "List experiment: maximum likelihood" in page and 'id="coefficients"' in page


def test_a_group_below_the_minimum_n_shows_nothing_of_the_list(app, listed, token, researcher):
    rows = submit_by_year(app, 6)
    app.config["RESULTS_MIN_N"] = (
        min(sum(year == "first" for year, *_ in rows), sum(year == "fourth" for year, *_ in rows))
        + 1
    )
    (entry,) = api_get(app.test_client(), token, "surveys/listed/results", by="year").json["lists"]
    assert {"id": "first", "withheld": True} in entry["groups"] or {
        "id": "fourth", "withheld": True} in entry["groups"]  # fmt: skip
    refused = api_get(app.test_client(), token, "surveys/listed/difference", item="drove",
                      by="year", groups="fourth,first")  # fmt: skip
    assert refused.status_code == 400 and "fewer than" in refused.json["error"]
    page = researcher.get("/surveys/listed/groups?by=year&item=drove").get_data(as_text=True)
    assert page.count(f"fewer than {app.config['RESULTS_MIN_N']}") >= 1
