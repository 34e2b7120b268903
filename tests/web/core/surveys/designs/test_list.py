"""The list experiment end to end on the server: file, checks, submission, results API (the
difference in means, the ML fit, the design-effect test, the answers given away), exports and
codebook."""

from __future__ import annotations

import copy
import csv
import io
import json

import numpy as np
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

CONTROLS = [
    {"id": "cinema", "text": "Went to the cinema"},
    {"id": "marathon", "text": "Ran a marathon"},
    {"id": "museum", "text": "Visited a museum"},
]
SURVEY = {
    "slug": "listed",
    "title": {"en": "Listed", "ko": "목록"},
    "languages": ["en", "ko"],
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
            "id": "drove",
            "type": "list",
            "text": {
                "en": "How many of these did you do last year?",
                "ko": "작년에 다음 중 몇 가지를 했습니까?",
            },
            "controls": [
                {"id": item["id"], "text": {"en": item["text"], "ko": f"항목 {index}"}}
                for index, item in enumerate(CONTROLS, 1)
            ],
            "sensitive": {"text": {"en": "Drove after drinking", "ko": "음주 후 운전"}},
        },
    ],
}


def submit(app, answers):
    return app.test_client().post("/api/surveys/listed/responses", json={"answers": answers})


def problems(question: dict) -> list[str]:
    data = copy.deepcopy(SURVEY)
    data["questions"][1] = question
    try:
        parse_survey(data)
    except Exception as error:  # SurveyFileError
        return [str(problem) for problem in error.problems]
    return []


LIST = SURVEY["questions"][1]


@no_database
@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"controls": CONTROLS[:1]}, "controls: a list needs 2 to 10 control items, got 1"),
        ({"controls": [*CONTROLS, CONTROLS[0]]}, "duplicate item id 'cinema'"),
        ({"sensitive": None}, "sensitive.text"),
        ({"epsilon": 1}, "epsilon: a list experiment has no epsilon bound"),
        ({"options": [{"id": "a", "text": "A"}]}, "control items (controls), not options"),
        ({"procedure": "spinner"}, "unknown procedure 'spinner' (use 'list')"),
    ],
)
def test_a_list_is_refused_with_the_reason(app, change, expected):
    question = {name: value for name, value in (LIST | change).items() if value is not None}
    with app.app_context():
        found = problems(question)
    assert any(expected in problem for problem in found), found


@no_database
def test_controls_belong_to_a_list_only(app):
    yesno = {"id": "q", "type": "yesno", "text": "Q?", "epsilon": 1, "controls": CONTROLS}
    with app.app_context():
        assert "questions[1].controls: only a list experiment has 'controls'" in problems(yesno)


@no_database
def test_the_file_round_trips_and_states_no_epsilon(app):
    with app.app_context():
        spec = parse_survey(copy.deepcopy(SURVEY))
        assert parse_survey(json.loads(spec.to_json())) == spec
        written = json.loads(spec.to_json())["questions"][1]
    assert "epsilon" not in written and written["procedure"] == "list"
    assert [item["id"] for item in written["controls"]] == ["cinema", "marathon", "museum"]


@pytest.mark.parametrize(
    "bad",
    [
        2,
        {"arm": "treatment"},
        {"arm": "long", "count": 1},
        {"arm": "control", "count": 4},
        {"arm": "treatment", "count": 5},
        {"arm": "control", "count": -1},
        {"arm": "control", "count": 1.5},
        {"arm": "control", "count": True},
        {"arm": "control", "count": 1, "items": ["cinema"]},
    ],
)
def test_an_answer_is_its_list_and_count_and_nothing_else(app, listed, bad):
    refused = submit(app, {"year": "first", "drove": bad})
    assert refused.status_code == 400 and "'drove'" in refused.json["error"], bad
    with app.app_context():
        assert find_survey("listed").response_count == 0


