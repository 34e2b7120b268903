"""Split-ballot experiments: conditions in a survey file, drawn per respondent, stored with the
response by the questions it answers, and the analysis of the published snapshot."""

from __future__ import annotations

import copy
import json
import math
from statistics import NormalDist

import pytest
from scipy import stats

import rr
from tests.conftest import no_database
from tests.helpers import api_get, submit_answers
from web.core.infrastructure.extensions import db
from web.core.models import PendingResponse, Response
from web.core.surveys.lookup import find_survey
from web.core.surveys.problems import SurveyFileError
from web.core.surveys.surveyfile import parse_survey
from web.simulation import simulate_responses

ASKED = {
    "direct": {"procedure": "direct"},
    "spin": {"procedure": "spinner_coin", "epsilon": 1},
    "cross": {
        "procedure": "crosswise",
        "innocuous": {"text": "Born in spring?", "prevalence": 0.25},
    },
}
EXPERIMENT = {
    "slug": "drug-study",
    "title": "Drug use",
    "description": "A split ballot.",
    "conditions": [
        {"id": "direct", "share": 1},
        {"id": "spin", "share": 1},
        {"id": "cross", "share": 1},
    ],
    "questions": [
        {"id": "drugs", "type": "yesno", "text": "Used drugs this year?", "asked": ASKED},
        {"id": "kidney", "type": "yesno", "text": "Ever received a donated kidney?",
         "known_prevalence": 0, "asked": ASKED},
        {"id": "cheated", "type": "yesno", "text": "Cheated?", "epsilon": 1.0,
         "procedure": "spinner_coin"},
    ],
}  # fmt: skip


def problems_of(data: dict) -> list[str]:
    with pytest.raises(SurveyFileError) as refused:
        parse_survey(data)
    return refused.value.problems


@no_database
def test_a_file_with_conditions_reads_back_as_written(app):
    with app.app_context():
        spec = parse_survey(copy.deepcopy(EXPERIMENT))
        assert [condition.id for condition in spec.conditions] == ["direct", "spin", "cross"]
        assert [(q.key, q.condition) for q in spec.questions] == [
            ("drugs", "direct"), ("drugs", "spin"), ("drugs", "cross"),
            ("kidney", "direct"), ("kidney", "spin"), ("kidney", "cross"), ("cheated", None),
        ]  # fmt: skip
        written = spec.to_dict()
        assert written["conditions"] == EXPERIMENT["conditions"]
        assert [q["id"] for q in written["questions"]] == ["drugs", "kidney", "cheated"]
        assert written["questions"][1]["known_prevalence"] == 0
        assert set(written["questions"][0]["asked"]) == {"direct", "spin", "cross"}
        assert parse_survey(json.loads(json.dumps(written))) == spec


