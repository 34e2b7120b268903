"""A list experiment in the browser, on a phone: the page draws the short or the long list and
its items' order once, before they show, and keeps both through a reload; the respondent gives a
count (there is no box per item), and only the list and the count are sent."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import phone_problems
from tests.browser.respondent import (
    FORCE_DARK_AND_TAILS,
    memo,
    on_a_phone,
    open_survey,
    sent_answers,
)
from tests.conftest import no_database, stored_bits

pytestmark = pytest.mark.browser


def shown_items(page) -> list[str]:
    return page.locator("section[data-question='drove'] .list-items li:visible").evaluate_all(
        "(items) => items.map((item) => item.dataset.item)"
    )


def test_a_list_keeps_its_draw_and_sends_only_its_list_and_count(app, browser, live_server, listed):
    # The top of every draw: the long list (the second of two).
    context, page, posted = on_a_phone(browser, FORCE_DARK_AND_TAILS)
    open_survey(page, f"{live_server}/s/{listed}")
    section = page.locator("section[data-question='drove']")
    expect(section.locator("li[data-item='@sensitive']")).to_be_visible()
    order = shown_items(page)
    assert sorted(order) == ["@sensitive", "cinema", "marathon", "museum"]
    kept = memo(page, listed)["reported"]["@list:drove"]["bit"]
    assert kept == "1:" + " ".join(order)
    # No box per item: the only answers are the counts, 0 to J + 1 in the long list.
    assert section.locator("input[type='checkbox']:not(.skip-question)").count() == 0
    expect(section.locator("input[name='report-drove'][value='4']")).to_be_visible()
    page.reload()
    page.wait_for_selector(".spin-button:not([disabled])")
    expect(section.locator("li[data-item='@sensitive']")).to_be_visible()
    assert shown_items(page) == order
    page.check("input[name='direct-year'][value='first']")
    page.check("input[name='report-drove'][value='2']")
    section.locator(".spin-button").click()
    expect(section.locator(".outcome")).to_contain_text("2")
    assert memo(page, listed)["reported"]["drove"]["bit"] == "treatment:2"
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    sent = sent_answers(posted)
    assert sent == [{"year": "first", "drove": {"arm": "treatment", "count": 2}}]
    with app.app_context():
        assert stored_bits() == sent
    context.close()


def test_the_short_list_hides_the_sensitive_item_and_its_count(browser, live_server, listed):
    context, page, _posted = on_a_phone(browser, "crypto.getRandomValues = (a) => a.fill(0);")
    open_survey(page, f"{live_server}/s/{listed}")
    section = page.locator("section[data-question='drove']")
    expect(section.locator("li[data-item='cinema']")).to_be_visible()
    expect(section.locator("li[data-item='@sensitive']")).to_be_hidden()
    expect(section.locator("input[name='report-drove'][value='4']")).to_be_hidden()
    assert memo(page, listed)["reported"]["@list:drove"]["bit"].startswith("0:")
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@no_database
def test_a_list_fits_a_phone_and_passes_axe(phone, listed, locale):
    page = phone(f"/s/{listed}", locale)
    assert phone_problems(page) == []


def test_a_double_list_shows_both_lists_and_sends_both_counts(app, browser, live_server, doubled):
    # The top of every draw: the sensitive item in list B.
    context, page, posted = on_a_phone(browser, FORCE_DARK_AND_TAILS)
    open_survey(page, f"{live_server}/s/{doubled}")
    section = page.locator("section[data-question='drove']")
    first, second = (section.locator(f".list-items[data-list='{name}']") for name in "ab")
    expect(second.locator("li[data-item='@sensitive']")).to_be_visible()
    expect(first.locator("li[data-item='@sensitive']")).to_be_hidden()
    expect(first.locator("li[data-item='zoo']")).to_be_visible()
    # The top count only where the list holds the sensitive item: 3 in B (two items and it).
    expect(section.locator("input[name='report-drove-b'][value='3']")).to_be_visible()
    expect(section.locator("input[name='report-drove-a'][value='4']")).to_be_hidden()
    kept = memo(page, doubled)["reported"]["@list:drove"]["bit"]
    page.reload()
    page.wait_for_selector(".spin-button:not([disabled])")
    assert memo(page, doubled)["reported"]["@list:drove"]["bit"] == kept
    page.check("input[name='report-drove-a'][value='1']")
    page.check("input[name='report-drove-b'][value='3']")
    section.locator(".spin-button").click()
    expect(section.locator(".outcome")).to_contain_text("3")
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    sent = sent_answers(posted)
    assert sent == [{"drove": {"arm": "b", "counts": {"a": 1, "b": 3}}}]
    with app.app_context():
        assert stored_bits() == [{"drove": {"arm": "b", "count_a": 1, "count_b": 3}}]
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@no_database
def test_a_double_list_fits_a_phone_and_passes_axe(phone, doubled, locale):
    page = phone(f"/s/{doubled}", locale)
    assert phone_problems(page) == []