def test_the_longest_count_of_each_list_is_taken(app, listed):
    assert (
        submit(app, {"year": "first", "drove": {"arm": "control", "count": 3}}).status_code == 201
    )
    assert (
        submit(app, {"year": "first", "drove": {"arm": "treatment", "count": 4}}).status_code == 201
    )
    assert submit(app, {"year": "first", "drove": None}).status_code == 201


# Each list's counts: the short list's frequencies of 0…3, the long list's of 0…4.
SHORT = [1, 3, 2, 1]
LONG = [1, 1, 3, 2, 2]  # 16 in all: results move every 2


def submit_counts(app):
    for arm, frequencies in (("control", SHORT), ("treatment", LONG)):
        for count, times in enumerate(frequencies):
            for _ in range(times):
                body = {"year": "first", "drove": {"arm": arm, "count": count}}
                assert submit(app, body).status_code == 201


def test_results_give_every_figure_of_rr(app, listed, token):
    submit_counts(app)
    document = api_get(app.test_client(), token, "surveys/listed/results").json
    assert [question["id"] for question in document["questions"]] == ["year"]
    assert "drove" in document["epsilon_unbounded"]
    (entry,) = document["lists"]
    model = rr.list_experiment(3)
    expected = model.estimate(SHORT, LONG)
    assert entry["epsilon"] is None and entry["controls"] == 3 and entry["n"] == 16
    assert entry["frequencies"] == {"control": SHORT, "treatment": LONG}
    for name in ("estimate", "std_error", "ci_low", "ci_high", "ceiling", "floor"):
        assert entry[name] == pytest.approx(getattr(expected, name)), name
    assert entry["ml"]["estimate"] == pytest.approx(expected.ml.estimate)
    assert entry["ml"]["log_likelihood"] == pytest.approx(expected.ml.log_likelihood)
    assert entry["design_effect"]["p_value"] == pytest.approx(
        model.design_effect(SHORT, LONG).p_value
    )
    assert entry["by_arm"] == [
        {"arm": "control", "n": 7, "mean": pytest.approx(expected.by_arm[0].mean)},
        {"arm": "treatment", "n": 9, "mean": pytest.approx(expected.by_arm[1].mean)},
    ]
    assert (entry["ceiling"], entry["floor"]) == (2, 1)


def test_results_are_withheld_below_the_minimum_n(app, listed, token):
    app.config["RESULTS_MIN_N"] = 20
    submit_counts(app)
    (entry,) = api_get(app.test_client(), token, "surveys/listed/results").json["lists"]
    assert entry["withheld"] is True
    assert not {"frequencies", "estimate", "n", "ceiling"} & set(entry)


def test_exports_and_codebook_carry_the_list_and_its_count(app, listed, make_researcher):
    submit_counts(app)
    researcher = make_researcher("rita@example.org")
    rows = list(csv.reader(io.StringIO(
        researcher.get("/surveys/listed/responses.csv").get_data(as_text=True))))  # fmt: skip
    assert rows[0] == ["year", "drove.arm", "drove.count"]
    cells = sorted((row[1], int(row[2])) for row in rows[1:])
    assert cells.count(("treatment", 4)) == 2 and cells.count(("control", 0)) == 1
    book = json.loads(researcher.get("/surveys/listed/codebook.json").get_data(as_text=True))
    entry = book["questions"][1]
    assert entry["epsilon"] is None and entry["J"] == 3 and entry["procedure"] == "list"
    assert entry["columns"] == ["drove.arm", "drove.count"]
    assert 'list::ictreg(y ~ 1, data = l, treat = "treat", J = 3, method = "ml")' in entry["R"]
    assert entry["controls"]["museum"] == {"en": "Visited a museum", "ko": "항목 3"}


