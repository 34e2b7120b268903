"""The responses as SPSS and Stata files: the CSV's rows (the published snapshot, nothing below
the minimum n), variable labels from the wording (a randomized column labelled as a report with
its design and ε), options coded with their texts as value labels, the designs in the SPSS
file's notes; read back with pyreadstat."""

from __future__ import annotations

import csv
import io
import tempfile
from pathlib import Path

import pyreadstat
import pytest

from tests.helpers import bearer
from tests.web.core.surveys.questions.test_grids import COURSE
from web.core.results.exports import responses_csv
from web.core.surveys.lookup import find_survey

STUDY = {
    "slug": "labelled",
    "title": "Exams",
    "description": "",
    "questions": [
        {"id": "cheated", "type": "yesno", "text": "Cheated?", "epsilon": 1,
         "procedure": "spinner_coin"},
        {"id": "drugs", "type": "multi", "text": "Used?", "epsilon": 0.5, "procedure": "spinner",
         "options": [{"id": "alcohol", "text": "Alcohol"}, {"id": "tobacco", "text": "Tobacco"}]},
        {"id": "1st-year", "type": "direct", "text": "Year?",
         "options": [{"id": "first", "text": "First"}, {"id": "later", "text": "Later"}]},
        {"id": "comment", "type": "text", "text": "Anything else?"},
        *COURSE["questions"][:1],
    ],
}  # fmt: skip


def read(raw: bytes, kind: str):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"file.{kind}"
        path.write_bytes(raw)
        reader = pyreadstat.read_sav if kind == "sav" else pyreadstat.read_dta
        return reader(str(path), output_format="dict")


@pytest.mark.parametrize("kind", ["sav", "dta"])
def test_the_file_holds_the_csv_rows_with_their_labels(
    app, runner, import_survey, researcher, kind
):
    slug = import_survey(STUDY)
    assert (
        runner.invoke(args=["simulate-responses", slug, "--n", "60", "--seed", "2"]).exit_code == 0
    )
    app.config["RESULTS_MIN_N"] = 10
    download = researcher.get(f"/surveys/{slug}/responses.{kind}")
    assert download.status_code == 200
    assert f'filename="{slug}-responses.{kind}"' in download.headers["Content-Disposition"]
    data, meta = read(download.data, kind)
    names = list(data)
    assert names == ["cheated", "drugs_alcohol", "drugs_tobacco", "v_1st_year", "comment",
                     "views_fair", "views_clear"]  # fmt: skip
    labels = dict(zip(names, meta.column_labels, strict=True))
    # The report's marker first: a label cut at 80 characters keeps it.
    assert labels["cheated"] == "[report: spinner_coin, eps 1] Cheated?"
    assert labels["drugs_alcohol"] == "[report: spinner, eps 0.5] Used? [Alcohol]"
    assert meta.variable_value_labels["cheated"][1] == "reported yes"
    assert (
        labels["v_1st_year"] == "Year?"
        and labels["views_fair"] == "How far do you agree? [The exam was fair]"
    )
    year_labels = meta.variable_value_labels["v_1st_year"]
    assert {code: year_labels[code] for code in (1, 2)} == {1: "first: First", 2: "later: Later"}
    assert meta.variable_value_labels["views_fair"][3] == "agree: Agree"
    with app.app_context():
        rows = list(csv.DictReader(io.StringIO("".join(responses_csv(find_survey(slug), 10)))))
    # The same answers as the CSV's, each option as its code (rows are in random order).
    codes = {"first": 1, "later": 2, "": None}
    assert sorted(data["cheated"]) == sorted(int(row["cheated"]) for row in rows)
    assert sorted(data["v_1st_year"], key=str) == sorted(
        (codes[row["1st-year"]] for row in rows), key=str
    )
    assert len(data["cheated"]) == 60
    if kind == "sav":
        notes = " ".join(meta.notes)
        assert all(len(line) <= 80 for line in meta.notes)
        assert "cheated: spinner_coin; P1 = P(report 1 | true yes) = 0.731059" in notes
        assert "60 published responses in random order" in notes