def test_import_and_export_keep_the_experiment(runner, import_survey, tmp_path):
    slug = import_survey(copy.deepcopy(EXPERIMENT))
    out = tmp_path / "out.json"
    result = runner.invoke(args=["export-survey", slug, "--output", str(out)])
    assert result.exit_code == 0, result.output
    exported = json.loads(out.read_text(encoding="utf-8"))
    assert exported["conditions"] == EXPERIMENT["conditions"]
    drugs = exported["questions"][0]
    assert drugs["asked"]["direct"] == {"procedure": "direct"}
    assert drugs["asked"]["spin"] == {"procedure": "spinner_coin", "epsilon": 1.0}
    assert drugs["asked"]["cross"]["procedure"] == "crosswise"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d["conditions"].append({"id": "Bad Id", "share": 1}), "conditions[3].id"),
        (lambda d: d["conditions"].__setitem__(1, {"id": "direct", "share": 1}),
         "duplicate condition id 'direct'"),
        (lambda d: d["conditions"][0].__setitem__("share", 0), "conditions[0].share"),
        (lambda d: d["conditions"].__setitem__(slice(1, None), []), "2 to 6 conditions"),
        (lambda d: [q.update(asked={k: v for k, v in ASKED.items() if k != "cross"})
                    for q in d["questions"][:2]],
         "condition 'cross' asks no question of its own"),
        (lambda d: d["questions"][0]["asked"].__setitem__("other", {"procedure": "direct"}),
         "unknown condition 'other'"),
        (lambda d: d["questions"][0].__setitem__("epsilon", 1), "questions[0].epsilon"),
        (lambda d: d["questions"][0]["asked"]["spin"].__setitem__("epsilon", 99),
         "questions[0].asked.spin.epsilon"),
        (lambda d: d["questions"][2].__setitem__("known_prevalence", 0),
         "only a yes/no question asked by condition"),
        (lambda d: d["questions"][1].__setitem__("known_prevalence", 2), "questions[1].known_prevalence"),
        (lambda d: [q.pop("asked") or q.update(procedure="spinner_coin", epsilon=1)
                    for q in d["questions"][:2]] and d["questions"][1].pop("known_prevalence"),
         "asks no question of its own"),
        (lambda d: d.pop("conditions"), "only a survey with conditions has 'asked'"),
        (lambda d: d["questions"][0].__setitem__("id", "x" * 60), "together exceed 63 characters"),
    ],
)  # fmt: skip
@no_database
def test_every_mistake_in_an_experiment_is_named(app, change, expected):
    data = copy.deepcopy(EXPERIMENT)
    change(data)
    with app.app_context():
        found = problems_of(data)
    assert any(expected in problem for problem in found), found


def stored_rows(app, slug: str) -> list[dict]:
    with app.app_context():
        survey = find_survey(slug)
        rows = db.session.scalars(
            db.select(PendingResponse.bits).where(PendingResponse.survey_id == survey.id)
        ).all()
        rows += db.session.scalars(
            db.select(Response.bits).where(Response.survey_id == survey.id)
        ).all()
    return [json.loads(bits) for bits in rows]


def test_a_submission_names_its_condition_and_answers_its_questions(app, client, import_survey):
    data = copy.deepcopy(EXPERIMENT)
    data["questions"][1]["required"] = True
    slug = import_survey(data)
    answers = {"drugs": 1, "kidney": 0, "cheated": 1}
    for body, error in [
        ({"answers": answers}, "'condition' must be one of"),
        ({"condition": "other", "answers": answers}, "'condition' must be one of"),
        ({"condition": "spin", "answers": {"drugs": 1, "cheated": 1}}, "'kidney' is required"),
        ({"condition": "spin", "answers": {**answers, "drugs@spin": 1}}, "unknown question"),
        ({"condition": "spin", "answers": answers, "arm": 1}, "unexpected field 'arm'"),
    ]:
        response = submit_answers(client, slug, body)
        assert response.status_code == 400, body
        assert error in response.get_json()["error"]
    assert stored_rows(app, slug) == []
    response = submit_answers(client, slug, {"condition": "cross", "answers": answers})
    assert response.status_code == 201, response.get_json()
    assert stored_rows(app, slug) == [{"drugs@cross": 1, "kidney@cross": 0, "cheated": 1}]
    with app.app_context():
        survey = find_survey(slug)
        counted = {q.key: q.n for q in survey.questions}
    assert counted == {"drugs@direct": 0, "drugs@spin": 0, "drugs@cross": 1, "kidney@direct": 0,
                       "kidney@spin": 0, "kidney@cross": 1, "cheated": 1}  # fmt: skip


def test_a_survey_without_conditions_refuses_one(client, survey):
    body = {
        "condition": "spin",
        "answers": {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 1}},
    }
    response = submit_answers(client, survey, body)
    assert response.status_code == 400
    assert "unexpected field 'condition'" in response.get_json()["error"]


