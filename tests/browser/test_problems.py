"""Next and Submit never drop an answer quietly: pressed while a question waits, they stop there,
move the focus to it and say what to do, in both languages; a skip is the respondent's own act,
and a number outside its range says so when its box is left."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.axe import phone_problems
from tests.browser.test_questionnaire import on_a_phone, spin_and_wait
from tests.web.core.surveys.questions.test_plain_numbers import AGES

pytestmark = pytest.mark.browser

TWO_PAGES = {
    "slug": "two-pages",
    "title": {"en": "Exams", "ko": "시험"},
    "description": {"en": "", "ko": ""},
    "languages": ["en", "ko"],
    "pages": [
        {"id": "exams", "randomize": True, "questions": ["s1", "s2"]},
        {"id": "last", "questions": ["year"]},
    ],
    "questions": [
        *(
            {"id": key, "type": "yesno", "text": {"en": f"{key}?", "ko": f"{key} (ko)?"},
             "epsilon": 1, "procedure": "spinner_coin"}
            for key in ("s1", "s2")
        ),
        {"id": "year", "type": "direct", "text": {"en": "Year?", "ko": "학년?"},
         "options": [{"id": "first", "text": {"en": "First", "ko": "1학년"}},
                     {"id": "later", "text": {"en": "Later", "ko": "그 뒤"}}]},
    ],
}  # fmt: skip
SAYS = {
    "en-US": {"chosen": "have not spun yet", "untouched": "not answered yet", "page": "Page 1 of 2",
              "range": "Enter a whole number from 16 to 99."},
    "ko-KR": {"chosen": "아직 돌리지 않아서", "untouched": "아직 답하지 않은", "page": "2쪽 중 1쪽",
              "range": "16부터 99까지의 정수를 입력하세요."},
}  # fmt: skip


def focused(page) -> str:
    return page.evaluate("document.activeElement.id || document.activeElement.name")


def problem_of(page, question: str):
    return page.locator(f"section[data-question='{question}'] .problem")


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_next_stops_at_a_chosen_answer_not_spun_and_says_what_to_do(
    browser, live_server, import_survey, locale
):
    page, sent = on_a_phone(browser, f"{live_server}/s/{import_survey(TWO_PAGES)}", locale)
    says = SAYS[locale]
    count = page.locator("#page-count")
    expect(count).to_have_text(says["page"], timeout=60_000)
    first = page.locator("section.page[data-page='exams'] section[data-question]").first
    shown_first = first.get_attribute("data-question")
    shown_second = ({"s1", "s2"} - {shown_first}).pop()
    page.check(f"input[name='truth-{shown_first}'][value='1']")
    page.click("#page-next")
    # Still here, the chosen answer kept on screen, and the Spin button focused with the words.
    expect(problem_of(page, shown_first)).to_contain_text(says["chosen"])
    expect(count).to_have_text(says["page"])
    spin = first.locator(".spin-button")
    expect(spin).to_be_focused()
    problem_id = problem_of(page, shown_first).get_attribute("id")
    assert problem_id in spin.get_attribute("aria-describedby").split()
    expect(page.locator(f"input[name='truth-{shown_first}'][value='1']")).to_be_checked()
    assert phone_problems(page, 390) == []
    # The respondent skips it themselves: the words go.
    first.locator(".skip-question").check()
    expect(problem_of(page, shown_first)).to_be_hidden()
    # The other question was never touched: Next stops there too, rather than skip it for them.
    page.click("#page-next")
    expect(problem_of(page, shown_second)).to_contain_text(says["untouched"])
    spin_and_wait(page, shown_second)
    expect(problem_of(page, shown_second)).to_be_hidden()
    page.click("#page-next")
    expect(page.locator("section[data-question='year']")).to_be_visible()
    page.click("#page-back")
    expect(first.locator(".skip-question")).to_be_checked()
    page.click("#page-next")
    page.check("input[name='direct-year'][value='later']")
    page.click("#submit-button")
    page.wait_for_url("**/thanks", timeout=60_000)
    (body,) = sent
    assert shown_first not in body["answers"] and body["answers"][shown_second] in (0, 1)
    page.context.close()


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_a_number_off_its_range_says_so_on_leaving_and_at_submit(
    browser, live_server, import_survey, locale
):
    page, sent = on_a_phone(browser, f"{live_server}/s/{import_survey(AGES)}", locale)
    says = SAYS[locale]
    age = page.locator("#direct-age")
    expect(age).to_be_visible(timeout=60_000)
    age.fill("15")
    age.press("Tab")
    problem = problem_of(page, "age")
    expect(problem).to_have_text(says["range"])
    expect(age).to_have_attribute("aria-invalid", "true")
    assert problem.get_attribute("id") in age.get_attribute("aria-describedby").split()
    assert phone_problems(page, 390) == []
    # Submit, pressed anyway, stops at the box and puts the focus in it.
    page.click("#submit-button")
    expect(age).to_be_focused()
    expect(problem).to_have_text(says["range"])
    age.fill("21")
    expect(problem).to_be_hidden()
    expect(age).not_to_have_attribute("aria-invalid", "true")
    spin_and_wait(page, "cheat")
    page.click("#submit-button")
    page.wait_for_url("**/thanks", timeout=60_000)
    (body,) = sent
    assert body["answers"]["age"] == 21
    page.context.close()
