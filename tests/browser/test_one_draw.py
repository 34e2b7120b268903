"""One draw per item, whatever the respondent does: reload mid-spin, a second tab, a revision
change, Back. The reported bits are committed before the first animation frame, and the true
answer leaves the screen once they are."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.respondent import (
    FORCE_DARK_AND_TAILS,
    FORCE_DARK_THEN_LIGHT,
    FORCE_LIGHT,
    answer_truthfully,
    checked_inputs,
    memo,
    open_survey,
    reported_bits,
    shown,
    spin,
    storage_holds_only_reported_bits,
    wait_until_done,
)
from tests.conftest import no_database, stored_count
from web.core.infrastructure.extensions import db
from web.core.surveys.lookup import find_survey
from web.core.surveys.question_edit import update_question

pytestmark = pytest.mark.browser

CHEATED = "[data-item='cheated']"
SPIN_CHEATED = "section[data-question='cheated'] .spin-button"
# With FORCE_DARK_THEN_LIGHT the wheel turns for 2,200 ms, then the coin, which starts on tails
# and must land on tails, makes 8 half turns of 160 ms: the animation lasts 3,480 ms.
ANIMATION_MS = 2200 + 8 * 160
# The memo holds the question's report (a memo can exist before, holding nothing yet).
STORED_CHEATED = """(key) => {
  const raw = localStorage.getItem(key);
  return raw !== null && JSON.parse(raw).reported?.cheated !== undefined;
}"""
# A reload just after the click, in the wheel's turn, as the wheel stops, in the coin's turns, and
# just before the end: each phase of the animation and both its edges (five runs where there were
# ten, 400 ms apart: a run costs chromium two seconds).
MOMENTS_MS = [50, 1100, 2150, 2600, ANIMATION_MS - 50]
# Counts the frames that move the wheel, and those drawn while the survey's memo was not yet in
# storage (an observer, since the clock replaces requestAnimationFrame itself).
COUNT_FRAMES = """
window.frames = 0;
window.framesWithoutMemo = 0;
new MutationObserver((records) => {
  for (const record of records) {
    window.frames += 1;
    if (localStorage.getItem("rr-survey:%s") === null) window.framesWithoutMemo += 1;
  }
}).observe(document, { subtree: true, attributeFilter: ["transform"] });
"""


def animated_page(browser, survey):
    """A page in a fresh browser profile (nothing stored from an earlier run) that animates (no
    reduced motion), with a fake clock and the draw forced dark, then light after a reload."""
    context = browser.new_context(reduced_motion="no-preference")
    context.add_init_script(FORCE_DARK_THEN_LIGHT)
    context.add_init_script(COUNT_FRAMES % survey)
    page = context.new_page()
    page.clock.install()
    return context, page


@no_database
@pytest.mark.parametrize("moment", MOMENTS_MS)
def test_reload_at_any_moment_of_the_animation_never_draws_again(
    browser, live_server, survey, moment
):
    # The true answer is yes and the draw reports no: the respondent who dislikes that reloads,
    # and from then on every draw would report yes. One run at each moment of MOMENTS_MS, each
    # in a profile of its own so that no run sees another's (the fake clock fixes each moment, so
    # a second run at the same moment would repeat only what happens in real time, which each
    # run goes through).
    url = f"{live_server}/s/{survey}"
    context, page = animated_page(browser, survey)
    page.goto(url)
    # The page's code starts after the first frame: ready before the clock stands still.
    page.wait_for_selector(f"{SPIN_CHEATED}:not([disabled])")
    assert memo(page, survey) is None
    # A minute ahead (seconds): on a busy machine more than a second can pass between
    # reading the page's clock and pausing it, and a pause in the past is refused.
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 60)
    page.check("input[name='truth-cheated'][value='1']")
    page.click(SPIN_CHEATED)
    # The clock stands still, so no frame has been drawn yet: the bit is already stored,
    # and the true answer went in the same task.
    page.wait_for_function(STORED_CHEATED, arg=f"rr-survey:{survey}")
    assert page.get_attribute(f"{CHEATED} .wheel", "transform") is None
    assert page.evaluate("window.framesWithoutMemo") == 0
    assert reported_bits(memo(page, survey)) == {"cheated": 0}
    assert checked_inputs(page) == []
    # The animation starts once the draw is also in the store every tab reads (IndexedDB,
    # real time, not the paused clock): wait for that, then move the clock to the moment.
    page.wait_for_selector(f"{CHEATED}[data-state='spinning']")
    page.clock.run_for(moment)
    assert page.get_attribute(CHEATED, "data-state") == "spinning", moment
    assert page.evaluate("window.frames") > 0
    assert page.evaluate("window.framesWithoutMemo") == 0
    page.evaluate("window.name = 'light'")
    page.reload()
    page.wait_for_selector(f"{CHEATED}[data-state='done']")
    assert shown(page, "cheated")["reported"] == 0, moment
    assert page.is_disabled(SPIN_CHEATED)
    assert page.evaluate("window.draws") == 0
    assert reported_bits(memo(page, survey)) == {"cheated": 0}
    context.close()


def test_a_second_tab_shows_the_first_tabs_draw_and_never_draws(context, live_server, survey):
    first, second = context.new_page(), context.new_page()
    first.add_init_script(FORCE_DARK_AND_TAILS)
    second.add_init_script(FORCE_LIGHT)
    for page in (first, second):
        open_survey(page, f"{live_server}/s/{survey}")
        page.check("input[name='truth-cheated'][value='1']")
    spin(first, "cheated")
    wait_until_done(first, ["cheated"])
    # The second tab learns of the draw from storage, before its respondent presses anything.
    wait_until_done(second, ["cheated"])
    assert shown(second, "cheated")["reported"] == 0
    assert second.is_disabled(SPIN_CHEATED)
    assert checked_inputs(second) == []
    assert second.evaluate("window.draws") == 0


@pytest.mark.parametrize("attempt", range(2))
def test_two_tabs_spinning_at_once_draw_once(browser, live_server, survey, attempt):
    # The race is a narrow one (local storage reaches another tab a moment after a write), so
    # it is run 10 times (5 in each of two tests that may run side by side), each from a
    # browser that has drawn nothing.
    for _ in range(5):
        context = browser.new_context(reduced_motion="reduce")
        first, second = context.new_page(), context.new_page()
        first.add_init_script(FORCE_DARK_AND_TAILS)
        second.add_init_script(FORCE_LIGHT)
        for page in (first, second):
            open_survey(page, f"{live_server}/s/{survey}")
            page.check("input[name='truth-substances-alcohol']")
        # Both clicks are dispatched before either page's lock callback has run.
        spin = "document.querySelector(\"[data-question='substances'] .spin-button\").click()"
        first.evaluate(spin)
        second.evaluate(spin)
        items = ["substances.alcohol", "substances.tobacco"]
        wait_until_done(first, items)
        wait_until_done(second, items)
        stored = reported_bits(memo(first, survey))
        for page in (first, second):
            assert {item: shown(page, item)["reported"] for item in items} == stored
        # Exactly one tab drew (two items, one value each: the spinner alone decides here).
        assert sorted([first.evaluate("window.draws"), second.evaluate("window.draws")]) == [0, 2]
        context.close()


def bump_revision(app, slug):
    """The researcher lowers the yes/no question's ε: a new revision."""
    with app.app_context():
        survey = find_survey(slug)
        question = survey.questions[0]
        spec = survey.to_spec().questions[0]
        update_question(question.survey, question, type(spec)(**{**spec.__dict__, "epsilon": 0.2}))
        db.session.commit()
        return survey.revision