def test_below_the_minimum_n_the_file_has_its_variables_and_no_rows(app, import_survey, researcher):
    slug = import_survey(STUDY)
    data, meta = read(researcher.get(f"/surveys/{slug}/responses.sav").data, "sav")
    assert list(data) == ["cheated", "drugs_alcohol", "drugs_tobacco", "v_1st_year", "comment",
                          "views_fair", "views_clear"] and data["cheated"] == []  # fmt: skip


def test_the_api_serves_both_to_a_token(app, client, import_survey, token):
    slug = import_survey(STUDY)
    for kind in ("sav", "dta"):
        response = client.get(f"/api/surveys/{slug}/responses.{kind}", headers=bearer(token))
        assert response.status_code == 200 and response.data
    assert client.get(f"/api/surveys/{slug}/responses.sav").status_code == 401
    assert (
        client.get(f"/api/surveys/{slug}/responses.por", headers=bearer(token)).status_code == 404
    )


FLOW = {
    "slug": "why-empty", "title": "Exams", "description": "", "results_batch": 3,
    "pages": [{"id": "about", "questions": ["student", "year"]}, {"id": "rest", "questions": ["cheated"]}],
    "questions": [
        {"id": "student", "type": "direct", "text": "Student?",
         "options": [{"id": "yes", "text": "Yes"}, {"id": "no", "text": "No"}]},
        {"id": "year", "type": "direct", "text": "Year?", "show_if": {"question": "student", "in": ["yes"]},
         "options": [{"id": "first", "text": "First"}, {"id": "later", "text": "Later"}]},
        {"id": "cheated", "type": "yesno", "text": "Cheated? " + "Really, " * 20, "epsilon": 1,
         "procedure": "spinner_coin"},
    ],
}  # fmt: skip
# Not shown (no student), prefer not to say (a student), skipped (the randomized item), answered.
WHY = [
    {"student": "no", "cheated": 1},
    {"student": "yes", "year": None, "cheated": 0},
    {"student": "yes", "year": "first"},
]


@pytest.mark.parametrize("kind", ["sav", "dta"])
def test_an_empty_cell_says_why_in_codes_spss_and_stata_read(
    app, client, import_survey, researcher, kind
):
    from tests.helpers import submit_answers

    slug = import_survey(FLOW)
    app.config["RESULTS_MIN_N"] = 1
    for answers in WHY:
        assert submit_answers(app.test_client(), slug, {"answers": answers}).status_code == 201
    raw = researcher.get(f"/surveys/{slug}/responses.{kind}").data
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"file.{kind}"
        path.write_bytes(raw)
        reader = pyreadstat.read_sav if kind == "sav" else pyreadstat.read_dta
        data, meta = reader(str(path), output_format="dict", user_missing=True)

    # Rows come in random order: each response is found by its student answer and its year.
    def cell(value):
        return value if isinstance(value, str) else float(value)

    rows = [tuple(map(cell, row)) for row in zip(data["student"], data["year"], data["cheated"],
                                                  strict=True)]  # fmt: skip
    not_shown, not_said, skipped = (-1.0, -3.0, -2.0) if kind == "sav" else ("a", "c", "b")
    assert sorted(rows, key=str) == sorted(
        [(2.0, not_shown, 1.0), (1.0, not_said, 0.0), (1.0, 1.0, skipped)], key=str
    )
    labels = meta.variable_value_labels["year"]
    assert labels[not_shown] == "not shown" and labels[not_said] == "prefer not to say"
    assert meta.variable_value_labels["cheated"][skipped] == "skipped"
    assert meta.column_labels[list(data).index("cheated")].startswith("[report: spinner_coin")
    if kind == "sav":
        assert meta.original_variable_types["cheated"] == "F8.0"
        assert meta.original_variable_types["year"] == "F8.0"
