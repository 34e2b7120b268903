"""The designs of a yes/no question (forced response, unrelated question, crosswise) end to end on
the server: file, checks, submission, results API, groups, difference, regression, exports,
codebook, builder, planning, XLSForm and the command line."""

from __future__ import annotations

import copy
import csv
import html
import io
import json
import math
import re

import pytest

import rr
from tests.conftest import no_database
from tests.helpers import api_get
from web.core.surveys.lookup import find_survey
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.surveyfile import parse_survey
from web.core.surveys.xlsform.read import load_xlsform
from web.core.surveys.xlsform.write import survey_xlsform

# The surveys of tests/conftest.py's `imported`: results from 2 responses, moving every 2.
pytestmark = pytest.mark.imported(batch=2)

SIXTH = 1 / 6
FORCED = {"procedure": "forced_response"}
SURVEY = {
    "slug": "designs",
    "title": "Designs",
    "questions": [
        {
            "id": "year",
            "type": "direct",
            "text": "Year?",
            "options": [{"id": "first", "text": "First"}, {"id": "fourth", "text": "Fourth"}],
        },
        {
            "id": "fr",
            "type": "yesno",
            "text": "Copied?",
            "procedure": "forced_response",
            "p_truth": 0.75,
            "p_forced_yes": 0.15,
            "p_forced_no": 0.1,
        },
        {
            "id": "own",
            "type": "yesno",
            "text": "Lied?",
            "procedure": "forced_response",
            "p_truth": 4 * SIXTH,
            "p_forced_yes": SIXTH,
            "p_forced_no": SIXTH,
            "randomizer": "own",
        },
        {
            "id": "uq",
            "type": "yesno",
            "text": "Drugs?",
            "procedure": "unrelated_question",
            "p_truth": 0.7,
            "innocuous": {"text": "Born in January to March?", "prevalence": 0.25},
        },
        {
            "id": "cw",
            "type": "yesno",
            "text": "Cheated on a partner?",
            "procedure": "crosswise",
            "innocuous": {"text": "Mother born in January to March?", "prevalence": 0.25},
        },
    ],
}
DESIGNS = {
    "fr": rr.forced_response(0.75, 0.15, 0.1),
    "own": rr.forced_response(4 * SIXTH, SIXTH, SIXTH),
    "uq": rr.unrelated_question(0.7, 0.25),
    "cw": rr.crosswise(0.25),
}


def answers(year="first", **bits):
    return {"answers": {"year": year, **{key: bits.get(key, 0) for key in DESIGNS}}}


def api(app, token, path, **query):
    return api_get(app.test_client(), token, f"surveys/designs/{path}", **query)


def problems(data) -> list[str]:
    with pytest.raises(SurveyFileError) as refused:
        parse_survey(data)
    return refused.value.problems


def with_question(**question) -> dict:
    data = {"slug": "x", "title": "X", "questions": [{"id": "q", "type": "yesno", "text": "Q?"}]}
    data["questions"][0] |= question
    return data


def test_a_design_is_stored_with_its_derived_epsilon_and_ledger(app, designed, token):
    body = api(app, token, "results").json
    questions = {question["id"]: question for question in body["questions"]}
    for key, design in DESIGNS.items():
        assert questions[key]["epsilon"] == pytest.approx(design.epsilon, rel=1e-12)
        assert questions[key]["epsilon_total"] == pytest.approx(design.epsilon, rel=1e-11)
    assert body["epsilon_total"] == pytest.approx(sum(d.epsilon for d in DESIGNS.values()))
    assert questions["fr"]["procedure"] == "forced_response"
    assert (questions["fr"]["p_truth"], questions["fr"]["p_forced_yes"]) == (0.75, 0.15)
    assert questions["uq"]["innocuous"] == {"text": "Born in January to March?", "prevalence": 0.25}
    assert questions["own"]["randomizer"] == "own" and "light_fraction" not in questions["cw"]


