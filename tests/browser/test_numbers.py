"""Number questions in the browser: the value typed or set on the slider stays on the page, the
value wheel spins at the value's share and leaves with the report, only the bit goes on the wire,
a reload never draws again, a value outside the range is refused with the reason, the builder
shows the range and the margin in units, and the page passes axe at 320 px in both languages."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import phone_problems
from tests.browser.held import HeldRequests
from tests.browser.researcher import log_in
from tests.browser.respondent import FORCE_DARK_AND_TAILS, FORCE_LIGHT, hint, memo, open_survey
from tests.conftest import PASSWORD, no_database, stored_bits

pytestmark = pytest.mark.browser


TRUTH_DRINKS_IS = """(value) =>
  document.querySelector("input[name='truth-drinks']").value === value"""


def stored_answers(app):
    with app.app_context():
        return stored_bits()


def spin_both(page, drinks: str, hours: str):
    page.fill("input[name='truth-drinks']", drinks)
    page.click("section[data-question='drinks'] .spin-button")
    page.fill("input[name='truth-hours']", hours)
    page.click("section[data-question='hours'] .spin-button")
    for item in ("drinks", "hours"):
        page.wait_for_selector(f"[data-item='{item}'][data-state='done']", timeout=60_000)


def test_only_the_bit_leaves_and_a_reload_never_draws_again(app, context, live_server, amounts):
    page = context.new_page()
    page.add_init_script(FORCE_LIGHT)
    posted = []
    page.on(
        "request",
        lambda request: posted.append(request.post_data) if request.method == "POST" else None,
    )
    open_survey(page, f"{live_server}/s/{amounts}")
    page.check("input[name='direct-year'][value='first']")
    # Outside the range, or off its steps: refused on the page with the reason, nothing drawn.
    for typed in ("31", "2.5"):
        page.fill("input[name='truth-drinks']", typed)
        page.click("section[data-question='drinks'] .spin-button")
        said = hint(page, "drinks", "Enter a number")
        assert "Enter a number from 0 to 30 in steps of 1" in said
    assert page.evaluate("window.draws") == 0
    # Every draw is 0: the value wheel says yes for any share above 0, the spinner lands on light.
    spin_both(page, drinks="12", hours="0")
    assert page.get_attribute("[data-item='drinks']", "data-reported") == "1"
    assert page.get_attribute("[data-item='hours']", "data-reported") == "0"
    assert page.evaluate("window.draws") == 4  # a value wheel and a spinner for each
    # The value leaves the page: the field is empty, the slider back at its start, no wheel.
    assert page.input_value("input[name='truth-drinks']") == ""
    assert page.input_value("input[name='slider-drinks']") == "0"
    expect(page.locator("[data-item='drinks'] .value-wheel svg")).to_have_count(0)
    expect(page.locator("section[data-question='drinks']")).not_to_contain_text("12")
    stored = memo(page, amounts)["reported"]
    assert {item: entry["bit"] for item, entry in stored.items()} == {"drinks": 1, "hours": 0}
    assert all(set(entry) == {"bit", "epsilon", "procedure"} for entry in stored.values())

    page.reload()
    page.wait_for_selector("[data-item='hours'][data-state='done']")
    assert page.evaluate("window.draws") == 0
    page.check("input[name='direct-year'][value='first']")
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    expected = {"year": "first", "drinks": 1, "hours": 0}
    assert [json.loads(body)["answers"] for body in posted] == [expected]
    assert stored_answers(app) == [expected]


@no_database
def test_a_slider_moved_before_the_draws_code_arrives_gives_the_number(
    context, live_server, amounts
):
    """On a slow network the slider answers before the module that keeps it and the field in
    step has arrived: the move still counts once it does."""
    page = context.new_page()
    held = HeldRequests(page, r"/draw\.js")
    open_survey(page, f"{live_server}/s/{amounts}")
    page.locator("input[name='slider-drinks']").focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    # The page asks for the draw's module at once where a question has a slider.
    held.wait("the draw's module")
    assert page.input_value("input[name='truth-drinks']") == ""
    held.release()
    page.wait_for_function(TRUTH_DRINKS_IS, arg="3")


def test_the_slider_moves_the_number_by_keyboard_and_dark_lets_the_coin_decide(
    context, live_server, amounts
):
    page = context.new_page()
    page.add_init_script(FORCE_DARK_AND_TAILS)
    # The page's code starts once the page has loaded: open_survey waits for it.
    open_survey(page, f"{live_server}/s/{amounts}")
    slider = page.locator("input[name='slider-drinks']")
    slider.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    # The field follows once the draw's module is there (a moment on a busy machine).
    page.wait_for_function(TRUTH_DRINKS_IS, arg="3")
    page.fill("input[name='truth-hours']", "10")
    assert page.input_value("input[name='slider-hours']") == "10"
    page.click("section[data-question='drinks'] .spin-button")
    page.click("section[data-question='hours'] .spin-button")
    for item in ("drinks", "hours"):
        page.wait_for_selector(f"[data-item='{item}'][data-state='done']", timeout=60_000)
    # Dark: drinks (spinner and coin) reports the coin's tails; hours (spinner only) the opposite
    # of its value wheel, which says yes at the top of the range: 0.
    assert page.get_attribute("[data-item='drinks']", "data-reported") == "0"
    assert page.get_attribute("[data-item='drinks']", "data-coin") == "tails"
    assert page.get_attribute("[data-item='hours']", "data-reported") == "0"
    expect(page.locator("section[data-question='drinks']")).to_contain_text(
        "average of everyone's numbers"
    )


@no_database
def test_the_builder_shows_the_range_and_the_margin_in_units(browser, runner, live_server, amounts):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    log_in(page, live_server, "rita@example.org")
    page.goto(f"{live_server}/surveys/{amounts}/questions/new")
    assert page.is_hidden("#number-range")
    page.select_option("#kind", "number")
    assert page.is_visible("#value_max") and page.is_hidden("#options")
    page.fill("#text", "Hours of sleep last night?")
    page.fill("#value_min", "0")
    page.fill("#value_max", "12")
    page.fill("#value_step", "0.5")
    page.fill("#unit", "hours")
    page.fill("#planned", "400")
    page.wait_for_function(
        "() => document.getElementById('preview-margin').textContent.includes('hours')"
    )
    expect(page.locator("#preview-margin")).to_contain_text("400 respondents")
    page.fill("#value_max", "0")
    page.wait_for_function(
        "() => document.getElementById('preview-margin').textContent.includes('smallest answer')"
    )
    page.fill("#value_max", "12")
    page.click("#question-form button[type='submit']")
    page.wait_for_url(re.compile(r"/edit$"))
    expect(page.locator("main")).to_contain_text("Hours of sleep last night?")
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@no_database
def test_a_number_survey_fits_a_phone_and_passes_axe(phone, amounts, locale):
    page = phone(f"/s/{amounts}", locale)
    assert phone_problems(page) == []
    page.fill("input[name='truth-drinks']", "4")
    page.click("section[data-question='drinks'] .spin-button")
    page.wait_for_selector("[data-item='drinks'][data-state='done']", timeout=60_000)
    assert phone_problems(page) == []
