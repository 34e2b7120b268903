"""A four-page questionnaire on a phone: forward and back, a reload on page 3, display logic that
hides a question and a page, and the orders drawn once and sent with the reports."""

from __future__ import annotations

import copy
import json

import pytest
from playwright.sync_api import expect

from tests.browser.axe import phone_problems
from tests.browser.respondent import reload_once_kept, wait_until_fetched
from tests.web.core.surveys.flow.test_walk import STUDY

pytestmark = pytest.mark.browser

FOUR_PAGES = copy.deepcopy(STUDY) | {"slug": "four-pages", "languages": ["en", "ko"]}
FOUR_PAGES["title"] = {"en": "Campus life", "ko": "캠퍼스 생활"}
FOUR_PAGES["pages"] = [
    {"id": "about", "title": {"en": "About you", "ko": "응답자 정보"}, "questions": ["student", "year"]},
    {"id": "sensitive", "title": {"en": "Exams", "ko": "시험"}, "questions": ["s1", "s2", "s3"],
     "randomize": True, "show_if": {"question": "student", "in": ["yes"]}},
    {"id": "habits", "title": {"en": "Habits", "ko": "습관"}, "questions": ["drugs"]},
    {"id": "last", "title": {"en": "Last page", "ko": "마지막"},
     "questions": ["again", "feedback", "comment"]},
]  # fmt: skip


def _bilingual(value):
    """Every text of the file in both languages (the Korean marked as such)."""
    if isinstance(value, dict):
        return {
            key: {"en": item, "ko": f"{item} (ko)"} if key == "text" and isinstance(item, str)
            else _bilingual(item)
            for key, item in value.items()
        }  # fmt: skip
    if isinstance(value, list):
        return [_bilingual(item) for item in value]
    return value


def _direct(key, shown_if=None):
    question = {
        "id": key,
        "type": "direct",
        "text": f"{key.title()}?",
        "options": [{"id": "yes", "text": "Yes"}, {"id": "no", "text": "No"}],
    }
    return question | ({"show_if": shown_if} if shown_if else {})


FOUR_PAGES["questions"] = _bilingual(
    [
        *FOUR_PAGES["questions"],
        _direct("again", {"question": "year", "in": ["first"]}),
        _direct("feedback"),
        {
            "id": "comment",
            "type": "text",
            "text": "Anything else?",
            "max_length": 60,
            "required": True,
        },
    ]
)
FOUR_PAGES["questions"][5]["shuffle_options"] = True  # drugs


def questionnaire(browser, live_server, import_survey, locale="en-US"):
    """The survey imported and open on a 390 px phone; the page, and every body it submits."""
    page, sent = on_a_phone(browser, f"{live_server}/s/{import_survey(FOUR_PAGES)}", locale)
    expect(page.locator("#page-nav")).to_be_visible(timeout=60_000)
    return page, sent


