"""Direct questions and results by group on the server: submission, counts per cell at each
publication, the grouped results API, the simulation by group, and deletion."""

from __future__ import annotations

import copy
import csv
import io
import json

import numpy as np
import pytest

import rr
from tests.conftest import stored_bits
from tests.helpers import api_get, bearer, submit_answers
from web.core.infrastructure.extensions import db
from web.core.models import GroupTally, Question

SURVEY = {
    "slug": "groups",
    "title": "By year",
    "questions": [
        {
            "id": "year",
            "type": "direct",
            "text": "Year of study?",
            "options": [{"id": "first", "text": "First"}, {"id": "fourth", "text": "Fourth"}],
        },
        {
            "id": "cheated",
            "type": "yesno",
            "text": "Cheated?",
            "epsilon": 1.0,
            "procedure": "spinner_coin",
        },
        {
            "id": "times",
            "type": "choice",
            "text": "How often?",
            "epsilon": 2.0,
            "procedure": "spinner",
            "options": [
                {"id": "never", "text": "Never"},
                {"id": "sometimes", "text": "Sometimes"},
                {"id": "often", "text": "Often"},
            ],
        },
    ],
}


@pytest.fixture
def grouped(import_in_batches):
    return import_in_batches(SURVEY, batch=3)


def submit(app, year, cheated, times="never"):
    body = {"answers": {"year": year, "cheated": cheated, "times": times}}
    return submit_answers(app.test_client(), "groups", body)


def results(app, token, by=None):
    query = {"by": by} if by else {}
    return api_get(app.test_client(), token, "surveys/groups/results", **query)


def test_a_direct_answer_is_stored_as_given_or_null(app, grouped):
    assert submit(app, "first", 1).status_code == 201
    assert submit(app, None, 0).status_code == 201
    for bad in ["second", 1, {"first": 1}, ""]:
        response = submit(app, bad, 0)
        assert response.status_code == 400 and "year" in response.json["error"]
    with app.app_context():
        stored = sorted((bits["year"] or "") for bits in stored_bits())
    assert stored == ["", "first"]


def test_a_direct_question_is_not_in_the_privacy_ledger(app, grouped, token):
    body = results(app, token).json
    assert body["epsilon_total"] == 3.0  # 1 for yes/no, 2 for the single choice, 0 for the year
    year = body["questions"][0]
    assert year["randomized"] is False and "epsilon" not in year and "procedure" not in year


def test_counts_per_group_move_only_with_the_published_snapshot(app, grouped, token):
    submit(app, "first", 1)
    submit(app, "fourth", 0)
    with app.app_context():
        published = db.select(db.func.sum(GroupTally.published_n))
        running = db.select(db.func.sum(GroupTally.n)).where(GroupTally.item_kind == "question")
        assert db.session.scalar(published) == 0  # not yet a batch, though they are counted
        assert db.session.scalar(running) == 2
    submit(app, "first", 1, "often")
    with app.app_context():
        cells = {
            (row.item_kind, json.loads(row.cell)["year"]): (row.published_n, row.published_yes)
            for row in db.session.scalars(
                db.select(GroupTally).where(GroupTally.item_kind == "question")
            )
        }
    assert cells == {("question", "first"): (2, 2), ("question", "fourth"): (1, 0)}


def test_results_by_group_withhold_small_groups_and_match_rr(app, grouped, token):
    for _ in range(3):
        submit(app, "first", 1)
    submit(app, "fourth", 0)
    submit(app, None, 1)
    submit(app, "first", 0, "often")  # six responses: two batches of three
    body = results(app, token, by="year").json
    assert body["by"] == "year"
    cheated = body["questions"][1]
    first, fourth = cheated["groups"]
    assert fourth == {"id": "fourth", "withheld": True}  # one respondent: below the minimum n of 2
    expected = rr.estimate_proportion(3, 4, 1.0, "spinner_coin")
    assert first["id"] == "first" and first["n"] == 4
    assert first["estimate"] == pytest.approx(expected.estimate) and first[
        "ci_low"
    ] == pytest.approx(expected.ci_low)
    times = body["questions"][2]["options"]
    choice = rr.estimate_choice([3, 0, 1], 2.0, "spinner")
    assert [option["groups"][0]["estimate"] for option in times] == pytest.approx(
        choice.estimate.tolist()
    )
    assert "groups" not in body["questions"][0]  # the direct question itself is not grouped