@pytest.fixture
def fielded_experiment(app, import_survey):
    """EXPERIMENT with 3,000 simulated respondents (drugs true for 30%, kidney for none)."""
    slug = import_survey(copy.deepcopy(EXPERIMENT))
    with app.app_context():
        simulate_responses(find_survey(slug), 3000, 0.3, seed=1)
    return slug


def test_each_condition_is_its_designs_closed_form_on_its_counts(
    app, client, token, fielded_experiment
):
    document = api_get(client, token, f"surveys/{fielded_experiment}/experiment").get_json()
    with app.app_context():
        rows = {
            q.key: (q.published_yes, q.published_n)
            for q in find_survey(fielded_experiment).questions
        }
    ns = [entry["n"] for entry in document["conditions"]]
    assert sum(ns) == 3000 and ns == [rows[f"drugs@{c}"][1] for c in ("direct", "spin", "cross")]
    closed = {
        "direct": lambda yes, n: (yes / n, math.sqrt(yes / n * (1 - yes / n) / n)),
        "spin": lambda yes, n: (
            (yes / n - (1 - math.tanh(0.5)) / 2) / math.tanh(0.5),
            math.sqrt(yes / n * (1 - yes / n) / n) / math.tanh(0.5),
        ),
        "cross": lambda yes, n: (
            (yes / n - 0.75) / (0.25 - 0.75),
            math.sqrt(yes / n * (1 - yes / n) / n) / 0.5,
        ),
    }
    for item in document["items"]:
        for entry in item["by_condition"]:
            yes, n = rows[f"{item['id']}@{entry['condition']}"]
            estimate, std_error = closed[entry["condition"]](yes, n)
            assert entry["estimate"] == pytest.approx(estimate, abs=1e-9)
            if item["id"] == "drugs":  # kidney's reports can fall outside the design's range
                assert entry["std_error"] == pytest.approx(std_error, abs=1e-9)
            assert entry["epsilon"] == (None if entry["condition"] == "direct" else pytest.approx(
                {"spin": 1.0, "cross": math.log(3)}[entry["condition"]]))  # fmt: skip
    drugs = document["items"][0]
    assert [c["versus"] for c in drugs["contrasts"]] == ["direct", "direct"]
    for contrast in drugs["contrasts"]:
        mine = {e["condition"]: e for e in drugs["by_condition"]}
        first, second = mine[contrast["condition"]], mine["direct"]
        difference = first["estimate"] - second["estimate"]
        z = difference / math.hypot(first["std_error"], second["std_error"])
        assert contrast["difference"] == pytest.approx(difference, abs=1e-9)
        assert contrast["p_more"] == pytest.approx(1 - NormalDist().cdf(z), abs=1e-9)
        assert contrast["ci_low"] < contrast["difference"] < contrast["ci_high"]
        # Every design finds the 30% the simulation asked for.
        assert contrast["ci_low"] < 0 < contrast["ci_high"]
    kidney = document["items"][1]
    assert kidney["known_prevalence"] == 0
    for entry in kidney["by_condition"]:
        assert entry["versus_known"]["difference"] == entry["estimate"]
        assert entry["versus_known"]["ci_low"] <= 0 <= entry["versus_known"]["ci_high"]
    expected = stats.chisquare(ns)
    assert document["allocation"]["chi_square"] == pytest.approx(expected.statistic, abs=1e-9)
    assert document["allocation"]["p_value"] == pytest.approx(expected.pvalue, abs=1e-9)
    assert document["allocation"]["df"] == 2
    assert [item["id"] for item in document["items"]] == ["drugs", "kidney"]


def test_a_page_assigning_seventy_thirty_shows_in_the_allocation_check(
    app, client, token, import_survey
):
    data = copy.deepcopy(EXPERIMENT)
    data["conditions"] = data["conditions"][:2]
    for question in data["questions"][:2]:
        question["asked"] = {name: ASKED[name] for name in ("direct", "spin")}
    slug = import_survey(data)
    with app.app_context():
        simulate_responses(find_survey(slug), 3000, 0.3, seed=5, assign=[0.7, 0.3])
    allocation = api_get(client, token, f"surveys/{slug}/experiment").get_json()["allocation"]
    assert allocation["p_value"] < 1e-20


