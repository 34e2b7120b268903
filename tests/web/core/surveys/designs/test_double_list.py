"""A double list experiment end to end on the server: the file's second list, the answer's arm
and two counts, the results API's mean of the two lists with each list's figures, the exports and
the codebook's R."""

from __future__ import annotations

import copy
import csv
import io
import json

import numpy as np
import pytest

import rr
from tests.helpers import api_get
from web.core.results.list_groups import list_by_group
from web.core.surveys.lookup import find_survey
from web.core.surveys.surveyfile import parse_survey
from web.core.surveys.xlsform.read import load_xlsform
from web.core.surveys.xlsform.write import survey_xlsform

pytestmark = pytest.mark.imported(batch=2)

SURVEY = {
    "slug": "doubled",
    "title": "Doubled",
    "questions": [
        {
            "id": "drove",
            "type": "list",
            "text": "How many of these did you do last year?",
            "controls": [
                {"id": name, "text": name.title()} for name in ("cinema", "museum", "zoo")
            ],
            "controls_b": [{"id": name, "text": name.title()} for name in ("gym", "library")],
            "sensitive": {"text": "Drove after drinking"},
        }
    ],
}
# (arm, count of A, count of B) of each respondent: the sensitive item is in A for arm a.
ANSWERS = [("a", 2, 1), ("a", 4, 0), ("a", 1, 2), ("a", 3, 1), ("a", 0, 0),
           ("b", 1, 3), ("b", 2, 1), ("b", 3, 2), ("b", 0, 1), ("b", 2, 0)]  # fmt: skip


def submit(app, answer):
    return app.test_client().post(
        "/api/surveys/doubled/responses", json={"answers": {"drove": answer}}
    )


def test_the_file_round_trips_with_its_second_list(app):
    with app.app_context():
        spec = parse_survey(copy.deepcopy(SURVEY))
        assert parse_survey(json.loads(spec.to_json())) == spec
        assert load_xlsform(survey_xlsform(spec)) == spec
        assert [row.key for row in spec.questions[0].design.controls_b] == ["gym", "library"]


@pytest.mark.parametrize(
    "bad",
    [
        {"arm": "treatment", "count": 1},
        {"arm": "c", "counts": {"a": 1, "b": 1}},
        {"arm": "a", "counts": {"a": 1}},
        {"arm": "a", "counts": {"a": 5, "b": 1}},
        {"arm": "b", "counts": {"a": 4, "b": 1}},
        {"arm": "a", "counts": {"a": 1, "b": 3}},
        {"arm": "b", "counts": {"a": 1, "b": -1}},
    ],
)
def test_an_answer_is_its_arm_and_both_counts_within_their_lists(app, doubled, bad):
    refused = submit(app, bad)
    assert refused.status_code == 400 and "'drove'" in refused.json["error"], bad
    with app.app_context():
        assert find_survey("doubled").response_count == 0


def submit_answers(app):
    for arm, a, b in ANSWERS:
        assert submit(app, {"arm": arm, "counts": {"a": a, "b": b}}).status_code == 201


def test_results_give_the_mean_of_the_two_lists_and_each_lists_figures(app, doubled, token):
    submit_answers(app)
    (entry,) = api_get(app.test_client(), token, "surveys/doubled/results").json["lists"]
    arms, a, b = zip(*ANSWERS, strict=True)
    expected = rr.double_list(3, 2).estimate(list(arms), list(a), list(b))
    assert (entry["controls"], entry["controls_b"], entry["n"]) == (3, 2, 10)
    for name in ("estimate", "std_error", "ci_low", "ci_high"):
        assert entry[name] == pytest.approx(getattr(expected, name)), name
    first, second = entry["lists"]
    assert (first["list"], second["list"]) == ("a", "b")
    assert first["frequencies"] == {"control": [1, 1, 2, 1], "treatment": [1, 1, 1, 1, 1]}
    assert second["frequencies"] == {"control": [2, 2, 1], "treatment": [1, 2, 1, 1]}
    for found, single in zip((first, second), expected.by_list, strict=True):
        assert found["estimate"] == pytest.approx(single.estimate)
        assert found["ml"]["estimate"] == pytest.approx(single.ml.estimate)
        assert (found["ceiling"], found["floor"]) == (single.ceiling, single.floor)
    assert (first["ceiling"], first["floor"]) == (1, 1)


def test_exports_codebook_and_pages_carry_both_lists(app, doubled, make_researcher, client):
    submit_answers(app)
    researcher = make_researcher("rita@example.org")
    rows = list(csv.reader(io.StringIO(
        researcher.get("/surveys/doubled/responses.csv").get_data(as_text=True))))  # fmt: skip
    assert rows[0] == ["drove.arm", "drove.count_a", "drove.count_b"]
    assert sorted((row[0], int(row[1]), int(row[2])) for row in rows[1:]) == sorted(ANSWERS)
    book = json.loads(researcher.get("/surveys/doubled/codebook.json").get_data(as_text=True))
    entry = book["questions"][0]
    assert (entry["J"], entry["J_b"]) == (3, 2) and len(entry["R"]) == 9
    assert 'treat = as.integer(d[["drove.arm"]] == "b")' in entry["R"][4]
    html = researcher.get("/surveys/doubled").get_data(as_text=True)
    assert "Double list experiment" in html and "Mean of the two lists" in html
    page = client.get("/s/doubled").get_data(as_text=True)
    assert 'name="report-drove-a"' in page and 'name="report-drove-b"' in page
    config = json.loads(page.split('id="survey-config">')[1].split("</script>")[0])
    (question,) = config["questions"]
    assert question["listItemsB"] == ["gym", "library"] and question["drawsFirst"] is True


