"""The designs in the browser: forced response on one wheel of three sectors, the unrelated
question, the respondent's own die and the crosswise question (the page asks for the report
only), cheating detection's and the lie detector's arms, what goes on the wire, reloads, the
builder's preview, and accessibility."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import phone_problems
from tests.browser.researcher import log_in
from tests.browser.respondent import (
    FORCE_DARK_AND_TAILS,
    FORCE_LIGHT,
    hint,
    memo,
    on_a_phone,
    open_survey,
)
from tests.conftest import PASSWORD, no_database, stored_bits

pytestmark = pytest.mark.browser
SPUN = ("fr", "uq")  # drawn by the page; "own" and "cw" are reported by the respondent


def stored_answers(app):
    with app.app_context():
        return stored_bits()


def answer_every_design(page, truth: int):
    """Choose the true answers where the page draws, the reports where the respondent does, and
    press each question's button."""
    # Each question is answered once the one before shows its outcome: the outcome's text moves
    # what is below it, and a click aimed while it moves can land beside its target.
    done = lambda item: page.wait_for_selector(  # noqa: E731
        f"[data-item='{item}'][data-state='done']", timeout=60_000
    )
    page.check("input[name='direct-year'][value='first']")
    page.check(f"input[name='truth-fr'][value='{truth}']")
    page.click("section[data-question='fr'] .spin-button")
    done("fr")
    page.check("input[name='report-own'][value='1']")
    page.click("section[data-question='own'] .spin-button")
    done("own")
    page.check(f"input[name='truth-uq'][value='{truth}']")
    page.click("section[data-question='uq'] .spin-button")
    assert hint(page, "uq")  # the innocuous answer is missing
    page.check("input[name='innocuous-uq'][value='0']")
    page.click("section[data-question='uq'] .spin-button")
    done("uq")
    page.check("input[name='report-cw'][value='0']")
    page.click("section[data-question='cw'] .spin-button")
    done("cw")


def test_each_design_sends_its_report_alone_and_a_reload_never_draws_again(
    app, context, live_server, designed
):
    page = context.new_page()
    page.add_init_script(FORCE_LIGHT)
    posted = []
    page.on(
        "request",
        lambda request: posted.append(request.post_data) if request.method == "POST" else None,
    )
    # The page's code starts once the page has loaded: open_survey waits for it.
    open_survey(page, f"{live_server}/s/{designed}")
    # The respondent's own die and the crosswise question never ask for the true answer.
    expect(page.locator("input[name='truth-own'], input[name='truth-cw']")).to_have_count(0)
    expect(page.locator("section[data-question='own'] .faces")).to_contain_text("5")
    expect(page.locator("[data-item='fr'] path.sector-yes")).to_have_count(1)
    expect(page.locator("[data-item='fr'] path.sector-no")).to_have_count(1)
    page.click("section[data-question='own'] .spin-button")
    assert "Choose what you report first" in hint(page, "own", "Choose what")
    answer_every_design(page, truth=1)
    # Light: the true answers of fr and uq; own and cw as reported, with no draw of the page's.
    assert {
        item: page.get_attribute(f"[data-item='{item}']", "data-reported") for item in SPUN
    } == {
        "fr": "1",
        "uq": "1",
    }
    expect(page.locator("[data-item='cw'] .outcome")).not_to_contain_text("Both the same")
    expect(page.locator("[data-item='cw'] .outcome")).to_contain_text("Different")
    expect(page.locator("[data-item='own'] .outcome")).to_contain_text(
        "page never saw your true answer"
    )
    assert page.evaluate("window.draws") == 2  # one for each wheel, none for own and cw
    expect(page.locator("fieldset.truth:not(.direct) input:checked")).to_have_count(0)
    stored = memo(page, designed)["reported"]
    assert {item: entry["bit"] for item, entry in stored.items()} == {
        "fr": 1,
        "own": 1,
        "uq": 1,
        "cw": 0,
    }
    assert stored["fr"]["procedure"].startswith("forced_response:")

    page.reload()
    page.wait_for_selector("[data-item='cw'][data-state='done']")
    assert page.evaluate("window.draws") == 0
    page.check("input[name='direct-year'][value='first']")
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    expected = {"year": "first", "fr": 1, "own": 1, "uq": 1, "cw": 0}
    assert [json.loads(body)["answers"] for body in posted] == [expected]
    assert stored_answers(app) == [expected]