def test_a_condition_below_the_minimum_n_is_withheld(app, client, token, import_survey):
    slug = import_survey(copy.deepcopy(EXPERIMENT))
    app.config["RESULTS_MIN_N"] = 20
    with app.app_context():
        survey = find_survey(slug)
        survey.results_batch = 10
        db.session.commit()
        simulate_responses(find_survey(slug), 45, 0.3, seed=6, assign=[0.8, 0.1, 0.1])
    document = api_get(client, token, f"surveys/{slug}/experiment").get_json()
    shown = {
        e["condition"]: e["estimate"] is not None for e in document["items"][0]["by_condition"]
    }
    assert shown == {"direct": True, "spin": False, "cross": False}
    assert all(c["difference"] is None for c in document["items"][0]["contrasts"])


def test_a_survey_without_conditions_is_not_an_experiment(client, token, survey):
    response = api_get(client, token, f"surveys/{survey}/experiment")
    assert response.status_code == 409
    assert "no conditions" in response.get_json()["error"]


def test_the_page_says_it_is_an_experiment_and_how_each_question_is_asked(client, import_survey):
    data = copy.deepcopy(EXPERIMENT)
    data["consent"] = "You may stop at any time."
    slug = import_survey(data)
    page = client.get(f"/s/{slug}").get_data(as_text=True)
    assert "This survey is an experiment." in page
    assert "one of 3 groups" in page
    # Each condition's rows are hidden until the page draws the condition.
    assert page.count('data-condition="spin" hidden') == 2
    assert page.count('data-condition="direct" hidden') == 2
    assert "Answered directly: sent exactly as you choose." in page
    config = json.loads(page.split('id="survey-config">', 1)[1].split("</script>", 1)[0])
    assert config["conditions"] == EXPERIMENT["conditions"]
    rows = {
        q["id"]: (q.get("sentAs"), q.get("condition"), q.get("plain", False))
        for q in config["questions"]
    }
    assert rows["drugs@direct"] == ("drugs", "direct", True)
    assert rows["drugs@spin"] == ("drugs", "spin", False)
    assert rows["cheated"] == (None, None, False)
    # Three questions to a respondent, numbered 1 to 3 in every condition.
    assert page.count('<span class="number">2.</span>') == 3


def test_the_command_line_prints_the_experiment(runner, fielded_experiment, survey):
    table = runner.invoke(args=["experiment", fielded_experiment])
    assert table.exit_code == 0, table.output
    assert "an experiment of 3 conditions" in table.output
    assert "Allocation: chi-square" in table.output
    assert "kidney (known prevalence 0)" in table.output
    assert "spin - direct:" in table.output and "p(more) =" in table.output
    as_json = runner.invoke(args=["experiment", fielded_experiment, "--json"])
    assert json.loads(as_json.output)["items"][0]["id"] == "drugs"
    refused = runner.invoke(args=["experiment", survey])
    assert refused.exit_code == 1 and "no conditions" in refused.output


def test_the_responses_csv_starts_with_each_responses_condition(app, fielded_experiment):
    from web.core.results.exports import responses_csv

    with app.app_context():
        survey = find_survey(fielded_experiment)
        lines = "".join(responses_csv(survey, 10)).splitlines()
        counts = {q.key: q.published_n for q in survey.questions}
    assert (
        lines[0]
        == "condition,drugs@direct,drugs@spin,drugs@cross,kidney@direct,kidney@spin,kidney@cross,cheated"
    )
    rows = [line.split(",") for line in lines[1:]]
    for condition in ("direct", "spin", "cross"):
        mine = [row for row in rows if row[0] == condition]
        assert len(mine) == counts[f"drugs@{condition}"]
        at = lines[0].split(",").index(f"drugs@{condition}")
        others = [
            i
            for i, name in enumerate(lines[0].split(","))
            if "@" in name and not name.endswith(f"@{condition}")
        ]
        assert all(row[at] in ("0", "1") and all(row[i] == "" for i in others) for row in mine)


