"""A researcher's chores in the browser: reorder questions, preview, archive, name options."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.researcher import log_in
from tests.browser.respondent import (
    FORCE_LIGHT,
    answer_truthfully,
    memo,
    open_survey,
    reported_bits,
    shown,
    spin,
    wait_until_done,
)
from tests.conftest import PASSWORD, stored_count
from web.core.infrastructure.extensions import db
from web.core.surveys.lookup import find_survey
from web.core.surveys.question_edit import reorder_questions

pytestmark = pytest.mark.browser


@pytest.fixture
def researcher_page(browser, runner, live_server):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server, "rita@example.org")
    yield page
    assert errors == []
    context.close()


def table_order(page):
    return page.eval_on_selector_all(
        "#question-table tbody tr", "(rows) => rows.map((row) => row.dataset.question)"
    )


def test_questions_reorder_by_keyboard_and_by_dragging(researcher_page, live_server, survey):
    page = researcher_page
    page.goto(f"{live_server}/surveys/{survey}/edit")
    assert table_order(page) == ["cheated", "substances"]
    assert page.get_attribute("#move-cheated-down", "aria-label") == "Move “Cheated?” down"

    page.focus("#move-cheated-down")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert table_order(page) == ["substances", "cheated"]
    # The keyboard is back on the question's arrow, now its "up" one (it reached the end).
    page.wait_for_function("() => document.activeElement?.id === 'move-cheated-up'")

    # Both rows in view, as a hand sees them: Back from the move left the page scrolled to its
    # arrow, with the other row above the window (a drag that scrolls mid-way never starts).
    page.locator("#question-table").evaluate("(table) => table.scrollIntoView({block: 'center'})")
    with page.expect_navigation():
        page.drag_and_drop(
            "tr[data-question='cheated'] .drag-handle",
            "tr[data-question='substances']",
            target_position={"x": 5, "y": 3},
        )
    assert table_order(page) == ["cheated", "substances"]
    page.goto(f"{live_server}/s/{survey}")
    headings = page.eval_on_selector_all(
        "section.question", "(sections) => sections.map((s) => s.dataset.question)"
    )
    assert headings == ["cheated", "substances"]


def test_a_reorder_while_a_respondent_is_answering_gives_no_second_draw(
    app, context, live_server, survey
):
    page = context.new_page()
    page.add_init_script(FORCE_LIGHT)
    open_survey(page, f"{live_server}/s/{survey}")
    answer_truthfully(page)
    spin(page, "cheated")
    wait_until_done(page, ["cheated"])
    drawn = reported_bits(memo(page, survey))
    with app.app_context():
        reorder_questions(find_survey(survey), ["substances", "cheated"])
        db.session.commit()

    page.reload()
    page.wait_for_selector("[data-item='cheated'][data-state='done']")
    assert page.evaluate("window.draws") == 0
    assert shown(page, "cheated")["reported"] == drawn["cheated"]
    assert page.is_disabled("section[data-question='cheated'] .spin-button")
    assert page.eval_on_selector("section.question", "(s) => s.dataset.question") == "substances"


def test_the_preview_spins_but_sends_and_keeps_nothing(app, researcher_page, live_server, survey):
    page = researcher_page
    posts = []
    page.on("request", lambda request: request.method == "POST" and posts.append(request.url))
    page.goto(f"{live_server}/surveys/{survey}")
    with page.expect_navigation():
        page.click("text=Preview")
    expect(page.locator("#preview-banner")).to_contain_text("nothing you do is sent or stored")
    answer_truthfully(page)
    spin(page, "cheated")
    wait_until_done(page, ["cheated"])  # its outcome's focus scrolls the next button away
    spin(page, "substances")
    wait_until_done(page, ["substances.alcohol", "substances.tobacco"])
    page.click("#submit-button")
    page.wait_for_selector("#submit-error:not(:empty)")
    expect(page.locator("#submit-error")).to_contain_text("nothing was sent or stored")
    assert posts == [] and memo(page, survey) is None
    with app.app_context():
        assert stored_count() == 0

    # The real page in the same browser has drawn nothing yet.
    page.goto(f"{live_server}/s/{survey}")
    # Enabled once the page's code (started after the page has loaded) has set it up.
    page.wait_for_selector("section[data-question='cheated'] .spin-button:not([disabled])")
    assert shown(page, "cheated")["reported"] is None


def test_a_draft_previews_for_its_owner_from_the_respondents_link(researcher_page, live_server):
    page = researcher_page
    page.goto(f"{live_server}/surveys/new")
    page.fill("#title", "Still a draft")
    page.click("text=Create draft")
    page.click("text=Add a question")
    page.fill("#text", "Which of these have you done?")
    page.select_option("#kind", "multi")
    page.fill("#options", "Copied homework\nBorrowed notes")
    page.fill("#option_ids", "copied\n")
    page.click("text=Save question")
    page.wait_for_url(f"{live_server}/surveys/still-a-draft/edit")
    page.goto(f"{live_server}/s/still-a-draft")
    page.wait_for_url(f"{live_server}/surveys/still-a-draft/preview")
    items = page.eval_on_selector_all(
        "[data-item]", "(boxes) => boxes.map((box) => box.dataset.item)"
    )
    assert items == ["q1.copied", "q1.borrowed_notes"]


def test_a_closed_survey_is_archived_and_restored(researcher_page, live_server, survey):
    page = researcher_page
    page.goto(f"{live_server}/surveys/{survey}")
    expect(page.locator("button:text-is('Archive')")).to_have_count(0)  # open: close it first
    page.click("summary:has-text('Close survey')")
    with page.expect_navigation():
        page.click("text=Yes, close it")
    with page.expect_navigation():
        page.click("button:text-is('Archive')")
    assert page.url == f"{live_server}/surveys"
    expect(page.locator(f"tr[data-slug='{survey}']")).to_have_count(0)
    with page.expect_navigation():
        page.click("#archived-link")
    with page.expect_navigation():
        page.click(f"tr[data-slug='{survey}'] a")
    with page.expect_navigation():
        page.click("button:text-is('Restore')")
    page.goto(f"{live_server}/surveys")
    expect(page.locator(f"tr[data-slug='{survey}']")).to_have_count(1)