def test_the_builder_adds_a_double_list_and_keeps_its_ids_on_editing(app, researcher):
    researcher.post("/surveys/new", data={"title": "Draft", "slug": "", "description": ""})
    form = {"text": "How many of these?", "key": "done", "kind": "list", "procedure": "list"}
    form |= {"controls": "Voted\nRecycled", "sensitive": "Cheated on taxes"}
    form |= {"controls_b": "Swam\nSwam", "control_ids_b": "swam\nswam"}
    html = researcher.post("/surveys/draft/questions/new", data=form).get_data(as_text=True)
    assert 'id="control_ids_b-errors"' in html and "duplicate item id" in html
    form |= {"controls_b": "Swam\nRan", "control_ids_b": "swam\nran"}
    assert researcher.post("/surveys/draft/questions/new", data=form).status_code == 302
    edited = form | {"controls_b": "Swam a length\nRan a mile", "control_ids_b": ""}
    assert researcher.post("/surveys/draft/questions/done", data=edited).status_code == 302
    with app.app_context():
        (question,) = find_survey("draft").questions
        assert [(row.key, row.text.default) for row in question.design.controls_b] == [
            ("swam", "Swam a length"), ("ran", "Ran a mile")]  # fmt: skip


def test_the_regression_fits_both_lists_on_the_direct_questions(app, imported, token, runner):
    """The API's model is rr's on the published rows: β shared by the lists, each list's control
    items its own (list B's under ``control_coefficients_b``); `flask regress` prints it; and
    by group, each group's estimate is the double list's own on its rows."""
    survey = copy.deepcopy(SURVEY) | {"slug": "doubled-years"}
    survey["questions"].insert(0, {"id": "year", "type": "direct", "text": "Year?",
                                   "options": [{"id": "first", "text": "First"},
                                               {"id": "fourth", "text": "Fourth"}]})  # fmt: skip
    imported(survey)
    rng = np.random.default_rng(5)
    rows = []
    for _ in range(300):  # results move every 2: all published
        year, arm = ("first", "fourth")[rng.integers(2)], ("a", "b")[rng.integers(2)]
        held = rng.random() < (0.3 if year == "first" else 0.6)
        a = int(rng.binomial(3, 0.5)) + int(held and arm == "a")
        b = int(rng.binomial(2, 0.4)) + int(held and arm == "b")
        body = {"year": year, "drove": {"arm": arm, "counts": {"a": a, "b": b}}}
        posted = app.test_client().post(
            "/api/surveys/doubled-years/responses", json={"answers": body}
        )
        assert posted.status_code == 201
        rows.append((year, arm, a, b))
    found = api_get(app.test_client(), token, "surveys/doubled-years/regression",
                    item="drove", on="year").json  # fmt: skip
    years, arms, a, b = zip(*rows, strict=True)
    expected = rr.double_list(3, 2).regression(
        list(arms), list(a), list(b), [[1.0, float(year == "fourth")] for year in years],
        ["(intercept)", "year=fourth"],
    )  # fmt: skip
    assert (found["model"], found["n"], found["at_boundary"]) == ("list", 300, False)
    assert "both lists at once" in found["method"]
    for key, part in (("coefficients", expected.sensitive), ("control_coefficients",
                      expected.control), ("control_coefficients_b", expected.control_b)):  # fmt: skip
        for mine, theirs in zip(found[key], part, strict=True):
            assert mine["term"] == theirs.name
            # The published rows come in another order: EM's last steps and the numerical
            # Hessian differ in their sixth digits.
            assert mine["estimate"] == pytest.approx(theirs.estimate, rel=1e-5), key
            assert mine["std_error"] == pytest.approx(theirs.std_error, rel=1e-4), key
    # By group, each year's estimate is the double list's own on that year's rows.
    with app.app_context():
        survey = find_survey("doubled-years")
        question = next(q for q in survey.questions if q.key == "drove")
        groups = list_by_group(survey, question, "year", app.config["RESULTS_MIN_N"])
    for group in groups:
        mine = [row for row in rows if row[0] == group.option]
        _years, arms, a, b = zip(*mine, strict=True)
        own = rr.double_list(3, 2).estimate(list(arms), list(a), list(b))
        assert group.n == len(mine) and not group.withheld
        assert (group.items[0].estimate, group.items[0].std_error) == pytest.approx(
            (own.estimate, own.std_error), rel=1e-12
        )
    printed = runner.invoke(args=["regress", "doubled-years", "drove", "--on", "year"])
    assert printed.exit_code == 0, printed.output
    for heading in ("holds the sensitive item", "control items, list A", "control items, list B"):
        assert heading in printed.output
    assert f"{expected.sensitive[1].estimate:.3f}" in printed.output
