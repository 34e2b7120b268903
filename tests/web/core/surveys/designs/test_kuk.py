"""Kuk's card design end to end, added through the design registry alone: file, checks, the page
(drawn by the page and with the respondent's own cards), submission, results, groups,
difference, regression, exports, codebook, builder, plan, XLSForm and the lab."""

from __future__ import annotations

import copy
import csv
import io
import json
import math

import pytest

import rr
from tests.conftest import no_database
from tests.helpers import api_get
from tests.web.core.surveys.designs.test_designs import problems, with_question
from web.core.surveys.lookup import find_survey
from web.core.surveys.surveyfile import parse_survey
from web.core.surveys.xlsform.read import load_xlsform
from web.core.surveys.xlsform.write import survey_xlsform

YEAR = {
    "id": "year",
    "type": "direct",
    "text": "Year?",
    "options": [{"id": "first", "text": "First"}, {"id": "fourth", "text": "Fourth"}],
}
SURVEY = {
    "slug": "cards",
    "title": "Cards",
    "questions": [
        YEAR,
        {"id": "kp", "type": "yesno", "text": "Copied?", "procedure": "kuk",
         "theta_yes": 0.7, "theta_no": 0.2},
        {"id": "ko", "type": "yesno", "text": "Lied?", "procedure": "kuk",
         "theta_yes": 0.3, "theta_no": 0.7, "randomizer": "own"},
    ],
}  # fmt: skip
DESIGNS = {"kp": rr.kuk(0.7, 0.2), "ko": rr.kuk(0.3, 0.7)}


# The surveys of tests/conftest.py's `imported`: results from 2 responses, moving every 2.
pytestmark = pytest.mark.imported(batch=2)


def answers(year="first", **bits):
    return {"answers": {"year": year, **{key: bits.get(key, 0) for key in DESIGNS}}}


def api(app, token, path, **query):
    return api_get(app.test_client(), token, f"surveys/cards/{path}", **query)


def test_kuk_is_stored_with_its_derived_epsilon(app, cards, token):
    body = api(app, token, "results").json
    questions = {question["id"]: question for question in body["questions"]}
    for key, design in DESIGNS.items():
        assert questions[key]["procedure"] == "kuk"
        assert questions[key]["epsilon"] == pytest.approx(design.epsilon, rel=1e-12)
    assert (questions["kp"]["theta_yes"], questions["kp"]["theta_no"]) == (0.7, 0.2)
    assert questions["ko"]["randomizer"] == "own"
    assert body["epsilon_total"] == pytest.approx(math.log(3.5) + math.log(0.7 / 0.3))


def test_estimates_are_rr_kuks(app, cards, token):
    rows = [answers(kp=1, ko=1), answers(kp=0, ko=1), answers("fourth", kp=1), answers(kp=1)]
    for row in rows:
        assert app.test_client().post("/api/surveys/cards/responses", json=row).status_code == 201
    questions = {q["id"]: q for q in api(app, token, "results").json["questions"]}
    for key, design in DESIGNS.items():
        yes = sum(row["answers"][key] for row in rows)
        expected = design.estimate(yes, len(rows))
        for field in ("estimate", "std_error", "ci_low", "ci_high"):
            assert questions[key][field] == pytest.approx(getattr(expected, field), rel=1e-10)


def test_simulation_recovers_the_truth_and_groups_differ(app, runner, cards, token, seed_responses):
    seed_responses("cards", 20000, seed=5, by=("year", {"first": 0.1, "fourth": 0.4}))
    by_year = {
        q["id"]: {g["id"]: g for g in q["groups"]}
        for q in api(app, token, "results", by="year").json["questions"]
        if q["id"] in DESIGNS
    }
    for key in DESIGNS:
        for year, truth in (("first", 0.1), ("fourth", 0.4)):
            group = by_year[key][year]
            assert abs(group["estimate"] - truth) < 4 * group["std_error"], (key, year)
        difference = api(app, token, "difference", item=key, by="year", groups="fourth,first").json
        assert difference["ci_low"] < 0.3 < difference["ci_high"]
        fit = api(app, token, "regression", item=key, on="year").json
        effect = {c["term"]: c for c in fit["coefficients"]}["year=fourth"]
        log_odds_ratio = math.log(0.4 / 0.6) - math.log(0.1 / 0.9)
        assert abs(effect["estimate"] - log_odds_ratio) < 4.5 * effect["std_error"], key
        assert fit["design"]["design"] == "kuk"