def on_a_phone(browser, address: str, locale: str = "en-US"):
    """``address`` open on a 390 px phone; the page, and every body it submits."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=locale, reduced_motion="reduce",
        bypass_csp=True,
    )  # fmt: skip
    page = context.new_page()
    sent = []
    page.on(
        "request",
        lambda request: (
            sent.append(json.loads(request.post_data))
            if request.method == "POST" and request.url.endswith("/responses")
            else None
        ),
    )
    page.goto(address)
    return page, sent


def shown_order(page, selector: str) -> list[str]:
    return page.locator(selector).evaluate_all(
        "(nodes) => nodes.map((node) => node.dataset.question ?? node.dataset.option)"
    )


def spin_and_wait(page, question: str, item: str | None = None):
    section = page.locator(f"section[data-question='{question}']")
    if section.locator("input[value='1']").count():
        section.locator("input[value='1']").check()
    section.locator(".spin-button").click()
    expect(page.locator(f"[data-item='{item or question}'][data-state='done']")).to_have_count(
        1, timeout=60_000
    )


def test_four_pages_forward_back_and_reloaded_on_page_three(browser, live_server, import_survey):
    page, sent = questionnaire(browser, live_server, import_survey)
    count = page.locator("#page-count")
    # The exams page waits for "student = yes": three pages until then.
    expect(count).to_have_text("Page 1 of 3")
    expect(page.locator("#page-next")).to_have_attribute(
        "data-waiting", ""
    )  # "student" is required
    expect(page.locator("section[data-question='year']")).to_be_hidden()
    page.check("input[name='direct-student'][value='yes']")
    expect(count).to_have_text("Page 1 of 4")
    expect(page.locator("#page-back")).to_be_hidden()
    # "None of these" keeps its place; the other options are in their drawn order.
    options = shown_order(page, "section[data-question='year'] [data-option]")
    assert options[2] == "none" and sorted(options) == ["first", "none", "second"]
    page.check("input[name='direct-year'][value='second']")
    assert phone_problems(page, 390) == []
    page.click("#page-next")

    expect(count).to_have_text("Page 2 of 4")
    expect(page.locator("section.page[data-page='sensitive']")).to_be_visible()
    expect(page.locator("section.page[data-page='about']")).to_be_hidden()
    exams = shown_order(page, "section.page[data-page='sensitive'] section[data-question]")
    assert sorted(exams) == ["s1", "s2", "s3"]
    numbers = page.locator("section.page[data-page='sensitive'] .number").all_inner_texts()
    assert numbers == ["3.", "4.", "5."]  # numbered as shown
    for question in exams:
        spin_and_wait(page, question)
    assert phone_problems(page, 390) == []
    page.click("#page-next")

    expect(count).to_have_text("Page 3 of 4")
    drugs = shown_order(page, "section[data-question='drugs'] [data-option]")
    spin_and_wait(page, "drugs", f"drugs.{drugs[0]}")
    reload_once_kept(page)
    expect(count).to_have_text("Page 3 of 4", timeout=60_000)
    expect(page.locator("[data-item='drugs.alcohol'][data-state='done']")).to_have_count(1)
    assert shown_order(page, "section[data-question='drugs'] [data-option]") == drugs
    page.click("#page-back")
    expect(count).to_have_text("Page 2 of 4")
    # The same order, the same draws: nothing is spun again.
    assert shown_order(page, "section.page[data-page='sensitive'] section[data-question]") == exams
    for question in exams:
        expect(page.locator(f"section[data-question='{question}'] .spin-button")).to_be_disabled()
    page.click("#page-back")
    expect(count).to_have_text("Page 1 of 4")
    expect(page.locator("input[name='direct-year'][value='second']")).to_be_checked()
    page.click("#page-next")
    page.click("#page-next")
    page.click("#page-next")

    expect(count).to_have_text("Page 4 of 4")
    expect(page.locator("section[data-question='again']")).to_be_hidden()  # year is not "first"
    expect(page.locator("#page-next")).to_be_hidden()
    # The open answer is required: Submit waits for words, and has them as they are typed.
    expect(page.locator("#submit-button")).to_have_attribute("data-waiting", "")
    box = page.locator("textarea[name='direct-comment']")
    box.press_sequentially("  the exams were hard ")
    expect(page.locator("#submit-button")).not_to_have_attribute("data-waiting", "")
    box.press("Tab")  # leaving the box keeps its words on this device, for a reload
    reload_once_kept(page)
    expect(count).to_have_text("Page 4 of 4", timeout=60_000)
    expect(box).to_have_value("  the exams were hard ")
    expect(page.locator("#submit-button")).not_to_have_attribute("data-waiting", "")
    assert phone_problems(page, 390) == []
    page.click("#submit-button")
    page.wait_for_url("**/thanks", timeout=60_000)
    (body,) = sent
    assert "again" not in body["answers"]
    assert body["answers"]["year"] == "second" and body["answers"]["feedback"] is None
    assert body["answers"]["comment"] == "the exams were hard"
    assert body["order"] == {"sensitive": exams, "year": options, "drugs": drugs}
    page.context.close()


def test_a_hidden_page_is_never_shown_nor_sent(browser, live_server, import_survey):
    page, sent = questionnaire(browser, live_server, import_survey, locale="ko-KR")
    count = page.locator("#page-count")
    page.check("input[name='direct-student'][value='no']")
    expect(count).to_have_text("3쪽 중 1쪽")
    page.click("#page-next")
    expect(page.locator("section.page[data-page='habits']")).to_be_visible()
    assert phone_problems(page, 390) == []
    spin_and_wait(page, "drugs", "drugs.alcohol")
    page.click("#page-next")
    page.fill("textarea[name='direct-comment']", "시험이 어려웠어요")
    page.click("#submit-button")
    page.wait_for_url("**/thanks", timeout=60_000)
    (body,) = sent
    assert set(body["answers"]) == {"student", "drugs", "feedback", "comment"}
    assert body["answers"]["comment"] == "시험이 어려웠어요"
    assert set(body["order"]) == {"drugs"}
    page.context.close()


def test_a_number_asked_directly_waits_for_its_range_and_shows_what_it_unlocks(
    browser, live_server, import_survey
):
    from tests.web.core.surveys.questions.test_plain_numbers import AGES

    page, sent = on_a_phone(browser, f"{live_server}/s/{import_survey(AGES)}")
    age = page.locator("#direct-age")
    cheat = page.locator("section[data-question='cheat']")
    expect(age).to_be_visible(timeout=60_000)
    expect(cheat).to_be_hidden()  # shown from 18
    age.fill("15")  # below the range: not an answer yet
    expect(page.locator("#submit-button")).to_have_attribute("data-waiting", "")
    age.fill("21")
    expect(cheat).to_be_visible()
    expect(page.locator("#submit-button")).to_have_attribute(
        "data-waiting", ""
    )  # the spin is still to come
    spin_and_wait(page, "cheat")
    page.fill("#direct-hours", "7.25")  # off its steps of 0.5
    expect(page.locator("#submit-button")).to_have_attribute("data-waiting", "")
    page.fill("#direct-hours", "7.5")
    expect(page.locator("#submit-button")).not_to_have_attribute("data-waiting", "")
    assert phone_problems(page, 390) == []
    page.click("#submit-button")
    page.wait_for_url("**/thanks", timeout=60_000)
    (body,) = sent
    assert body["answers"]["age"] == 21 and body["answers"]["hours"] == 7.5
    assert body["answers"]["cheat"] in (0, 1)
    page.context.close()


KEPT_PLAIN = {
    "slug": "kept-plain",
    "title": "Kept",
    "description": "",
    "pages": [
        {"id": "first", "questions": ["student"]},
        {"id": "second", "questions": ["s1"], "show_if": {"question": "student", "in": ["yes"]}},
    ],
    "questions": [
        {"id": "student", "type": "yesno", "procedure": "direct", "text": "Student?"},
        {
            "id": "s1",
            "type": "yesno",
            "text": "Cheated?",
            "epsilon": 1,
            "procedure": "spinner_coin",
        },
    ],
}


def test_a_yes_no_asked_directly_still_decides_the_pages_after_a_reload(
    browser, live_server, import_survey
):
    page, sent = on_a_phone(browser, f"{live_server}/s/{import_survey(KEPT_PLAIN)}")
    count = page.locator("#page-count")
    expect(count).to_have_text("Page 1 of 1", timeout=60_000)
    # Choosing is answering: no second button to press, and the rule reads the choice at once.
    expect(page.locator("section[data-question='student'] .spin-button")).to_be_hidden()
    page.check("input[name='report-student'][value='1']")
    expect(count).to_have_text("Page 1 of 2")
    page.click("#page-next")
    expect(count).to_have_text("Page 2 of 2")
    reload_once_kept(page)
    # The kept answer still shows the page it decides.
    expect(count).to_have_text("Page 2 of 2", timeout=60_000)
    expect(page.locator("section[data-question='s1']")).to_be_visible()
    spin_and_wait(page, "s1")
    page.click("#page-back")
    # Back shows the choice, which may still change, as a form's field may.
    student = page.locator("input[name='report-student'][value='1']")
    expect(student).to_be_checked()
    expect(student).to_be_enabled()
    page.click("#page-next")
    page.click("#submit-button")
    page.wait_for_url("**/thanks", timeout=60_000)
    (body,) = sent
    assert body["answers"]["student"] == 1 and body["answers"]["s1"] in (0, 1)
    # Submitted: the kept answer is gone from this device.
    kept = page.evaluate("() => JSON.stringify(Object.entries(localStorage))")
    assert "@plain:" not in kept
    page.context.close()


def test_next_leaves_a_page_once_the_network_is_lost_after_the_first_answer(
    browser, live_server, import_survey
):
    # No service worker: only what the page fetched while online is there when Next is pressed.
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, reduced_motion="reduce", service_workers="block"
    )
    page = context.new_page()
    page.goto(f"{live_server}/s/{import_survey(FOUR_PAGES)}")
    expect(page.locator("#page-nav")).to_be_visible(timeout=60_000)
    page.check("input[name='direct-student'][value='yes']")
    page.check("input[name='direct-year'][value='second']")
    wait_until_fetched(page, "problems.js")
    context.set_offline(True)
    page.click("#page-next")
    expect(page.locator("#page-count")).to_have_text("Page 2 of 4")
    expect(page.locator("section.page[data-page='sensitive']")).to_be_visible()
    context.close()
