"""The respondent page on a phone, measured: it fits, touch targets are large enough, labels wrap
between words and not one word a line, and nothing shifts when a coin appears. In English and
Korean, at 390 px and 320 px."""

from __future__ import annotations

import json
import math

import pytest
from playwright.sync_api import expect

from tests.browser.respondent import open_survey, wait_until_done
from tests.conftest import no_database

pytestmark = [pytest.mark.browser, no_database]

LONG_LABELS = {
    "slug": "phone-layout",
    "title": "Health habits",
    "description": "",
    "questions": [
        {
            "id": "cheated",
            "type": "yesno",
            "text": "Have you ever submitted work that was not your own?",
            "epsilon": 1.0,
            "procedure": "spinner_coin",
        },
        {
            "id": "used",
            "type": "multi",
            "text": "Which of these have you used in the last month?",
            "epsilon": 1.0,
            "procedure": "spinner_coin",
            "options": [
                {"id": "pills", "text": "Sleeping pills without a prescription"},
                {"id": "korean", "text": "처방전 없이 수면제를 먹은 적이 있다"},
                {"id": "alcohol", "text": "Alcohol"},
            ],
        },
    ],
}


@pytest.fixture
def long_labels(runner, tmp_path):
    path = tmp_path / "phone.json"
    path.write_text(json.dumps(LONG_LABELS), encoding="utf-8")
    assert runner.invoke(args=["import-survey", str(path)]).exit_code == 0
    return LONG_LABELS["slug"]


def phone_page(browser, width, locale):
    """A phone-sized browser profile in `locale`."""
    return browser.new_context(
        viewport={"width": width, "height": 844},
        locale=locale,
        is_mobile=True,
        has_touch=True,
        reduced_motion="reduce",
    )


@pytest.fixture(params=[(390, "en-US"), (390, "ko-KR"), (320, "en-US"), (320, "ko-KR")])
def phone_sized(request, browser):
    context = phone_page(browser, *request.param)
    yield context.new_page()
    context.close()


LABEL_LINES = """() => [...document.querySelectorAll('.options label span')].map((span) => {
  const lineHeight = parseFloat(getComputedStyle(span).lineHeight);
  return [span.textContent, Math.round(span.getBoundingClientRect().height / lineHeight)];
})"""


def test_the_page_fits_a_phone(phone_sized, live_server, long_labels):
    page = phone_sized
    # Measured with the wheels drawn: open_survey waits for the page's code to draw them.
    open_survey(page, f"{live_server}/s/{long_labels}")
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    for box in page.eval_on_selector_all(
        "fieldset.truth input",
        "inputs => inputs.map((i) => [i.getBoundingClientRect().width, "
        "i.getBoundingClientRect().height])",
    ):
        assert box[0] >= 24 and box[1] >= 24, box
    for text, lines in page.evaluate(LABEL_LINES):
        words = len(text.split())
        assert lines <= max(1, math.ceil(words / 2)), (text, lines)


@pytest.mark.parametrize("width", [390, 320])
def test_korean_breaks_between_words(browser, width, live_server, long_labels):
    context = phone_page(browser, width, "ko-KR")
    page = context.new_page()
    page.goto(f"{live_server}/s/{long_labels}")
    assert page.get_attribute("html", "lang") == "ko"
    assert page.evaluate("getComputedStyle(document.body).wordBreak") == "keep-all"
    expect(page.locator(".privacy-note")).to_contain_text("실제 답이 전송될 확률은 73%입니다.")
    context.close()


def test_nothing_shifts_when_the_coin_appears(phone_sized, live_server, long_labels):
    page = phone_sized
    page.goto(f"{live_server}/s/{long_labels}")
    wheels = "[data-item] .spinner"
    before = page.eval_on_selector_all(wheels, "all => all.map((w) => w.getBoundingClientRect().x)")
    page.tap("input[name='truth-cheated'][value='1']")
    page.tap("section[data-question='cheated'] .spin-button")
    page.tap("input[name='truth-used-pills']")
    page.tap("section[data-question='used'] .spin-button")
    wait_until_done(page, ["cheated", "used.pills", "used.korean", "used.alcohol"])
    after = page.eval_on_selector_all(wheels, "all => all.map((w) => w.getBoundingClientRect().x)")
    assert after == before
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