def test_estimates_are_the_designs_own_through_the_line(app, designed, token):
    rows = [answers(fr=1, own=1, uq=0, cw=1), answers(fr=0, own=1, uq=1, cw=1)]
    rows += [answers("fourth", fr=1, cw=0), answers("fourth", fr=1, uq=1, cw=1)]
    for row in rows:
        assert app.test_client().post("/api/surveys/designs/responses", json=row).status_code == 201
    questions = {q["id"]: q for q in api(app, token, "results").json["questions"]}
    for key, design in DESIGNS.items():
        yes = sum(row["answers"][key] for row in rows)
        expected = design.estimate(yes, len(rows))
        for field in ("estimate", "std_error", "ci_low", "ci_high"):
            assert questions[key][field] == pytest.approx(getattr(expected, field), rel=1e-10)
        assert questions[key]["noisy_yes"] == yes


@pytest.mark.parametrize("bad", [2, -1, "1", True, [1], {"reported": 1}])
def test_a_design_question_takes_one_bit_and_nothing_else(app, designed, bad):
    body = answers()
    body["answers"]["cw"] = bad
    response = app.test_client().post("/api/surveys/designs/responses", json=body)
    assert response.status_code == 400 and "'cw'" in response.json["error"]
    with app.app_context():
        assert find_survey("designs").response_count == 0


def test_simulation_recovers_the_truth_and_groups_differ_through_each_design(
    app, runner, designed, token, seed_responses
):
    seed_responses("designs", 20000, seed=5, by=("year", {"first": 0.1, "fourth": 0.4}))
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
        assert difference["ci_low"] < 0.3 < difference["ci_high"] and difference["p_value"] < 1e-6
        fit = api(app, token, "regression", item=key, on="year").json
        terms = {c["term"]: c for c in fit["coefficients"]}
        log_odds_ratio = math.log(0.4 / 0.6) - math.log(0.1 / 0.9)
        effect = terms["year=fourth"]
        assert abs(effect["estimate"] - log_odds_ratio) < 4.5 * effect["std_error"], key
        assert fit["design"]["design"] == SURVEY_PROCEDURES[key]


SURVEY_PROCEDURES = {q["id"]: q.get("procedure") for q in SURVEY["questions"]}


def test_exports_and_codebook_name_each_design_and_its_r_model(app, designed, make_researcher):
    for bits in ({"fr": 1, "cw": 1}, {"uq": 1}):
        app.test_client().post("/api/surveys/designs/responses", json=answers(**bits))
    researcher = make_researcher("rita@example.org")
    rows = list(
        csv.reader(
            io.StringIO(researcher.get("/surveys/designs/responses.csv").get_data(as_text=True))
        )
    )
    assert rows[0] == ["year", "fr", "own", "uq", "cw"] and len(rows) == 3
    book = json.loads(researcher.get("/surveys/designs/codebook.json").get_data(as_text=True))
    entries = {entry["id"]: entry for entry in book["questions"]}
    assert entries["fr"]["RRreg_model"] == "FR" and entries["fr"]["RRreg_p"] == [0.1, 0.15]
    assert entries["fr"]["rr_design"] == "forced-known"
    assert entries["uq"]["RRreg_model"] == "UQTknown" and entries["uq"]["RRreg_p"] == [0.7, 0.25]
    assert entries["uq"]["rr_design"] == "unrelated-known"
    assert entries["cw"]["RRreg_model"] == "Crosswise" and entries["cw"]["RRreg_p"] == 0.25
    assert entries["own"]["randomizer"] == "respondent's own"
    for key, design in DESIGNS.items():
        assert entries[key]["p_report_1_given_yes"] == pytest.approx(design.yes_given_yes)
        assert entries[key]["p_report_1_given_no"] == pytest.approx(design.yes_given_no)
        assert (entries[key]["noise_offset"], entries[key]["noise_slope"]) == pytest.approx(
            (design.offset, design.slope)
        )
    assert entries["cw"]["noise_slope"] < 0  # q < ½: "the same" is rarer under a true yes
    assert "RRreg_model" not in entries["year"]  # asked directly: no randomized design