@pytest.mark.parametrize(
    ("by", "message"), [("nope", "no question 'nope'"), ("cheated", "is randomized")]
)
def test_grouping_by_anything_but_a_direct_question_is_a_400(app, grouped, token, by, message):
    response = results(app, token, by=by)
    assert response.status_code == 400 and message in response.json["error"]


def test_simulation_by_group_recovers_each_groups_prevalence(
    app, runner, grouped, token, seed_responses
):
    seed_responses("groups", 20000, by=("year", {"first": 0.1, "fourth": 0.4}), seed=4)
    groups = results(app, token, by="year").json["questions"][1]["groups"]
    for group, truth in zip(groups, [0.1, 0.4], strict=True):
        assert abs(group["n"] - 10000) < 4 * 70  # spread evenly: binomial(20000, ½) sd ≈ 71
        assert abs(group["estimate"] - truth) < 4.5 * group["std_error"]


@pytest.mark.parametrize(
    "by", ["cheated=first:0.1", "year=third:0.1", "year=first:2", "year=first"]
)
def test_a_bad_grouping_for_the_simulation_is_refused(runner, grouped, by):
    result = runner.invoke(
        args=["simulate-responses", "groups", "--n", "10", "--true-proportion-by", by]
    )
    assert result.exit_code != 0 and "--true-proportion-by" in result.output


def test_a_few_responses_then_a_bulk_simulation_count_every_cell_once(
    app, runner, grouped, seed_responses
):
    submit(app, "first", 1)
    seed_responses("groups", 50, seed=1)
    with app.app_context():
        rows = stored_bits()
        tallies = db.session.scalars(
            db.select(GroupTally).where(GroupTally.item_kind == "question")
        ).all()
        by_year = {json.loads(t.cell)["year"]: (t.published_n, t.published_yes) for t in tallies}
    for year in ("first", "fourth"):
        mine = [row for row in rows if row["year"] == year]
        assert by_year[year] == (len(mine), sum(row["cheated"] for row in mine))


def test_deleting_a_survey_deletes_its_counts_per_group(
    app, runner, grouped, make_researcher, seed_responses
):
    seed_responses("groups", 30, seed=1)
    researcher = make_researcher("rita@example.org")
    assert researcher.post("/surveys/groups/delete").status_code == 302
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(GroupTally)) == 0


def regression(app, token, **query):
    return api_get(app.test_client(), token, "surveys/groups/regression", **query)


def test_the_regression_api_fits_the_published_counts_per_group(
    app, runner, grouped, token, seed_responses
):
    by = ("year", {"first": 0.2, "fourth": 0.5})
    seed_responses("groups", 6000, seed=8, by=by)
    body = regression(app, token, item="cheated", on="year").json
    assert (
        body["n"] == 6000 and body["converged"] is True and body["reference"] == {"year": "first"}
    )
    terms = {c["term"]: c for c in body["coefficients"]}
    assert set(terms) == {"(intercept)", "year=fourth"}
    truth = np.log(0.5 / 0.5) - np.log(0.2 / 0.8)  # the log odds ratio of fourth- to first-years
    effect = terms["year=fourth"]
    assert abs(effect["estimate"] - truth) < 4.5 * effect["std_error"]
    assert effect["odds_ratio"] == pytest.approx(np.exp(effect["estimate"]))
    predicted = {entry["group"]["year"]: entry for entry in body["predicted"]}
    grouped_results = results(app, token, by="year").json["questions"][1]["groups"]
    for group in grouped_results:  # one covariate: the fit reproduces each group's own estimate
        assert predicted[group["id"]]["estimate"] == pytest.approx(group["estimate"], abs=1e-6)
    single = regression(app, token, item="times.often", on="year").json
    assert single["design"]["k"] == 3 and single["converged"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"item": "year", "on": "year"}, "not a randomized question"),
        ({"item": "times", "on": "year"}, "name one option of 'times'"),
        ({"item": "cheated", "on": "cheated"}, "is randomized"),
        ({"item": "cheated", "on": ""}, "on must name"),
        ({"item": "cheated.x", "on": "year"}, "has no options"),
    ],
)
def test_a_regression_that_cannot_be_asked_is_a_400(
    app, runner, grouped, token, query, message, seed_responses
):
    seed_responses("groups", 600, seed=1)
    response = regression(app, token, **query)
    assert response.status_code == 400 and message in response.json["error"]


def test_a_small_group_or_separation_is_refused_with_a_reason(app, grouped, token):
    for _ in range(3):
        submit(app, "first", 1)
    submit(app, "fourth", 0)
    submit(app, "first", 1)
    submit(app, "first", 1)
    response = regression(app, token, item="cheated", on="year")
    assert response.status_code == 400 and "fewer than 2 respondents" in response.json["error"]


