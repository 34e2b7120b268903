"""Single-choice questions in the browser: the respondent's spinner and die, the dashboard, the
projector and the builder's preview."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import violations
from tests.browser.researcher import log_in
from tests.browser.respondent import FORCE_DARK_AND_TAILS, hint, memo, open_survey
from tests.conftest import PASSWORD, no_database, stored_bits

pytestmark = pytest.mark.browser

SURVEY = {
    "slug": "often",
    "title": "How often",
    "questions": [
        {
            "id": "times",
            "type": "choice",
            "text": "How many times did you copy homework?",
            "epsilon": 1.0,
            "procedure": "spinner_coin",
            "options": [
                {"id": "never", "text": "Never"},
                {"id": "once", "text": "Once"},
                {"id": "two_to_five", "text": "2 to 5 times"},
                {"id": "more", "text": "More than 5 times"},
            ],
        }
    ],
}


@pytest.fixture
def often(import_survey):
    return import_survey(SURVEY)


def stored_answers(app):
    with app.app_context():
        return stored_bits()


def test_the_respondent_chooses_spins_sees_the_die_and_sends_one_option(
    app, context, live_server, often
):
    page = context.new_page()
    page.add_init_script(FORCE_DARK_AND_TAILS)
    page.goto(f"{live_server}/s/{often}")
    expect(page.locator("section[data-question='times'] .cost")).to_contain_text(
        "a die picks any option"
    )
    page.click("section[data-question='times'] .spin-button")
    assert "Choose your true answer first" in hint(page, "times", "Choose your true")
    page.check("input[name='truth-times'][value='once']")
    page.click("section[data-question='times'] .spin-button")
    page.wait_for_selector("[data-item='times'][data-state='done']", timeout=60_000)
    # Dark, then the die: 0xFFFFFFFE picks face 2 of 4, "2 to 5 times".
    box = page.locator("[data-item='times']")
    assert box.get_attribute("data-outcome") == "dark"
    assert box.get_attribute("data-reported") == "two_to_five"
    expect(page.locator("[data-item='times'] .outcome")).to_contain_text(
        "You will report: 2 to 5 times."
    )
    assert page.get_attribute("[data-item='times'] .die", "data-rolled") == ""
    expect(page.locator("input[name='truth-times']:checked")).to_have_count(0)
    assert page.is_disabled("input[name='truth-times'][value='once']")
    assert memo(page, often)["reported"]["times"] == {
        "bit": "two_to_five",
        "epsilon": 1.0,
        "procedure": "spinner_coin",
        "k": 4,
    }

    page.reload()
    page.wait_for_selector("[data-item='times'][data-state='done']")
    assert page.evaluate("window.draws") == 0
    assert page.get_attribute("[data-item='times']", "data-reported") == "two_to_five"
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    assert stored_answers(app) == [{"times": "two_to_five"}]


@no_database
def test_a_single_choice_page_fits_a_phone(context, live_server, often):
    page = context.new_page()
    page.set_viewport_size({"width": 320, "height": 700})
    open_survey(page, f"{live_server}/s/{often}")
    page.check("input[name='truth-times'][value='never']")
    page.click("section[data-question='times'] .spin-button")
    page.wait_for_selector("[data-item='times'][data-state='done']", timeout=60_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 320


def test_dashboard_projector_and_builder_show_a_single_choice(
    app, browser, runner, live_server, often, seed_responses
):
    app.config["RESULTS_MIN_N"] = 1
    seed_responses(often, 400, seed=2)
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    log_in(page, live_server, "rita@example.org")

    page.goto(f"{live_server}/surveys/{often}")
    result = page.locator("article.result[data-question='times']")
    expect(result.locator("tbody tr")).to_have_count(4)
    assert "add up to 100%" in result.inner_text()
    shares = [float(text.rstrip("%")) for text in result.locator("td.estimate").all_inner_texts()]
    assert abs(sum(shares) - 100) < 0.3  # each rounded to one decimal

    page.goto(f"{live_server}/surveys/{often}/present")
    page.click("#reveal")
    page.wait_for_selector(".present-result[data-question='times'] .chart-wide")
    expect(page.locator(".present-result[data-question='times']")).to_contain_text("add up to 100%")

    page.goto(f"{live_server}/surveys/{often}/edit")
    page.click("text=Add a question")
    page.fill("#text", "Which one?")
    page.select_option("#kind", "choice")
    page.fill("#options", "A\nB\nC\nD")
    page.fill("#epsilon", "1")
    page.fill("#planned", "200")
    page.wait_for_function(
        "() => document.getElementById('preview-compare').textContent.includes('ε = 4')"
    )
    expect(page.locator("#preview-cost")).to_contain_text("This question costs ε = 1.")
    # q = (e − 1)/(e + 3) = 30.0% light; the truth is sent with e/(e + 3) = 47.5%.
    expect(page.locator("#preview-light")).to_contain_text("p = 30%")
    expect(page.locator("#preview-light")).to_contain_text("47.5%")
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@no_database
def test_a_single_choice_page_passes_axe_before_and_after_the_spin(
    browser, live_server, often, scheme, locale
):
    context = browser.new_context(
        color_scheme=scheme, locale=locale, bypass_csp=True, reduced_motion="reduce"
    )
    page = context.new_page()
    open_survey(page, f"{live_server}/s/{often}")
    assert violations(page) == []
    page.check("input[name='truth-times'][value='more']")
    page.click("section[data-question='times'] .spin-button")
    page.wait_for_selector("[data-item='times'][data-state='done']", timeout=60_000)
    assert violations(page) == []
    context.close()