def test_on_dark_forced_response_says_its_sector_and_the_unrelated_question_the_innocuous(
    context, live_server, designed
):
    page = context.new_page()
    page.add_init_script(FORCE_DARK_AND_TAILS)
    page.goto(f"{live_server}/s/{designed}")
    answer_every_design(page, truth=1)
    # The wheel stops at its very end: forced response's last sector is "no"; the unrelated
    # question's dark sector reports the innocuous answer (no), whatever the true answer.
    assert page.get_attribute("[data-item='fr']", "data-reported") == "0"
    assert page.get_attribute("[data-item='uq']", "data-reported") == "0"
    assert page.get_attribute("[data-item='fr']", "data-outcome") == "dark"


@no_database
def test_the_builder_previews_a_designs_epsilon_and_shows_its_fields(
    browser, runner, live_server, designed
):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    log_in(page, live_server, "rita@example.org")
    page.goto(f"{live_server}/surveys/{designed}/questions/new")
    assert page.is_hidden("#design-parameters")
    page.fill("#text", "Copied?")
    page.select_option("#procedure", "forced_response")
    assert page.is_visible("#p_forced_yes") and page.is_hidden("#epsilon")
    assert page.is_hidden("#prevalence")
    page.fill("#p_truth", "0.7")
    page.fill("#p_forced_yes", "0.2")
    page.fill("#p_forced_no", "0.1")
    page.fill("#planned", "300")
    # λ₁ = 0.9, λ₀ = 0.2: ε = ln(0.8/0.1) = ln 8.
    page.wait_for_function(
        "() => document.getElementById('preview-light').textContent.includes('2.0794')"
    )
    expect(page.locator("#preview-light")).to_contain_text("P(report yes | yes) = 90%")
    page.wait_for_function(
        "() => document.getElementById('preview-margin').textContent.includes('300')"
    )
    expect(page.locator("#preview-spinner path.sector-no")).to_have_count(1)
    page.fill("#p_forced_no", "0.2")
    # The preview is the server's plan, which refuses shares that do not add up to 1.
    page.wait_for_function(
        "() => document.getElementById('preview-light').textContent.includes('Enter the design')"
    )
    page.select_option("#procedure", "cheating_detection")
    assert page.is_visible("#arm_2_p_forced_no") and page.is_hidden("#p_truth")
    # Arms (0.6, 0.3, 0.1) and (0.6, 0.1, 0.3): each ε = ln(0.7/0.1) = ln 7.
    page.wait_for_function(
        "() => document.getElementById('preview-light').textContent.includes('1.9459')"
    )
    page.wait_for_function(
        "() => document.getElementById('preview-margin').textContent.includes('half in each arm')"
    )
    page.select_option("#procedure", "crosswise")
    assert page.is_visible("#prevalence") and page.is_visible("#innocuous")
    assert page.is_hidden("#p_truth") and page.is_hidden("#randomizer")
    page.fill("#innocuous", "Mother born in January to March?")
    page.fill("#prevalence", "0.25")
    page.wait_for_function(
        "() => document.getElementById('preview-cost').textContent.includes('1.0986')"
    )
    page.click("#question-form button[type='submit']")
    page.wait_for_url(re.compile(r"/edit$"))
    expect(page.locator("main")).to_contain_text("Copied?")
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@no_database
def test_a_designed_survey_fits_a_phone_and_passes_axe(phone, designed, locale):
    page = phone(f"/s/{designed}", locale)
    assert phone_problems(page) == []
    answer_every_design(page, truth=0)
    assert phone_problems(page) == []


def test_cheating_detection_draws_an_arm_and_sends_it_with_the_report(
    app, context, live_server, cheaters
):
    page = context.new_page()
    page.add_init_script(FORCE_DARK_AND_TAILS)
    open_survey(page, f"{live_server}/s/{cheaters}")
    page.check("input[name='direct-year'][value='fourth']")
    page.check("input[name='truth-cd'][value='1']")
    page.click("section[data-question='cd'] .spin-button")
    page.wait_for_selector("[data-item='cd'][data-state='done']", timeout=60_000)
    # The arm is drawn as a condition, by its share of the range: 0xFFFFFFFE, at the top, is the
    # second arm; then the wheel's end, its "no" sector, whatever the truth.
    expect(page.locator("[data-item='cd'] .outcome")).to_contain_text("Wheel 2 of 2")
    expect(page.locator("[data-item='cd'] path.sector-no")).to_have_count(1)
    assert memo(page, cheaters)["reported"]["cd"]["bit"] == "1:0"
    expect(page.locator("input[name='truth-cd']:checked")).to_have_count(0)
    page.reload()
    page.wait_for_selector("[data-item='cd'][data-state='done']")
    assert page.evaluate("window.draws") == 0
    page.check("input[name='direct-year'][value='fourth']")
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    assert stored_answers(app) == [{"year": "fourth", "cd": {"arm": 1, "reported": 0}}]