def test_the_dashboard_shows_the_experiment_beside_each_conditions_rows(
    fielded_experiment, make_researcher
):
    researcher = make_researcher("rita@example.org")
    page = researcher.get(f"/surveys/{fielded_experiment}").get_data(as_text=True)
    assert "Split-ballot experiment" in page
    assert "Allocation check against the declared shares" in page
    assert "known share 0%" in page
    assert page.count('class="condition-tag"') == 6
    assert "Asked directly (no randomizing, no ε): the answers as given, no ε." in page
    # No warning: the simulation assigns by the declared shares.
    assert "far from their declared shares" not in page


@no_database
def test_the_planner_gives_the_n_per_condition_and_the_power_at_n(client):
    query = {"procedure": "spinner_coin", "epsilon": 1, "baseline": 0.2, "lift": 0.1}
    plan = client.get("/api/plan/experiment", query_string=query).get_json()
    expected = rr.plan_experiment(rr.spinner_coin(1), 0.2, 0.1)
    assert plan["n_per_condition"] == expected.n_per_condition == 798
    assert plan["power"] is None
    at_n = client.get("/api/plan/experiment", query_string=query | {"n": 400}).get_json()
    assert at_n["power"] == pytest.approx(
        rr.plan_experiment(rr.spinner_coin(1), 0.2, 0.1, n=400).power
    )
    crosswise = {"procedure": "crosswise", "prevalence": 0.25, "baseline": 0.1, "lift": 0.05}
    assert (
        client.get("/api/plan/experiment", query_string=crosswise).get_json()["n_per_condition"] > 0
    )
    for bad in ({"lift": 0}, {"lift": 0.9}, {"power": 0.01, "alpha": 0.05}, {"n": 0}):
        response = client.get("/api/plan/experiment", query_string=query | bad)
        assert response.status_code == 400, bad
        assert "error" in response.get_json()


CHECK = {
    "id": "check_spin",
    "type": "direct",
    "text": "The spinner shows dark and the coin heads: what do you report?",
    "options": [{"id": "yes", "text": "Yes"}, {"id": "no", "text": "No"},
                {"id": "truth", "text": "My true answer"}],
    "correct": "yes",
    "asked": {"spin": {"procedure": "direct"}},
}  # fmt: skip


@pytest.fixture
def checked_experiment(app, import_survey):
    """EXPERIMENT with CHECK, and 3,000 simulated respondents; its slug."""
    data = copy.deepcopy(EXPERIMENT)
    data["questions"].append(CHECK)
    slug = import_survey(data)
    with app.app_context():
        simulate_responses(find_survey(slug), 3000, 0.3, seed=3)
    return slug


