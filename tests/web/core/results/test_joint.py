"""The joint distribution of true answers in the API: cells with intervals, a pair's conditional
and correlation, direct and single-choice items, and the refusals."""

from __future__ import annotations

import pytest

from rr.joint import joint_em
from tests.helpers import api_get
from tests.web.core.surveys.designs.test_designs import SURVEY as DESIGNED
from web.core.results.joint import joint_items, reported_patterns
from web.core.surveys.lookup import find_survey

pytestmark = pytest.mark.imported(responses=4000, seed=6)


def joint(client, token, slug, items):
    return api_get(client, token, f"surveys/{slug}/joint", items=items)


def test_two_items_give_every_cell_the_conditional_and_the_correlation(
    app, client, token, designed
):
    body = joint(client, token, designed, "fr,uq").json
    assert body["items"] == ["fr", "uq"] and body["n"] == 4000
    assert {(c["fr"], c["uq"]) for c in body["cells"]} == {(0, 0), (0, 1), (1, 0), (1, 1)}
    assert sum(c["estimate"] for c in body["cells"]) == pytest.approx(1.0)
    for cell in body["cells"]:
        assert (
            0 <= cell["ci_low"] <= cell["estimate"] + 1e-9
            and cell["estimate"] <= cell["ci_high"] + 1e-9
        )
    with app.app_context():
        survey = find_survey(designed)
        items = joint_items(survey, ["fr", "uq"])
        counts = reported_patterns(survey, items)
    expected = joint_em(counts, [item.matrix for item in items]).table
    assert [c["estimate"] for c in body["cells"]] == pytest.approx(
        expected.ravel().tolist(), rel=1e-9
    )
    # The simulation draws every item independently at 30%: no correlation, P(B | A) near 0.3.
    correlation = body["correlation"]
    assert correlation["ci_low"] < 0 < correlation["ci_high"]
    given = body["conditional"][0]
    assert given["given"] == {"fr": 1} and given["ci_low"] < 0.3 < given["ci_high"]


def test_a_direct_question_joins_exactly(client, token, designed):
    body = joint(client, token, designed, "fr,year").json
    assert {c["year"] for c in body["cells"]} == {"first", "fourth"}
    for year in ("first", "fourth"):
        share = sum(c["estimate"] for c in body["cells"] if c["year"] == year)
        assert share == pytest.approx(0.5, abs=0.03)
    assert "correlation" not in body


@pytest.mark.parametrize(
    ("items", "message"),
    [
        ("fr", "2 to 16 different items"),
        ("fr,fr", "2 to 16 different items"),
        ("fr,nope", "no question 'nope'"),
        ("fr.x,uq", "has no options"),
    ],
)
def test_bad_items_are_refused_with_the_reason(client, token, designed, items, message):
    response = joint(client, token, designed, items)
    assert response.status_code == 400 and message in response.json["error"]


def test_below_the_minimum_n_there_is_no_joint_table(app, client, token, import_survey):
    app.config["RESULTS_MIN_N"] = 10
    slug = import_survey(DESIGNED)
    response = joint(client, token, slug, "fr,uq")
    assert response.status_code == 400 and "fewer than 10" in response.json["error"]


def test_number_and_cheating_items_are_refused(
    app, runner, client, token, import_survey, seed_responses
):
    from tests.web.core.surveys.questions.test_numbers import SURVEY as NUMBERS

    app.config["RESULTS_MIN_N"] = 10
    slug = import_survey(NUMBERS)
    seed_responses(slug, 50, seed=1)
    response = joint(client, token, slug, "drinks,year")
    assert response.status_code == 400 and "number question" in response.json["error"]


def test_the_command_line_prints_the_joint_table(runner, designed):
    output = runner.invoke(args=["joint", designed, "fr,uq"]).output
    assert "True answers of fr, uq: n = 4000" in output
    assert "P(uq = 1 | fr = 1)" in output and "correlation (phi)" in output
    refused = runner.invoke(args=["joint", designed, "fr"])
    assert refused.exit_code == 1 and "2 to 16 different items" in refused.output


def test_the_researchers_page_shows_the_two_by_two_table(researcher, designed):
    page = researcher.get(f"/surveys/{designed}/joint?a=fr&b=uq").get_data(as_text=True)
    assert 'id="joint-table"' in page and 'data-cell="11"' in page
    assert "P(B = yes | A = yes)" in page and "Correlation of the two true answers" in page
    other = researcher.get(f"/surveys/{designed}/joint?a=uq&b=uq").get_data(as_text=True)
    assert 'value="uq" selected' in other  # the second falls back to another item
    assert "Two answers together" in researcher.get(f"/surveys/{designed}").get_data(as_text=True)


def test_the_page_says_why_there_is_no_table_yet(app, researcher, import_survey):
    app.config["RESULTS_MIN_N"] = 10
    slug = import_survey(DESIGNED)
    page = researcher.get(f"/surveys/{slug}/joint").get_data(as_text=True)
    assert 'id="joint-problem"' in page and "fewer than 10" in page


def test_a_table_with_too_many_combinations_is_refused_with_the_reason(
    app, client, token, import_survey
):
    options = [{"id": f"o{index}", "text": f"O{index}"} for index in range(15)]
    slug = import_survey(
        {
            "slug": "wide",
            "title": "Wide",
            "questions": [
                {"id": "m", "type": "multi", "text": "M?", "epsilon": 0.1, "options": options},
                {"id": "c", "type": "choice", "text": "C?", "epsilon": 1.0,
                 "options": options[:3]},
            ],
        }
    )  # fmt: skip
    items = ",".join([*(f"m.o{index}" for index in range(15)), "c"])  # 2^15 × 3 cells
    response = joint(client, token, slug, items)
    assert response.status_code == 400 and "too many combinations" in response.json["error"]
