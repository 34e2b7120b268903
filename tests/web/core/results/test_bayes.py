"""Bayesian estimates in the results API (method=bayes): each item's posterior from the published
counts, through its own design, inside [0, 1] (a number's inside its range)."""

from __future__ import annotations

import pytest

import rr
from tests.helpers import api_get
from tests.web.core.surveys.designs.test_designs import SURVEY as DESIGNED
from tests.web.core.surveys.questions.test_numbers import SURVEY as NUMBERS
from web.core.infrastructure.extensions import db
from web.core.surveys.lookup import find_survey


def api(client, token, slug, **query):
    return api_get(client, token, f"surveys/{slug}/results", **query)


@pytest.fixture
def published_sample(app, runner, survey, seed_responses):
    """The sample survey with 40 simulated responses, published."""
    app.config["RESULTS_MIN_N"] = 10
    seed_responses(survey, 40, seed=3)
    return survey


def test_each_yes_no_item_gets_its_posterior_beside_its_estimate(client, token, published_sample):
    body = api(client, token, published_sample, method="bayes", threshold="0.1").json
    assert body["method"] == "bayes" and body["prior"] == [1.0, 1.0]
    question = next(q for q in body["questions"] if q["type"] == "yesno")
    line = rr.spinner_coin(question["epsilon"])
    expected = rr.posterior(question["noisy_yes"], question["n"], line.offset, line.slope)
    assert question["posterior_mean"] == pytest.approx(expected.mean, rel=1e-10)
    assert question["posterior_sd"] == pytest.approx(expected.sd, rel=1e-9)
    assert (question["cri_low"], question["cri_high"]) == pytest.approx(expected.interval())
    assert (question["hdi_low"], question["hdi_high"]) == pytest.approx(expected.hdi(), abs=1e-9)
    assert question["prob_above"] == pytest.approx(expected.prob_above(0.1))
    assert "estimate" in question  # the frequentist figures stay
    for option in next(q for q in body["questions"] if "options" in q)["options"]:
        assert 0 <= option["cri_low"] <= option["posterior_mean"] <= option["cri_high"] <= 1


def test_a_prior_changes_the_posterior_and_bad_settings_are_refused(
    client, token, published_sample
):
    flat = api(client, token, published_sample, method="bayes").json["questions"][0]
    sure = api(client, token, published_sample, method="bayes", prior="200,800").json
    assert sure["prior"] == [200.0, 800.0]
    assert abs(sure["questions"][0]["posterior_mean"] - 0.2) < abs(flat["posterior_mean"] - 0.2)
    for query in (
        {"method": "magic"},
        {"method": "bayes", "prior": "1"},
        {"method": "bayes", "prior": "0,1"},
        {"method": "bayes", "threshold": "x"},
    ):
        response = api(client, token, published_sample, **query)
        assert response.status_code == 400 and "error" in response.json, query


def test_below_the_minimum_n_nothing_is_shown(app, client, token, survey, seed_responses):
    app.config["RESULTS_MIN_N"] = 10
    with app.app_context():
        find_survey(survey).results_batch = 1
        db.session.commit()
    seed_responses(survey, 9, seed=1)
    body = api(client, token, survey, method="bayes").json
    assert body["n"] == 9 and all("posterior_mean" not in q for q in body["questions"])
    seed_responses(survey, 1, seed=2)
    body = api(client, token, survey, method="bayes").json
    assert body["n"] == 10 and all(
        "posterior_mean" in q for q in body["questions"] if q["type"] == "yesno"
    )


def test_designs_numbers_and_choices_have_posteriors_inside_their_ranges(
    app, runner, client, token, import_survey, seed_responses
):
    app.config["RESULTS_MIN_N"] = 10
    for data in (DESIGNED, NUMBERS):
        slug = import_survey(data)
        seed_responses(slug, 300, seed=1)
        with app.app_context():
            find_survey(slug).results_batch = 2
            db.session.commit()
        body = api(client, token, slug, method="bayes").json
        assert body["n"] == 300 and body["questions"]
        for question in body["questions"]:
            if question["type"] == "direct":
                for option in question["options"]:
                    share = rr.posterior(option["count"], option["n"], 0.0, 1.0)
                    assert option["posterior_mean"] == pytest.approx(share.mean, rel=1e-10)
                continue
            low, high = (
                (question["min"], question["max"]) if question["type"] == "number" else (0, 1)
            )
            assert (
                low
                <= question["cri_low"]
                <= question["posterior_mean"]
                <= question["cri_high"]
                <= high
            )
            # With 300 reports the posterior mean sits near the unbiased estimate.
            estimate = question.get("mean", question.get("estimate"))
            assert abs(question["posterior_mean"] - estimate) < 0.5 * (
                question["cri_high"] - question["cri_low"]
            )