def test_a_comprehension_check_gives_its_pass_rate_and_the_estimate_among_those_who_passed(
    app, client, token, checked_experiment
):
    slug = checked_experiment
    document = api_get(client, token, f"surveys/{slug}/experiment").get_json()
    rows = stored_rows(app, slug)
    spin = [row for row in rows if "drugs@spin" in row]
    passed = [row for row in spin if row["check_spin@spin"] == "yes"]
    assert document["checks"] == [
        {"id": "check_spin", "condition": "spin", "correct": "yes", "n": len(spin),
         "passed": len(passed), "pass_rate": pytest.approx(len(passed) / len(spin), abs=1e-9),
         "ci_low": pytest.approx(stats.beta.ppf(0.025, len(passed), len(spin) - len(passed) + 1), abs=1e-9),
         "ci_high": pytest.approx(stats.beta.ppf(0.975, len(passed) + 1, len(spin) - len(passed)), abs=1e-9)},
    ]  # fmt: skip
    drugs = {entry["condition"]: entry for entry in document["items"][0]["by_condition"]}
    among = drugs["spin"]["among_passed"]
    yes = sum(row["drugs@spin"] for row in passed)
    expected = rr.spinner_coin(1.0).estimate(yes, len(passed))
    assert among["n"] == len(passed)
    assert among["estimate"] == pytest.approx(float(expected.estimate), abs=1e-9)
    # Conditions without a check have no such figure.
    assert drugs["direct"]["among_passed"] is None and drugs["cross"]["among_passed"] is None
    # The check is no item: it is asked in one condition.
    assert [item["id"] for item in document["items"]] == ["drugs", "kidney"]


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda q: q.update(correct="maybe"), "must be one of the question's option ids"),
        (lambda q: q.update(type="yesno", options=[], asked={"spin": {"procedure": "direct"}}),
         "only a direct question is a comprehension check"),
    ],
)  # fmt: skip
@no_database
def test_a_comprehension_checks_mistakes_are_named(app, change, expected):
    data = copy.deepcopy(EXPERIMENT)
    check = copy.deepcopy(CHECK)
    change(check)
    data["questions"].append(check)
    with app.app_context():
        found = problems_of(data)
    assert any("questions[3].correct" in p and expected in p for p in found), found


def test_the_dashboard_and_the_command_line_show_the_checks(
    runner, checked_experiment, make_researcher
):
    slug = checked_experiment
    page = make_researcher("rita@example.org").get(f"/surveys/{slug}").get_data(as_text=True)
    assert "Comprehension check check_spin in spin:" in page
    assert "Among those who passed its checks" in page
    table = runner.invoke(args=["experiment", slug]).output
    assert "Check check_spin in spin: passed" in table


@no_database
def test_the_lab_runs_a_split_ballot(client):
    page = client.get("/lab", query_string={"experiment_denial": 0.5, "experiment_n": 800})
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and 'id="experiment-table"' in html
    assert 'value="0.5"' in html and "Kidney question, with the spinner" in html
    figures = client.get(
        "/api/lab/experiment",
        query_string={"prevalence": 0.3, "denial": 0.5, "noncompliance": 0.1, "n": 800, "seed": 1},
    ).get_json()
    expected = rr.split_ballot(rr.spinner_coin(1.0), 0.3, 0.5, 0.1, 800, trials=1000, seed=1)
    assert figures["expected_direct"] == pytest.approx(0.15)
    assert figures["power"] == pytest.approx(expected.power)
    assert figures["randomized"]["estimate"] == pytest.approx(expected.randomized.estimate)
    assert client.get("/api/lab/experiment", query_string={"denial": 2}).status_code == 400
    assert client.get("/lab", query_string={"experiment_n": 5}).status_code == 400


def test_the_builder_edits_a_conditions_row_and_the_wording_of_every_row(
    app, import_survey, make_researcher
):
    slug = import_survey(copy.deepcopy(EXPERIMENT))
    researcher = make_researcher("rita@example.org")
    form = {"text": "Used any drug this year?", "key": "drugs@spin", "kind": "yesno",
            "epsilon": "2", "procedure": "spinner_coin", "options": ""}  # fmt: skip
    response = researcher.post(f"/surveys/{slug}/questions/drugs@spin", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)[-500:]
    with app.app_context():
        rows = {q.key: q for q in find_survey(slug).questions}
        assert [rows[f"drugs@{c}"].text for c in ("direct", "spin", "cross")] == [
            "Used any drug this year?"
        ] * 3
        assert (rows["drugs@spin"].epsilon, rows["drugs@spin"].condition) == (2.0, "spin")
        assert rows["drugs@direct"].procedure == "direct"
        assert rows["kidney@spin"].known_prevalence == 0