def test_the_spinner_codebook_names_rregs_models(app, survey, make_researcher):
    book = json.loads(
        make_researcher("rita@example.org")
        .get(f"/surveys/{survey}/codebook.json")
        .get_data(as_text=True)
    )
    first = book["questions"][0]
    assert first["RRreg_model"] == "FR" and first["rr_design"] == "forced-known"
    assert first["RRreg_p"] == pytest.approx([(1 - first["light_fraction"]) / 2] * 2)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            {"procedure": "forced_response", "p_truth": 0.7, "p_forced_yes": 0.2, "p_forced_no": 0.2},
            "must be 1",
        ),
        (
            {"procedure": "forced_response", "p_truth": 0.8, "p_forced_yes": 0.2, "p_forced_no": 0},
            "infinite epsilon",
        ),
        ({"procedure": "unrelated_question", "p_truth": 1, "innocuous": {"text": "B?", "prevalence": 0.3}}, "below 1"),
        ({"procedure": "crosswise", "innocuous": {"text": "B?", "prevalence": 0.5}}, "no information"),
        ({"procedure": "crosswise", "innocuous": {"prevalence": 0.25}}, "needs its text"),
        ({"procedure": "crosswise", "innocuous": {"text": "B?", "prevalence": 1.5}}, "from 0 to 1"),
        (
            {"procedure": "forced_response", "p_truth": 0.99998, "p_forced_yes": 1e-5, "p_forced_no": 1e-5},
            "above the limit",
        ),
        (
            {**FORCED, "p_truth": 0.7, "p_forced_yes": 0.2, "p_forced_no": 0.1, "randomizer": "own"},
            "multiples of 1/6 or of 1/2",
        ),
        (
            {**FORCED, "p_truth": 0.5, "p_forced_yes": 0.25, "p_forced_no": 0.25, "randomizer": "dice"},
            "'page' or 'own'",
        ),
        ({"procedure": "spinner", "epsilon": 1.0, "p_truth": 0.5}, "only a design's question"),
    ],
)  # fmt: skip
@no_database
def test_a_design_that_gives_nothing_or_everything_away_is_refused(app, question, expected):
    with app.app_context():
        found = problems(with_question(**question))
    assert any(expected in problem for problem in found), found


@no_database
def test_a_stated_epsilon_must_be_the_derived_one_and_both_are_named(app):
    stated = {"procedure": "crosswise", "innocuous": {"text": "B?", "prevalence": 0.25}}
    with app.app_context():
        parse_survey(with_question(**stated, epsilon=math.log(3) * (1 + 1e-12)))
        found = problems(with_question(**stated, epsilon=1.1))
    assert found == [
        f"questions[0].epsilon: epsilon is {rr.crosswise(0.25).epsilon!r} for this design's "
        "parameters, but 1.1 "
        "was stated"
    ]


@no_database
def test_a_design_belongs_to_a_yes_no_question(app):
    data = with_question(
        type="multi",
        options=[{"id": "a", "text": "A"}],
        procedure="crosswise",
        innocuous={"text": "B?", "prevalence": 0.25},
    )
    with app.app_context():
        assert "unknown procedure 'crosswise' (use 'spinner', 'spinner_coin')" in problems(data)[0]


@no_database
def test_files_and_xlsform_round_trip_every_design(app):
    with app.app_context():
        spec = parse_survey(copy.deepcopy(SURVEY))
        assert parse_survey(json.loads(spec.to_json())) == spec
        assert load_xlsform(survey_xlsform(spec)) == spec
        written = json.loads(spec.to_json())["questions"]
    assert written[2]["p_forced_yes"] == SIXTH and written[2]["randomizer"] == "own"
    assert written[4]["epsilon"] == pytest.approx(math.log(3))


def test_the_design_is_frozen_once_answered_but_its_wording_is_not(app, designed, researcher):
    app.test_client().post("/api/surveys/designs/responses", json=answers())
    form = {
        "text": "Drugs?",
        "key": "uq",
        "kind": "yesno",
        "procedure": "unrelated_question",
        "p_truth": "0.6",
        "innocuous": "Born in January to March?",
        "prevalence": "0.25",
        "randomizer": "page",
    }
    html = researcher.post("/surveys/designs/questions/uq", data=form).get_data(as_text=True)
    assert "frozen" in html
    reworded = dict(form, p_truth="0.7", innocuous="Born in the first quarter?")
    assert researcher.post("/surveys/designs/questions/uq", data=reworded).status_code == 302
    with app.app_context():
        question = next(q for q in find_survey("designs").questions if q.key == "uq")
        assert question.design.share("p_truth") == 0.7
        assert question.design.innocuous_text.default == "Born in the first quarter?"