def test_the_difference_api_gives_the_interval_and_p_value(
    app, runner, grouped, token, seed_responses
):
    by = ("year", {"first": 0.1, "fourth": 0.4})
    seed_responses("groups", 4000, seed=3, by=by)
    body = (
        app.test_client()
        .get(
            "/api/surveys/groups/difference",
            query_string={"item": "cheated", "by": "year", "groups": "fourth,first"},
            headers=bearer(token),
        )
        .json
    )
    assert body["ci_low"] < 0.3 < body["ci_high"] and body["p_value"] < 1e-6
    groups = {g["id"]: g for g in results(app, token, by="year").json["questions"][1]["groups"]}
    assert body["difference"] == pytest.approx(
        groups["fourth"]["estimate"] - groups["first"]["estimate"]
    )
    assert body["n"] == [groups["fourth"]["n"], groups["first"]["n"]] and "MOVER" in body["method"]
    bad = app.test_client().get(
        "/api/surveys/groups/difference",
        query_string={"item": "cheated", "by": "year", "groups": "fourth"},
        headers=bearer(token),
    )
    assert bad.status_code == 400 and "two options" in bad.json["error"]


def test_the_command_line_prints_groups_and_a_regression(app, runner, grouped, seed_responses):
    by = ("year", {"first": 0.2, "fourth": 0.5})
    seed_responses("groups", 3000, seed=5, by=by)
    table = runner.invoke(args=["results", "groups", "--by", "year"])
    assert table.exit_code == 0 and "estimates by year" in table.output
    assert any(line.split()[:2] == ["cheated", "first"] for line in table.output.splitlines())
    fit = runner.invoke(args=["regress", "groups", "cheated", "--on", "year"])
    assert fit.exit_code == 0 and "year=fourth" in fit.output and "odds ratio" in fit.output
    bad = runner.invoke(args=["regress", "groups", "cheated", "--on", "cheated"])
    assert bad.exit_code == 1 and "is randomized" in bad.output
    assert runner.invoke(args=["results", "groups", "--by", "nope"]).exit_code == 1


def test_the_codebook_names_each_design_in_the_literatures_words(
    app, runner, grouped, make_researcher, seed_responses
):
    seed_responses("groups", 60, seed=2)
    book = make_researcher("rita@example.org").get("/surveys/groups/codebook.json").json
    year, cheated, times = book["questions"]
    assert year["randomized"] is False and "not protected by epsilon" in year["note"]
    assert cheated["design"] == "forced response"
    assert cheated["p_forced_yes"] == pytest.approx((1 - cheated["p_truth"]) / 2)
    assert times["k"] == 3 and "other options" in times["dark"]
    csv_text = (
        make_researcher("ada2@example.org")
        .get("/surveys/groups/responses.csv")
        .get_data(as_text=True)
    )
    assert csv_text.splitlines()[0] == "year,cheated,times"


def test_the_analysis_page_shows_groups_difference_and_regression(
    app, runner, grouped, make_researcher, seed_responses
):
    by = ("year", {"first": 0.2, "fourth": 0.5})
    seed_responses("groups", 3000, seed=6, by=by)
    researcher = make_researcher("rita@example.org")
    assert "/surveys/groups/groups" in researcher.get("/surveys/groups").get_data(as_text=True)
    html = researcher.get("/surveys/groups/groups?by=year&item=cheated&a=fourth&b=first").get_data(
        as_text=True
    )
    assert html.count('<tr data-group="') == 2 and 'class="chart chart-wide"' in html
    assert 'id="difference"' in html and "Fourth minus First" in html
    assert 'id="coefficients"' in html and "year=fourth" in html
    choice = researcher.get("/surveys/groups/groups?by=year&item=times.often").get_data(
        as_text=True
    )
    assert 'id="coefficients"' in choice


def test_the_estimates_csv_by_group(app, runner, grouped, make_researcher, seed_responses):
    by = ("year", {"first": 0.2, "fourth": 0.5})
    seed_responses("groups", 400, seed=7, by=by)
    researcher = make_researcher("rita@example.org")
    text = researcher.get("/surveys/groups/estimates.csv?by=year").get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    cheated = [row for row in rows if row["question"] == "cheated"]
    assert [row["group"] for row in cheated] == ["first", "fourth"]
    assert all(row["by"] == "year" and float(row["n"]) > 150 for row in cheated)
    assert (
        len([row for row in rows if row["question"] == "times"]) == 6
    )  # three options, two groups
    assert researcher.get("/surveys/groups/estimates.csv?by=cheated").status_code == 400


