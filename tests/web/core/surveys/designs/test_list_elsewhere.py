"""A list question among the other analyses: each takes it (by group, the difference and the
regression: here every respondent is a first year, so those two refuse for want of fourth years),
refuses it by name or leaves it out, and none fails."""

from __future__ import annotations

import pytest

from tests.helpers import api_get
from tests.web.core.surveys.designs.test_list import submit_counts

pytestmark = pytest.mark.imported(batch=2)


@pytest.mark.parametrize(
    ("path", "query", "status"),
    [
        ("results", {"by": "year"}, 200),
        ("results", {"method": "bayes"}, 200),
        ("difference", {"item": "drove", "by": "year", "groups": "first,fourth"}, 400),
        ("joint", {"items": "drove,year"}, 400),
        ("regression", {"item": "drove", "on": "year"}, 400),
        ("methods", {}, 200),
        ("synthetic/utility", {"m": "2", "seed": "1"}, None),
    ],
)
def test_every_analysis_takes_a_survey_with_a_list(app, listed, token, path, query, status):
    submit_counts(app)
    found = api_get(app.test_client(), token, f"surveys/listed/{path}", **query)
    assert found.status_code < 500, (path, found.get_data(as_text=True)[:300])
    if status is not None:
        assert found.status_code == status, (path, found.json)
    if found.status_code == 400:
        assert "error" in found.json


@pytest.mark.parametrize(
    "page",
    ["", "/edit", "/groups?by=year", "/joint", "/panel", "/present", "/preview", "/synthetic",
     "/questions/drove", "/survey.json", "/survey.xlsx", "/synthetic.csv?m=1&seed=1"],
)  # fmt: skip
def test_every_page_of_a_survey_with_a_list_answers(app, listed, researcher, page):
    submit_counts(app)
    assert researcher.get(f"/surveys/listed{page}").status_code in (200, 400), page
