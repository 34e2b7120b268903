"""The codebook's R code for a list experiment runs as given on the responses CSV as downloaded,
and gives the app's figures: ``list::ictreg``'s difference in means and its HC3 standard error
(1e-9), its maximum-likelihood share (1e-4: ``ictreg`` stops its EM at a tolerance of its own)
and ``list::ict.test``'s p-value (1e-9, three control items: closed form), each against the
results API's entry."""

from __future__ import annotations

import json

import pytest

from tests.helpers import api_get
from tests.r.test_r_code import requires_r, run_r
from tests.web.core.surveys.designs.test_list import SURVEY
from web.core.surveys.lookup import find_survey
from web.simulation import simulate_responses

pytestmark = requires_r

SHOW = r"""
lm <- {lm}
ml <- {ml}
cat(sprintf("%.17g", c(lm$par.treat, lm$se.treat, plogis(ml$par.treat), {test}$p)), "\n")
"""


def test_the_codebook_s_list_calls_give_the_apps_figures(
    app, import_survey, make_researcher, token, tmp_path
):
    import_survey(SURVEY)
    with app.app_context():
        simulate_responses(find_survey("listed"), 1200, 0.3, seed=11)
    researcher = make_researcher("rita@example.org")
    csv_text = researcher.get("/surveys/listed/responses.csv").get_data(as_text=True)
    (tmp_path / "listed-responses.csv").write_text(csv_text, encoding="utf-8")
    book = json.loads(researcher.get("/surveys/listed/codebook.json").get_data(as_text=True))
    frame, lm, ml, test = book["questions"][1]["R"]
    script = "\n".join([book["R"]["read"], frame, SHOW.format(lm=lm, ml=ml, test=test)])
    difference, std_error, ml_share, p_value = map(float, run_r(script, tmp_path).split())
    (entry,) = api_get(app.test_client(), token, "surveys/listed/results").json["lists"]
    assert entry["n"] == 1200
    assert entry["estimate"] == pytest.approx(difference, abs=1e-9)
    assert entry["std_error"] == pytest.approx(std_error, abs=1e-9)
    assert entry["ml"]["estimate"] == pytest.approx(ml_share, abs=1e-4)
    assert entry["design_effect"]["p_value"] == pytest.approx(p_value, abs=1e-9)


def test_the_codebook_s_double_list_calls_give_the_apps_figures(
    app, import_survey, make_researcher, token, tmp_path
):
    """A double list: each list's ``ictreg`` difference is that list's figure, and the
    codebook's last line gives the mean of the two with its standard error (1e-9)."""
    from tests.web.core.surveys.designs.test_double_list import SURVEY as DOUBLE

    import_survey(DOUBLE)
    with app.app_context():
        simulate_responses(find_survey("doubled"), 800, 0.3, seed=12)
    researcher = make_researcher("rita@example.org")
    csv_text = researcher.get("/surveys/doubled/responses.csv").get_data(as_text=True)
    (tmp_path / "doubled-responses.csv").write_text(csv_text, encoding="utf-8")
    book = json.loads(researcher.get("/surveys/doubled/codebook.json").get_data(as_text=True))
    calls = book["questions"][0]["R"]
    lines = [book["R"]["read"]]
    for first in (0, 4):
        frame, lm = calls[first], calls[first + 1]
        lines += [frame, f'cat(sprintf("%.17g", c(({lm})$par.treat, ({lm})$se.treat)), "\\n")']
    lines += [f"combined <- local({{ {calls[8]} }})", 'cat(sprintf("%.17g", combined), "\\n")']
    first, second, combined = run_r("\n".join(lines), tmp_path).strip().splitlines()
    (entry,) = api_get(app.test_client(), token, "surveys/doubled/results").json["lists"]
    for found, line in zip(entry["lists"], (first, second), strict=True):
        estimate, std_error = map(float, line.split())
        assert found["estimate"] == pytest.approx(estimate, abs=1e-9)
        assert found["std_error"] == pytest.approx(std_error, abs=1e-9)
    estimate, std_error = map(float, combined.split())
    assert entry["estimate"] == pytest.approx(estimate, abs=1e-9)
    assert entry["std_error"] == pytest.approx(std_error, abs=1e-9)
