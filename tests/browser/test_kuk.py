"""Kuk's cards in the browser: the page draws the decks' chances as one wheel, the respondent's
own cards are reported as a colour, only the reports go on the wire, and the page passes axe."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import phone_problems
from tests.browser.respondent import FORCE_DARK_AND_TAILS, memo
from tests.conftest import no_database, stored_bits

pytestmark = pytest.mark.browser


def answer_both(page, truth: int):
    page.check("input[name='direct-year'][value='fourth']")
    page.check(f"input[name='truth-kp'][value='{truth}']")
    page.click("section[data-question='kp'] .spin-button")
    # The next question once this one's outcome is shown: its text moves what is below it.
    page.wait_for_selector("[data-item='kp'][data-state='done']", timeout=60_000)
    page.check("input[name='report-ko'][value='1']")
    page.click("section[data-question='ko'] .spin-button")
    page.wait_for_selector("[data-item='ko'][data-state='done']", timeout=60_000)


def test_kuk_sends_the_wheels_report_and_the_cards_colour_alone(app, context, live_server, cards):
    page = context.new_page()
    # Every draw at the very end of the wheel: the last sector, a forced "no" (1 − θ₁ = 0.3).
    page.add_init_script(FORCE_DARK_AND_TAILS)
    posted = []
    page.on(
        "request",
        lambda request: posted.append(request.post_data) if request.method == "POST" else None,
    )
    page.goto(f"{live_server}/s/{cards}")
    page.wait_for_selector("[data-item='kp'] .spinner svg")
    expect(page.locator("input[name='truth-ko']")).to_have_count(0)
    expect(page.locator("section[data-question='ko']")).to_contain_text("3 red and 7 black cards")
    expect(page.locator("[data-item='kp'] path.sector-yes")).to_have_count(1)
    answer_both(page, truth=1)
    assert page.get_attribute("[data-item='kp']", "data-reported") == "0"
    expect(page.locator("[data-item='ko'] .outcome")).to_contain_text("Red")
    assert page.evaluate("window.draws") == 1  # the wheel's; the cards are the respondent's
    expect(page.locator("fieldset.truth:not(.direct) input:checked")).to_have_count(0)
    stored = memo(page, cards)["reported"]
    assert {item: entry["bit"] for item, entry in stored.items()} == {"kp": 0, "ko": 1}
    assert stored["kp"]["procedure"].startswith("kuk:")
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    expected = {"year": "fourth", "kp": 0, "ko": 1}
    assert [json.loads(body)["answers"] for body in posted] == [expected]
    with app.app_context():
        assert stored_bits() == [expected]


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@no_database
def test_a_kuk_survey_fits_a_phone_and_passes_axe(phone, cards, locale):
    page = phone(f"/s/{cards}", locale)
    assert phone_problems(page) == []
    answer_both(page, truth=0)
    assert phone_problems(page) == []
