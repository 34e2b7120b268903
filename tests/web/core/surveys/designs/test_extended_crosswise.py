"""The extended crosswise model end to end on the server: file, checks, submission, results API
(π with the model test), groups, difference, exports, codebook, XLSForm, builder, planning, the
command line and a split ballot."""

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
from web.core.surveys.surveyfile import parse_survey
from web.core.surveys.xlsform.read import load_xlsform
from web.core.surveys.xlsform.write import survey_xlsform

# The surveys of tests/conftest.py's `imported`: results from 2 responses, moving every 2.
pytestmark = pytest.mark.imported(batch=2)

ARMS = [
    {"innocuous": {"text": "Born in January to March?", "prevalence": 0.25}},
    {"innocuous": {"text": "Born in April to December?", "prevalence": 0.75}},
]
SURVEY = {
    "slug": "crossed",
    "title": "Crossed",
    "questions": [
        {
            "id": "year",
            "type": "direct",
            "text": "Year?",
            "options": [{"id": "first", "text": "First"}, {"id": "fourth", "text": "Fourth"}],
        },
        {
            "id": "ecwm",
            "type": "yesno",
            "text": "Plagiarized?",
            "procedure": "extended_crosswise",
            "arms": ARMS,
        },
    ],
}
MODEL = rr.extended_crosswise([0.25, 0.75])


def api(app, token, path, **query):
    return api_get(app.test_client(), token, f"surveys/crossed/{path}", **query)


def submit(app, answers):
    return app.test_client().post("/api/surveys/crossed/responses", json={"answers": answers})


def test_an_answer_is_its_arm_and_report_and_nothing_else(app, crossed):
    for bad in [1, {"arm": 0}, {"arm": 2, "reported": 1}, {"arm": 0, "reported": 1, "truth": 1}]:
        refused = submit(app, {"year": "first", "ecwm": bad})
        assert refused.status_code == 400 and "'ecwm'" in refused.json["error"], bad
    assert submit(app, {"year": "first", "ecwm": {"arm": 1, "reported": 1}}).status_code == 201
    with app.app_context():
        question = find_survey("crossed").questions[1]
        assert (question.n, question.noisy_yes, question.arm_n, question.arm_yes) == (1, 1, 1, 1)
        assert question.epsilon == pytest.approx(MODEL.epsilon)
        assert [dict(text) for text in question.design.arm_texts] == [
            {"en": arm["innocuous"]["text"]} for arm in ARMS
        ]


def test_results_give_pi_and_the_model_test_as_rr_does(app, crossed, token):
    answers = [(0, 1), (0, 0), (0, 1), (0, 0), (1, 1), (1, 1), (1, 1), (1, 0)]
    for arm, reported in answers:
        body = {"year": "first", "ecwm": {"arm": arm, "reported": reported}}
        assert submit(app, body).status_code == 201
    question = api(app, token, "results").json["questions"][1]
    expected = MODEL.estimate([2, 3], [4, 4])
    assert question["procedure"] == "extended_crosswise"
    assert question["arms"] == [{"n": 4, "noisy_yes": 2}, {"n": 4, "noisy_yes": 3}]
    assert question["arm_parameters"] == ARMS
    for field in ("estimate", "std_error", "ci_low", "ci_high"):
        assert question[field] == pytest.approx(getattr(expected, field), rel=1e-10, abs=1e-12)
    test = expected.model_test
    assert question["model_test"] == {
        "g2": pytest.approx(test.g2, abs=1e-12),
        "df": 1,
        "p_value": pytest.approx(test.p_value, abs=1e-12),
    }
    assert question["epsilon"] == pytest.approx(MODEL.epsilon)


def test_simulation_recovers_pi_groups_differ_and_nonadherence_fails_the_test(
    app, crossed, token, seed_responses
):
    by = ("year", {"first": 0.1, "fourth": 0.5})
    seed_responses("crossed", 20000, seed=9, by=by)
    question = api(app, token, "results").json["questions"][1]
    assert abs(question["estimate"] - 0.3) < 4 * question["std_error"]
    assert question["model_test"]["p_value"] > 0.001
    body = api(app, token, "difference", item="ecwm", by="year", groups="fourth,first").json
    assert body["ci_low"] < 0.4 < body["ci_high"] and body["p_value"] < 1e-6
    refused = api(app, token, "regression", item="ecwm", on="year")
    assert refused.status_code == 400 and "two arms" in refused.json["error"]


def test_nonadherent_respondents_fail_the_model_test(app, crossed, token, seed_responses):
    seed_responses("crossed", 20000, seed=9, cheating=0.15)
    question = api(app, token, "results").json["questions"][1]
    assert question["model_test"]["p_value"] < 1e-6


def test_exports_codebook_file_and_xlsform_carry_the_arms(app, crossed, make_researcher):
    submit(app, {"year": "fourth", "ecwm": {"arm": 1, "reported": 0}})
    researcher = make_researcher("rita@example.org")
    csv_text = researcher.get("/surveys/crossed/responses.csv").get_data(as_text=True)
    assert list(csv.reader(io.StringIO(csv_text)))[0] == ["year", "ecwm.reported", "ecwm.arm"]
    book = json.loads(researcher.get("/surveys/crossed/codebook.json").get_data(as_text=True))
    entry = book["questions"][1]
    assert entry["p_report_1_given_yes"] == [0.25, 0.75]
    assert 'family = binomial(link = "identity")' in entry["R"][0]
    with app.app_context():
        spec = parse_survey(copy.deepcopy(SURVEY))
        assert load_xlsform(survey_xlsform(spec)) == spec
        assert json.loads(spec.to_json())["questions"][1]["arms"] == ARMS