def test_the_estimates_csv_has_the_lists_row(app, listed, make_researcher):
    submit_counts(app)
    researcher = make_researcher("rita@example.org")
    text = researcher.get("/surveys/listed/estimates.csv").get_data(as_text=True)
    row = next(row for row in csv.DictReader(io.StringIO(text)) if row["question"] == "drove")
    expected = rr.list_experiment(3).estimate(SHORT, LONG)
    assert (row["type"], row["procedure"], row["epsilon"], row["n"]) == ("list", "list", "", "16")
    assert float(row["estimate"]) == pytest.approx(expected.estimate, rel=1e-6)
    assert float(row["ci_high"]) == pytest.approx(expected.ci_high, rel=1e-6)
    assert row["text_ko"] == "작년에 다음 중 몇 가지를 했습니까?"


def test_the_methods_paragraph_says_how_the_list_was_asked_and_estimated(app, listed, token):
    submit_counts(app)
    methods = api_get(app.test_client(), token, "surveys/listed/methods").json
    text = methods["markdown"]
    assert "“How many of these did you do last year?”, 3 control items" in text
    assert "“Drove after drinking”" in text and "no ε bound" in text
    assert "randomized response (Warner 1965)" not in text
    assert "Imai, K. (2011)" in text and "Blair, G., & Imai, K. (2012)" in text


def test_the_plans_give_the_lists_margin_and_a_split_ballots_n(client):
    plan = client.get("/api/plan?procedure=list&controls=4&n=1000").json
    assert plan["epsilon"] is None and plan["bounded"] is False and plan["controls"] == 4
    assert plan["margin_of_error"] == pytest.approx(rr.list_experiment(4).margin_of_error(1000))
    refused = client.get("/api/plan?procedure=list&controls=1&n=10")
    assert refused.status_code == 400 and "2 to 10 control items" in refused.json["error"]
    query = "procedure=list&controls=3&baseline=0.2&lift=0.1&n=500"
    split = client.get(f"/api/plan/experiment?{query}").json
    expected = rr.plan_experiment(rr.list_experiment(3), 0.2, 0.1)
    assert split["n_per_condition"] == expected.n_per_condition and split["epsilon"] is None
    assert split["power"] == pytest.approx(
        rr.plan_experiment(rr.list_experiment(3), 0.2, 0.1, n=500).power
    )
    assert (
        client.get("/api/plan/experiment?procedure=list&baseline=0.2&lift=0.1").status_code == 400
    )


def test_the_builder_adds_a_list_and_a_yes_no_question_asked_as_one(app, researcher):
    researcher.post("/surveys/new", data={"title": "Draft", "slug": "", "description": ""})
    form = {"text": "How many of these have you done?", "key": "done", "kind": "list"}
    form |= {"procedure": "spinner_coin", "controls": "Voted\nRecycled", "sensitive": ""}
    html = researcher.post("/surveys/draft/questions/new", data=form).get_data(as_text=True)
    assert 'id="sensitive-errors"' in html
    form |= {"controls": "Voted", "sensitive": "Cheated on taxes"}
    html = researcher.post("/surveys/draft/questions/new", data=form).get_data(as_text=True)
    assert 'id="controls-errors"' in html and "2 to 10 control items" in html
    form["controls"] = "Voted\nRecycled\nDonated blood"
    assert researcher.post("/surveys/draft/questions/new", data=form).status_code == 302
    yesno = {"text": "Cheated on an exam", "key": "exam", "kind": "yesno", "procedure": "list"}
    yesno |= {"controls": "Read a book\nWent abroad", "control_ids": "book\nabroad"}
    assert researcher.post("/surveys/draft/questions/new", data=yesno).status_code == 302
    with app.app_context():
        done, exam = find_survey("draft").questions
        assert (done.procedure, [row.key for row in done.design.controls]) == (
            "list", ["voted", "recycled", "donated_blood"])  # fmt: skip
        assert dict(done.design.sensitive_text) == {"en": "Cheated on taxes"}
        assert (exam.kind, exam.procedure, exam.type.name) == ("yesno", "list", "yesno")
        assert [row.key for row in exam.design.controls] == ["book", "abroad"]
        assert not exam.design.sensitive_text
    edit = researcher.get("/surveys/draft/questions/done").get_data(as_text=True)
    assert "Voted\nRecycled\nDonated blood</textarea>" in edit
    assert "Cheated on taxes</textarea>" in edit


