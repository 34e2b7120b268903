"""The R code of the guide runs as given and gives the app's numbers: the mean and linear
regression of a number question (docs/ask/numbers.md), and the pooled interval from synthetic
data (docs/analyse/bayesian.md); and every R block of the guide's readers' pages is run by a test
that names its page."""

from __future__ import annotations

import pytest

from tests import guide
from tests.helpers import bearer
from tests.r.test_r_code import requires_r, run_r
from web.core.surveys.lookup import find_survey
from web.simulation import simulate_responses

pytestmark = requires_r

# Each page with R code, and the test that runs its blocks.
R_PAGES = {
    "analyse/r.md": "tests/r/test_r_code.py",
    "run/api.md": "tests/r/test_scripted_study.py",
    "ask/numbers.md": "tests/r/test_guide_r.py",
    "analyse/bayesian.md": "tests/r/test_guide_r.py",
}
YEARS = ("first", "second", "third", "fourth")
SURVEY = {
    "slug": "campus-life",
    "title": "Campus life",
    "questions": [
        {"id": "year", "type": "direct", "text": "Year?",
         "options": [{"id": name, "text": name} for name in YEARS]},
        {"id": "cheated", "type": "yesno", "text": "Cheated?", "epsilon": 1.0},
        {"id": "drinks", "type": "number", "text": "Drinks?", "min": 0, "max": 30, "step": 1,
         "epsilon": 1.0, "procedure": "spinner_coin"},
    ],
}  # fmt: skip


@pytest.fixture
def exported(app, client, runner, token, tmp_path):
    """The survey with 2,000 simulated respondents, and its responses CSV in ``tmp_path``."""
    import json

    file = tmp_path / "survey.json"
    file.write_text(json.dumps(SURVEY), encoding="utf-8")
    assert runner.invoke(args=["import-survey", str(file), "--status", "open"]).exit_code == 0
    with app.app_context():
        simulate_responses(find_survey("campus-life"), 2000, 0.3, seed=11, values=range(0, 9))
    csv = client.get("/api/surveys/campus-life/responses.csv", headers=bearer(token))
    (tmp_path / "campus-life-responses.csv").write_bytes(csv.data)
    return tmp_path


def test_every_r_block_of_the_guide_is_run_by_a_test():
    pages = {
        page.relative_to(guide.DOCS).as_posix()
        for page in guide.DOCS.rglob("*.md")
        if guide.blocks(page.read_text(encoding="utf-8"), "r") and ".ko." not in page.name
    }
    readers = {page for page in pages if page.split("/")[0] not in {"develop"}}
    assert readers <= set(R_PAGES), readers - set(R_PAGES)
    for page, test in R_PAGES.items():
        assert page in (guide.DOCS.parent / test).read_text(encoding="utf-8"), (test, page)


def test_a_korean_page_shows_the_same_r_code_as_its_english_one():
    for page in R_PAGES:
        korean = guide.DOCS / page.replace(".md", ".ko.md")
        if korean.is_file():
            english_blocks = guide.blocks(guide.page(page), "r")
            assert guide.blocks(korean.read_text(encoding="utf-8"), "r") == english_blocks


def test_the_number_questions_r_code_gives_the_apps_mean_and_regression(exported, client, token):
    (block,) = guide.blocks(guide.page("ask/numbers.md"), "r")
    read = 'd <- read.csv("campus-life-responses.csv", check.names = FALSE, na.strings = "")\n'
    checks = (
        'cat("mean", sprintf("%.12g", mean(d$drinks_value)), "\\n")\n'
        'cat("coef", sprintf("%.12g", coef(fit)), "\\n")\n'
        'cat("se", sprintf("%.12g", sqrt(diag(sandwich::vcovHC(fit, type = "HC1")))), "\\n")\n'
    )
    output = run_r(read + block + checks, exported)
    lines = {line.split()[0]: [float(x) for x in line.split()[1:]] for line in output.splitlines()
             if line.split() and line.split()[0] in {"mean", "coef", "se"}}  # fmt: skip
    results = client.get("/api/surveys/campus-life/results", headers=bearer(token)).json
    (drinks,) = [question for question in results["questions"] if question["id"] == "drinks"]
    # The page gives a and b to 7 digits: off by up to 5e-8 each, which moves a value of the
    # 0 to 30 range by up to 30 * 1e-7 / b, about 1e-5 at the most.
    assert lines["mean"][0] == pytest.approx(drinks["mean"], abs=1e-5)
    fit = client.get(
        "/api/surveys/campus-life/regression?item=drinks&on=year", headers=bearer(token)
    ).json
    assert fit["model"] == "linear"
    app_terms = {term["term"]: term for term in fit["coefficients"]}
    assert len(app_terms) == len(lines["coef"]) == 4
    # R's terms: the intercept, then yearfourth, yearsecond, yearthird (levels in alphabetical
    # order; the first, "first", is the reference, as the app's).
    in_r = ["(intercept)", "year=fourth", "year=second", "year=third"]
    for index, term in enumerate(in_r):
        entry = app_terms[term]
        assert lines["coef"][index] == pytest.approx(entry["estimate"], abs=1e-5)
        assert lines["se"][index] == pytest.approx(entry["std_error"], rel=1e-5)


def test_the_synthetic_datas_pooled_interval_runs_on_the_apps_file(exported, client, token):
    synthetic = client.get(
        "/api/surveys/campus-life/synthetic.csv?m=5&seed=1", headers=bearer(token)
    )
    assert synthetic.status_code == 200
    (exported / "campus-life-synthetic.csv").write_bytes(synthetic.data)
    (block,) = guide.blocks(guide.page("analyse/bayesian.md"), "r")
    lines = block.rstrip("\n").splitlines()
    interval = lines[-1].split("#")[0].strip()
    code = "\n".join(lines[:-1]) + f'\ncat("interval", {interval}, mean(q), "\\n")\n'
    output = run_r(code, exported)
    (line,) = [line for line in output.splitlines() if line.startswith("interval")]
    low, high, middle = (float(value) for value in line.split()[1:])
    assert low < middle < high
