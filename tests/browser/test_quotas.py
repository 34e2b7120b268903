"""Ending early, from a panel link: a respondent screened out at a page's end goes to the panel's
screen-out address with their id (and nothing but the page's id reaches the server); one whose
quota is full goes to the full-quota address, whether the page learns it at the quota's page or
the server refuses the response at the end, and is counted once, by the quota's id alone.
Without a panel the page says why it ended, and a
reload does not bring the questions back."""

from __future__ import annotations

import copy
import logging
import re

import pytest
from playwright.sync_api import expect

from tests.browser.axe import phone_problems
from tests.browser.respondent import wait_until_fetched
from tests.browser.test_questionnaire import on_a_phone, spin_and_wait
from tests.conftest import stored_count
from tests.web.core.surveys.flow.test_quotas import PANEL, QUOTA_STUDY, answers, send
from web.core.models import FieldworkCount
from web.core.surveys.lookup import find_survey

pytestmark = pytest.mark.browser

PID = "5f0c3a2b1d9e"


def from_the_panel(browser, address: str):
    """The survey opened from a panel link on a phone, the panel's own pages answered here; the
    page, the responses it sent, and the panel addresses it went to."""
    page, sent = on_a_phone(browser, f"{address}?PROLIFIC_PID={PID}")
    reached: list[str] = []

    def panel_page(route):
        reached.append(route.request.url)
        route.fulfill(status=200, content_type="text/html", body="<p>The panel</p>")

    page.route("https://app.prolific.com/**", panel_page)
    return page, sent, reached


def answer_about(page, gender: str, age: str) -> None:
    expect(page.locator("#page-count")).to_have_text("Page 1 of 2", timeout=60_000)
    page.locator("section[data-question='gender']").get_by_label(gender, exact=True).check()
    page.fill("#direct-age", age)
    expect(page.locator("#page-next")).not_to_have_attribute("data-waiting", "")


def test_a_screened_out_respondent_goes_to_the_panel_with_their_id_and_leaves_a_count(
    app, browser, live_server, import_survey, tmp_path, caplog
):
    slug = import_survey(QUOTA_STUDY)
    with caplog.at_level(logging.INFO, logger="werkzeug"):
        page, sent, reached = from_the_panel(browser, f"{live_server}/s/{slug}")
        answer_about(page, "Woman", "15")
        page.click("#page-next")
        page.wait_for_url("https://app.prolific.com/**", timeout=60_000)
        assert reached == [PANEL["screen_out_url"].replace("{PROLIFIC_PID}", PID)]
        assert sent == []
        page.context.close()
    with app.app_context():
        assert stored_count() == 0
        assert list(FieldworkCount.of_survey(find_survey(slug).id).values()) == [1]
    stored = b"".join(path.read_bytes() for path in tmp_path.glob("test.sqlite3*"))
    assert stored and PID.encode() not in stored
    assert not any(PID in record.getMessage() for record in caplog.records)


def test_a_full_quota_turns_the_respondent_away_at_its_page(
    app, browser, live_server, import_survey
):
    slug = import_survey(QUOTA_STUDY)
    for _ in range(2):
        assert send(app, slug, answers("f")).status_code == 201
    page, sent, reached = from_the_panel(browser, f"{live_server}/s/{slug}")
    answer_about(page, "Woman", "30")
    page.click("#page-next")
    page.wait_for_url("https://app.prolific.com/**", timeout=60_000)
    assert reached == [PANEL["quota_full_url"]] and sent == []
    page.context.close()
    assert turned_away(app, slug) == 1  # the quota's id alone, counted


def test_a_quota_filled_while_answering_is_refused_at_the_end(
    app, browser, live_server, import_survey
):
    slug = import_survey(QUOTA_STUDY)
    page, sent, reached = from_the_panel(browser, f"{live_server}/s/{slug}")
    answer_about(page, "Woman", "30")
    page.click("#page-next")
    expect(page.locator("#page-count")).to_have_text("Page 2 of 2")
    for _ in range(2):  # two others take the last places meanwhile
        assert send(app, slug, answers("f")).status_code == 201
    spin_and_wait(page, "cheated")
    page.click("#submit-button")
    page.wait_for_url("https://app.prolific.com/**", timeout=60_000)
    assert reached == [PANEL["quota_full_url"]] and len(sent) == 1
    with app.app_context():
        assert stored_count() == 2
    page.context.close()
    assert turned_away(app, slug) == 1


def turned_away(app, slug: str) -> int | None:
    """The respondents counted as turned away by the women's quota."""
    with app.app_context():
        return FieldworkCount.of_survey(find_survey(slug).id).get(("turned_away", "women"))


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_without_a_panel_the_page_says_why_it_ended_and_a_reload_keeps_it(
    browser, live_server, import_survey, locale
):
    data = copy.deepcopy(QUOTA_STUDY)
    del data["panel"]
    slug = import_survey(data)
    page, sent = on_a_phone(browser, f"{live_server}/s/{slug}", locale)
    expect(page.locator("#page-count")).not_to_be_empty(timeout=60_000)
    page.locator("section[data-question='gender'] input[value='m']").check()
    page.fill("#direct-age", "16")
    page.click("#page-next")
    ended = page.locator("#ended")
    expect(ended).to_be_visible()
    expect(ended.locator("[data-why='screen_out']")).to_be_visible()
    expect(ended.locator("[data-why='quota_full']")).to_be_hidden()
    expect(page.locator("#survey-form")).to_be_hidden()
    assert phone_problems(page, 390) == []
    page.reload()
    expect(ended.locator("[data-why='screen_out']")).to_be_visible(timeout=60_000)
    expect(page.locator("#survey-form")).to_be_hidden()
    assert re.search(r"@plain", page.evaluate(f"localStorage.getItem('rr-survey:{slug}')")) is None
    assert sent == []
    page.context.close()


def test_a_respondent_screened_out_after_the_network_is_lost_still_sees_why(
    browser, live_server, import_survey
):
    data = copy.deepcopy(QUOTA_STUDY)
    del data["panel"]
    slug = import_survey(data)
    # No service worker: only what the page fetched while online is there when Next is pressed.
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, reduced_motion="reduce", service_workers="block"
    )
    page = context.new_page()
    page.goto(f"{live_server}/s/{slug}")
    expect(page.locator("#page-count")).not_to_be_empty(timeout=60_000)
    page.locator("section[data-question='gender'] input[value='m']").check()
    page.fill("#direct-age", "16")
    wait_until_fetched(page, "problems.js", "ending.js")
    context.set_offline(True)
    page.click("#page-next")
    expect(page.locator("#ended [data-why='screen_out']")).to_be_visible()
    expect(page.locator("#survey-form")).to_be_hidden()
    context.close()
