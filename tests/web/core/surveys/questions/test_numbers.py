"""Number questions end to end on the server: the file and its checks, the one-bit submission,
the mean in the results API with its interval, groups, the difference of two groups' means, the
linear regression, exports, codebook, the builder, freezing, XLSForm and the command line."""

from __future__ import annotations

import copy
import csv
import io
import json

import pytest

import rr
from tests.conftest import no_database
from tests.helpers import api_get
from web.core.surveys.lookup import find_survey
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.surveyfile import parse_survey
from web.core.surveys.xlsform.read import load_xlsform
from web.core.surveys.xlsform.write import survey_xlsform

SURVEY = {
    "slug": "amounts",
    "languages": ["en", "ko"],
    "title": {"en": "Amounts", "ko": "양"},
    "questions": [
        {
            "id": "year",
            "type": "direct",
            "text": {"en": "Year?", "ko": "학년?"},
            "options": [
                {"id": "first", "text": {"en": "First", "ko": "1학년"}},
                {"id": "fourth", "text": {"en": "Fourth", "ko": "4학년"}},
            ],
        },
        {
            "id": "drinks",
            "type": "number",
            "text": {"en": "Drinks last week?", "ko": "지난주 술 몇 잔?"},
            "min": 0,
            "max": 30,
            "step": 1,
            "unit": {"en": "drinks", "ko": "잔"},
            "epsilon": 1.0,
        },
        {
            "id": "hours",
            "type": "number",
            "text": {"en": "Hours gambled?", "ko": "도박 시간?"},
            "min": 0,
            "max": 10,
            "step": 0.5,
            "epsilon": 2.0,
            "procedure": "spinner",
        },
    ],
}
MEANS = {"drinks": rr.bounded_mean(0, 30, 1.0), "hours": rr.bounded_mean(0, 10, 2.0, "spinner")}


# The surveys of tests/conftest.py's `imported`: results from 2 responses, moving every 2.
pytestmark = pytest.mark.imported(batch=2)


def answers(year="first", drinks=0, hours=0):
    return {"answers": {"year": year, "drinks": drinks, "hours": hours}}


def api(app, token, path, **query):
    return api_get(app.test_client(), token, f"surveys/amounts/{path}", **query)


def problems(question: dict) -> list[str]:
    data = {"slug": "x", "title": "X", "questions": [question]}
    with pytest.raises(SurveyFileError) as refused:
        parse_survey(data)
    return [str(problem) for problem in refused.value.problems]


NUMBER = {"id": "q", "type": "number", "text": "How many?", "epsilon": 1.0}


def test_results_give_the_mean_in_units_with_its_range(app, amounts, token):
    rows = [answers(drinks=1, hours=0), answers(drinks=0, hours=1), answers("fourth", 1, 1)]
    rows.append(answers("fourth", 1, 0))
    for row in rows:
        assert app.test_client().post("/api/surveys/amounts/responses", json=row).status_code == 201
    body = api(app, token, "results").json
    questions = {q["id"]: q for q in body["questions"]}
    for key, mean in MEANS.items():
        yes = sum(row["answers"][key] for row in rows)
        expected = mean.estimate(yes, len(rows))
        found = questions[key]
        assert (found["n"], found["noisy_yes"]) == (4, yes)
        # The API calls a number's estimate its mean.
        for field, named in (
            ("mean", "estimate"),
            *((name, name) for name in ("std_error", "ci_low", "ci_high")),
        ):
            assert found[field] == pytest.approx(getattr(expected, named), rel=1e-10)
        assert found["estimated_total"] == pytest.approx(expected.estimate * 4, rel=1e-10)
        assert "estimate" not in found and found["type"] == "number"
    assert (questions["drinks"]["min"], questions["drinks"]["max"]) == (0, 30)
    assert questions["drinks"]["unit"] == {"en": "drinks", "ko": "잔"}
    assert questions["hours"]["step"] == 0.5 and questions["hours"]["procedure"] == "spinner"
    assert body["epsilon_total"] == pytest.approx(3.0)


@pytest.mark.parametrize("bad", [2, -1, 0.5, 12, "1", True, [1], {"value": 3}])
def test_a_number_question_takes_one_bit_and_nothing_else(app, amounts, bad):
    body = answers()
    body["answers"]["drinks"] = bad
    response = app.test_client().post("/api/surveys/amounts/responses", json=body)
    assert response.status_code == 400 and "'drinks'" in response.json["error"]
    with app.app_context():
        assert find_survey("amounts").response_count == 0


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"min": 5, "max": 5}, "questions[0].max: must be above min, got min 5 and max 5"),
        ({"min": 9, "max": 2}, "questions[0].max: must be above min"),
        ({"min": 0, "max": 10, "step": 3}, "questions[0].step: must divide the range from 0 to 10"),
        ({"min": 0, "max": 10, "step": 0}, "questions[0].step: must be above 0"),
        ({"min": 0, "max": 1e7}, "questions[0].step: at most 1,000,000 steps"),
        ({"min": "low", "max": 3}, "questions[0].min: must be a number, got 'low'"),
        ({"max": 3}, "questions[0].min: must be a number, got None"),
        ({}, "questions[0].min: a 'number' question needs its min and max"),
        ({"min": 0, "max": 3, "unit": "x" * 41}, "questions[0].unit: at most 40 characters"),
        ({"min": 0, "max": 3, "procedure": "crosswise"}, "questions[0].procedure: unknown"),
        ({"min": 0, "max": 3, "options": [{"id": "a", "text": "A"}]}, "has no options"),
    ],
)
@no_database
def test_bad_ranges_are_refused_with_the_reason(changes, expected):
    found = problems({**NUMBER, **changes})
    assert any(expected in problem for problem in found), found


