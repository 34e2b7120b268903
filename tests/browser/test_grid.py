"""A grid on a phone: a fieldset per row, Next waiting for every row of a required grid, the rows
kept over a reload, and the answer sent as {row: option}."""

from __future__ import annotations

import copy

import pytest
from playwright.sync_api import expect

from tests.browser.axe import phone_problems
from tests.browser.respondent import reload_once_kept
from tests.browser.test_questionnaire import on_a_phone, spin_and_wait
from tests.web.core.surveys.questions.test_grids import COURSE

pytestmark = pytest.mark.browser

TWO_PAGES = copy.deepcopy(COURSE) | {"slug": "grid-pages"}
TWO_PAGES["questions"][0]["required"] = True
TWO_PAGES["pages"] = [
    {"id": "opinions", "title": "Your views", "questions": ["views"]},
    {"id": "exams", "title": "Exams", "questions": ["cheat"]},
]


def test_a_required_grid_waits_for_every_row_and_keeps_them_over_a_reload(
    browser, live_server, import_survey
):
    page, sent = on_a_phone(browser, f"{live_server}/s/{import_survey(TWO_PAGES)}")
    count = page.locator("#page-count")
    expect(count).to_have_text("Page 1 of 2", timeout=60_000)
    rows = page.locator("fieldset.grid-row")
    expect(rows).to_have_count(2)
    expect(rows.first.locator("legend")).to_have_text("The exam was fair")
    assert phone_problems(page, 390) == []
    fair = page.locator("fieldset[data-row='fair']")
    clear = page.locator("fieldset[data-row='clear']")
    fair.get_by_label("Agree", exact=True).check()
    expect(page.locator("#page-next")).to_have_attribute(
        "data-waiting", ""
    )  # one row still to answer
    clear.get_by_label("Neither", exact=True).check()
    expect(page.locator("#page-next")).not_to_have_attribute("data-waiting", "")
    page.click("#page-next")
    expect(count).to_have_text("Page 2 of 2")
    reload_once_kept(page)
    expect(count).to_have_text("Page 2 of 2", timeout=60_000)
    page.click("#page-back")
    expect(fair.get_by_label("Agree", exact=True)).to_be_checked()
    expect(clear.get_by_label("Neither", exact=True)).to_be_checked()
    page.click("#page-next")
    spin_and_wait(page, "cheat")
    expect(page.locator("#report-summary")).to_contain_text(
        "The exam was fair: Agree; The lectures were clear: Neither"
    )
    page.click("#submit-button")
    page.wait_for_url("**/thanks", timeout=60_000)
    (body,) = sent
    assert body["answers"]["views"] == {"fair": "agree", "clear": "neither"}
    assert body["answers"]["cheat"] in (0, 1)
    page.context.close()


def test_a_row_of_a_grid_shows_the_question_that_reads_it(browser, live_server, import_survey):
    from tests.web.core.surveys.questions.test_grids import FOLLOW_UP

    page, sent = on_a_phone(browser, f"{live_server}/s/{import_survey(FOLLOW_UP)}")
    cheat = page.locator("section[data-question='cheat']")
    fair = page.locator("fieldset[data-row='fair']")
    expect(fair).to_be_visible(timeout=60_000)
    expect(cheat).to_be_hidden()
    fair.get_by_label("Disagree", exact=True).check()
    expect(cheat).to_be_visible()
    fair.get_by_label("Agree", exact=True).check()
    expect(cheat).to_be_hidden()
    # No row starts answered: one left as it came is "not answered", never a declined answer.
    clear = page.locator("fieldset[data-row='clear']")
    expect(clear.locator("input:checked")).to_have_count(0)
    summary = page.locator("#report-summary")
    expect(summary).to_contain_text(
        "The exam was fair: Agree; The lectures were clear: Not answered"
    )
    clear.get_by_label("Prefer not to say", exact=True).check()
    expect(summary).to_contain_text("The lectures were clear: Prefer not to say")
    expect(page.locator("#submit-button")).not_to_have_attribute("data-waiting", "")
    page.click("#submit-button")
    page.wait_for_url("**/thanks", timeout=60_000)
    (body,) = sent
    assert body["answers"]["views"] == {"fair": "agree"}
    assert body["answers"].get("cheat") is None  # hidden: never asked, nothing sent
    page.context.close()
