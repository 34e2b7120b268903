"""The stochastic lie detector end to end on the server: file, checks, submission, results API
(π, the honest carriers' t, the arms), groups, difference, exports, codebook, XLSForm, builder,
planning, the command line, and its missing ε bound said wherever ε is shown."""

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
from web.core.models import unbounded_questions
from web.core.surveys.lookup import find_survey
from web.core.surveys.surveyfile import parse_survey
from web.core.surveys.xlsform.read import load_xlsform
from web.core.surveys.xlsform.write import survey_xlsform

# The surveys of tests/conftest.py's `imported`: results from 2 responses, moving every 2.
pytestmark = pytest.mark.imported(batch=2)

ARMS = [{"p_no": 0.25}, {"p_no": 0.75}]
SURVEY = {
    "slug": "liars",
    "title": "Liars",
    "questions": [
        {
            "id": "year",
            "type": "direct",
            "text": "Year?",
            "options": [{"id": "first", "text": "First"}, {"id": "fourth", "text": "Fourth"}],
        },
        {"id": "spun", "type": "yesno", "text": "Smoked?", "epsilon": 1.0},
        {
            "id": "sld",
            "type": "yesno",
            "text": "Voted against the ban?",
            "procedure": "stochastic_lie_detector",
            "arms": ARMS,
        },
    ],
}
MODEL = rr.lie_detector([arm["p_no"] for arm in ARMS])


def api(app, token, path, **query):
    return api_get(app.test_client(), token, f"surveys/liars/{path}", **query)


def submit(app, answers):
    return app.test_client().post("/api/surveys/liars/responses", json={"answers": answers})


def test_an_answer_is_its_arm_and_report_and_nothing_else(app, liars):
    for bad in [1, {"arm": 0}, {"arm": 2, "reported": 1}, {"arm": 0, "reported": 1, "truth": 1}]:
        refused = submit(app, {"year": "first", "spun": 1, "sld": bad})
        assert refused.status_code == 400 and "'sld'" in refused.json["error"], bad
    assert (
        submit(app, {"year": "first", "spun": 1, "sld": {"arm": 1, "reported": 0}}).status_code
        == 201
    )
    with app.app_context():
        survey = find_survey("liars")
        question = survey.questions[2]
        assert (question.n, question.noisy_yes, question.arm_n, question.arm_yes) == (1, 0, 1, 0)
        assert math.isinf(question.epsilon)
        # The survey's total is the spinner's alone, and names the question it leaves out.
        assert survey.epsilon_total == pytest.approx(1.0)
        assert [each.key for each in unbounded_questions(survey)] == ["sld"]


def test_results_give_pi_t_and_the_arms_as_rr_does_with_no_epsilon(app, liars, token):
    answers = [(0, 1), (0, 0), (0, 1), (0, 1), (1, 1), (1, 0), (1, 0), (1, 1)]
    for arm, reported in answers:
        assert (
            submit(
                app, {"year": "first", "spun": 0, "sld": {"arm": arm, "reported": reported}}
            ).status_code
            == 201
        )
    document = api(app, token, "results").json
    question = document["questions"][2]
    expected = MODEL.estimate([3, 2], [4, 4])
    assert question["procedure"] == "stochastic_lie_detector"
    assert question["arms"] == [{"n": 4, "noisy_yes": 3}, {"n": 4, "noisy_yes": 2}]
    assert question["arm_parameters"] == ARMS
    assert question["estimate"] == pytest.approx(expected.carriers.estimate, rel=1e-10)
    assert question["std_error"] == pytest.approx(expected.carriers.std_error, rel=1e-10)
    for field in ("estimate", "std_error", "ci_low", "ci_high"):
        assert question["honesty"][field] == pytest.approx(
            getattr(expected.honesty, field), rel=1e-10
        )
    assert question["epsilon"] is None and question["epsilon_bounded"] is False
    assert document["epsilon_total"] == pytest.approx(1.0)
    assert document["epsilon_unbounded"] == ["sld"]
    bayes = api(app, token, "results", method="bayes").json["questions"][2]
    posterior = rr.lie_detector_posterior(MODEL, [3, 2], [4, 4])
    assert bayes["posterior_mean"] == pytest.approx(posterior.carriers.mean, abs=1e-9)
    assert bayes["honesty"]["posterior_mean"] == pytest.approx(posterior.honesty.mean, abs=1e-9)
    assert bayes["honesty"]["estimate"] == question["honesty"]["estimate"]


