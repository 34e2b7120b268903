"""Fieldwork in chromium: a reply lost after the server stored the response, a survey answered
with the network gone and sent when it returns, and a shared tablet whose interviewer starts
each next respondent with the PIN."""

from __future__ import annotations

import json
import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.axe import LANGUAGE_AND_WIDTH, phone_problems
from tests.browser.respondent import (
    FORCE_DARK_AND_TAILS,
    answer_truthfully,
    open_survey,
    spin,
    wait_until_done,
)
from tests.conftest import no_database, stored_count
from web.core.infrastructure.extensions import db
from web.core.models import FieldDevice
from web.core.surveys.lookup import find_survey

pytestmark = pytest.mark.browser

ITEMS = ["cheated", "substances.alcohol", "substances.tobacco"]
PIN = "482913"
# What FORCE_DARK_AND_TAILS makes the page report for the truth answer_truthfully chooses:
# every spin dark, the coin tails, so "yes" to cheated is sent as 0 and every option flipped.
REPORTS = {"cheated": 0, "substances": {"alcohol": 0, "tobacco": 1}}
OUTBOX = """() => new Promise((resolve, reject) => {
  const request = indexedDB.open("rr-outbox");
  request.onsuccess = () => {
    const all = request.result.transaction("outbox").objectStore("outbox").getAll();
    all.onsuccess = () => resolve(all.result);
    all.onerror = () => reject(all.error);
  };
  request.onerror = () => reject(request.error);
})"""


def wait_for(condition, what: str, deadline: float = 60):
    """Poll ``condition`` until it holds, for at most ``deadline`` seconds."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


def script_errors(log) -> list[str]:
    """The page's errors but the browser's own note of each request the network lost."""
    return [error for error in log.errors if not error.startswith("Failed to load resource")]


def count(app) -> int:
    with app.app_context():
        return stored_count()


def answer(page):
    answer_truthfully(page)
    spin(page, "cheated")
    spin(page, "substances")
    wait_until_done(page, ITEMS)


def offline_ready(page):
    """Wait until the survey's service worker controls the page (its files are then kept)."""
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)


@pytest.fixture
def device_context(browser):
    context = browser.new_context(locale="en-US", reduced_motion="reduce")
    context.add_init_script(FORCE_DARK_AND_TAILS)
    yield context
    context.close()


def field_link(app, slug, label="tablet 2") -> str:
    with app.app_context():
        token, _record = FieldDevice.issue(find_survey(slug), label)
        db.session.commit()
    return f"/s/{slug}/field/{token}"


def set_up_device(page, live_server, link):
    page.goto(live_server + link)
    page.fill("#pin", PIN)
    page.fill("#pin-again", PIN)
    with page.expect_navigation():
        page.click("#field-form button[type='submit']")
    page.wait_for_selector("#field-bar:not([hidden])")


def next_respondent(page):
    page.fill("#interviewer-pin", PIN)
    with page.expect_navigation():
        page.click("#next-respondent")
    page.wait_for_selector("#survey-form:not([hidden])")


def test_a_resend_after_a_lost_reply_stores_nothing_new(
    app, device_context, live_server, survey, page_log
):
    page = device_context.new_page()
    log = page_log(page)
    page.goto(f"{live_server}/s/{survey}")
    answer(page)
    cookies_before = device_context.cookies()
    keys = []

    def lose_the_reply(route):
        keys.append(route.request.headers.get("idempotency-key"))
        route.fetch()  # the server stores the response ...
        # ... and the reply never arrives, nor the cookie that route.fetch() took into the context.
        device_context.clear_cookies()
        device_context.add_cookies(cookies_before)
        route.abort("connectionreset")

    page.route(re.compile(r"/api/surveys/.*/responses$"), lose_the_reply)
    page.click("#submit-button")
    page.wait_for_selector("#saved:not([hidden])")
    assert count(app) == 1
    expect(page.locator("#saved")).to_contain_text("saved on this device")
    page.unroute(re.compile(r"/api/surveys/.*/responses$"))
    # The browser comes back online: the page sends the response again, with the same id.
    with page.expect_response(re.compile(r"/responses$")) as resent:
        page.evaluate("window.dispatchEvent(new Event('online'))")
    assert resent.value.status == 201
    keys.append(resent.value.request.headers["idempotency-key"])
    page.wait_for_selector("#saved-sent:not([hidden])")
    assert count(app) == 1
    assert len(set(keys)) == 1 and re.fullmatch("[0-9a-f]{32}", keys[0])
    assert page.evaluate(OUTBOX) == []
    assert script_errors(log) == []