def test_the_builder_adds_each_design_and_names_mistakes_beside_their_fields(app, researcher):
    researcher.post("/surveys/new", data={"title": "Draft", "slug": "", "description": ""})
    base = {"text": "Copied?", "kind": "yesno", "epsilon": "", "randomizer": "page"}
    forced = dict(
        base, key="fr", procedure="forced_response", p_truth="0.7", p_forced_yes="0.2",
        p_forced_no="0.2",
    )  # fmt: skip
    html = researcher.post("/surveys/draft/questions/new", data=forced).get_data(as_text=True)
    assert 'id="procedure-errors"' in html and "must be 1" in html
    forced["p_forced_no"] = "0.1"
    assert researcher.post("/surveys/draft/questions/new", data=forced).status_code == 302
    crosswise = dict(base, key="cw", procedure="crosswise", innocuous="", prevalence="0.25")
    html = researcher.post("/surveys/draft/questions/new", data=crosswise).get_data(as_text=True)
    assert 'id="innocuous-errors"' in html and "needs its text" in html
    crosswise["innocuous"] = "Mother born in January to March?"
    assert researcher.post("/surveys/draft/questions/new", data=crosswise).status_code == 302
    with app.app_context():
        survey = find_survey("draft")
        fr, cw = survey.questions
        assert fr.procedure == "forced_response" and fr.epsilon == pytest.approx(math.log(8))
        assert cw.design.share("prevalence") == 0.25 and cw.asked_with.page.own_randomizer(
            cw.design
        )
        assert survey.epsilon_total == pytest.approx(math.log(8) + math.log(3))


@no_database
def test_the_plan_of_a_design_gives_its_epsilon_and_margin(client):
    query = "procedure=forced_response&p_truth=0.75&p_forced_yes=0.15&p_forced_no=0.1&n=300"
    plan = client.get(f"/api/plan?{query}").json
    design = DESIGNS["fr"]
    assert plan["epsilon"] == pytest.approx(design.epsilon)
    assert plan["margin_of_error"] == pytest.approx(design.margin_of_error(300))
    assert plan["sample_size"]["0.05"] == design.sample_size(0.05)
    refused = client.get("/api/plan?procedure=crosswise&prevalence=0.5&n=10")
    assert refused.status_code == 400 and "no information" in refused.json["error"]


def test_the_respondent_page_asks_the_own_randomizer_for_the_report_only(app, designed, client):
    html = client.get("/s/designs").get_data(as_text=True)
    own = html[html.index('data-question="own"') : html.index('data-question="uq"')]
    assert 'name="truth-own"' not in own and 'name="report-own"' in own
    assert "<strong>1–4</strong>" in own and "<strong>5</strong>" in own
    crosswise = html[html.index('data-question="cw"') :]
    assert 'name="truth-cw"' not in crosswise and "Both the same" in crosswise
    config = json.loads(html.split('id="survey-config">')[1].split("</script>")[0])
    by_id = {question["id"]: question for question in config["questions"]}
    assert by_id["own"]["mode"] == "report" and by_id["cw"]["mode"] == "report"
    assert by_id["fr"]["sectors"] == [
        {"share": 0.75, "reports": "truth"},
        {"share": 0.15, "reports": "yes"},
        {"share": 0.1, "reports": "no"},
    ]
    assert by_id["uq"]["sectors"][1] == {"share": pytest.approx(0.3), "reports": "innocuous"}
    assert by_id["fr"]["drawnUnder"] != by_id["own"]["drawnUnder"]


# Cheating detection: the arm travels with the report.