def test_simulation_recovers_pi_and_t_and_groups_differ_on_pi(app, liars, token, seed_responses):
    by = ("year", {"first": 0.1, "fourth": 0.5})
    seed_responses("liars", 20000, seed=5, by=by, cheating=0.2)
    question = api(app, token, "results").json["questions"][2]
    # A share 0.2 of carriers lie: π is the truth's (0.1 + 0.5)/2, t = 0.8.
    assert abs(question["estimate"] - 0.3) < 4 * question["std_error"]
    assert abs(question["honesty"]["estimate"] - 0.8) < 4 * question["honesty"]["std_error"]
    groups = {
        group["id"]: group
        for group in api(app, token, "results", by="year").json["questions"][2]["groups"]
    }
    for year, share in (("first", 0.1), ("fourth", 0.5)):
        assert abs(groups[year]["estimate"] - share) < 4 * groups[year]["std_error"], year
    body = api(app, token, "difference", item="sld", by="year", groups="fourth,first").json
    assert body["ci_low"] < 0.4 < body["ci_high"] and body["p_value"] < 1e-6
    refused = api(app, token, "regression", item="sld", on="year")
    assert refused.status_code == 400 and "two arms" in refused.json["error"]


def test_exports_codebook_file_and_xlsform_carry_the_arms(app, liars, make_researcher):
    submit(app, {"year": "fourth", "spun": 1, "sld": {"arm": 1, "reported": 0}})
    researcher = make_researcher("rita@example.org")
    csv_text = researcher.get("/surveys/liars/responses.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(csv_text)))
    assert rows[0] == ["year", "spun", "sld.reported", "sld.arm"]
    book = json.loads(researcher.get("/surveys/liars/codebook.json").get_data(as_text=True))
    entry = book["questions"][2]
    assert entry["RRreg_model"] == "SLD" and entry["RRreg_p"] == [0.25, 0.75]
    assert entry["epsilon"] is None and "no epsilon bound" in entry["note"]
    assert (
        'model = "SLD"' in entry["R"][0] and 'group = na.omit(d[["sld.arm"]]) + 1' in entry["R"][0]
    )
    with app.app_context():
        spec = parse_survey(copy.deepcopy(SURVEY))
        assert load_xlsform(survey_xlsform(spec)) == spec
        # No infinity in a file: JSON has none, so the question states no ε at all.
        written = spec.to_json()
        assert "Infinity" not in written and "epsilon" not in json.loads(written)["questions"][2]
        assert json.loads(written)["questions"][2]["arms"] == ARMS


@pytest.mark.parametrize(
    ("arms", "expected"),
    [
        (ARMS[:1], "needs two arms"),
        ([ARMS[0], ARMS[0]], "must differ"),
        ([ARMS[0], {"p_no": 1.5}], "from 0 to 1"),
        ([ARMS[0], {"p_truth": 0.3}], "unknown field 'p_truth'"),
    ],
)
@no_database
def test_arms_that_cannot_work_are_refused(app, arms, expected):
    data = copy.deepcopy(SURVEY)
    data["questions"][2]["arms"] = arms
    with app.app_context(), pytest.raises(Exception) as refused:
        parse_survey(data)
    assert expected in str(refused.value), str(refused.value)


@no_database
def test_a_stated_epsilon_is_refused(app):
    data = copy.deepcopy(SURVEY)
    data["questions"][2]["epsilon"] = 2.0
    with app.app_context(), pytest.raises(Exception, match="no epsilon bound"):
        parse_survey(data)


def test_the_builder_adds_a_lie_detector_question(app, researcher):
    researcher.post("/surveys/new", data={"title": "Draft", "slug": "", "description": ""})
    form = {"text": "Voted?", "key": "sld", "kind": "yesno"}
    form |= {"procedure": "stochastic_lie_detector", "arm_1_p_no": "0.25", "arm_2_p_no": "0.25"}
    html = researcher.post("/surveys/draft/questions/new", data=form).get_data(as_text=True)
    assert 'id="arm_2_p_no-errors"' in html and "must differ" in html
    form["arm_2_p_no"] = "0.75"
    assert researcher.post("/surveys/draft/questions/new", data=form).status_code == 302
    with app.app_context():
        question = find_survey("draft").questions[0]
        assert question.design.arms == ((0.25,), (0.75,))
        assert math.isinf(question.epsilon)
    edit = researcher.get("/surveys/draft/edit").get_data(as_text=True)
    assert "no ε bound" in edit and "inf" not in edit.replace("info", "")


def test_pages_say_there_is_no_bound(app, liars, client, researcher, runner, seed_responses):
    page = client.get("/s/liars").get_data(as_text=True)
    assert "no ε bound" in page and "ε = inf" not in page
    assert "Questions with no ε bound are left out of it (1 here)" in page
    seed_responses("liars", 400, seed=1)
    dashboard = researcher.get("/surveys/liars").get_data(as_text=True)
    assert "honest carriers (t)" in dashboard and "no ε bound" in dashboard
    printed = runner.invoke(args=["results", "liars"]).output
    assert "honest carriers (t)" in printed and "arm 2" in printed
    assert "sld (eps no bound, stochastic_lie_detector)" in printed
    assert "epsilon = 1 (leaving out sld: no epsilon bound)" in printed


@no_database
def test_the_plan_gives_the_margin_and_no_epsilon(client):
    plan = client.get("/api/plan?procedure=stochastic_lie_detector&arms=0.25;0.75&n=1000").json
    assert plan["epsilon"] is None and plan["bounded"] is False
    assert plan["margin_of_error"] == pytest.approx(MODEL.margin_of_error(1000))
    assert plan["arms"] == ARMS
    refused = client.get("/api/plan?procedure=stochastic_lie_detector&arms=0.25&n=10")
    assert refused.status_code == 400 and "two arms" in refused.json["error"]


def test_the_methods_paragraph_says_there_is_no_bound(app, liars, token):
    submit(app, {"year": "first", "spun": 1, "sld": {"arm": 0, "reported": 1}})
    submit(app, {"year": "first", "spun": 0, "sld": {"arm": 1, "reported": 0}})
    text = api(app, token, "methods").json["markdown"]
    assert "the stochastic lie detector (Moshagen, Musch & Erdfelder 2012)" in text
    assert "no ε bound, since a “no” is never forced" in text
    assert "Questions with no ε bound are left out of the total (1 here)." in text
    assert "inf" not in text


SPLIT = {
    "slug": "ban-study",
    "title": "Ban",
    "conditions": [{"id": "direct", "share": 1}, {"id": "sld", "share": 1}],
    "questions": [
        {
            "id": "voted",
            "type": "yesno",
            "text": "Voted for the ban?",
            "asked": {
                "direct": {"procedure": "direct"},
                "sld": {"procedure": "stochastic_lie_detector", "arms": ARMS},
            },
        }
    ],
}


def test_a_split_ballot_condition_may_ask_with_the_lie_detector(app, client, token, imported):
    from web.simulation import simulate_responses

    slug = imported(copy.deepcopy(SPLIT))
    with app.app_context():
        simulate_responses(find_survey(slug), 4000, 0.3, seed=3)
        row = next(q for q in find_survey(slug).questions if q.key == "voted@sld")
        yes, n = row.published_yes, row.published_n
        arm_yes, arm_n = row.published_arm_yes, row.published_arm_n
    document = api_get(client, token, f"surveys/{slug}/experiment").get_json()
    [item] = document["items"]
    mine = {entry["condition"]: entry for entry in item["by_condition"]}
    expected = MODEL.estimate([yes - arm_yes, arm_yes], [n - arm_n, arm_n]).carriers
    assert mine["sld"]["estimate"] == pytest.approx(expected.estimate, abs=1e-9)
    assert mine["sld"]["std_error"] == pytest.approx(expected.std_error, abs=1e-9)
    assert mine["sld"]["epsilon"] is None and mine["sld"]["n"] == n
    [contrast] = item["contrasts"]
    difference = mine["sld"]["estimate"] - mine["direct"]["estimate"]
    assert contrast["difference"] == pytest.approx(difference, abs=1e-9)
    assert contrast["ci_low"] < 0 < contrast["ci_high"]  # both find the simulated 30%


def test_the_dashboard_and_command_line_name_the_lie_detectors_condition(
    app, runner, researcher, imported
):
    from web.simulation import simulate_responses

    slug = imported(copy.deepcopy(SPLIT))
    with app.app_context():
        simulate_responses(find_survey(slug), 400, 0.3, seed=4)
    page = researcher.get(f"/surveys/{slug}").get_data(as_text=True)
    assert "no ε bound" in page and "directly" in page
    printed = runner.invoke(args=["experiment", slug]).output
    assert "no eps bound" in printed, printed


def test_a_wave_of_a_series_with_a_lie_detector_question_leaves_it_out_of_its_costs(
    app, client, imported
):
    from web.core.surveys.series import wave_costs

    data = copy.deepcopy(SURVEY) | {"slug": "liars-1", "series": "liars", "wave": 1}
    slug = imported(data)
    assert client.get(f"/s/{slug}").status_code == 200
    with app.app_context():
        assert wave_costs(find_survey(slug)) == (pytest.approx(1.0), 0.0)


def test_the_spss_file_labels_the_question_without_a_bound(app, liars, researcher, runner):
    import tempfile
    from pathlib import Path

    import pyreadstat

    assert runner.invoke(args=["simulate-responses", "liars", "--n", "40"]).exit_code == 0
    raw = researcher.get("/surveys/liars/responses.sav").data
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "file.sav"
        path.write_bytes(raw)
        _data, meta = pyreadstat.read_sav(str(path), output_format="dict")
    labels = dict(zip(meta.column_names, meta.column_labels, strict=True))
    assert labels["sld_reported"].startswith("[report: stochastic_lie_detector, eps none")
    assert "inf" not in " ".join(label or "" for label in labels.values())