def test_a_new_revision_redraws_only_what_changed(app, context, live_server, survey):
    old = context.new_page()
    old.add_init_script(FORCE_DARK_AND_TAILS)
    open_survey(old, f"{live_server}/s/{survey}")
    old.check("input[name='truth-cheated'][value='1']")
    spin(old, "cheated")
    wait_until_done(old, ["cheated"])
    assert memo(old, survey)["revision"] == 1
    assert bump_revision(app, survey) == 2

    # The old page can still spin what is left, but the server refuses its answers.
    old.check("input[name='truth-substances-alcohol']")
    spin(old, "substances")
    old.wait_for_selector("#submit-button:not([disabled]):not([data-waiting])")
    old.click("#submit-button")
    old.wait_for_selector("#submit-error:not(:empty)")
    expect(old.locator("#submit-error")).to_contain_text("changed after the page was loaded")
    with app.app_context():
        assert stored_count() == 0

    drawn = reported_bits(memo(old, survey))
    # Reloaded, it is revision 2: the ε = 1 draw is not replayed for the ε = 0.2 question, which
    # spins afresh; the unchanged multi-select question shows its draws and cannot spin again.
    old.reload()
    # Disabled in the page as sent: enabled once the page's code has set the question up.
    old.wait_for_selector(f"{SPIN_CHEATED}:not([disabled])")
    assert shown(old, "cheated")["reported"] is None
    expect(old.locator("section[data-question='cheated'] .cost")).to_contain_text("ε = 0.2")
    for item in ("substances.alcohol", "substances.tobacco"):
        assert shown(old, item)["reported"] == drawn[item]
    assert old.is_disabled("section[data-question='substances'] .spin-button")
    assert memo(old, survey)["revision"] == 2