def test_the_lie_detector_draws_an_arm_whose_dark_says_yes_and_has_no_bound(
    app, context, live_server, liars
):
    page = context.new_page()
    page.add_init_script(FORCE_DARK_AND_TAILS)
    open_survey(page, f"{live_server}/s/{liars}")
    expect(page.locator("section[data-question='sld'] .cost")).to_contain_text("no ε bound")
    expect(page.locator("main")).to_contain_text(
        "Questions with no ε bound are left out of it (1 here)"
    )
    page.check("input[name='direct-year'][value='first']")
    page.check("input[name='truth-spun'][value='0']")
    page.click("section[data-question='spun'] .spin-button")
    page.wait_for_selector("[data-item='spun'][data-state='done']", timeout=60_000)
    page.check("input[name='truth-sld'][value='0']")
    page.click("section[data-question='sld'] .spin-button")
    page.wait_for_selector("[data-item='sld'][data-state='done']", timeout=60_000)
    # The second arm, then the wheel's end: its dark sector, a told "yes", though the truth is no.
    expect(page.locator("[data-item='sld'] .outcome")).to_contain_text("Wheel 2 of 2")
    assert memo(page, liars)["reported"]["sld"]["bit"] == "1:1"
    expect(page.locator("input[name='truth-sld']:checked")).to_have_count(0)
    page.reload()
    page.wait_for_selector("[data-item='sld'][data-state='done']")
    assert page.evaluate("window.draws") == 0
    page.check("input[name='direct-year'][value='first']")
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    [stored] = stored_answers(app)
    assert stored["sld"] == {"arm": 1, "reported": 1} and set(stored) == {"year", "spun", "sld"}


@no_database
def test_the_builder_previews_the_lie_detector_without_an_epsilon(
    browser, runner, live_server, liars
):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    log_in(page, live_server, "rita@example.org")
    page.goto(f"{live_server}/surveys/{liars}/questions/new")
    page.fill("#text", "Voted for the ban?")
    page.select_option("#procedure", "stochastic_lie_detector")
    assert page.is_visible("#arm_2_p_no") and page.is_hidden("#arm_1_p_truth")
    expect(page.locator("#preview-light")).to_contain_text("No ε bound")
    expect(page.locator("#preview-margin")).to_contain_text("half in each arm")
    page.fill("#arm_2_p_no", "0.25")
    expect(page.locator("#preview-light")).to_contain_text("Enter the design")
    page.fill("#arm_2_p_no", "0.75")
    expect(page.locator("#preview-light")).to_contain_text("No ε bound")
    # The extended crosswise model: an everyday question per arm, and the model test.
    page.select_option("#procedure", "extended_crosswise")
    assert page.is_visible("#arm_2_innocuous") and page.is_hidden("#arm_2_p_no")
    expect(page.locator("#preview-light")).to_contain_text("the model test says whether")
    expect(page.locator("#preview-margin")).to_contain_text("everyone follows the instructions")
    page.select_option("#procedure", "stochastic_lie_detector")
    page.click("#question-form button[type='submit']")
    page.wait_for_url(re.compile(r"/edit$"))
    expect(page.locator("#survey-epsilon")).to_contain_text("left out of it (2 here: sld, ")
    context.close()


def test_the_extended_crosswise_model_keeps_its_drawn_arm_and_sends_it_with_the_report(
    app, browser, live_server, crossed
):
    context, page, posted = on_a_phone(browser, FORCE_DARK_AND_TAILS)
    open_survey(page, f"{live_server}/s/{crossed}")
    # The top of the range is the second arm: its everyday question alone is shown.
    second = page.locator("section[data-question='ecwm'] .arm-innocuous[data-arm='1']")
    expect(second).to_be_visible()
    expect(page.locator(".arm-innocuous[data-arm='0']")).to_be_hidden()
    assert memo(page, crossed)["reported"]["@arm:ecwm"]["bit"] == "1"
    page.reload()
    page.wait_for_selector(".spin-button:not([disabled])")
    expect(second).to_be_visible()
    page.check("input[name='direct-year'][value='first']")
    page.check("input[name='report-ecwm'][value='1']")
    page.click("section[data-question='ecwm'] .spin-button")
    page.wait_for_selector("[data-item='ecwm'][data-state='done']", timeout=60_000)
    assert memo(page, crossed)["reported"]["ecwm"]["bit"] == "1:1"
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    sent = [json.loads(body)["answers"] for body in posted if body and "answers" in body]
    assert sent == [{"year": "first", "ecwm": {"arm": 1, "reported": 1}}]
    assert stored_answers(app) == sent
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("fixture", ["crossed", "liars"])
@no_database
def test_the_designs_of_two_arms_fit_a_phone_and_pass_axe(phone, request, fixture, locale):
    slug = request.getfixturevalue(fixture)
    page = phone(f"/s/{slug}", locale)
    assert phone_problems(page) == []