ARMS = [
    {"p_truth": 0.6, "p_forced_yes": 0.3, "p_forced_no": 0.1},
    {"p_truth": 0.6, "p_forced_yes": 0.1, "p_forced_no": 0.3},
]
CHEATING_SURVEY = {
    "slug": "cheaters",
    "title": "Cheaters",
    "questions": [
        {
            "id": "year",
            "type": "direct",
            "text": "Year?",
            "options": [{"id": "first", "text": "First"}, {"id": "fourth", "text": "Fourth"}],
        },
        {
            "id": "cd",
            "type": "yesno",
            "text": "Copied?",
            "procedure": "cheating_detection",
            "arms": ARMS,
        },
    ],
}
MODEL = rr.cheating_detection([tuple(arm.values()) for arm in ARMS])


def cheating_api(app, token, path, **query):
    return api_get(app.test_client(), token, f"surveys/cheaters/{path}", **query)


def test_a_cheating_detection_answer_is_its_arm_and_report_and_nothing_else(app, cheaters):
    submit = app.test_client().post
    url = "/api/surveys/cheaters/responses"
    for bad in [1, {"arm": 0}, {"arm": 2, "reported": 1}, {"arm": 0, "reported": 1, "truth": 1}]:
        refused = submit(url, json={"answers": {"year": "first", "cd": bad}})
        assert refused.status_code == 400 and "'cd'" in refused.json["error"], bad
    stored = submit(url, json={"answers": {"year": "first", "cd": {"arm": 1, "reported": 1}}})
    assert stored.status_code == 201
    with app.app_context():
        question = find_survey("cheaters").questions[1]
        assert (question.n, question.noisy_yes, question.arm_n, question.arm_yes) == (1, 1, 1, 1)
        assert question.epsilon == pytest.approx(MODEL.epsilon)


def test_results_give_pi_gamma_and_the_arms_as_rr_does(app, cheaters, token):
    answers = [(0, 1), (0, 0), (0, 1), (1, 1), (1, 0), (1, 0), (1, 1), (0, 0)]
    for arm, reported in answers:
        body = {"answers": {"year": "first", "cd": {"arm": arm, "reported": reported}}}
        assert (
            app.test_client().post("/api/surveys/cheaters/responses", json=body).status_code == 201
        )
    question = cheating_api(app, token, "results").json["questions"][1]
    expected = MODEL.estimate([2, 2], [4, 4])
    assert question["procedure"] == "cheating_detection" and question["arms"] == [
        {"n": 4, "noisy_yes": 2},
        {"n": 4, "noisy_yes": 2},
    ]
    assert question["estimate"] == pytest.approx(expected.honest_yes.estimate, rel=1e-10)
    assert question["ci_high"] == pytest.approx(expected.honest_yes.ci_high, rel=1e-10)
    for field in ("estimate", "std_error", "ci_low", "ci_high"):
        assert question["cheating"][field] == pytest.approx(
            getattr(expected.cheating, field), rel=1e-10, abs=1e-12
        )
    assert question["epsilon"] == pytest.approx(MODEL.epsilon)
    assert [arm["p_forced_yes"] for arm in question["arm_parameters"]] == [0.3, 0.1]


@pytest.mark.parametrize("gamma", [0.0, 0.2])
def test_simulation_recovers_pi_and_gamma_and_groups_differ_on_pi(
    app, runner, cheaters, token, gamma, seed_responses
):
    by = ("year", {"first": 0.1, "fourth": 0.5})
    seed_responses("cheaters", 20000, seed=7, by=by, cheating=gamma)
    question = cheating_api(app, token, "results").json["questions"][1]
    # Truth and cheating are drawn independently: π = (0.1 + 0.5)/2 × (1 − γ).
    assert abs(question["estimate"] - 0.3 * (1 - gamma)) < 4 * question["std_error"]
    assert abs(question["cheating"]["estimate"] - gamma) < 4 * question["cheating"]["std_error"]
    assert sum(arm["n"] for arm in question["arms"]) == 20000
    groups = {
        group["id"]: group
        for group in cheating_api(app, token, "results", by="year").json["questions"][1]["groups"]
    }
    for year, share in (("first", 0.1), ("fourth", 0.5)):
        truth = share * (1 - gamma)
        assert abs(groups[year]["estimate"] - truth) < 4 * groups[year]["std_error"], year
    difference = cheating_api(app, token, "difference", item="cd", by="year", groups="fourth,first")
    body = difference.json
    assert body["ci_low"] < 0.4 * (1 - gamma) < body["ci_high"] and body["p_value"] < 1e-6
    assert body["difference"] == pytest.approx(
        groups["fourth"]["estimate"] - groups["first"]["estimate"]
    )
    refused = cheating_api(app, token, "regression", item="cd", on="year")
    assert refused.status_code == 400 and "two arms" in refused.json["error"]