@no_database
def test_a_range_belongs_to_a_number_question():
    found = problems({"id": "q", "type": "yesno", "text": "Q?", "epsilon": 1.0, "min": 3})
    assert found == ["questions[0].min: only a 'number' question has 'min'"]


def test_a_number_question_costs_its_epsilon_in_the_ledger(app, amounts, client):
    page = client.get("/s/amounts").get_data(as_text=True)
    assert 'type="number" name="truth-drinks" min="0" max="30" step="1"' in page
    assert 'type="range" name="slider-drinks"' in page
    assert "never yours" in page
    config = json.loads(page.split('id="survey-config">')[1].split("</script>")[0])
    drinks = next(q for q in config["questions"] if q["id"] == "drinks")
    assert drinks["answer"] == "number"
    assert drinks["scale"] == {"min": 0, "max": 30, "step": 1, "unit": "drinks"}
    assert drinks["drawnUnder"].startswith("spinner_coin:")
    assert config["epsilonTotal"] == pytest.approx(3.0)


def test_simulation_recovers_the_means_and_groups_differ(
    app, runner, amounts, token, seed_responses
):
    seed_responses("amounts", 20000, seed=5, by=("year", {"first": 0.1, "fourth": 0.4}))
    body = api(app, token, "results", by="year").json
    by_year = {
        q["id"]: {g["id"]: g for g in q["groups"]} for q in body["questions"] if "groups" in q
    }
    for key, mean in MEANS.items():
        for year, place in (("first", 0.1), ("fourth", 0.4)):
            group = by_year[key][year]
            truth = mean.low + place * mean.width
            assert abs(group["mean"] - truth) < 4 * group["std_error"], (key, year)
            assert group["ci_low"] < group["mean"] < group["ci_high"] and group["noisy_yes"] > 0
        gap = 0.3 * mean.width
        difference = api(app, token, "difference", item=key, by="year", groups="fourth,first").json
        assert difference["ci_low"] < gap < difference["ci_high"], key
        assert abs(difference["difference"] - gap) < 0.5 * gap and difference["p_value"] < 1e-6
        fit = api(app, token, "regression", item=key, on="year").json
        assert fit["model"] == "linear" and "odds_ratio" not in fit["coefficients"][0]
        terms = {c["term"]: c for c in fit["coefficients"]}
        assert (
            abs(terms["(intercept)"]["estimate"] - 0.1 * mean.width)
            < 4 * terms["(intercept)"]["std_error"]
        )
        effect = terms["year=fourth"]
        assert abs(effect["estimate"] - gap) < 4 * effect["std_error"], key
        predicted = {p["group"]["year"]: p for p in fit["predicted"]}
        assert (
            predicted["fourth"]["ci_low"]
            < predicted["fourth"]["estimate"]
            < predicted["fourth"]["ci_high"]
        )


def test_simulated_values_give_their_mean(app, runner, amounts, token, seed_responses):
    seed_responses("amounts", 40000, seed=3, values=[0, 0, 0, 1, 2, 2, 3, 5, 8, 10])
    questions = {q["id"]: q for q in api(app, token, "results").json["questions"]}
    for key in MEANS:
        assert abs(questions[key]["mean"] - 3.1) < 4 * questions[key]["std_error"], key


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--true-mean", "31"], "31 is outside the range of 'drinks' (0 to 30)"),
        (["--true-values", "1,x"], "is not numbers separated by commas"),
        (["--true-mean", "2", "--true-values", "1"], "not both"),
    ],
)
def test_simulated_values_outside_a_range_are_refused(runner, amounts, args, message):
    result = runner.invoke(args=["simulate-responses", "amounts", "--n", "10", *args])
    assert result.exit_code != 0 and message in result.output