def test_an_experiment_is_duplicated_and_made_a_next_wave_with_its_conditions(
    app, fielded_experiment, make_researcher
):
    researcher = make_researcher("rita@example.org")
    for action in ("duplicate", "next-wave"):
        response = researcher.post(f"/surveys/{fielded_experiment}/{action}")
        assert response.status_code == 302, action
        copy_slug = response.headers["Location"].rstrip("/").split("/")[-2]
        with app.app_context():
            made = find_survey(copy_slug)
            assert made.condition_list == find_survey(fielded_experiment).condition_list
            assert [q.key for q in made.questions][:3] == [
                "drugs@direct",
                "drugs@spin",
                "drugs@cross",
            ]
            assert made.response_count == 0


def test_a_conditions_n_counts_its_responses_when_its_own_row_is_a_check(
    app, client, token, import_survey
):
    """A condition whose last (or only) own row is a direct check once had n 0 and a broken
    allocation check: each condition's n is its published responses, whatever rows it asks."""
    data = copy.deepcopy(EXPERIMENT)
    data["questions"].append(CHECK)
    slug = import_survey(data)
    with app.app_context():
        simulate_responses(find_survey(slug), 600, 0.3, seed=5)
    rows = stored_rows(app, slug)
    submitted = {condition: sum(f"drugs@{condition}" in row for row in rows) for condition in ASKED}
    assert sum(submitted.values()) == 600 and min(submitted.values()) > 150
    document = api_get(client, token, f"surveys/{slug}/experiment").get_json()
    assert {entry["id"]: entry["n"] for entry in document["conditions"]} == submitted
    expected = rr.allocation_check(list(submitted.values()), [1, 1, 1])
    assert document["allocation"]["p_value"] == pytest.approx(expected.p_value, rel=1e-3)
    assert document["allocation"]["p_value"] > 0.001


def test_a_skipped_check_counts_in_no_pass_rate_and_its_respondent_has_not_passed(
    app, client, token, import_in_batches
):
    data = copy.deepcopy(EXPERIMENT)
    data["questions"].append(CHECK)
    slug = import_in_batches(data, batch=1)
    answers = {"drugs": 1, "kidney": 0, "cheated": 1}
    bodies = [{"condition": "spin", "answers": answers | {"check_spin": "yes"}}] * 3
    bodies += [{"condition": "spin", "answers": answers}] * 2  # the check skipped
    bodies += [{"condition": "spin", "answers": answers | {"check_spin": "no"}}]
    for body in bodies:
        assert submit_answers(app.test_client(), slug, body).status_code == 201
    document = api_get(client, token, f"surveys/{slug}/experiment").get_json()
    (check,) = document["checks"]
    assert (check["n"], check["passed"]) == (4, 3)
    spin = next(entry for entry in document["conditions"] if entry["id"] == "spin")
    assert spin["n"] == 6
    drugs = {entry["condition"]: entry for entry in document["items"][0]["by_condition"]}
    assert drugs["spin"]["n"] == 6 and drugs["spin"]["among_passed"]["n"] == 3


@no_database
def test_a_gap_is_worded_by_its_sign_in_both_languages(app):
    """A negative gap once read "finds -22.4 points more"."""
    from web.workspace.experiment_panel import _gaps

    contrast = {"condition": "spin", "versus": "direct", "ci_low": -0.31, "ci_high": -0.138}
    fewer = {"contrasts": [contrast | {"difference": -0.224}]}
    more = {"contrasts": [contrast | {"difference": 0.224, "ci_low": 0.138, "ci_high": 0.31}]}
    with app.test_request_context():
        (less,) = _gaps(fewer)
        assert less.startswith("spin finds 22.4 points less than direct") and "-22.4" not in less
        assert _gaps(more)[0].startswith("spin finds 22.4 points more than direct")
    with app.test_request_context(headers={"Accept-Language": "ko"}):
        assert "22.4퍼센트포인트 덜 찾아냅니다" in _gaps(fewer)[0]
        assert "22.4퍼센트포인트 더 찾아냅니다" in _gaps(more)[0]