@pytest.mark.parametrize(
    ("arms", "expected"),
    [
        (ARMS[:1], "needs two arms"),
        ([ARMS[0], ARMS[0]], "must differ"),
        ([ARMS[0], {"innocuous": {"text": "Odd?", "prevalence": 0.5}}], "0.5 gives no information"),
        ([ARMS[0], {"innocuous": {"prevalence": 0.75}}], "needs its text"),
        ([ARMS[0], {"innocuous": {"text": "x", "prevalence": 1}}], "strictly between 0 and 1"),
        ([ARMS[0], {"p_no": 0.3}], "unknown field 'p_no'"),
    ],
)
@no_database
def test_arms_that_cannot_work_are_refused(app, arms, expected):
    data = copy.deepcopy(SURVEY)
    data["questions"][1]["arms"] = arms
    with app.app_context(), pytest.raises(Exception) as refused:
        parse_survey(data)
    assert expected in str(refused.value), str(refused.value)


def test_pages_show_the_model_test(app, crossed, researcher, runner, seed_responses):
    seed_responses("crossed", 400, seed=1)
    dashboard = researcher.get("/surveys/crossed").get_data(as_text=True)
    assert "Model test: G² = " in dashboard and "The arms fit one share" in dashboard
    printed = runner.invoke(args=["results", "crossed"]).output
    assert "model test (G², 1 df)" in printed and "arm 2" in printed


@no_database
def test_the_plan_gives_epsilon_and_the_margin(client):
    plan = client.get("/api/plan?procedure=extended_crosswise&arms=0.25;0.75&n=1000").json
    assert plan["epsilon"] == pytest.approx(MODEL.epsilon)
    assert plan["margin_of_error"] == pytest.approx(MODEL.margin_of_error(1000))
    refused = client.get("/api/plan?procedure=extended_crosswise&arms=0.25;0.25&n=10")
    assert refused.status_code == 400 and "must differ" in refused.json["error"]


def test_the_builder_adds_an_extended_crosswise_question(app, researcher):
    researcher.post("/surveys/new", data={"title": "Draft", "slug": "", "description": ""})
    form = {"text": "Plagiarized?", "key": "ecwm", "kind": "yesno"}
    form |= {"procedure": "extended_crosswise", "arm_1_innocuous": "Born in January to March?"}
    form |= {"arm_1_prevalence": "0.25", "arm_2_prevalence": "0.75", "arm_2_innocuous": ""}
    html = researcher.post("/surveys/draft/questions/new", data=form).get_data(as_text=True)
    assert 'id="arm_2_innocuous-errors"' in html and "needs its text" in html
    form["arm_2_innocuous"] = "Born in April to December?"
    assert researcher.post("/surveys/draft/questions/new", data=form).status_code == 302
    with app.app_context():
        question = find_survey("draft").questions[0]
        assert question.design.arms == ((0.25,), (0.75,))
        assert [dict(text) for text in question.design.arm_texts] == [
            {"en": "Born in January to March?"},
            {"en": "Born in April to December?"},
        ]
    edit = researcher.get("/surveys/draft/questions/ecwm").get_data(as_text=True)
    assert "Born in April to December?</textarea>" in edit


def test_the_page_shows_both_arms_questions_hidden_until_one_is_drawn(client, crossed):
    page = client.get("/s/crossed").get_data(as_text=True)
    assert page.count('class="arm-innocuous"') == 2
    assert 'data-arm="1" hidden>Born in April to December?</strong>' in page
    assert 'name="report-ecwm"' in page and 'name="truth-ecwm"' not in page


@no_database
def test_each_arms_everyday_question_needs_every_language_of_the_survey(app):
    data = copy.deepcopy(SURVEY) | {"languages": ["en", "ko"]}
    for question in data["questions"]:
        question["text"] = {"en": question["text"], "ko": "질문"}
        for option in question.get("options", []):
            option["text"] = {"en": option["text"], "ko": "선택"}
    data["title"] = {"en": "Crossed", "ko": "교차"}
    data["questions"][1]["arms"][1]["innocuous"]["text"] = {"en": "Born in April to December?"}
    with app.app_context(), pytest.raises(Exception) as refused:
        parse_survey(data)
    assert "questions[1].arms[1].innocuous.text" in str(refused.value)


def test_the_bayesian_results_give_pi_s_posterior_over_both_arms(app, crossed, token):
    for arm, reported in [(0, 1), (0, 0), (1, 1), (1, 1), (1, 0), (0, 1)]:
        assert (
            submit(app, {"year": "first", "ecwm": {"arm": arm, "reported": reported}}).status_code
            == 201
        )
    question = api(app, token, "results", method="bayes").json["questions"][1]
    expected = rr.extended_crosswise_posterior(MODEL, [2, 2], [3, 3])
    assert question["posterior_mean"] == pytest.approx(expected.mean, abs=1e-9)
    assert question["cri_low"] == pytest.approx(expected.cri_low, abs=1e-9)
    assert (
        question["model_test"]["p_value"]
        == api(app, token, "results").json["questions"][1]["model_test"]["p_value"]
    )
