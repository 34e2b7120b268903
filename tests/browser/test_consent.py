"""Consent on a phone, in both languages: agreeing shows the questions and folds the privacy box;
a reload goes straight to the questions, never asking again; nothing is sent for it."""

from __future__ import annotations

import copy

import pytest
from playwright.sync_api import expect

from tests.browser.axe import phone_problems
from tests.browser.respondent import memo
from tests.browser.test_questionnaire import on_a_phone
from tests.conftest import FIELDED_SURVEY

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_consent_is_asked_once_and_folds_the_privacy_box(
    browser, live_server, import_survey, locale
):
    slug = import_survey(copy.deepcopy(FIELDED_SURVEY))
    page, sent = on_a_phone(browser, f"{live_server}/s/{slug}", locale)
    agree = page.locator("#consent-agree")
    expect(agree).to_be_enabled(timeout=60_000)
    expect(page.locator("#privacy")).to_have_attribute("open", "")
    expect(page.locator("#survey-form")).to_be_hidden()
    assert phone_problems(page, 390) == []
    agree.click()
    expect(page.locator("#survey-form")).to_be_visible()
    expect(page.locator("#privacy")).not_to_have_attribute("open", "")
    page.wait_for_function(
        "(key) => (localStorage.getItem(key) || '').includes('@consent')", arg=f"rr-survey:{slug}"
    )
    page.reload()
    expect(page.locator("section[data-question='cheated'] .spin-button")).to_be_enabled(
        timeout=60_000
    )
    expect(page.locator("#consent")).to_be_hidden()
    expect(page.locator("#privacy")).not_to_have_attribute("open", "")
    assert "@consent" in memo(page, slug)["reported"]
    assert sent == []
    assert phone_problems(page, 390) == []
    page.context.close()
