"""The browser tests run in Debian's headless chromium (tests/browser/conftest.py); respondents
use the desktop one. A survey answered there end to end, on a phone and in Korean, keeps its
page's policy and sends only what the spinner and coin showed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import CHROMIUM_ARGS, DESKTOP_CHROMIUM, PatientBrowser
from tests.browser.respondent import (
    FORCE_DARK_AND_TAILS,
    TRUTH,
    answer_truthfully,
    on_a_phone,
    open_survey,
    sent_answers,
    spin,
    wait_until_done,
)

pytestmark = pytest.mark.browser


def test_a_respondent_answers_in_the_desktop_chromium(playwright, live_server, survey, page_log):
    desktop = playwright.chromium.launch(executable_path=DESKTOP_CHROMIUM, args=CHROMIUM_ARGS)
    try:
        _context, page, posted = on_a_phone(
            PatientBrowser(desktop), FORCE_DARK_AND_TAILS, locale="ko-KR"
        )
        log = page_log(page)
        open_survey(page, f"{live_server}/s/{survey}")
        expect(page.locator("html")).to_have_attribute("lang", "ko")
        answer_truthfully(page)
        spin(page, "cheated")
        spin(page, "substances")
        wait_until_done(page, TRUTH)
        with page.expect_navigation(url=re.compile(r"/thanks$")):
            page.click("#submit-button")
    finally:
        desktop.close()
    # Dark and tails throughout: "yes" to cheated reported as 0, each option as its opposite.
    assert sent_answers(posted) == [{"cheated": 0, "substances": {"alcohol": 0, "tobacco": 1}}]
    assert log.errors == []
    assert all(request.url.startswith(live_server + "/") for request in log.requests)
