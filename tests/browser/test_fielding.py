"""A study fielded in a real browser: each respondent reads their own language and keeps their
draw when switching; consent comes first and declining sends nothing; the completion address is
followed; a scheduled survey shows its opening time in the respondent's time zone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.respondent import (
    FORCE_DARK_AND_TAILS,
    answer_truthfully,
    shown,
    spin,
    wait_until_done,
)
from tests.conftest import FIELDED_SURVEY

pytestmark = pytest.mark.browser


def agree(page):
    page.click("#consent-agree")
    page.wait_for_selector("#survey-form:not([hidden])")


def test_switching_language_shows_the_draw_already_made(browser, live_server, fielded_survey):
    context = browser.new_context(locale="en-US", reduced_motion="reduce")
    context.add_init_script(FORCE_DARK_AND_TAILS)
    page = context.new_page()
    page.goto(f"{live_server}/s/{fielded_survey}")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator("#consent").inner_text().count("voluntary") == 1
    agree(page)
    expect(page.locator("section[data-question='cheated'] h2")).to_contain_text("Cheated?")
    answer_truthfully(page)
    spin(page, "cheated")
    wait_until_done(page, ["cheated"])
    before = shown(page, "cheated")["reported"]
    with page.expect_navigation():
        page.click("nav.languages a[hreflang='ko']")
    assert page.locator("html").get_attribute("lang") == "ko"
    # Consent given once is kept: the reload in the other language goes to the questions.
    expect(page.locator("section[data-question='cheated'] h2")).to_contain_text("베꼈습니까?")
    expect(page.locator("#consent")).to_be_hidden()
    heading = page.locator("section[data-question='cheated'] h2").inner_text()
    assert "베꼈습니까?" in heading and "Cheated?" not in heading
    expect(page.locator("section[data-question='substances']")).to_contain_text("술")
    wait_until_done(page, ["cheated"])
    assert shown(page, "cheated")["reported"] == before
    assert page.evaluate("window.draws") == 0  # shown from the memo, not drawn again
    assert page.locator("section[data-question='cheated'] .spin-button").is_disabled()
    context.close()


def test_declining_consent_shows_a_short_page_and_sends_nothing(
    context, live_server, fielded_survey, page_log
):
    page = context.new_page()
    log = page_log(page)
    page.goto(f"{live_server}/s/{fielded_survey}")
    assert page.locator("#survey-form").is_hidden()
    page.click("#consent-decline")
    declined = page.locator("#consent-declined")
    expect(declined).to_be_visible()
    expect(declined).to_contain_text("Nothing was sent")
    assert page.locator("#consent").is_hidden() and page.locator("#survey-form").is_hidden()
    assert page.evaluate("document.activeElement.id") == "consent-declined"
    assert [r for r in log.requests if r.method != "GET"] == []
    assert page.evaluate("Object.keys(localStorage).length") == 0
    assert log.errors == []


def test_the_completion_address_is_followed_with_the_code(
    context, live_server, import_survey, page_log
):
    slug = import_survey(
        {
            **FIELDED_SURVEY,
            "slug": "panel",
            "completion_url": "https://panel.example.com/done?c={code}",
        }
    )
    arrived = []

    def panel(route):
        arrived.append(route.request.url)
        route.fulfill(
            status=200,
            content_type="text/html",
            body="<!doctype html><title>Panel</title><p>Done</p>",
        )

    context.route("https://panel.example.com/**", panel)
    page = context.new_page()
    log = page_log(page)
    page.goto(f"{live_server}/s/{slug}")
    agree(page)
    answer_truthfully(page)
    spin(page, "cheated")
    spin(page, "substances")
    wait_until_done(page, ["cheated", "substances.alcohol", "substances.tobacco"])
    with page.expect_navigation(url=re.compile(r"panel\.example\.com")):
        page.click("#submit-button")
    assert arrived == ["https://panel.example.com/done?c=CAMPUS7"]
    post = next(request for request in log.requests if request.method == "POST")
    assert set(post.post_data_json) == {"answers"}  # nothing about consent or language is sent
    # Coming back, the respondent sees the code again.
    page.goto(f"{live_server}/s/{slug}/thanks")
    expect(page.locator("#completion-code")).to_contain_text("CAMPUS7")


def test_a_scheduled_survey_shows_its_opening_in_the_respondents_zone(
    browser, live_server, import_survey
):
    slug = import_survey({**FIELDED_SURVEY, "slug": "later", "opens_at": "2099-06-01T09:00:00Z"})
    context = browser.new_context(locale="en-US", timezone_id="Asia/Seoul")
    page = context.new_page()
    page.goto(f"{live_server}/s/{slug}")
    notice = page.locator("#not-yet-open")
    page.wait_for_function("document.querySelector('#not-yet-open time').title !== ''")
    for words in ("June 1, 2099", "6:00 PM", "GMT+9"):
        expect(notice).to_contain_text(words)
    expect(page.locator("#survey-form")).to_have_count(0)
    context.close()