def test_a_page_of_an_older_revision_stops_once_a_newer_one_drew(app, context, live_server, survey):
    stale = context.new_page()
    open_survey(stale, f"{live_server}/s/{survey}")
    bump_revision(app, survey)
    fresh = context.new_page()
    open_survey(fresh, f"{live_server}/s/{survey}")
    fresh.check("input[name='truth-cheated'][value='0']")
    spin(fresh, "cheated")
    wait_until_done(fresh, ["cheated"])
    stale.wait_for_selector("#survey-changed", state="visible")
    assert stale.is_hidden("#survey-form")
    assert memo(fresh, survey)["revision"] == 2


def test_the_true_answer_leaves_the_screen_once_drawn(browser, live_server, survey):
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    open_survey(page, f"{live_server}/s/{survey}")
    answer_truthfully(page)
    spin(page, "cheated")
    wait_until_done(page, ["cheated"])
    # Reset, not only disabled; the outcome names the report and not the truth beside it.
    assert checked_inputs(page) == ["truth-substances-alcohol"]
    assert page.is_disabled("input[name='truth-cheated'][value='1']")
    outcome = page.inner_text(f"{CHEATED} .outcome")
    assert outcome.startswith("You will report:")
    assert "true answer is reported" not in outcome and "Light" not in outcome
    # The wheel and the coin fade to neutral: light and dark look alike once the spin is shown.
    page.wait_for_function(
        """() => {
            const fill = (selector) => getComputedStyle(document.querySelector(selector)).fill;
            return fill("[data-item='cheated'] .sector-light") ===
                fill("[data-item='cheated'] .sector-dark");
        }""",
        timeout=60_000,
    )
    context.close()


def test_back_after_a_spin_and_after_submitting_restores_no_true_answer(
    context, live_server, survey
):
    page = context.new_page()
    open_survey(page, f"{live_server}/s/{survey}")
    answer_truthfully(page)
    spin(page, "cheated")
    wait_until_done(page, ["cheated"])
    drawn = shown(page, "cheated")["reported"]
    page.goto(f"{live_server}/lab")
    page.go_back()
    wait_until_done(page, ["cheated"])
    assert checked_inputs(page) == []
    assert shown(page, "cheated")["reported"] == drawn
    storage_holds_only_reported_bits(page, survey)

    page.check("input[name='truth-substances-alcohol']")
    spin(page, "substances")
    page.wait_for_selector("#submit-button:not([disabled]):not([data-waiting])")
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    page.go_back()
    page.wait_for_selector("#already-answered", state="visible")
    assert checked_inputs(page) == []
    stored = storage_holds_only_reported_bits(page, survey)
    assert stored["submitted"] is True and reported_bits(stored)["cheated"] == drawn
