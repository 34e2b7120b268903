"""A researcher builds a survey in the browser, opens it, and sees a respondent's answer arrive."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

import rr
from tests.browser.researcher import log_in
from tests.browser.respondent import open_survey
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


@pytest.mark.long
def test_build_open_answer_and_read_the_estimate(app, browser, runner, live_server):
    app.config["RESULTS_MIN_N"] = 1
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    researcher = browser.new_context(reduced_motion="reduce")
    page = researcher.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server, "rita@example.org")

    page.click("text=New survey")
    page.fill("#title", "Exam honesty")
    page.fill("#description", "A short one.")
    page.fill("#results_batch", "2")
    page.click("text=Create draft")
    page.wait_for_url(f"{live_server}/surveys/exam-honesty/edit")

    page.click("text=Add a question")
    page.fill("#text", "Have you ever cheated in an exam?")
    page.fill("#key", "cheated")
    page.fill("#epsilon", "2")
    page.select_option("#procedure", "spinner")
    light = rr.light_fraction(2.0, "spinner")
    page.wait_for_function(
        "(text) => document.getElementById('preview-light').textContent.includes(text)",
        arg=f"{round(light * 1000) / 10}%",
    )
    expect(page.locator("#preview-cost")).to_contain_text("This question costs ε = 2.")
    expect(page.locator("#preview-total")).to_contain_text("The survey will cost ε = 2 in total.")
    page.fill("#planned", "400")
    margin = rr.margin_of_error(400, 2.0, "spinner")
    page.wait_for_function(
        "(text) => document.getElementById('preview-margin').textContent.includes(text)",
        arg=f"±{margin * 100:.1f} percentage points",
    )
    page.select_option("#kind", "multi")
    page.fill("#options", "Once\nTwice")
    page.wait_for_function(
        "() => document.getElementById('preview-cost').textContent.includes('ε = 2 × 2 = 4')"
    )
    page.select_option("#kind", "yesno")
    assert page.locator("#options").is_hidden()
    page.click("text=Save question")
    page.wait_for_url(f"{live_server}/surveys/exam-honesty/edit")
    expect(page.locator("#survey-epsilon")).to_contain_text("ε = 2")

    page.goto(f"{live_server}/surveys/exam-honesty")
    page.click("button:has-text('Open survey')")
    page.wait_for_selector("#survey-status:has-text('open')")
    expect(page.locator("#response-count")).to_have_text("0")

    reported = []
    link = page.get_attribute("#survey-link", "href")
    assert link == "/s/exam-honesty"
    for respondent_number in (1, 2):  # the survey publishes in steps of two
        respondent = browser.new_context(reduced_motion="reduce")
        answer = respondent.new_page()
        open_survey(answer, live_server + link)
        answer.check("input[name='truth-cheated'][value='1']")
        answer.click("section[data-question='cheated'] .spin-button")
        answer.wait_for_selector("[data-item='cheated'][data-state='done']")
        reported.append(int(answer.get_attribute("[data-item='cheated']", "data-reported")))
        with answer.expect_navigation(url=re.compile(r"/thanks$")):
            answer.click("#submit-button")
        respondent.close()
        page.wait_for_function(
            "(count) => document.getElementById('response-count').textContent === count",
            arg=str(respondent_number),
            timeout=60_000,
        )
        # One response is not a batch: nothing of it is shown.
        published = "0" if respondent_number == 1 else "2"
        expect(page.locator("#published-count")).to_have_text(published)
    expected = rr.estimate_proportion(sum(reported), 2, 2.0, "spinner")
    expect(page.locator("[data-question='cheated'] .estimate")).to_contain_text(
        f"{100 * expected.estimate:.1f}%"
    )
    expect(page.locator("[data-question='cheated'] svg.chart-wide title")).to_have_count(1)
    assert errors == []
    researcher.close()


def test_logged_out_browser_is_sent_to_login(browser, live_server, survey, runner):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    context = browser.new_context()
    page = context.new_page()
    for path in (f"/surveys/{survey}", f"/surveys/{survey}/edit", "/account/tokens"):
        page.goto(live_server + path)
        assert page.url.startswith(f"{live_server}/login?next="), path
        expect(page.locator("#password")).to_have_count(1)
    context.close()


def test_a_refresh_replaces_only_what_changed(
    app, browser, runner, live_server, survey, seed_responses
):
    # A researcher selects a number in a results table while the survey is open: a response that
    # changes only the running total must leave the table, and the selection, alone.
    app.config.update(RESULTS_MIN_N=1, DASHBOARD_REFRESH_MS=200)
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    seed_responses(survey, 5, seed=2)
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    log_in(page, live_server, "rita@example.org")
    page.goto(f"{live_server}/surveys/{survey}")
    table = "[data-question='cheated'] table"
    page.evaluate(f'document.querySelector("{table}").marked = true')
    page.evaluate(
        f"""() => {{
            const cell = document.querySelector("{table} .estimate");
            const range = document.createRange();
            range.selectNodeContents(cell);
            getSelection().removeAllRanges();
            getSelection().addRange(range);
        }}"""
    )
    selected = page.evaluate("getSelection().toString()")
    assert selected.endswith("%")

    def submit_one():
        response = app.test_client().post(
            f"/api/surveys/{survey}/responses",
            json={"answers": {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 1}}},
        )
        assert response.status_code == 201

    def total_reaches(count):
        page.wait_for_function(
            "(count) => document.getElementById('response-count').textContent === count",
            arg=str(count),
            timeout=60_000,
        )

    submit_one()
    total_reaches(6)
    assert page.evaluate(f'document.querySelector("{table}").marked === true')
    assert page.evaluate("getSelection().toString()") == selected
    for _ in range(4):  # the next batch is published: the table is new
        submit_one()
    total_reaches(10)
    page.wait_for_function(f'() => document.querySelector("{table}").marked !== true')
    expect(page.locator("#published-count")).to_have_text("10")
    context.close()


def test_closing_asks_first_and_the_link_copies(app, browser, runner, live_server, survey):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    context = browser.new_context(reduced_motion="reduce")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page = context.new_page()
    log_in(page, live_server, "rita@example.org")
    page.goto(f"{live_server}/surveys/{survey}")
    page.click(".copy-link")
    page.wait_for_selector(".copy-status:has-text('Copied')")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.startswith(f"{live_server}/s/{survey}") and "join code" in copied
    assert not page.is_visible("text=Yes, close it")
    page.click("summary:has-text('Close survey')")
    expect(page.locator(".confirm-body").first).to_contain_text("It has 0 responses")
    page.click("text=Yes, close it")
    page.wait_for_selector("#survey-status:has-text('closed')")
    context.close()


def test_deleting_a_question_asks_first_and_its_controls_can_be_read(
    browser, runner, live_server, import_survey
):
    """The builder's Delete was the colour of its background, and one click deleted: it now
    reads (the contrast check of tests/browser/axe.py) and asks before it deletes."""
    from tests.browser.axe import contrast_problems
    from tests.conftest import SAMPLE_SURVEY

    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    slug = import_survey({**SAMPLE_SURVEY, "slug": "to-prune"})
    researcher = browser.new_context(reduced_motion="reduce")
    page = researcher.new_page()
    log_in(page, live_server, "rita@example.org")
    page.goto(f"{live_server}/surveys/{slug}/edit")
    assert contrast_problems(page) == []
    row = page.locator("tr", has=page.locator("details.delete-question")).first
    confirm = row.get_by_role("button", name="Yes, delete it")
    expect(confirm).to_be_hidden()
    row.locator("summary").click()
    expect(confirm).to_be_visible()
    expect(row).to_contain_text("Delete the question “cheated”?")
    assert contrast_problems(page) == []
    expect(page.locator("tbody tr")).to_have_count(2)
    with page.expect_navigation():
        confirm.click()
    expect(page.locator("tbody tr")).to_have_count(1)
    expect(page.locator("tbody")).not_to_contain_text("cheated")
    researcher.close()


def test_the_builders_questions_read_on_a_phone(app, researcher_at, live_server, import_survey):
    """Each wording keeps a readable width on a 390 px phone (the table scrolls sideways for the
    rest; it once folded the wording to a word a line and a question's id to three letters),
    and the wording opens its question, as the row's Edit does."""
    import json

    from web.core.surveys.demo import DEMO_FILE

    import_survey(json.loads(DEMO_FILE.read_text(encoding="utf-8")))
    page = researcher_at("ko-KR", 390)
    page.goto(f"{live_server}/surveys/campus-life/edit")
    widths = page.locator("#question-table td.wording").evaluate_all(
        "(cells) => cells.map((cell) => cell.getBoundingClientRect().width)"
    )
    assert len(widths) > 3 and min(widths) >= 170, widths
    page.locator("#question-table td.wording a").first.click()
    expect(page).to_have_url(re.compile(r"/surveys/campus-life/questions/cheated$"))