def test_cheating_detection_in_exports_codebook_file_and_xlsform(app, cheaters, make_researcher):
    app.test_client().post(
        "/api/surveys/cheaters/responses",
        json={"answers": {"year": "fourth", "cd": {"arm": 1, "reported": 0}}},
    )
    researcher = make_researcher("rita@example.org")
    rows = list(
        csv.reader(
            io.StringIO(researcher.get("/surveys/cheaters/responses.csv").get_data(as_text=True))
        )
    )
    assert rows[0] == ["year", "cd.reported", "cd.arm"]
    book = json.loads(researcher.get("/surveys/cheaters/codebook.json").get_data(as_text=True))
    entry = book["questions"][1]
    assert entry["RRreg_model"] == "CDMsym" and entry["RRreg_p"] == [0.3, 0.1, 0.1, 0.3]
    assert entry["columns"] == ["cd.reported", "cd.arm"]
    with app.app_context():
        spec = parse_survey(copy.deepcopy(CHEATING_SURVEY))
        assert load_xlsform(survey_xlsform(spec)) == spec
        assert json.loads(spec.to_json())["questions"][1]["arms"] == ARMS


@pytest.mark.parametrize(
    ("arms", "expected"),
    [
        (ARMS[:1], "needs two arms"),
        ([ARMS[0], ARMS[0]], "must differ"),
        ([ARMS[0], {"p_truth": 0.7, "p_forced_yes": 0.3, "p_forced_no": 0}], "infinite epsilon"),
        ([ARMS[0], {"p_truth": 0.6, "p_forced_yes": 0.1, "p_forced_no": "x"}], "from 0 to 1"),
        ([ARMS[0], {"p_truth": 0.6, "p_forced_yes": 0.1, "p_no": 0.3}], "unknown field 'p_no'"),
    ],
)
@no_database
def test_cheating_detection_arms_that_cannot_work_are_refused(app, arms, expected):
    data = with_question(procedure="cheating_detection", arms=arms)
    with app.app_context():
        found = problems(data)
    assert any(expected in problem for problem in found), found


def test_the_builder_adds_a_cheating_detection_question(app, researcher):
    researcher.post("/surveys/new", data={"title": "Draft", "slug": "", "description": ""})
    form = {"text": "Copied?", "key": "cd", "kind": "yesno", "procedure": "cheating_detection"}
    form |= {
        f"arm_{n}_{name}": str(value)
        for n, arm in enumerate(ARMS, 1)
        for name, value in arm.items()
    }
    same = dict(form, arm_2_p_forced_yes="0.3", arm_2_p_forced_no="0.1")
    html = researcher.post("/surveys/draft/questions/new", data=same).get_data(as_text=True)
    assert 'id="arm_1_p_truth-errors"' in html and "must differ" in html
    assert researcher.post("/surveys/draft/questions/new", data=form).status_code == 302
    with app.app_context():
        question = find_survey("draft").questions[0]
        assert question.procedure == "cheating_detection"
        assert question.design.arms == ((0.6, 0.3, 0.1), (0.6, 0.1, 0.3))
        assert question.epsilon == pytest.approx(MODEL.epsilon)


def test_dashboard_and_command_line_show_the_cheaters_beside_pi(app, runner, cheaters, researcher):
    args = [
        "simulate-responses",
        "cheaters",
        "--n",
        "3000",
        "--seed",
        "2",
        "--cheating-share",
        "0.2",
    ]
    assert runner.invoke(args=args).exit_code == 0
    page = researcher.get("/surveys/cheaters").get_data(as_text=True)
    assert "Cheaters, who say no whatever the wheel tells them" in page
    assert "Cheating detection: arms (truth, forced yes, forced no) 0.6 / 0.3 / 0.1" in page
    printed = runner.invoke(args=["results", "cheaters"]).output
    assert "cheaters (gamma)" in printed and "arm 2" in printed


