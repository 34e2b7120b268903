"""A respondent skips a question: decided before its spin, sent as nothing, never offered after
the draw; a required question offers no skip."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.respondent import FORCE_DARK_AND_TAILS, open_survey, spin, wait_until_done
from tests.conftest import SAMPLE_SURVEY

pytestmark = pytest.mark.browser

OPTIONAL_AND_REQUIRED = {
    **SAMPLE_SURVEY,
    "slug": "skippable",
    "questions": [
        SAMPLE_SURVEY["questions"][0],
        {**SAMPLE_SURVEY["questions"][1], "required": True},
        {
            "id": "year",
            "type": "direct",
            "text": "Year?",
            "required": True,
            "options": [{"id": "first", "text": "First"}, {"id": "later", "text": "Later"}],
        },
    ],
}


def test_a_skip_is_decided_before_the_spin_and_sends_nothing_for_the_question(
    context, live_server, import_survey
):
    slug = import_survey(OPTIONAL_AND_REQUIRED)
    context.add_init_script(FORCE_DARK_AND_TAILS)
    page = context.new_page()
    open_survey(page, f"{live_server}/s/{slug}")
    cheated = page.locator("section[data-question='cheated']")
    substances = page.locator("section[data-question='substances']")
    # The required questions offer no skip, and the required direct one no "prefer not to say".
    expect(substances.locator(".skip-question")).to_have_count(0)
    expect(page.locator("input[name='direct-year'][value='']")).to_have_count(0)
    skip = cheated.get_by_label("Skip this question")
    page.check("input[name='truth-cheated'][value='1']")
    skip.check()
    # The true answer chosen before the skip leaves the screen; nothing can be spun.
    expect(cheated.locator("input[name='truth-cheated'][value='1']")).not_to_be_checked()
    expect(cheated.locator(".spin-button")).to_be_disabled()
    expect(page.locator("#report-summary li[data-question='cheated']")).to_contain_text(
        "Skipped: nothing is sent for this question"
    )
    # A skip taken back offers the spin again; skipped again, it stays skipped.
    skip.uncheck()
    expect(cheated.locator(".spin-button")).to_be_enabled()
    skip.check()
    page.check("input[name='truth-substances-alcohol']")
    spin(page, "substances")
    wait_until_done(page, ["substances.alcohol", "substances.tobacco"])
    submit = page.locator("#submit-button")
    expect(submit).to_have_attribute(
        "data-waiting", ""
    )  # the required direct question is not answered yet
    page.check("input[name='direct-year'][value='later']")
    expect(submit).not_to_have_attribute("data-waiting", "")
    with page.expect_request(re.compile(r"/responses$")) as sent:
        submit.click()
    body = json.loads(sent.value.post_data)
    assert body == {"answers": {"substances": {"alcohol": 0, "tobacco": 1}, "year": "later"}}
    page.wait_for_url(re.compile(r"/thanks$"), timeout=60_000)


def test_a_spun_question_shows_no_skip_after_a_reload(context, live_server, import_survey):
    slug = import_survey(OPTIONAL_AND_REQUIRED)
    context.add_init_script(FORCE_DARK_AND_TAILS)
    page = context.new_page()
    open_survey(page, f"{live_server}/s/{slug}")
    page.check("input[name='truth-cheated'][value='0']")
    spin(page, "cheated")
    wait_until_done(page, ["cheated"])
    page.reload()
    page.wait_for_selector("[data-item='cheated'][data-state='done']", timeout=60_000)
    cheated = page.locator("section[data-question='cheated']")
    expect(cheated.locator(".skip")).to_be_hidden()
    expect(cheated.locator(".skip-question")).to_be_disabled()