def test_exports_and_codebook_carry_the_bit_and_the_formula(app, amounts, make_researcher):
    for row in (answers(drinks=1), answers(hours=1)):
        app.test_client().post("/api/surveys/amounts/responses", json=row)
    researcher = make_researcher("rita@example.org")
    text = researcher.get("/surveys/amounts/responses.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["year", "drinks", "hours"] and sorted(r[1] for r in rows[1:]) == ["0", "1"]
    estimates = list(
        csv.DictReader(
            io.StringIO(researcher.get("/surveys/amounts/estimates.csv").get_data(as_text=True))
        )
    )
    drinks = next(row for row in estimates if row["question"] == "drinks")
    assert drinks["type"] == "number"
    assert float(drinks["estimate"]) == pytest.approx(
        MEANS["drinks"].estimate(1, 2).estimate, rel=1e-10
    )
    book = json.loads(researcher.get("/surveys/amounts/codebook.json").get_data(as_text=True))
    entry = {e["id"]: e for e in book["questions"]}["drinks"]
    assert (entry["min"], entry["max"], entry["step"]) == (0, 30, 1)
    assert entry["design"].startswith("one-bit mean") and "min + (max - min)" in entry["recompute"]
    offset, slope = entry["noise_offset"], entry["noise_slope"]
    design = MEANS["drinks"].design
    assert (offset, slope) == pytest.approx((design.offset, design.slope))


@no_database
def test_files_and_xlsform_round_trip_a_number_question(app):
    with app.test_request_context():
        spec = parse_survey(copy.deepcopy(SURVEY))
        assert parse_survey(json.loads(spec.to_json())) == spec
        assert load_xlsform(survey_xlsform(spec)) == spec


def test_the_builder_adds_a_number_question_and_names_mistakes_beside_their_fields(app, researcher):
    researcher.post("/surveys/new", data={"title": "Draft", "slug": "", "description": ""})
    form = {
        "text": "Drinks last week?", "key": "drinks", "kind": "number", "epsilon": "1",
        "procedure": "spinner_coin", "value_min": "0", "value_max": "10", "value_step": "3",
        "unit": "drinks", "randomizer": "page",
    }  # fmt: skip
    html = researcher.post("/surveys/draft/questions/new", data=form).get_data(as_text=True)
    assert 'id="value_step-errors"' in html and "whole steps" in html
    form["value_step"] = "0.5"
    assert researcher.post("/surveys/draft/questions/new", data=form).status_code == 302
    with app.app_context():
        (question,) = find_survey("draft").questions
        assert question.design.scale.numbers() == (0, 10, 0.5)
        assert (
            question.design.scale.unit.default == "drinks" and question.type.cost(question) == 1.0
        )
    page = researcher.get("/surveys/draft/questions/drinks").get_data(as_text=True)
    assert 'name="value_step"' in page and 'value="0.5"' in page and 'value="drinks"' in page


def test_the_range_is_frozen_once_answered_but_the_unit_is_not(app, amounts, researcher):
    app.test_client().post("/api/surveys/amounts/responses", json=answers())
    form = {
        "text": "Drinks last week?", "text_ko": "지난주 술 몇 잔?", "key": "drinks", "kind": "number",
        "epsilon": "1", "procedure": "spinner_coin", "value_min": "0", "value_max": "40",
        "value_step": "1", "unit": "drinks", "unit_ko": "잔", "randomizer": "page",
    }  # fmt: skip
    html = researcher.post("/surveys/amounts/questions/drinks", data=form).get_data(as_text=True)
    assert "frozen" in html
    renamed = dict(form, value_max="30", unit="glasses")
    assert researcher.post("/surveys/amounts/questions/drinks", data=renamed).status_code == 302
    with app.app_context():
        scale = find_survey("amounts").questions[1].design.scale
        assert scale.high == 30 and scale.unit.default == "glasses"


@no_database
def test_the_plan_of_a_number_gives_its_margin_in_units(client):
    plan = client.get("/api/plan?epsilon=1&procedure=spinner_coin&n=300&min=0&max=30").json
    mean = rr.bounded_mean(0, 30, 1.0)
    assert plan["margin_of_error"] == pytest.approx(mean.margin_of_error(300))
    assert plan["sample_size"]["0.05"] == mean.sample_size(1.5)
    for query in ("min=3&max=3", "min=x&max=3", "min=0&max=inf", "max=3"):
        refused = client.get(f"/api/plan?epsilon=1&n=10&{query}")
        assert refused.status_code == 400 and "range" in refused.json["error"]


def test_dashboard_analysis_page_and_command_line_show_means_in_units(
    app, runner, amounts, researcher, seed_responses
):
    seed_responses("amounts", 3000, seed=2, by=("year", {"first": 0.1, "fourth": 0.4}))
    dashboard = researcher.get("/surveys/amounts").get_data(as_text=True)
    assert "Estimated mean on its range: Drinks last week?" in dashboard
    assert "Estimated mean" in dashboard and "on the range 0 to 30" in dashboard
    page = researcher.get("/surveys/amounts/groups?by=year&item=drinks").get_data(as_text=True)
    assert "Estimated mean by group" in page and "Linear regression" in page
    assert "in the question's units" in page and "Odds ratio" not in page
    table = runner.invoke(args=["results", "amounts"]).output
    drinks = next(line for line in table.splitlines() if line.startswith("drinks"))
    assert "%" in drinks.split()[5] and "%" not in drinks.split()[6]  # reported share, then mean
    fit = runner.invoke(args=["regress", "amounts", "drinks", "--on", "year"]).output
    assert "linear" in fit and "odds ratio" not in fit and "mean" in fit