@no_database
def test_an_xlsform_holds_the_list_as_an_integer_with_its_items_in_the_choices(app):
    import openpyxl

    with app.app_context():
        spec = parse_survey(copy.deepcopy(SURVEY))
        raw = survey_xlsform(spec)
        assert load_xlsform(raw) == spec
        book = openpyxl.load_workbook(io.BytesIO(raw))
        header, *rows = book["survey"].iter_rows(values_only=True)
        row = dict(zip(header, next(row for row in rows if row[1] == "drove"), strict=True))
        assert (row["type"], row["rr_procedure"], row["rr_controls"]) == (
            "integer", "list", "drove_controls")  # fmt: skip
        assert row["rr_sensitive::English (en)"] == "Drove after drinking"
        sheet = book["survey"]
        column = header.index("rr_controls") + 1
        number = next(index for index, each in enumerate(rows, 2) if each[1] == "drove")
        sheet.cell(number, column).value = "missing"
        buffer = io.BytesIO()
        book.save(buffer)
        with pytest.raises(SurveyFileError) as refused:
            load_xlsform(buffer.getvalue())
    assert "names its control items' list of the choices sheet in rr_controls" in str(
        refused.value.problems
    )


def test_the_command_line_prints_the_lists_figures(app, listed, runner):
    submit_counts(app)
    output = runner.invoke(args=["results", "listed"]).output
    expected = rr.list_experiment(3).estimate(SHORT, LONG)
    assert "List experiments (no epsilon bound)" in output
    line = next(line for line in output.splitlines() if line.startswith("drove "))
    assert f"{expected.estimate:.1%}" in line and "2 / 1" in line
    assert f"{expected.by_arm[1].mean:.2f} (9)" in line


def test_the_dashboard_and_the_projector_show_the_lists_estimate(app, listed, researcher):
    submit_counts(app)
    dashboard = researcher.get("/surveys/listed").get_data(as_text=True)
    card = dashboard.split('class="result list-result"')[1].split("</article>")[0]
    expected = rr.list_experiment(3).estimate(SHORT, LONG)
    assert "Drove after drinking" in card and "<svg" in card
    assert "Test for design effects" in card and "No sign that adding the sensitive item" in card
    assert "2 respondents of the long list said every item applies" in card
    projector = researcher.get("/surveys/listed/present/panel").get_data(as_text=True)
    slide = projector.split('class="present-result present-list"')[1].split("</article>")[0]
    assert "Drove after drinking" in slide and "<svg" in slide
    assert "2 said every item of the longer list, 1 said none" in slide
    assert f"{expected.estimate * 100:.1f}%" in slide


@pytest.mark.parametrize("kind", ["sav", "dta"])
def test_the_spss_and_stata_files_code_the_list_and_keep_the_count(app, listed, researcher, kind):
    from tests.web.core.results.test_labelled_files import read

    submit_counts(app)
    data, meta = read(researcher.get(f"/surveys/listed/responses.{kind}").data, kind)
    assert sorted(data["drove_arm"]) == [0] * 7 + [1] * 9
    assert sorted(data["drove_count"]) == sorted(
        count for frequencies in (SHORT, LONG) for count, times in enumerate(frequencies)
        for _ in range(times)
    )  # fmt: skip
    labels = meta.variable_value_labels["drove_arm"]
    assert (labels[0], labels[1]) == ("control (short list)", "treatment (long list)")


