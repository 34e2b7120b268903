"""Single-choice questions end to end on the server: file, submission, tallies, results API,
exports, command line, planning and builder."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

import rr
from tests.conftest import no_database, stored_bits, stored_count
from tests.helpers import bearer, submit_answers
from web.core.infrastructure.extensions import db
from web.core.models import Option
from web.core.surveys.lookup import find_survey

OPTIONS = [("never", "Never"), ("once", "Once"), ("two_to_five", "2 to 5"), ("more", "More")]
CHOICE_SURVEY = {
    "slug": "times",
    "title": "How often",
    "questions": [
        {
            "id": "times",
            "type": "choice",
            "text": "How many times?",
            "epsilon": 1.0,
            "procedure": "spinner_coin",
            "options": [{"id": key, "text": text} for key, text in OPTIONS],
        },
        {
            "id": "cheated",
            "type": "yesno",
            "text": "Cheated?",
            "epsilon": 0.5,
            "procedure": "spinner",
        },
    ],
}


@pytest.fixture
def choice_survey(app, import_survey):
    app.config["RESULTS_MIN_N"] = 1
    import_survey(CHOICE_SURVEY)
    with app.app_context():
        find_survey("times").results_batch = 1
        db.session.commit()
    return "times"


def submit(client, times, cheated=0):
    return submit_answers(client, "times", {"answers": {"times": times, "cheated": cheated}})


def option_tallies(app):
    with app.app_context():
        return {o.key: (o.n, o.noisy_yes) for o in db.session.scalars(db.select(Option))}


def test_a_response_is_one_option_id_and_feeds_every_option_tally(app, client, choice_survey):
    assert submit(client, "once").status_code == 201
    assert submit(app.test_client(), "more").status_code == 201
    assert option_tallies(app) == {
        "never": (2, 0),
        "once": (2, 1),
        "two_to_five": (2, 0),
        "more": (2, 1),
    }
    with app.app_context():
        stored = sorted(bits["times"] for bits in stored_bits())
    assert stored == ["more", "once"]


@pytest.mark.parametrize("bad", [1, 0, "sometimes", ["once"], {"once": 1}, "", "ONCE"])
def test_anything_but_one_option_id_is_refused_and_nothing_is_stored(
    app, client, choice_survey, bad
):
    response = submit(client, bad)
    assert response.status_code == 400
    assert "times" in response.json["error"]
    with app.app_context():
        assert stored_count() == 0
    assert option_tallies(app) == {key: (0, 0) for key, _ in OPTIONS}


def test_results_api_gives_n_and_each_option_and_costs_epsilon_once(app, choice_survey, token):
    for index, times in enumerate(["never"] * 6 + ["once"] * 3 + ["more"]):
        assert submit(app.test_client(), times, index % 2).status_code == 201
    body = app.test_client().get("/api/surveys/times/results", headers=bearer(token)).json
    assert body["epsilon_total"] == pytest.approx(1.5)  # 1.0 once for the choice, 0.5 for yes/no
    question = body["questions"][0]
    assert question["type"] == "choice" and question["n"] == 10 and question["epsilon_total"] == 1.0
    expected = rr.estimate_choice([6, 3, 0, 1], 1.0)
    fields = ["estimate", "std_error", "ci_low", "ci_high"]
    counts = {"estimated_count", "estimated_count_raw"}
    for index, option in enumerate(question["options"]):
        assert set(option) == {"id", "text", "noisy_count", *fields, *counts}
        assert option["id"] == OPTIONS[index][0] and option["noisy_count"] == [6, 3, 0, 1][index]
        for field in fields:
            assert option[field] == pytest.approx(getattr(expected, field)[index], rel=1e-10)
        raw = expected.estimated_count[index]
        assert option["estimated_count_raw"] == pytest.approx(raw, rel=1e-10)
        assert option["estimated_count"] == pytest.approx(min(max(raw, 0), 10), rel=1e-10)
    assert sum(option["estimate"] for option in question["options"]) == pytest.approx(1, abs=1e-10)


def test_exports_carry_the_reported_option_and_the_die(app, choice_survey, make_researcher):
    for times in ["never", "two_to_five", "once"]:
        submit(app.test_client(), times)
    researcher = make_researcher("rita@example.org")
    rows = list(
        csv.reader(
            io.StringIO(researcher.get("/surveys/times/responses.csv").get_data(as_text=True))
        )
    )
    assert rows[0] == ["times", "cheated"]
    assert sorted(row[0] for row in rows[1:]) == ["never", "once", "two_to_five"]
    book = json.loads(researcher.get("/surveys/times/codebook.json").get_data(as_text=True))
    entry = book["questions"][0]
    assert entry["k"] == 4 and entry["columns"] == ["times"]
    assert entry["light_share_q"] == pytest.approx(rr.choice_light_fraction(1.0, 4))
    assert entry["dark"] == "a fair 4-sided die over all options"
    assert entry["truth_probability"] == pytest.approx(np.e / (np.e + 3))
    assert entry["noise_offset"] == pytest.approx(1 / (np.e + 3))
    estimates = list(
        csv.DictReader(
            io.StringIO(researcher.get("/surveys/times/estimates.csv").get_data(as_text=True))
        )
    )
    assert [row["option"] for row in estimates[:4]] == [key for key, _ in OPTIONS]


def test_simulated_responses_recover_the_true_distribution(
    app, runner, choice_survey, token, seed_responses
):
    seed_responses("times", 20000, share=0.4, seed=3)
    body = app.test_client().get("/api/surveys/times/results", headers=bearer(token)).json
    options = body["questions"][0]["options"]
    assert sum(option["noisy_count"] for option in options) == 20000
    truth = [0.4, 0.2, 0.2, 0.2]  # the first option at the given share, the rest evenly
    for option, share in zip(options, truth, strict=True):
        assert abs(option["estimate"] - share) < 4.5 * option["std_error"]
    with app.app_context():
        rows = [bits["times"] for bits in stored_bits()]
    assert {row for row in rows} == {key for key, _ in OPTIONS}
    counts = {key: rows.count(key) for key, _ in OPTIONS}
    assert [counts[option["id"]] for option in options] == [
        option["noisy_count"] for option in options
    ]


@no_database
def test_plan_compares_with_asking_as_multi_select(client):
    plan = client.get("/api/plan", query_string={"epsilon": 2, "n": 400, "k": 5}).json
    assert plan["k"] == 5 and plan["truth_probability"] == pytest.approx(
        np.exp(2) / (np.exp(2) + 4)
    )
    assert plan["margin_of_error"] == pytest.approx(rr.choice_margin_of_error(400, 2.0, 5))
    assert plan["as_multi"]["epsilon_total"] == 10
    assert plan["as_multi"]["same_total_margin_of_error"] == pytest.approx(
        rr.margin_of_error(400, 0.4)
    )
    assert plan["as_multi"]["same_total_margin_of_error"] > 2 * plan["margin_of_error"]
    for k in ("1", "31", "x"):
        response = client.get("/api/plan", query_string={"epsilon": 2, "n": 400, "k": k})
        assert response.status_code == 400 and "k must be" in response.json["error"]


def test_the_builder_adds_a_choice_question_that_costs_epsilon_once(app, make_researcher):
    researcher = make_researcher("rita@example.org")
    researcher.post("/surveys/new", data={"title": "Draft", "slug": "", "description": ""})
    form = {
        "text": "How often?",
        "key": "often",
        "kind": "choice",
        "epsilon": "1.5",
        "procedure": "spinner",
    }
    html = researcher.post(
        "/surveys/draft/questions/new", data=dict(form, options="Only one")
    ).get_data(as_text=True)
    assert "at least 2 options" in html
    assert (
        researcher.post(
            "/surveys/draft/questions/new", data=dict(form, options="Never\nOnce\nOften")
        ).status_code
        == 302
    )
    page = researcher.get("/surveys/draft/edit").get_data(as_text=True)
    assert "Total privacy cost of the survey: ε = 1.5" in page
