"""Direct questions and analysis by group in the browser: the builder, a respondent, the analysis
page (chart, difference, regression), and the API and CSV behind them."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import violations
from tests.browser.researcher import log_in
from tests.browser.respondent import FORCE_LIGHT
from tests.conftest import PASSWORD, no_database, stored_bits

pytestmark = pytest.mark.browser


def stored(app):
    with app.app_context():
        return stored_bits()


@pytest.fixture
def signed_in_page(browser, runner, live_server):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    context = browser.new_context(
        reduced_motion="reduce", viewport={"width": 1280, "height": 900}, bypass_csp=True
    )
    page = context.new_page()
    log_in(page, live_server, "rita@example.org")
    yield page
    context.close()


def test_build_answer_and_analyse_a_survey_with_a_direct_question(
    app, browser, runner, signed_in_page, live_server, seed_responses
):
    app.config["RESULTS_MIN_N"] = 30  # a class of 40 in two groups: about 20 each, too few
    page = signed_in_page
    page.click("text=New survey")
    page.fill("#title", "Honesty by year")
    page.click("text=Create draft")
    page.click("text=Add a question")
    page.fill("#text", "Have you copied homework?")
    page.fill("#key", "copied")
    page.click("text=Save question")
    page.click("text=Add a question")
    page.fill("#text", "Your year?")
    page.fill("#key", "year")
    page.select_option("#kind", "direct")
    assert page.locator("#epsilon").is_hidden() and page.locator("#procedure").is_hidden()
    expect(page.locator("#preview-light")).to_contain_text("no spinner and no ε protect it")
    page.fill("#options", "First\nFourth")
    page.fill("#option_ids", "first\nfourth")
    page.click("text=Save question")
    page.wait_for_url(re.compile(r"/edit$"))
    expect(page.locator("tr[data-question='year']")).to_contain_text("Not randomized")
    assert "ε = 1" in page.inner_text("#survey-epsilon")  # the direct question costs nothing
    assert "2 groups" in page.inner_text(
        "#group-warning"
    ) and "groups of about 20" in page.inner_text("#group-warning")
    app.config["RESULTS_MIN_N"] = 5
    page.goto(f"{live_server}/surveys/honesty-by-year")
    page.click("text=Open survey")

    student = browser.new_context(reduced_motion="reduce").new_page()
    student.add_init_script(FORCE_LIGHT)
    student.goto(f"{live_server}/s/honesty-by-year")
    year = student.locator("section[data-question='year']")
    assert "Answered directly: sent exactly as you choose." in year.inner_text()
    expect(year.locator(".spin-button")).to_have_count(0)
    assert year.locator("input[value='']").is_checked()  # "Prefer not to say" until chosen
    student.check("input[name='truth-copied'][value='1']")
    student.click("section[data-question='copied'] .spin-button")
    student.wait_for_selector("[data-item='copied'][data-state='done']", timeout=60_000)
    student.check("input[name='direct-year'][value='fourth']")
    expect(student.locator("#report-summary")).to_contain_text("Your year? → Fourth")
    with student.expect_navigation(url=re.compile(r"/thanks$")):
        student.click("#submit-button")
    assert stored(app) == [{"copied": 1, "year": "fourth"}]
    student.context.close()

    by = ("year", {"first": 0.2, "fourth": 0.5})
    seed_responses("honesty-by-year", 2000, seed=3, by=by)
    page.goto(f"{live_server}/surveys/honesty-by-year")
    page.click("text=Analysis by group")
    page.wait_for_selector("#group-table")
    expect(page.locator("#group-table tbody tr")).to_have_count(2)
    expect(page.locator(".chart-wrap svg.chart-wide")).to_have_count(1)
    page.select_option("#a", "fourth")
    page.select_option("#b", "first")
    with page.expect_navigation():
        page.click("#group-controls button[type=submit]")
    expect(page.locator("#difference")).to_contain_text("Fourth minus First")
    expect(page.locator("#coefficients tbody tr")).to_have_count(2)
    expect(page.locator("#coefficients")).to_contain_text("year=fourth")
    assert violations(page) == []
    # The API gives the same model to a script with a token.
    token = runner.invoke(args=["create-token", "rita@example.org"]).output.split()[-1]
    fit = page.evaluate(
        """async ([url, token]) => (await fetch(url, {headers: {Authorization: `Bearer ${token}`}})).json()""",
        [f"{live_server}/api/surveys/honesty-by-year/regression?item=copied&on=year", token],
    )
    shown = page.inner_text("#coefficients tbody tr:nth-child(2) td:nth-child(2)")
    assert fit["coefficients"][1]["term"] == "year=fourth"
    assert float(shown) == pytest.approx(fit["coefficients"][1]["estimate"], abs=5e-4)
    csv_text = page.evaluate(
        "async (url) => (await fetch(url)).text()",
        f"{live_server}/surveys/honesty-by-year/responses.csv",
    )
    rows = list(csv.DictReader(io.StringIO(csv_text)))
    assert (
        rows
        and set(rows[0]) == {"copied", "year"}
        and {row["year"] for row in rows} == {"first", "fourth"}
    )


@no_database
def test_the_analysis_page_fits_a_phone(
    app, runner, signed_in_page, live_server, import_survey, seed_responses
):
    """Names as long as a real study's: the API's address under the regression once ran past a
    320 px screen."""
    app.config["RESULTS_MIN_N"] = 5
    survey = {
        "slug": "campus-climate-spring",
        "title": "Phone",
        "questions": [
            {"id": "used_cannabis", "type": "yesno", "text": "Q?", "epsilon": 1.0,
             "procedure": "spinner"},
            {
                "id": "year_of_study",
                "type": "direct",
                "text": "G?",
                "options": [{"id": "first", "text": "A"}, {"id": "fourth", "text": "B"}],
            },
        ],
    }  # fmt: skip
    import_survey(survey)
    seed_responses("campus-climate-spring", 400, seed=1)
    signed_in_page.set_viewport_size({"width": 320, "height": 800})
    signed_in_page.goto(f"{live_server}/surveys/campus-climate-spring/groups")
    signed_in_page.wait_for_selector("#coefficients")
    assert signed_in_page.evaluate("document.documentElement.scrollWidth") <= 320


@no_database
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_charts_on_a_phone_read_without_scrolling_sideways(
    app, researcher_at, live_server, import_survey, seed_responses, locale
):
    from web.core.surveys.demo import DEMO_FILE

    app.config["RESULTS_MIN_N"] = 10
    import_survey(json.loads(DEMO_FILE.read_text(encoding="utf-8")))
    seed_responses("campus-life", 600, seed=3)
    page = researcher_at(locale, 390)
    for path in ("/surveys/campus-life", "/surveys/campus-life/groups"):
        page.goto(f"{live_server}{path}")
        page.wait_for_selector("svg.chart-narrow")
        # Only the phone's drawing shows: as wide as its box, its words at least 12 px.
        drawn = page.evaluate(
            """() => [...document.querySelectorAll("svg.chart")]
                .filter((svg) => svg.getClientRects().length)
                .map((svg) => [svg.classList.contains("chart-narrow"),
                    svg.getBoundingClientRect().width <= svg.parentElement.clientWidth + 0.5,
                    Math.min(...[...svg.querySelectorAll(".label, .tick, .value")].map((text) =>
                        parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a))])"""
        )
        assert drawn and all(narrow and fits and size >= 12 for narrow, fits, size in drawn), drawn
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