@no_database
def test_the_plan_of_cheating_detection_gives_its_epsilon_and_margin(client):
    plan = client.get("/api/plan?procedure=cheating_detection&arms=0.6,0.3,0.1;0.6,0.1,0.3&n=1000")
    assert plan.json["epsilon"] == pytest.approx(MODEL.epsilon)
    assert plan.json["margin_of_error"] == pytest.approx(MODEL.margin_of_error(1000))
    assert plan.json["arms"] == ARMS
    refused = client.get("/api/plan?procedure=cheating_detection&arms=0.6,0.3,0.1&n=10")
    assert refused.status_code == 400 and "two arms" in refused.json["error"]


def test_an_unrelated_question_with_the_respondents_coin_names_both_faces(
    app, client, import_survey
):
    data = with_question(
        procedure="unrelated_question",
        p_truth=0.5,
        innocuous={"text": "Born in an odd month?", "prevalence": 0.5},
        randomizer="own",
    )
    data["slug"] = "coin"
    import_survey(data)
    html = client.get("/s/coin").get_data(as_text=True)
    assert "Toss a coin where nobody can see it." in html
    assert "<strong>Heads</strong>:\n          answer the question above truthfully" in html
    assert "answer this everyday question instead: <span>Born in an odd month?</span>" in html
    assert 'name="truth-q"' not in html and 'name="report-q"' in html


@no_database
def test_rrs_typed_refusal_lands_on_its_field_in_the_viewers_language(app):
    kuk_deck = with_question(procedure="kuk", theta_yes=1, theta_no=0.5)
    forced = with_question(
        procedure="forced_response", p_truth=0.7, p_forced_yes=0.2, p_forced_no=0.2
    )
    with app.test_request_context(headers={"Accept-Language": "ko"}):
        # Kuk's own words for rr's "out of range", on the share rr names.
        assert problems(kuk_deck) == [
            "questions[0].theta_yes: 0과 1 사이여야 합니다(0과 1 제외). "
            "한 가지 색만 있는 묶음은 답을 드러냅니다"
        ]
        (message,) = problems(forced)
        assert message.startswith("questions[0].procedure: ") and "합계: 1.1" in message
    with pytest.raises(rr.ParameterError) as refused:
        rr.forced_response(0.7, 0.2, 0.2)
    assert (refused.value.parameter, refused.value.reason) == ("p_forced_no", "not_one")


@no_database
def test_every_design_names_itself_in_the_literature(app):
    from web.core.surveys.designs import registered

    with app.test_request_context():
        for design in registered():
            words = str(design.literature)
            assert words and (design.name == "direct" or re.search(r"\b(19|20)\d\d\b", words)), (
                design.name
            )


def test_the_dashboard_names_each_estimates_design_and_interval_method(
    app, designed, make_researcher
):
    """It once said only "Spinner and coin, p = 0.462": a methods section needs the design's
    name in the literature and how the interval was made."""
    page = make_researcher("rita@example.org").get(f"/surveys/{designed}").get_data(as_text=True)
    text = html.unescape(" ".join(re.sub(r"<[^>]+>", " ", page).split()))
    for design in ("the forced-response design (Boruch 1971)", "the crosswise model (Yu, Tian & "
                   "Tang 2008)", "the unrelated-question design with a known innocuous share "
                   "(Greenberg et al. 1969)"):  # fmt: skip
        assert f"Design: {design}. Interval:" in text, design
    assert "Interval: exact (Clopper–Pearson) on the reported share, carried through the " in text


@no_database
def test_every_design_s_name_fits_a_questions_procedure_column():
    """PostgreSQL enforces a column's length where SQLite does not: a longer name would be
    refused on PostgreSQL alone."""
    from web.core.models import Question
    from web.core.surveys.designs import known_designs

    length = Question.__table__.c.procedure.type.length
    assert max(len(name) for name in known_designs()) <= length