def submit_by_year(app, seed: int) -> list[tuple]:
    """200 respondents (results move every 2: all published), the item held by 30% of first
    years and 60% of fourth years, three control items held with ½; (year, arm, count) each."""
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(200):  # results move every 2: all published
        year = ("first", "fourth")[rng.integers(2)]
        arm = int(rng.integers(2))
        held = rng.random() < (0.3 if year == "first" else 0.6)
        count = int(rng.binomial(3, 0.5)) + arm * int(held)
        body = {"year": year, "drove": {"arm": ("control", "treatment")[arm], "count": count}}
        assert submit(app, body).status_code == 201
        rows.append((year, arm, count))
    return rows


def test_the_regression_is_ictregs_ml_model_on_the_direct_questions(app, listed, token, runner):
    # A seed whose fit is inside the space: with a few hundred respondents, ML can run off to
    # the boundary (a coefficient of ±18 with no standard error), as ictreg's does.
    rows = submit_by_year(app, 6)
    fit = api_get(app.test_client(), token, "surveys/listed/regression", item="drove", on="year")
    assert fit.status_code == 200, fit.json
    found = fit.json
    expected = rr.list_regression(
        3, [count for *_, count in rows], [arm == 1 for _, arm, _ in rows],
        [[1.0, float(year == "fourth")] for year, *_ in rows], ["(intercept)", "year=fourth"],
    )  # fmt: skip
    assert (
        found["model"] == "list" and found["n"] == 200 and found["reference"] == {"year": "first"}
    )
    assert found["at_boundary"] is False
    for mine, theirs in zip(found["coefficients"], expected.sensitive, strict=True):
        assert mine["term"] == theirs.name
        # The published rows come in another order: EM's last steps and the numerical Hessian
        # differ in their sixth digits.
        assert mine["estimate"] == pytest.approx(theirs.estimate, rel=1e-5)
        assert mine["std_error"] == pytest.approx(theirs.std_error, rel=1e-4)
    predicted = {entry["group"]["year"]: entry["estimate"] for entry in found["predicted"]}
    assert predicted["fourth"] == pytest.approx(expected.share([1.0, 1.0]), rel=1e-5)
    refused = api_get(app.test_client(), token, "surveys/listed/regression", item="drove", on="")
    assert refused.status_code == 400
    printed = runner.invoke(args=["regress", "listed", "drove", "--on", "year"])
    assert printed.exit_code == 0, printed.output
    assert "holds the sensitive item" in printed.output and "list B" not in printed.output
    assert f"{expected.sensitive[1].estimate:.3f}" in printed.output


def test_a_regression_run_off_to_the_boundary_says_so(app, listed, token):
    submit_by_year(app, 8)  # this sample's fit runs off to the edge
    found = api_get(app.test_client(), token, "surveys/listed/regression", item="drove", on="year")
    assert found.json["at_boundary"] is True


def test_every_page_that_shows_the_surveys_total_says_the_list_is_left_out(
    app, listed, researcher, client, runner, tmp_path
):
    """The survey list, the builder, the respondent's page and the import command: the total ε
    holds no list, and each says so (with a reason true of a list: a count of every item or of
    none is never randomized), where they once gave the lie detector's reason alone, or nothing."""
    row = researcher.get("/surveys").get_data(as_text=True).split('data-slug="listed"')[1]
    assert "+ 1 with no ε bound" in row.split("</tr>")[0]
    for page, said in (
        (researcher.get("/surveys/listed/edit"), "ε = 0. Questions with no ε bound are left out "
         "of it (1 here: drove)"),
        (client.get("/s/listed"), "Questions with no ε bound are left out of it (1 here)"),
    ):  # fmt: skip
        text = page.get_data(as_text=True)
        assert said in text and "a count of every item or of none" in text
    copy = tmp_path / "copy.json"
    copy.write_text(json.dumps(SURVEY | {"slug": "listed-again"}), encoding="utf-8")
    imported = runner.invoke(args=["import-survey", str(copy)]).output
    assert "total epsilon 0 (leaving out drove: no epsilon bound)." in imported