# Resolves once send.js and every module it imports have loaded (the page's own module map).
SUBMISSION_LOADED = """() => import(
  [...document.scripts].find((script) => script.src.endsWith("/start.js")).src.replace("/start.js", "/send.js")
).then(() => true)"""


def test_the_network_lost_after_the_last_spin_keeps_the_response_on_the_device(
    browser, live_server, survey, page_log
):
    # No service worker: only what the page loaded while online is there when Submit is pressed.
    context = browser.new_context(locale="en-US", reduced_motion="reduce", service_workers="block")
    page = context.new_page()
    log = page_log(page)
    open_survey(page, f"{live_server}/s/{survey}")
    answer(page)
    assert page.evaluate(SUBMISSION_LOADED)
    context.set_offline(True)
    page.click("#submit-button")
    expect(page.locator("#saved")).to_be_visible()
    expect(page.locator("#saved")).to_contain_text("saved on this device")
    expect(page.locator("#submit-error")).to_be_empty()
    # Headless chromium does not promise to keep the outbox: the warning follows the thanks.
    expect(page.locator("#saved ~ #persist-refused")).to_be_visible()
    (entry,) = page.evaluate(OUTBOX)
    assert entry["state"] == "waiting"
    context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#saved-sent")).to_be_visible()
    expect(page.locator("#persist-refused")).to_be_hidden()
    assert page.evaluate(OUTBOX) == []
    assert script_errors(log) == []
    context.close()


def test_a_reload_while_offline_shows_the_survey_and_the_draw(device_context, live_server, survey):
    page = device_context.new_page()
    open_survey(page, f"{live_server}/s/{survey}")
    offline_ready(page)
    answer_truthfully(page)
    spin(page, "cheated")
    wait_until_done(page, ["cheated"])
    reported = page.locator("[data-item='cheated']").get_attribute("data-reported")
    device_context.set_offline(True)
    page.reload()
    wait_until_done(page, ["cheated"])
    assert page.locator("[data-item='cheated']").get_attribute("data-reported") == reported
    expect(page.locator("[data-item='cheated'] .outcome")).to_contain_text("Already spun")
    assert page.evaluate("window.draws") == 0
    assert page.locator("section[data-question='substances'] .spin-button").is_enabled()


# A day's interviews kept on one tablet offline: two of the survey's batches of five, so the
# outbox sends more than a batch at once (it sends all it holds, however many: twenty
# respondents took twice as long and tried nothing more).
RESPONDENTS = 10