def test_a_single_choice_question_gets_the_dirichlet_posterior(
    app, runner, client, token, import_survey, seed_responses
):
    from tests.web.core.surveys.questions.test_choice import CHOICE_SURVEY

    app.config["RESULTS_MIN_N"] = 10
    slug = import_survey(CHOICE_SURVEY)
    seed_responses(slug, 2000, seed=2)
    body = api(client, token, slug, method="bayes", threshold="0.2").json
    question = next(q for q in body["questions"] if q["type"] == "choice")
    assert body["n"] == 2000
    means = [option["posterior_mean"] for option in question["options"]]
    assert sum(means) == pytest.approx(1.0, abs=1e-9)
    counts = [option["noisy_count"] for option in question["options"]]
    expected = rr.choice_posterior(counts, question["epsilon"], draws=4000, seed=0)
    assert means == pytest.approx(list(expected.mean), rel=1e-9)
    assert all(0 <= option["prob_above"] <= 1 for option in question["options"])
    assert api(client, token, slug, method="bayes", threshold="0.2").json == body


def test_the_dashboard_switch_shows_posteriors_and_is_remembered(
    app, runner, survey, researcher, seed_responses
):
    app.config["RESULTS_MIN_N"] = 10
    seed_responses("campus-life-test", 40, seed=3)
    page = researcher.get("/surveys/campus-life-test").get_data(as_text=True)
    assert "Posterior mean" not in page and 'value="bayes" aria-pressed="false"' in page
    switched = researcher.post("/surveys/campus-life-test/estimates", data={"method": "bayes"})
    assert switched.status_code == 302
    page = researcher.get("/surveys/campus-life-test").get_data(as_text=True)
    assert "Posterior mean" in page and "95% credible interval" in page
    assert 'value="bayes" aria-pressed="true"' in page
    assert "Posterior mean" in researcher.get("/surveys/campus-life-test/panel").get_data(
        as_text=True
    )
    researcher.post("/surveys/campus-life-test/estimates", data={"method": "frequentist"})
    assert "Posterior mean" not in researcher.get("/surveys/campus-life-test").get_data(
        as_text=True
    )
    refused = researcher.post("/surveys/campus-life-test/estimates", data={"method": "magic"})
    assert refused.status_code == 400


def test_the_command_line_prints_the_posteriors(runner, published_sample):
    output = runner.invoke(
        args=["results", published_sample, "--bayes", "--prior", "1,1", "--threshold", "0.1"]
    ).output
    assert "Bayesian estimates: prior Beta(1, 1)" in output
    cheated = [line for line in output.splitlines() if line.startswith("cheated ")][-1]
    assert cheated.count("[") == 2 and "%" in cheated
    refused = runner.invoke(args=["results", published_sample, "--bayes", "--prior", "x"])
    assert refused.exit_code != 0 and "prior must be two numbers" in refused.output


def test_the_estimates_csv_adds_the_posterior_columns_last(researcher, published_sample):
    import csv
    import io

    plain = researcher.get(f"/surveys/{published_sample}/estimates.csv").get_data(as_text=True)
    text = researcher.get(
        f"/surveys/{published_sample}/estimates.csv?method=bayes&threshold=0.2"
    ).get_data(as_text=True)
    plain_rows = list(csv.reader(io.StringIO(plain)))
    rows = list(csv.DictReader(io.StringIO(text)))
    header = next(csv.reader(io.StringIO(text)))
    assert header[: len(plain_rows[0])] == plain_rows[0]
    assert header[len(plain_rows[0]) :] == [
        "posterior_mean", "posterior_sd", "cri_low", "cri_high", "hdi_low", "hdi_high",
        "prob_above",
    ]  # fmt: skip
    for row in rows:
        assert (
            0
            <= float(row["cri_low"])
            <= float(row["posterior_mean"])
            <= float(row["cri_high"])
            <= 1
        )
    refused = researcher.get(f"/surveys/{published_sample}/estimates.csv?method=bayes&prior=-1,2")
    assert refused.status_code == 400


def test_cheating_detection_gets_the_posterior_of_pi_and_gamma(
    app, runner, client, token, import_survey, seed_responses
):
    from tests.web.core.surveys.designs.test_designs import CHEATING_SURVEY

    app.config["RESULTS_MIN_N"] = 10
    slug = import_survey(CHEATING_SURVEY)
    seed_responses(slug, 4000, seed=5, cheating=0.2)
    body = api(client, token, slug, method="bayes").json
    question = next(q for q in body["questions"] if q.get("procedure") == "cheating_detection")
    assert question["cri_low"] <= question["posterior_mean"] <= question["cri_high"]
    gamma = question["cheating"]
    assert gamma["cri_low"] <= gamma["posterior_mean"] <= gamma["cri_high"]
    assert abs(gamma["posterior_mean"] - gamma["estimate"]) < 0.5 * gamma["std_error"]
