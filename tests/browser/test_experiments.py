"""A split-ballot experiment in chromium: the page draws the condition once (reload, Back and a
second tab keep it), shows only its questions, says when one is asked directly, and sends the
condition with the reports; a randomized item's true answer never goes on the wire."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.axe import LANGUAGE_AND_WIDTH, phone_problems
from tests.browser.respondent import FORCED, memo, wait_until_done
from tests.web.core.surveys.test_experiments import EXPERIMENT
from web.core.surveys.lookup import find_survey
from web.simulation import simulate_responses

pytestmark = pytest.mark.browser

ASKED = {
    "direct": {"procedure": "direct"},
    "spin": {"procedure": "spinner_coin", "epsilon": 1},
}
SPLIT = {
    "slug": "split-ballot",
    "title": "Split ballot",
    "description": "Two ways of asking.",
    "conditions": [{"id": "direct", "share": 1}, {"id": "spin", "share": 1}],
    "questions": [
        {"id": "drugs", "type": "yesno", "text": "Used drugs this year?", "asked": ASKED},
        {"id": "cheated", "type": "yesno", "text": "Cheated?", "epsilon": 1.0,
         "procedure": "spinner_coin"},
    ],
}  # fmt: skip
# Every 32-bit draw forced (respondent.py's FORCED): 0 draws the first condition (and light);
# 0xFFFFFFFE the last (and dark, tails). With window.name "first", 0 from then on.
LAST_THEN_FIRST = FORCED % "window.name === 'first' ? 0 : 0xFFFFFFFE"
CONDITION = """(key) => {
  const raw = localStorage.getItem(key);
  return raw === null ? null : JSON.parse(raw).reported["@condition"]?.bit ?? null;
}"""


def shown_questions(page) -> list[str]:
    """The questions the page shows, once its condition is drawn."""
    page.wait_for_selector("section[data-condition]:not([hidden])", timeout=60_000)
    return page.eval_on_selector_all(
        "section.question:not([hidden])", "sections => sections.map((s) => s.dataset.question)"
    )


def test_the_condition_is_drawn_once_whatever_the_respondent_does(
    context, live_server, import_survey
):
    slug = import_survey(SPLIT)
    context.add_init_script(LAST_THEN_FIRST)
    first = context.new_page()
    first.goto(f"{live_server}/s/{slug}")
    assert shown_questions(first) == ["drugs@spin", "cheated"]
    assert first.evaluate(CONDITION, f"rr-survey:{slug}") == "spin"
    # The other condition's question is gone from the page, not only hidden.
    expect(first.locator("section[data-question='drugs@direct']")).to_have_count(0)
    # From now on every draw would give the first condition: none is made.
    first.evaluate("window.name = 'first'")
    first.reload()
    assert shown_questions(first) == ["drugs@spin", "cheated"]
    assert first.evaluate("window.draws") == 0
    first.goto(f"{live_server}/")
    first.go_back()
    assert shown_questions(first) == ["drugs@spin", "cheated"]
    second = context.new_page()
    second.evaluate("window.name = 'first'")
    second.goto(f"{live_server}/s/{slug}")
    assert shown_questions(second) == ["drugs@spin", "cheated"]
    assert second.evaluate("window.draws") == 0


def test_asked_directly_says_so_and_sends_the_answer_but_never_a_spun_truth(
    browser, live_server, import_survey
):
    slug = import_survey(SPLIT)
    bodies = {}
    for forced, condition in ((FORCED % "0", "direct"), (FORCED % "0xFFFFFFFE", "spin")):
        context = browser.new_context(reduced_motion="reduce")
        context.add_init_script(forced)
        page = context.new_page()
        posts = []
        page.on("request", lambda request, posts=posts: posts.append(request))
        page.goto(f"{live_server}/s/{slug}")
        assert shown_questions(page) == [f"drugs@{condition}", "cheated"]
        section = page.locator(f"section[data-question='drugs@{condition}']")
        direct_note = section.locator(".direct-note")
        if condition == "direct":
            assert "Answered directly" in direct_note.inner_text()
            # Choosing is answering: no second button.
            expect(section.locator(".spin-button")).to_be_hidden()
            page.check("input[name='report-drugs@direct'][value='1']")
        else:
            expect(direct_note).to_have_count(0)
            page.check("input[name='truth-drugs@spin'][value='1']")
            section.locator(".spin-button").click()
        page.check("input[name='truth-cheated'][value='1']")
        page.click("section[data-question='cheated'] .spin-button")
        wait_until_done(page, [f"drugs@{condition}"] * (condition == "spin") + ["cheated"])
        kept = memo(page, slug)["reported"]
        # A directly asked answer is kept nowhere but the page; a spun report is kept.
        assert ("drugs@direct" in kept, "drugs@spin" in kept) == (False, condition == "spin")
        page.click("#submit-button")
        page.wait_for_url(f"**/s/{slug}/thanks", timeout=60_000)
        sent = [r for r in posts if r.method == "POST" and r.url.endswith("/responses")]
        assert len(sent) == 1
        bodies[condition] = json.loads(sent[0].post_data)
        context.close()
    assert bodies["direct"] == {"condition": "direct", "answers": {"drugs": 1, "cheated": 1}}
    # Forced dark and tails: both true yes answers are reported as no.
    assert bodies["spin"] == {"condition": "spin", "answers": {"drugs": 0, "cheated": 0}}


@pytest.mark.parametrize(("locale", "width"), LANGUAGE_AND_WIDTH)
def test_the_experiment_panel_and_page_pass_axe(
    app, researcher_at, live_server, import_survey, locale, width
):
    slug = import_survey({**EXPERIMENT, "consent": "You may stop at any time."})
    with app.app_context():
        simulate_responses(find_survey(slug), 600, 0.3, seed=2)
    page = researcher_at(locale, width)
    page.goto(f"{live_server}/surveys/{slug}")
    page.wait_for_selector("#experiment table")
    assert phone_problems(page, width) == []
    respondent = page.context.new_page()
    respondent.goto(f"{live_server}/s/{slug}")
    respondent.click("#consent-agree")
    shown_questions(respondent)
    assert phone_problems(respondent, width) == []


@pytest.mark.parametrize(("locale", "width"), LANGUAGE_AND_WIDTH)
def test_the_projector_shows_each_way_of_asking_side_by_side(
    app, researcher_at, live_server, import_survey, locale, width
):
    app.config["PRESENT_REFRESH_MS"] = 100
    slug = import_survey(SPLIT)
    projector = researcher_at(locale, width)
    projector.goto(f"{live_server}/surveys/{slug}/present")
    projector.click("#reveal")
    # No figures yet: the side-by-side item says when they come, and no chart is drawn.
    side = ".present-experiment[data-question='drugs']"
    projector.wait_for_selector(side, state="visible")
    expect(projector.locator(f"{side} svg.chart")).to_have_count(0)
    # The condition's own rows are not shown again one by one.
    expect(projector.locator(".present-result[data-question='drugs@spin']")).to_have_count(0)
    with app.app_context():
        simulate_responses(find_survey(slug), 200, 0.3, seed=5)
    # A phone shows the drawing with the labels above the bars, a wider screen the other.
    drawing = "chart-narrow" if width < 640 else "chart-wide"
    projector.wait_for_selector(f"{side} svg.{drawing}", state="visible", timeout=60_000)
    expect(projector.locator(f"{side} svg.{drawing} .label")).to_have_count(2)
    expect(projector.locator(f"{side} .gap")).to_have_count(1)
    assert phone_problems(projector, width) == []


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_the_dashboard_a_methods_section_is_written_from_reads_on_a_phone(
    app, researcher_at, live_server, import_survey, locale
):
    """At 390 px the experiment's chart labels were about 5 px, its tables clipped, its tables
    captioned by ids under the charts, and the estimates switch looked the same either way."""
    slug = import_survey(EXPERIMENT)
    with app.app_context():
        simulate_responses(find_survey(slug), 600, 0.3, seed=2)
    page = researcher_at(locale, 390)
    page.goto(f"{live_server}/surveys/{slug}")
    item = page.locator(".experiment-item[data-item='drugs']")
    expect(item.locator("h4")).to_contain_text("Used drugs this year?")
    # The question's wording comes before its chart.
    assert item.evaluate(
        "(item) => item.querySelector('h4').compareDocumentPosition(item.querySelector('svg'))"
        " & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    sizes = item.locator("svg.chart-narrow .label").evaluate_all(
        "(labels) => labels.map((label) => parseFloat(getComputedStyle(label).fontSize)"
        " * label.getScreenCTM().a)"
    )
    assert sizes and min(sizes) >= 12, sizes
    scroller = item.locator(".table-scroll")
    assert scroller.evaluate("(box) => getComputedStyle(box).overflowX") == "auto"
    assert scroller.evaluate("(box) => box.scrollWidth > box.clientWidth")  # it scrolls, not clips
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    pressed, unpressed = (
        page.locator(f".estimates-switch button[aria-pressed='{state}']").evaluate(
            "(button) => getComputedStyle(button).backgroundColor"
        )
        for state in ("true", "false")
    )
    assert pressed != unpressed
    assert phone_problems(page, 390) == []