def test_the_privacy_note_names_the_exception_only_when_there_is_one(app, client, grouped, survey):
    with_direct = client.get("/s/groups").get_data(as_text=True)
    without = client.get(f"/s/{survey}").get_data(as_text=True)
    assert "questions marked “answered directly” have no spinner" in with_direct
    assert "have no spinner" not in without and "are the exception" not in without


def test_the_regression_takes_a_chosen_reference_group(app, runner, grouped, token, seed_responses):
    by = ("year", {"first": 0.2, "fourth": 0.5})
    seed_responses("groups", 6000, seed=9, by=by)
    default = regression(app, token, item="cheated", on="year").json
    flipped = regression(app, token, item="cheated", on="year", reference="year:fourth").json
    assert flipped["reference"] == {"year": "fourth"}
    assert flipped["coefficients"][1]["term"] == "year=first"
    assert flipped["coefficients"][1]["estimate"] == pytest.approx(
        -default["coefficients"][1]["estimate"], abs=1e-6
    )
    assert [p["group"]["year"] for p in flipped["predicted"]] == ["first", "fourth"]
    for bad, message in [("year:third", "not a group with respondents"), ("cheated:x", "not on")]:
        response = regression(app, token, item="cheated", on="year", reference=bad)
        assert response.status_code == 400 and message in response.json["error"]
    cli = runner.invoke(
        args=["regress", "groups", "cheated", "--on", "year", "--reference", "year:fourth"]
    )
    assert (
        cli.exit_code == 0 and "year=first" in cli.output and "reference: year=fourth" in cli.output
    )


def test_a_direct_answer_chosen_by_a_small_group_is_withheld_everywhere(
    app, grouped, token, make_researcher
):
    app.config["RESULTS_MIN_N"] = 3
    for _ in range(5):
        submit(app, "first", 0)
    submit(app, "fourth", 1)  # one fourth-year: a group of 1
    year = results(app, token).json["questions"][0]
    first, fourth = year["options"]
    assert first["count"] == 5 and fourth == {
        "id": "fourth",
        "text": "Fourth",
        "n": 6,
        "withheld": True,
    }
    researcher = make_researcher("rita@example.org")
    dashboard = researcher.get("/surveys/groups").get_data(as_text=True)
    assert "fewer than 3" in dashboard
    rows = list(
        csv.DictReader(
            io.StringIO(researcher.get("/surveys/groups/estimates.csv").get_data(as_text=True))
        )
    )
    fourth_row = next(
        row for row in rows if row["question"] == "year" and row["option"] == "fourth"
    )
    assert fourth_row["noisy_yes"] == "" and fourth_row["estimate"] == ""


def test_the_page_says_who_sees_a_direct_answer_as_the_exports_give_it(app, client, grouped, token):
    """The page once promised a direct answer was "shown only in groups of at least 10", while
    the responses CSV gives it row by row beside the same response's reports: both now say the
    researcher receives it as given, with the rest of the response."""
    page = " ".join(client.get("/s/groups").get_data(as_text=True).split())
    assert "shown only in groups" not in page
    for promise in (
        "The researcher receives it exactly as given, together with the other answers of your "
        "response",
        "the researcher receives it as you give it, with the rest of your response",
        f"Published results show it only in groups of at least {app.config['RESULTS_MIN_N']}",
    ):
        assert promise in page
    for year in ["first", "fourth"] * 6:  # two whole batches of 3
        assert submit(app, year, 1, "often").status_code == 201
    response = client.get("/api/surveys/groups/responses.csv", headers=bearer(token))
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    # Row by row: the direct answer as given, beside the same response's reports.
    assert sorted(row["year"] for row in rows) == ["first"] * 6 + ["fourth"] * 6
    assert all(row["cheated"] in {"0", "1"} and row["times"] == "often" for row in rows)


