"""A respondent answers in a real browser; only the bits the spinner and coin decided leave the page."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.respondent import (
    FORCE_DARK_AND_TAILS,
    PROCEDURE,
    TRUTH,
    answer_truthfully,
    checked_inputs,
    expected_report,
    hint,
    open_survey,
    reported_bits,
    shown,
    spin,
    storage_holds_only_reported_bits,
    wait_until_done,
)
from tests.conftest import no_database
from web.core.infrastructure.extensions import db
from web.core.models import Survey
from web.core.surveys.joincode import ensure_join_code
from web.core.surveys.specs import OptionSpec, QuestionSpec, SurveySpec
from web.core.surveys.texts import Texts

pytestmark = pytest.mark.browser


def body_of(request):
    return json.loads(request.post_data)


def answered_cookie(cookie_value):
    """The slugs in the signed "answered" cookie (the signature is not checked here)."""
    return cookie_value.rsplit(".", 1)[0].split(",")


def answer_everything(context, url, page_log):
    """Open the survey, choose the true answers, spin every question and wait for the outcomes."""
    page = context.new_page()
    log = page_log(page)
    # Answered once the page's code has set the questions up: an answer given before may be undone.
    open_survey(page, url)
    answer_truthfully(page)
    spin(page, "cheated")
    spin(page, "substances")
    wait_until_done(page, TRUTH)
    return page, log


def test_answering_sends_only_what_the_spinner_and_coin_showed(
    context, live_server, survey, page_log
):
    page, log = answer_everything(context, f"{live_server}/s/{survey}", page_log)
    shown_bits = {}
    for item, truth in TRUTH.items():
        result = shown(page, item)
        assert result["outcome"] in {"light", "dark"}
        assert result["reported"] == expected_report(
            truth, PROCEDURE[item], result["outcome"], result["coin"]
        )
        shown_bits[item] = result["reported"]
    summary = page.locator("#report-summary li")
    expect(summary).to_have_count(2)
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    assert "Thank you" in page.content()

    origin = live_server
    assert all(request.url.startswith(origin + "/") for request in log.requests), [
        r.url for r in log.requests
    ]
    assert all("?" not in request.url for request in log.requests)
    posts = [request for request in log.requests if request.method != "GET"]
    assert len(posts) == 1 and posts[0].url == f"{origin}/api/surveys/{survey}/responses"
    assert body_of(posts[0]) == {
        "answers": {
            "cheated": shown_bits["cheated"],
            "substances": {
                "alcohol": shown_bits["substances.alcohol"],
                "tobacco": shown_bits["substances.tobacco"],
            },
        }
    }
    assert log.errors == []

    cookies = context.cookies()
    assert [cookie["name"] for cookie in cookies] == ["rr_answered"]
    assert answered_cookie(cookies[0]["value"]) == [survey]
    assert cookies[0]["httpOnly"] and cookies[0]["sameSite"] == "Lax"
    page.goto(f"{live_server}/s/{survey}")
    stored = storage_holds_only_reported_bits(page, survey)
    assert reported_bits(stored) == shown_bits and stored["submitted"] is True
    assert page.locator("#already-answered").is_visible()
    assert page.locator("#survey-form").is_hidden()


def test_true_answer_does_not_leave_the_page(context, live_server, survey, page_log):
    # Every draw lands at the very end of the wheel (dark) and every coin shows tails, so each
    # report is decided by chance alone: yes-answers are sent as 0, and for the spinner-only
    # question every answer is sent as its opposite.
    context.add_init_script(FORCE_DARK_AND_TAILS)
    page, log = answer_everything(context, f"{live_server}/s/{survey}", page_log)
    assert [shown(page, item)["outcome"] for item in TRUTH] == ["dark"] * 3
    assert shown(page, "cheated")["coin"] == "tails"
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    posts = [request for request in log.requests if request.method == "POST"]
    assert body_of(posts[0]) == {
        "answers": {"cheated": 0, "substances": {"alcohol": 0, "tobacco": 1}}
    }
    for request in log.requests:
        assert "truth" not in request.url and "truth" not in (request.post_data or "")


def test_reload_shows_the_same_reports_and_never_redraws(context, live_server, survey, page_log):
    page = context.new_page()
    log = page_log(page)
    open_survey(page, f"{live_server}/s/{survey}")
    answer_truthfully(page)
    spin(page, "cheated")
    wait_until_done(page, ["cheated"])
    before = shown(page, "cheated")["reported"]
    page.reload()
    wait_until_done(page, ["cheated"])
    assert shown(page, "cheated") == {"outcome": None, "coin": None, "reported": before}
    assert page.locator("section[data-question='cheated'] .spin-button").is_disabled()
    assert not page.is_checked("input[name='truth-cheated'][value='1']")
    expect(page.locator("[data-item='cheated'] .outcome")).to_contain_text("Already spun")
    assert page.locator("#submit-button").get_attribute("data-waiting") is not None
    page.check("input[name='truth-substances-alcohol']")
    spin(page, "substances")
    wait_until_done(page, ["substances.alcohol", "substances.tobacco"])
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    post = next(request for request in log.requests if request.method == "POST")
    assert body_of(post)["answers"]["cheated"] == before


def test_spinning_needs_a_true_answer_first(context, live_server, survey):
    page = context.new_page()
    page.goto(f"{live_server}/s/{survey}")
    spin(page, "cheated")
    assert "Choose your true answer first" in hint(page, "cheated", "Choose your true")
    assert page.locator("[data-item='cheated']").get_attribute("data-state") is None


@no_database
def test_animated_wheel_stops_where_the_draw_landed(browser, live_server, survey):
    context = browser.new_context(reduced_motion="no-preference")
    page = context.new_page()
    open_survey(page, f"{live_server}/s/{survey}")
    answer_truthfully(page)
    spin(page, "cheated")
    page.wait_for_selector("[data-item='cheated'][data-state='spinning']")
    wait_until_done(page, ["cheated"])
    transform = page.locator("[data-item='cheated'] .wheel").get_attribute("transform")
    rotation = float(re.fullmatch(r"rotate\((-?[\d.]+)\)", transform).group(1))
    position = (-rotation / 360) % 1
    config = json.loads(page.locator("#survey-config").text_content())
    light = config["questions"][0]["lightFraction"]
    assert (position < light) == (shown(page, "cheated")["outcome"] == "light")
    context.close()


def test_keyboard_only_respondent_can_answer(context, live_server, survey):
    page = context.new_page()
    # The page's code starts once the page has loaded: open_survey waits for it.
    open_survey(page, f"{live_server}/s/{survey}")
    page.focus("input[name='truth-cheated'][value='0']")
    page.keyboard.press("Space")
    page.focus("section[data-question='cheated'] .spin-button")
    page.keyboard.press("Enter")
    wait_until_done(page, ["cheated"])
    page.focus("section[data-question='substances'] .spin-button")
    page.keyboard.press("Enter")
    wait_until_done(page, ["substances.alcohol", "substances.tobacco"])
    page.focus("#submit-button")
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.keyboard.press("Enter")


def test_screen_reader_names_and_live_regions(context, live_server, survey):
    page = context.new_page()
    page.goto(f"{live_server}/s/{survey}")
    page.wait_for_selector("[data-item='cheated'] .spinner svg")
    spinners = page.get_by_role("img", name=re.compile(r"Spinner: 46% light"))
    expect(spinners).to_have_count(1)
    assert page.get_by_role("img", name=re.compile(r"Spinner: 82% light")).count() == 2
    assert page.locator("[data-item='cheated'] .outcome").get_attribute("aria-live") == "polite"
    assert page.get_by_role("radio", name="Yes").count() == 1
    # Each Spin button is named after its question, so a list of buttons says which is which.
    assert page.get_by_role("button", name="Spin 1. Cheated?").count() == 1
    assert page.get_by_role("button", name="Spin all 2 2. Used?").count() == 1


def test_focus_moves_to_the_outcome_after_a_spin(context, live_server, survey):
    page = context.new_page()
    open_survey(page, f"{live_server}/s/{survey}")
    page.check("input[name='truth-cheated'][value='0']")
    spin(page, "cheated")
    wait_until_done(page, ["cheated"])
    page.wait_for_function(
        "() => document.activeElement.matches(\"[data-question='cheated'] .outcome\")"
    )
    assert page.evaluate("document.activeElement.textContent").startswith("You will report:")


def test_phone_layout_fits_the_screen(browser, live_server, survey):
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        has_touch=True,
        is_mobile=True,
        reduced_motion="reduce",
    )
    page = context.new_page()
    page.goto(f"{live_server}/s/{survey}")
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    page.tap("input[name='truth-cheated'][value='1']")
    page.tap("section[data-question='cheated'] .spin-button")
    wait_until_done(page, ["cheated"])
    context.close()


def test_back_after_leaving_restores_no_true_answer(context, live_server, survey):
    # The survey page is sent with Cache-Control: no-store, so the back/forward cache does not
    # keep it, and the form has autocomplete="off": Back shows a page with nothing checked.
    page = context.new_page()
    open_survey(page, f"{live_server}/s/{survey}")
    page.check("input[name='truth-cheated'][value='1']")
    page.check("input[name='truth-substances-tobacco']")
    page.goto(f"{live_server}/lab")
    page.go_back()
    page.wait_for_selector("input[name='truth-cheated']")
    assert checked_inputs(page) == []


def test_cleared_storage_with_the_cookie_kept_is_told_before_any_spin(context, live_server, survey):
    page = context.new_page()
    open_survey(page, f"{live_server}/s/{survey}")
    answer_truthfully(page)
    spin(page, "cheated")
    spin(page, "substances")
    page.wait_for_selector("#submit-button:not([disabled]):not([data-waiting])")
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    page.evaluate("localStorage.clear()")
    page.goto(f"{live_server}/s/{survey}")
    assert page.is_visible("#already-answered")
    assert not page.is_visible("#survey-form") and not page.is_visible(".spin-button")


@pytest.fixture
def prototype_ids(app):
    """A survey whose ids every JavaScript object already has, stored as a database from before
    they were refused would hold it (every survey path refuses them now)."""
    spec = SurveySpec(
        "prototype-ids",
        Texts.one("en", "Prototype ids"),
        Texts(),
        (
            QuestionSpec("__proto__", "yesno", Texts.one("en", "Proto?"), 1.0, "spinner_coin"),
            QuestionSpec(
                "constructor",
                "multi",
                Texts.one("en", "Constructor?"),
                1.0,
                "spinner",
                (
                    OptionSpec("toString", Texts.one("en", "To string")),
                    OptionSpec("valueOf", Texts.one("en", "Value of")),
                ),
            ),
        ),
    )
    with app.app_context():
        survey = Survey.from_spec(spec)
        db.session.add(survey)
        survey.status = "open"
        ensure_join_code(survey)
        db.session.commit()
    return spec.slug


def test_ids_that_every_object_has_are_answered_like_any_other(
    context, live_server, prototype_ids, page_log
):
    context.add_init_script(FORCE_DARK_AND_TAILS)
    page = context.new_page()
    log = page_log(page)
    page.goto(f"{live_server}/s/{prototype_ids}")
    # Enabled once the page's code has set the question up.
    page.wait_for_selector("section[data-question='__proto__'] .spin-button:not([disabled])")
    expect(page.locator("[data-state='done']")).to_have_count(0)
    page.check("input[name='truth-__proto__'][value='1']")
    page.check("input[name='truth-constructor-toString']")
    spin(page, "__proto__")
    spin(page, "constructor")
    wait_until_done(page, ["__proto__", "constructor.toString", "constructor.valueOf"])
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    post = next(request for request in log.requests if request.method == "POST")
    assert body_of(post) == {
        "answers": {"__proto__": 0, "constructor": {"toString": 0, "valueOf": 1}}
    }
    assert log.errors == []


TRANSFERRED = """() => [
  ...performance.getEntriesByType("navigation"),
  ...performance.getEntriesByType("resource"),
].map((entry) => [entry.name, entry.transferSize])"""


def test_the_survey_page_is_light_and_a_reload_asks_only_for_the_page(browser, live_server, survey):
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{live_server}/s/{survey}", wait_until="load")
    page.wait_for_selector(".spinner svg")
    first = page.evaluate(TRANSFERRED)
    assert sum(size for _name, size in first) < 60_000, first
    page.reload(wait_until="load")
    page.wait_for_selector(".spinner svg")
    fetched = [name for name, size in page.evaluate(TRANSFERRED) if size > 0]
    assert len(fetched) <= 2, fetched
    context.close()