def test_exports_and_codebook_give_rregs_kuk_model(app, cards, make_researcher):
    app.test_client().post("/api/surveys/cards/responses", json=answers(kp=1))
    researcher = make_researcher("rita@example.org")
    text = researcher.get("/surveys/cards/responses.csv").get_data(as_text=True)
    assert next(csv.reader(io.StringIO(text))) == ["year", "kp", "ko"]
    book = json.loads(researcher.get("/surveys/cards/codebook.json").get_data(as_text=True))
    entries = {entry["id"]: entry for entry in book["questions"]}
    assert entries["kp"]["RRreg_model"] == "Kuk" and entries["kp"]["RRreg_p"] == [0.7, 0.2]
    assert entries["ko"]["randomizer"] == "respondent's own"
    for key, design in DESIGNS.items():
        assert entries[key]["p_report_1_given_yes"] == pytest.approx(design.yes_given_yes)
        assert (entries[key]["noise_offset"], entries[key]["noise_slope"]) == pytest.approx(
            (design.offset, design.slope)
        )


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ({"theta_yes": 0.5, "theta_no": 0.5}, "the two decks must differ"),
        ({"theta_yes": 1, "theta_no": 0.5}, "questions[0].theta_yes: must be strictly between"),
        (
            {"theta_yes": 0.7, "theta_no": 1.5},
            "questions[0].theta_no: must be a number from 0 to 1",
        ),
        ({"theta_yes": 0.7}, "questions[0].theta_no: must be a number from 0 to 1, got None"),
        ({"theta_yes": 0.99999, "theta_no": 0.00001}, "above the limit"),
        ({"theta_yes": 0.71, "theta_no": 0.3, "randomizer": "own"}, "26 red and 26 black"),
        ({"theta_yes": 0.7, "theta_no": 0.3, "epsilon": 1.0}, "but 1.0 was stated"),
    ],
)
@no_database
def test_decks_that_give_nothing_or_everything_away_are_refused(app, question, expected):
    with app.app_context():
        found = problems(with_question(procedure="kuk", **question))
    assert any(expected in problem for problem in found), found


@no_database
def test_a_spinner_question_may_not_state_decks(app):
    with app.app_context():
        found = problems(with_question(procedure="spinner", epsilon=1.0, theta_yes=0.7))
    assert any("only a design's question has 'theta_yes'" in problem for problem in found)


@no_database
def test_files_and_xlsform_round_trip_kuk(app):
    with app.app_context():
        spec = parse_survey(copy.deepcopy(SURVEY))
        assert parse_survey(json.loads(spec.to_json())) == spec
        assert load_xlsform(survey_xlsform(spec)) == spec
        written = json.loads(spec.to_json())["questions"]
    assert (written[1]["theta_yes"], written[1]["theta_no"]) == (0.7, 0.2)
    assert written[2]["randomizer"] == "own"


def test_the_page_draws_kuks_chances_as_one_wheel_or_asks_for_the_colour(app, cards, client):
    html = client.get("/s/cards").get_data(as_text=True)
    config = json.loads(html.split('id="survey-config">')[1].split("</script>")[0])
    by_id = {question["id"]: question for question in config["questions"]}
    # θ₁ = 0.7 > θ₂ = 0.2: 0.2 forced "yes", 0.3 forced "no", 0.5 the truth.
    sectors = by_id["kp"]["sectors"]
    assert [sector["reports"] for sector in sectors] == ["truth", "yes", "no"]
    assert [sector["share"] for sector in sectors] == pytest.approx([0.5, 0.2, 0.3])
    assert by_id["ko"]["mode"] == "report" and by_id["ko"]["reportWords"] == ["Black", "Red"]
    own = html[html.index('data-question="ko"') :]
    assert 'name="truth-ko"' not in own and 'name="report-ko"' in own
    # 0.3 and 0.7 from one pack: 3 red and 7 black, then 7 red and 3 black.
    assert "3 red and 7 black cards" in own and "7 red and 3 black cards" in own


@no_database
def test_a_redder_no_deck_draws_the_opposite_answer():
    from web.core.surveys.designs import DesignParameters, design_named

    sectors = design_named("kuk").page.sectors(DesignParameters.of(theta_yes=0.3, theta_no=0.7))
    assert [sector["reports"] for sector in sectors] == ["opposite", "yes", "no"]
    assert [sector["share"] for sector in sectors] == pytest.approx([0.4, 0.3, 0.3])


def test_the_builder_adds_kuk_with_its_own_fields(app, researcher):
    researcher.post("/surveys/new", data={"title": "Draft", "slug": "", "description": ""})
    html = researcher.get("/surveys/draft/questions/new").get_data(as_text=True)
    assert 'id="theta_yes"' in html and 'value="kuk"' in html
    form = {"text": "Copied?", "kind": "yesno", "epsilon": "", "randomizer": "page", "key": "k"}
    form |= {"procedure": "kuk", "theta_yes": "0.6", "theta_no": "0.6"}
    html = researcher.post("/surveys/draft/questions/new", data=form).get_data(as_text=True)
    assert 'id="procedure-errors"' in html and "the two decks must differ" in html
    form["theta_no"] = "0.2"
    assert researcher.post("/surveys/draft/questions/new", data=form).status_code == 302
    with app.app_context():
        (question,) = find_survey("draft").questions
        assert question.procedure == "kuk" and question.epsilon == pytest.approx(math.log(3))


@no_database
def test_the_plan_of_kuk_gives_its_epsilon_margin_and_wheel(client):
    plan = client.get("/api/plan?procedure=kuk&theta_yes=0.7&theta_no=0.2&n=300").json
    design = DESIGNS["kp"]
    assert plan["epsilon"] == pytest.approx(design.epsilon)
    assert plan["margin_of_error"] == pytest.approx(design.margin_of_error(300))
    assert plan["sectors"][0] == {"share": pytest.approx(0.5), "reports": "truth"}
    refused = client.get("/api/plan?procedure=kuk&theta_yes=0.4&theta_no=0.4&n=10")
    assert refused.status_code == 400 and "decks must differ" in refused.json["error"]


@no_database
def test_the_lab_compares_kuk_at_the_same_epsilon(client):
    html = client.get("/lab?designs_epsilon=1").get_data(as_text=True)
    row = html[html.index('data-design="kuk"') :].split("</tr>")[0]
    # Decks of opposite mixes at ε = 1: Warner's numbers, θ₁ = e/(1 + e).
    assert f"{math.e / (1 + math.e):.1%}" in row