@pytest.mark.long
def test_ten_respondents_on_a_tablet_offline_arrive_once_each(
    app, device_context, live_server, survey, page_log
):
    page = device_context.new_page()
    log = page_log(page)
    set_up_device(page, live_server, field_link(app, survey))
    offline_ready(page)
    expect(page.locator("#field-label")).to_have_text("tablet 2")
    device_context.set_offline(True)
    page.reload()  # served by the service worker
    for respondent in range(RESPONDENTS):
        answer(page)
        page.click("#submit-button")
        page.wait_for_selector("#handback:not([hidden])")
        expect(page.locator("#field-status")).to_have_text(
            re.compile(rf"^{respondent + 1} waiting")
        )
        # The first, and the last with a full outbox behind it.
        if respondent in (0, RESPONDENTS - 1):
            # The respondent cannot start over: Back and reload land on the same screen.
            page.reload()
            page.wait_for_selector("#handback:not([hidden])")
            assert page.locator("#survey-form").is_hidden()
            page.fill("#interviewer-pin", "000000")
            page.click("#next-respondent")
            page.wait_for_selector("#pin-error:text('not this device')")
        next_respondent(page)
        # A fresh memo: nothing of the last respondent on the screen.
        expect(page.locator("[data-state='done']")).to_have_count(0)
        expect(page.locator("#report-summary li")).to_have_count(0)
    entries = page.evaluate(OUTBOX)
    assert len(entries) == len({entry["id"] for entry in entries}) == RESPONDENTS
    for entry in entries:
        # Reports only: what the spins decided, never the true answers chosen.
        assert set(entry) == {"id", "slug", "url", "revision", "body", "device", "state",
                              "attempts", "nextTry"}  # fmt: skip
        assert json.loads(entry["body"]) == {"answers": REPORTS}
    assert count(app) == 0
    device_context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    wait_for(lambda: count(app) == RESPONDENTS, "every response stored")
    page.wait_for_function(
        "() => document.getElementById('field-status').textContent.startsWith('0 waiting')",
        timeout=60_000,
    )
    with app.app_context():
        survey_row = find_survey(survey)
        assert survey_row.response_count == survey_row.published_count == RESPONDENTS
    assert count(app) == RESPONDENTS
    assert page.evaluate(OUTBOX) == []
    assert script_errors(log) == []


def test_a_revoked_link_is_refused_and_the_refusal_stays_for_the_interviewer(
    app, device_context, live_server, survey
):
    page = device_context.new_page()
    set_up_device(page, live_server, field_link(app, survey))
    with app.app_context():
        db.session.scalar(db.select(FieldDevice)).revoked = True
        db.session.commit()
    answer(page)
    page.click("#submit-button")
    page.wait_for_selector("#submit-error:text('revoked')")
    page.wait_for_selector("#field-refusals:not([hidden])")
    expect(page.locator("#field-refusals")).to_contain_text("revoked")
    (entry,) = page.evaluate(OUTBOX)
    assert entry["state"] == "refused" and entry["status"] == 403
    assert count(app) == 0


@no_database
@pytest.mark.parametrize(("locale", "width"), LANGUAGE_AND_WIDTH)
def test_the_fieldwork_screens_have_no_wcag_violation(
    app, browser, live_server, fielded_survey, width, locale
):
    options = dict(
        viewport={"width": width, "height": 900},
        locale=locale,
        bypass_csp=True,
        reduced_motion="reduce",
    )
    tablet = browser.new_context(**options)
    page = tablet.new_page()
    page.goto(live_server + field_link(app, fielded_survey))
    assert phone_problems(page, width) == [], "the device's set-up page"
    page.fill("#pin", PIN)
    page.fill("#pin-again", PIN)
    with page.expect_navigation():
        page.click("#field-form button[type='submit']")
    agree(page)
    answer(page)
    page.click("#submit-button")
    page.wait_for_selector("#handback:not([hidden])")
    page.fill("#interviewer-pin", "0000")
    page.click("#next-respondent")
    page.wait_for_selector("#pin-error:not(:empty)")
    assert phone_problems(page, width) == [], "the screen between two respondents"
    tablet.close()
    phone = browser.new_context(**options)
    page = phone.new_page()
    page.goto(f"{live_server}/s/{fielded_survey}")
    agree(page)
    answer(page)
    offline_ready(page)  # the network lost once the service worker keeps the page's files
    phone.set_offline(True)
    page.click("#submit-button")
    page.wait_for_selector("#saved:not([hidden])")
    assert phone_problems(page, width) == [], "the response saved on the device"
    phone.close()


def agree(page):
    page.click("#consent-agree")
    page.wait_for_selector("#survey-form:not([hidden])")