def test_a_number_asked_directly_is_a_covariate_of_the_regression(
    app, import_survey, token, seed_responses, researcher
):
    survey = copy.deepcopy(SURVEY) | {"slug": "aged"}
    survey["questions"].append({"id": "age", "type": "number", "procedure": "direct",
                                "text": "Age?", "min": 18, "max": 60})  # fmt: skip
    import_survey(survey)
    seed_responses("aged", 3000, seed=3)
    body = api_get(app.test_client(), token, "surveys/aged/regression", item="cheated",
                   on="year,age").json  # fmt: skip
    terms = {c["term"]: c for c in body["coefficients"]}
    assert set(terms) == {"(intercept)", "year=fourth", "age"}
    # The same model fitted here from each stored response: one row per respondent.
    with app.app_context():
        stored = stored_bits()
        question = db.session.scalar(db.select(Question).where(Question.key == "cheated"))
        line = question.type.line_of(question)
    rows = [[1.0, float(bits["year"] == "fourth"), float(bits["age"])] for bits in stored]
    fit = line.regression(rows, [1] * len(rows), [bits["cheated"] for bits in stored],
                          terms=["(intercept)", "year=fourth", "age"])  # fmt: skip
    assert body["n"] == fit.n == 3000
    for mine in fit.coefficients:
        assert terms[mine.term]["estimate"] == pytest.approx(mine.estimate, rel=1e-3, abs=1e-4)
    # Nothing ties cheating to age in the simulation: the slope is near 0.
    assert abs(terms["age"]["estimate"]) < 4.5 * terms["age"]["std_error"]
    mean_age = sum(row[2] for row in rows) / len(rows)
    assert body["at"]["age"] == pytest.approx(mean_age, rel=1e-3)
    assert [entry["group"] for entry in body["predicted"]] == [
        {"year": "first"},
        {"year": "fourth"},
    ]
    page = researcher.get("/surveys/aged/groups?by=year&item=cheated&adjust=age").get_data(
        as_text=True
    )
    assert 'name="adjust" value="age" checked' in page
    coefficients = page.split('id="coefficients"')[1].split("</table>")[0]
    assert '<th scope="row">age</th>' in coefficients
    shown_mean = f"{mean_age:.2f}".rstrip("0").rstrip(".")
    assert f"predicted at the numbers' means: age = {shown_mean}." in page


def test_the_randomized_answers_list_each_item_once(app, import_survey, researcher):
    from tests.web.core.results.test_order_effects import SPLIT_PAGE
    from tests.web.core.surveys.designs.test_designs import ARMS

    survey = copy.deepcopy(SPLIT_PAGE) | {"slug": "listed"}
    survey["conditions"].append({"id": "cross", "share": 1})
    survey["questions"][0]["asked"]["cross"] = {"procedure": "spinner", "epsilon": 2}
    survey["pages"][0]["questions"] += ["year", "ch"]
    survey["questions"] += [SURVEY["questions"][0], {"id": "ch", "type": "yesno", "text": "Ch?",
                            "procedure": "cheating_detection", "arms": ARMS}]  # fmt: skip
    import_survey(survey)
    page = researcher.get("/surveys/listed/groups").get_data(as_text=True)
    listed = page.split('<select id="item"')[1].split("</select>")[0]
    values = [part.split('"')[0] for part in listed.split('value="')[1:]]
    # The direct condition's answers are not a randomized answer; cheating detection's arm is
    # part of its question's estimate; two conditions that randomize are each named.
    assert values == ["exam@spin", "exam@cross", "drugs.alcohol", "drugs.tobacco", "s1", "ch"]
    assert "Cheated in an exam? · condition cross" in listed


def test_a_reason_both_analyses_are_refused_for_is_said_once(app, grouped, researcher):
    for _ in range(3):
        submit(app, "first", 1)
    submit(app, "fourth", 0)
    submit(app, "first", 1)
    submit(app, "first", 1)
    page = researcher.get("/surveys/groups/groups?by=year&item=cheated").get_data(as_text=True)
    # The difference and the regression are refused for one small group: one notice says it.
    assert page.count('class="notice analysis-problem"') == 1
    assert "fewer than 2 respondents" in page


def test_the_builders_warning_counts_the_groups_the_analysis_compares(
    app, import_survey, researcher
):
    survey = copy.deepcopy(SURVEY) | {"slug": "warned"}
    survey["questions"].insert(1, {"id": "gender", "type": "direct", "text": "Gender?",
                                   "options": [{"id": k, "text": k} for k in "fmox"]})  # fmt: skip
    import_survey(survey)
    app.config["RESULTS_MIN_N"] = 15
    warning = researcher.get("/surveys/warned/edit").get_data(as_text=True)
    warning = warning.split('id="group-warning">')[1].split("</p>")[0]
    # One direct question at a time: the widest has 4 groups (not 2 × 4 = 8 cells).
    assert "“Gender?” splits respondents into 4 groups" in warning
    assert "about 60 respondents in all (with 40 respondents, groups of about 10)" in warning
