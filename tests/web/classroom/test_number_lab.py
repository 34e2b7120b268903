"""The lab's number question: a simulated class through one spin each, Laplace and Gaussian."""

import numpy as np
import pytest

import rr
from rr.sanitized import AWARE_SWEEPS
from tests.conftest import no_database
from web.classroom.number_lab import VALUES, WEIGHTS, number_class

# The lab computes without a database.
pytestmark = no_database


def test_a_class_gives_running_means_and_the_variance_ratios(client):
    body = client.get("/api/lab/number?n=300&epsilon=1&seed=4").json
    assert body["n"] == 300 and len(body["estimate"]) == len(body["laplace"]) == 300
    assert all(low <= high for low, high in zip(body["ci_low"], body["ci_high"], strict=True))
    assert 0 <= body["ci_low"][-1] <= body["ci_high"][-1] <= 20
    assert body["laplace_scale"] == pytest.approx(20.0)
    mean, spread = float(VALUES @ WEIGHTS), float(((VALUES - VALUES @ WEIGHTS) ** 2) @ WEIGHTS)
    expected = rr.mechanism_variances(0, 20, 1.0, mean, spread, 1e-5)
    assert body["ratio_laplace"] == pytest.approx(expected.one_bit / expected.laplace)
    assert body["ratio_laplace"] < 0.7 and body["ratio_gaussian"] < body["ratio_laplace"]
    assert client.get("/api/lab/number?n=300&epsilon=1&seed=4").json == body  # seeded


def test_the_one_bit_class_estimate_covers_its_true_mean_in_most_classes():
    rng = np.random.default_rng(9)
    classes = [number_class(500, 1.0, "spinner_coin", rng) for _ in range(300)]
    covered = [c["ci_low"][-1] <= c["population_mean"] <= c["ci_high"][-1] for c in classes]
    # Exact coverage is at least 95%; 300 classes put the observed share within ±4 points.
    assert np.mean(covered) >= 0.91


@pytest.mark.parametrize("query", ["n=0", "n=5000", "epsilon=0", "epsilon=x", "procedure=coin"])
def test_bad_settings_are_refused(client, query):
    response = client.get(f"/api/lab/number?{query}")
    assert response.status_code == 400 and "error" in response.json


def test_the_lab_reproduces_the_reports_tables_at_three_epsilons(client):
    page = client.get("/lab?report_n=500&report_low=0&report_high=50").get_data(as_text=True)
    for table in ("report-posterior", "report-statistics", "report-overlap"):
        assert f'id="{table}"' in page
    assert page.count("ε = 0.1") >= 3 and page.count("ε = 10") >= 3
    assert 'id="report-data"' in page and f'"sweeps": {AWARE_SWEEPS}' in page


@pytest.mark.parametrize("query", ["report_n=5", "report_low=10&report_high=1", "report_high=x"])
def test_the_reports_settings_are_checked(client, query):
    assert client.get(f"/lab?{query}").status_code == 400
