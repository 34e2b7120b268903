"""The lab's list experiment: a simulated class's estimates as rr gives them, the answers given
away, the design-effect test, and the page that shows them."""

import pytest

import rr
from tests.conftest import no_database

# The lab computes without a database.
pytestmark = no_database


def test_a_class_gives_rr_s_figures_for_its_counts(client):
    body = client.get("/api/lab/list?controls=3&prevalence=0.3&n=800&seed=5").json
    model = rr.list_experiment(3)
    short, long = model.simulate(800, 0.3, 0.5, 0.0, seed=5)
    assert body["control"] == short.tolist() and body["treatment"] == long.tolist()
    found = model.estimate(short, long)
    assert body["estimate"] == pytest.approx(found.estimate)
    assert body["std_error"] == pytest.approx(found.std_error)
    assert body["ml"]["estimate"] == pytest.approx(found.ml.estimate)
    assert (body["ceiling"], body["floor"]) == (int(long[-1]), int(long[0]))
    assert body["design_effect"]["p_value"] == pytest.approx(
        model.design_effect(short, long).p_value
    )
    # The simulation asked for 30%: four standard errors.
    assert abs(body["estimate"] - 0.3) < 4 * body["std_error"]
    assert client.get("/api/lab/list?controls=3&prevalence=0.3&n=800&seed=5").json == body


def test_a_design_effect_pulls_the_estimate_down_and_the_test_sees_it(client):
    body = client.get("/api/lab/list?dropping=0.5&n=3000&seed=2").json
    assert body["estimate"] < 0.2 - 4 * body["std_error"]
    assert body["design_effect"]["p_value"] < 0.001


def test_the_page_says_what_the_counts_give_away(client):
    page = client.get("/lab?list_controls=2&list_control_share=0.9&list_n=400").get_data(
        as_text=True
    )
    assert 'id="list-table"' in page and "said all 3 items, so yes to the sensitive one" in page
    assert "A list experiment has no ε bound" in page
    effect = client.get("/lab?list_dropping=0.5&list_n=3000").get_data(as_text=True)
    assert "design effect: p &lt; 0.0001. Adding the sensitive item changed" in effect


@pytest.mark.parametrize(
    "query", ["controls=1", "controls=11", "n=5", "prevalence=2", "dropping=-0.1", "seed=x"]
)
def test_bad_settings_are_refused(client, query):
    response = client.get(f"/api/lab/list?{query}")
    assert response.status_code == 400 and "error" in response.json
