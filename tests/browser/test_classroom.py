"""Classroom mode in a real browser: a projector while a class answers, the lab, languages, QR."""

from __future__ import annotations

import io
import json
import math
import re

import pytest
import zxingcpp
from PIL import Image
from playwright.sync_api import expect

import rr
from tests.browser.axe import LANGUAGE_AND_WIDTH, violations
from tests.browser.held import HeldRequests
from tests.browser.researcher import draw_every_chart, log_in
from tests.browser.respondent import open_survey, wait_until_done
from tests.conftest import PASSWORD, SAMPLE_SURVEY, no_database

pytestmark = pytest.mark.browser


def answer_as_student(browser, base, slug, truth_yes: bool):
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    open_survey(page, f"{base}/s/{slug}")
    page.check(f"input[name='truth-cheated'][value='{1 if truth_yes else 0}']")
    page.click("section[data-question='cheated'] .spin-button")
    # The first draw ends by focusing its outcome, which scrolls the page and moves the next
    # button: clicked at once, on a busy machine the click could land where that button was (the
    # fifth student of a fresh-clone run, docs/testing.md, session 38).
    wait_until_done(page, ["cheated"])
    page.click("section[data-question='substances'] .spin-button")
    page.wait_for_selector("#submit-button:not([disabled]):not([data-waiting])")
    with page.expect_navigation(url=re.compile(r"/thanks$")):
        page.click("#submit-button")
    context.close()


# Each student answers through a browser page of their own. The numbers move in batches of two
# (the smallest a survey may have): at 2 while the slides are hidden, at 4 and 6 once revealed.
BATCH = 2
CLASS_SIZE = 6
REVEALED_AFTER = 3  # the students after it answer while the results are on the screen


@pytest.mark.long
def test_the_projector_follows_a_class_and_moves_its_numbers_only_in_batches(
    app, browser, runner, live_server, import_in_batches
):
    # A class watching the projector sees the count follow each answer, but the numbers move only
    # when a batch of new answers is in: no single student's answer can be read off a change.
    # "Reveal" survives the panel's refreshes.
    survey = import_in_batches(SAMPLE_SURVEY, batch=BATCH)
    app.config["PRESENT_REFRESH_MS"] = 100  # the room's pace, sped up: a class in seconds
    runner.invoke(args=["create-user", "teacher@example.org", "--password", PASSWORD])
    teacher = browser.new_context(reduced_motion="reduce", viewport={"width": 1600, "height": 900})
    projector = teacher.new_page()
    errors = []
    projector.on("pageerror", lambda error: errors.append(str(error)))
    log_in(projector, live_server, "teacher@example.org")
    projector.goto(f"{live_server}/surveys/{survey}/present")
    expect(projector.locator("#live-count")).to_have_text("0")
    assert not projector.locator(".present-result").first.is_visible()
    dashboard = teacher.new_page()
    chart = ".present-result[data-question='cheated'] svg.chart-wide"

    def shown(count: int) -> tuple[str, str]:
        projector.wait_for_function(
            "(count) => document.getElementById('live-count').textContent === String(count)",
            arg=count,
            timeout=60_000,
        )
        dashboard.goto(f"{live_server}/surveys/{survey}")
        expect(dashboard.locator("#response-count")).to_have_text(str(count))
        results = " | ".join(dashboard.locator("#results-panel .result").all_inner_texts())
        # Every slide, the hidden ones too: a change anywhere counts.
        return projector.text_content(".present-results"), results

    before = shown(0)
    for student in range(1, CLASS_SIZE + 1):
        answer_as_student(browser, live_server, survey, truth_yes=student % 3 == 0)
        now = shown(student)
        if student % BATCH == 0:
            assert now[0] != before[0] and now[1] != before[1], student
            expect(dashboard.locator("#published-count")).to_have_text(str(student))
        else:
            assert now == before, student
        before = now
        if student == REVEALED_AFTER:
            projector.click("#reveal")
            assert projector.get_attribute("#reveal", "aria-pressed") == "true"
            projector.wait_for_selector(chart, state="visible")
            before = projector.text_content(".present-results"), before[1]
    # The panel was refreshed with each later answer, and the revealed state survived them.
    assert projector.get_attribute("#reveal", "aria-pressed") == "true"
    assert projector.locator(chart).is_visible()
    assert errors == []
    teacher.close()


@no_database
def test_lab_computes_and_draws(browser, live_server):
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(f"{live_server}/lab")
    expect(page.locator("#noise-chart svg")).to_have_count(0)  # simulated as it nears the screen
    waiting_height = page.locator("#noise-chart").bounding_box()["height"]
    for box, drawn in (
        ("#running-chart", "svg path.line"),
        ("#histogram", "svg rect.bar"),
        ("#noise-chart", "svg path.line"),
    ):
        page.locator(box).scroll_into_view_if_needed()
        page.wait_for_selector(f"{box} {drawn}", timeout=120_000)
    expect(page.locator("#class-grid .person")).to_have_count(30)
    # The chart held its place while it waited: nothing below it moved when it was drawn.
    assert page.locator("#noise-chart").bounding_box()["height"] == pytest.approx(
        waiting_height, abs=8
    )
    expect(page.locator("#class-summary")).to_contain_text(re.compile(r"\d"))
    expect(page.locator("#coverage-summary")).to_contain_text("simulated classes")
    page.check("input[name='procedure'][value='spinner']")
    page.fill("#epsilon", "2")
    page.dispatch_event("#epsilon", "input")
    ratio = page.locator("#privacy-table tr[data-procedure='spinner'] .ratio")
    expect(ratio).to_have_text(f"{math.exp(2):,.3f}")  # the lab shows three decimals
    assert page.inner_text(
        "#privacy-table tr[data-procedure='spinner_coin'] .truth"
    ) == page.inner_text("#privacy-table tr[data-procedure='spinner'] .truth")
    page.fill("#delta", "0.001")
    page.dispatch_event("#delta", "input")
    page.wait_for_function("() => document.getElementById('sigma-analytic').textContent !== ''")
    expect(page.locator("#noise-chart svg path.line")).to_have_count(4)
    expect(page.locator("#lab-error")).to_have_text("")
    assert errors == []
    context.close()


def boxes(page, selector):
    """Screen boxes of every element matching selector."""
    return page.eval_on_selector_all(
        selector,
        """(nodes) => nodes.map((node) => {
            const box = node.getBoundingClientRect();
            return { left: box.left, right: box.right, top: box.top, bottom: box.bottom };
        })""",
    )


def overlaps(a, b):
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


@no_database
def test_lab_charts_read_cleanly(browser, live_server):
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 390, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server}/lab")
    draw_every_chart(page)

    # Thirty respondents allow only 31 estimates: one bar for each, none empty in between.
    assert page.locator("#histogram rect.bar").count() <= 31
    label = boxes(page, "#histogram .rule-label")[0]
    assert not any(overlaps(label, bar) for bar in boxes(page, "#histogram rect.bar"))

    # The running estimate starts inside the axes: no point below the lowest gridline.
    lowest_grid = max(line["bottom"] for line in boxes(page, "#running-chart line.grid"))
    assert boxes(page, "#running-chart path.line")[0]["bottom"] <= lowest_grid + 2

    # Each noise curve has a legend entry drawn in its colour.
    for curve in ("laplace", "reference", "analytic", "classical"):
        swatch = page.eval_on_selector(
            f"#noise-legend .swatch.{curve}", "(node) => getComputedStyle(node).borderTopColor"
        )
        line = page.eval_on_selector(
            f"#noise-chart path.line.{curve}", "(node) => getComputedStyle(node).stroke"
        )
        assert swatch == line, curve
    # The coin's legend mark shows, on no colour, as it does on the cells.
    assert page.eval_on_selector(
        ".legend .dot.coin-mark",
        "(node) => [getComputedStyle(node).backgroundColor, getComputedStyle(node).visibility]",
    ) == ["rgba(0, 0, 0, 0)", "visible"]

    # Both procedures' descriptions show whole, even on a phone.
    for fits in page.eval_on_selector_all(
        "fieldset.choices label", "(nodes) => nodes.map((n) => n.scrollWidth <= n.clientWidth)"
    ):
        assert fits
    expect(page.locator("#multi-total")).to_contain_text("each at ε = 1")
    expect(page.locator("#multi-total")).to_contain_text("ε = 3")

    # A class of 0 is refused next to the field, not quietly run as a class of 1.
    summary = page.inner_text("#class-summary")
    page.fill("#n", "0")
    page.dispatch_event("#n", "input")
    page.wait_for_function("() => document.getElementById('n-error').textContent !== ''")
    assert page.get_attribute("#n", "aria-invalid") == "true"
    expect(page.locator("#n-error")).to_contain_text("from 1 to 2,000")
    page.click("#run-class")
    expect(page.locator("#class-summary")).to_have_text(summary)
    page.fill("#n", "12")
    page.dispatch_event("#n", "input")
    page.wait_for_function("() => document.querySelectorAll('#class-grid .person').length === 12")
    expect(page.locator("#n-error")).to_have_text("")
    context.close()


@no_database
def test_lab_runs_a_single_choice_class_with_both_procedures(browser, live_server):
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server}/lab")
    page.locator("#choice-panels").scroll_into_view_if_needed()
    for procedure in ("spinner_coin", "spinner"):
        page.wait_for_selector(
            f".choice-panel[data-procedure='{procedure}'] svg rect.bar", timeout=120_000
        )
        expect(page.locator(f".choice-panel[data-procedure='{procedure}'] rect.bar")).to_have_count(
            4
        )
        summary = page.inner_text(f".choice-panel[data-procedure='{procedure}'] .choice-summary")
        assert "add up to 100%" in summary and "Option 4:" in summary
    page.fill("#choice-shares", "60, 50")
    page.dispatch_event("#choice-shares", "input")
    page.wait_for_function("() => document.getElementById('choice-error').textContent !== ''")
    assert page.get_attribute("#choice-shares", "aria-invalid") == "true"
    page.fill("#choice-shares", "20, 20, 20, 20, 10, 10")
    page.dispatch_event("#choice-shares", "input")
    page.wait_for_function(
        "() => document.querySelectorAll(\".choice-panel[data-procedure='spinner'] rect.bar\").length === 6"
    )
    expect(page.locator("#choice-error")).to_have_text("")
    expect(page.locator("#lab-error")).to_have_text("")
    context.close()


def test_language_switch_is_remembered(browser, live_server, survey):
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(f"{live_server}/s/{survey}")
    assert page.get_attribute("html", "lang") == "en"
    page.click("nav.languages a[hreflang='ko']")
    page.wait_for_url(f"{live_server}/s/{survey}")
    assert page.get_attribute("html", "lang") == "ko"
    expect(page.locator("section[data-question='cheated'] .spin-button")).to_have_text("돌리기")
    page.goto(f"{live_server}/lab")
    assert page.get_attribute("html", "lang") == "ko" and "시뮬레이션 실험실" in page.inner_text(
        "h1"
    )
    page.click("nav.languages a[hreflang='en']")
    assert page.get_attribute("html", "lang") == "en" and page.inner_text("h1") == "Simulation lab"
    context.close()


def test_korean_browser_gets_korean_first(browser, live_server, survey):
    context = browser.new_context(locale="ko-KR")
    page = context.new_page()
    page.goto(f"{live_server}/s/{survey}")
    assert page.get_attribute("html", "lang") == "ko"
    expect(page.locator(".privacy-note")).to_contain_text("실제 답은 이 기기를 떠나지 않습니다.")
    context.close()


def test_qr_code_decodes_to_the_survey_address(browser, live_server, survey):
    context = browser.new_context(viewport={"width": 600, "height": 600})
    page = context.new_page()
    page.goto(f"{live_server}/s/{survey}/qr.svg")
    image = Image.open(io.BytesIO(page.screenshot()))
    decoded = [result.text for result in zxingcpp.read_barcodes(image)]
    assert decoded == [f"{live_server}/s/{survey}"]
    context.close()


LONG_OPTION = "Asked for an extension with a made-up excuse about a family emergency"


@pytest.mark.parametrize("viewport", [(1920, 1080), (1280, 720)])
@no_database
def test_the_projector_shows_one_question_per_slide(
    app, browser, runner, live_server, tmp_path, viewport, seed_responses
):
    app.config["RESULTS_MIN_N"] = 1
    spec = {
        "slug": "slides",
        "title": "Exam week",
        "description": "",
        "questions": [
            {"id": "cheated", "type": "yesno", "text": "Cheated?", "epsilon": 1.0,
             "procedure": "spinner_coin"},
            {"id": "excuses", "type": "multi", "text": "Which of these?", "epsilon": 1.0,
             "procedure": "spinner", "options": [{"id": "long", "text": LONG_OPTION},
                                                   {"id": "short", "text": "Overslept"}]},
        ],
    }  # fmt: skip
    path = tmp_path / "slides.json"
    path.write_text(json.dumps(spec))
    assert runner.invoke(args=["import-survey", str(path)]).exit_code == 0
    seed_responses("slides", 40, seed=3)
    runner.invoke(args=["create-user", "teacher@example.org", "--password", PASSWORD])
    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    log_in(page, live_server, "teacher@example.org")
    page.goto(f"{live_server}/surveys/slides/present")
    expect(page.locator("#reveal")).to_have_text("Reveal results")
    # The join screen fits: the teacher reveals without scrolling, and no account's links show.
    assert page.evaluate(ALL_ON_SCREEN, "#reveal, .present-controls a, .join-code, .qr") == []
    expect(page.locator("header nav[aria-label='Researcher']")).to_have_count(0)
    expect(page.get_by_role("link", name="API tokens")).to_have_count(0)
    page.click("#reveal")
    expect(page.locator("#reveal")).to_have_text("Hide results")
    visible = ".present-result:visible"
    expect(page.locator(visible)).to_have_count(1)
    expect(page.locator(visible)).to_have_attribute("data-question", "cheated")
    expect(page.locator("#slide-position")).to_have_text("1 / 2")
    assert page.evaluate(ALL_ON_SCREEN, ".present-controls button, .present-controls a") == []
    page.keyboard.press("PageDown")
    expect(page.locator(visible)).to_have_attribute("data-question", "excuses")
    fits = page.evaluate(
        """() => {
            const slide = document.querySelector(".present-result[data-current]");
            const box = slide.getBoundingClientRect();
            return box.bottom <= innerHeight && document.documentElement.scrollHeight <= innerHeight;
        }"""
    )
    assert fits
    labels = page.evaluate(
        """() => [...document.querySelectorAll(".present-result[data-current] .chart-wide .label")]
            .map((label) => {
                const svg = label.ownerSVGElement.getBoundingClientRect();
                const box = label.getBoundingClientRect();
                const size = parseFloat(getComputedStyle(label).fontSize) * label.getScreenCTM().a;
                return [size, box.left >= svg.left, label.textContent];
            })"""
    )
    assert all(inside for _size, inside, _text in labels), labels
    assert "".join(text for *_rest, text in labels).startswith("Asked for an extension")
    if width == 1920:
        assert min(size for size, *_rest in labels) >= 40, labels
    page.keyboard.press("ArrowLeft")
    expect(page.locator(visible)).to_have_attribute("data-question", "cheated")
    context.close()


# What of the selected elements lies (partly) off the screen, or past a page that scrolls.
ALL_ON_SCREEN = """(selector) => {
  const off = [...document.querySelectorAll(selector)].filter((element) => {
    if (!element.getClientRects().length) return false;  // not shown
    const box = element.getBoundingClientRect();
    return box.top < 0 || box.left < 0 || box.bottom > innerHeight || box.right > innerWidth;
  }).map((element) => element.id || element.className || element.tagName);
  return document.documentElement.scrollHeight > innerHeight ? [...off, "the page scrolls"] : off;
}"""


@no_database
def test_a_withheld_slide_says_why_and_from_how_many_answers(
    app, browser, runner, live_server, survey, seed_responses
):
    """A question below the minimum n once showed an empty axis on its slide."""
    seed_responses(survey, 5, seed=4)  # one batch, below the minimum n of 10
    runner.invoke(args=["create-user", "teacher@example.org", "--password", PASSWORD])
    for locale, says in (
        ("en-US", "figures appear once 10 answers to this question are shown, and 5 are so far"),
        ("ko-KR", "10개가 되면"),
    ):
        context = browser.new_context(viewport={"width": 1280, "height": 720}, locale=locale)
        page = context.new_page()
        log_in(page, live_server, "teacher@example.org")
        page.goto(f"{live_server}/surveys/{survey}/present")
        page.click("#reveal")
        slide = page.locator(".present-result[data-current]")
        expect(slide.locator(".waiting")).to_contain_text(says)
        expect(slide.locator("svg")).to_have_count(0)
        context.close()


@no_database
def test_lab_runs_a_number_class_against_laplace_and_gaussian(browser, live_server):
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server}/lab")
    page.locator("#number-chart").scroll_into_view_if_needed()
    page.wait_for_selector("#number-chart svg path.line.laplace", timeout=120_000)
    expect(page.locator("#number-chart path.line")).to_have_count(3)
    expect(page.locator("#number-chart path.band")).to_have_count(1)
    summary = page.inner_text("#number-summary")
    assert "The class's true mean" in summary and "of Laplace's" in summary
    page.fill("#number-n", "0")
    page.wait_for_function(
        "() => document.getElementById('number-n').getAttribute('aria-invalid') === 'true'"
    )
    expect(page.locator("#number-n-error")).to_contain_text("Enter a class size from 1 to 2,000")
    page.fill("#number-n", "50")
    page.wait_for_function(
        "() => document.getElementById('number-n').getAttribute('aria-invalid') === 'false'"
    )
    page.wait_for_function(
        "() => document.querySelectorAll('#number-chart path.line.estimate').length === 1"
    )
    context.close()


@no_database
@pytest.mark.parametrize("bounds", ["", "&report_low=-31806.73&report_high=47003.02"])
def test_lab_draws_the_reports_trace_plots(browser, live_server, bounds):
    """With the default bounds, and with the report's variable (a mean in thousands, λ near
    10⁻⁸): every tick label short and inside its plot, R-hat and ESS beside each plot."""
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(f"{live_server}/lab?report_n=300{bounds}#report")  # its modules run before load
    plots = page.locator("#report-traces [data-trace]")
    assert page.locator("#report-traces svg").count() < 6  # drawn as they near the viewport
    for index in range(plots.count()):
        plots.nth(index).scroll_into_view_if_needed()
        expect(plots.nth(index).locator("svg path.line")).to_have_count(1, timeout=120_000)
    expect(page.locator("#report-traces svg")).to_have_count(6)
    expect(page.locator("#report-traces line.rule")).to_have_count(6)  # the end of burn-in
    expect(page.locator("#report-overlap tbody tr")).to_have_count(3)
    captions = page.locator("#report-traces figcaption").all_text_contents()
    assert len(captions) == 6 and all("R̂ = " in text and "ESS = " in text for text in captions)
    ticks = page.locator("#report-traces text.tick").all_text_contents()
    assert ticks and all(len(tick) <= 7 for tick in ticks), ticks
    lefts = page.evaluate(
        "[...document.querySelectorAll('#report-traces text.tick')].map((t) => t.getBBox().x)"
    )
    assert min(lefts) >= 0  # no label runs out of its plot on the left
    context.close()


@no_database
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_lab_runs_the_reports_experiment_again_when_asked(browser, live_server, locale):
    context = browser.new_context(
        reduced_motion="reduce", viewport={"width": 1280, "height": 900}, locale=locale,
        bypass_csp=True,  # for axe's injected script only
    )  # fmt: skip
    page = context.new_page()
    page.goto(f"{live_server}/lab?report_n=300#report")
    expect(page.locator("#report-reproduction")).to_have_count(
        0
    )  # seconds of work: only when asked
    page.fill("#reproduce", "4")
    page.click("#reproduction-controls button")
    page.wait_for_selector("#report-reproduction tbody tr", timeout=60_000)
    rows = page.locator("#report-reproduction tbody tr")
    expect(rows).to_have_count(3)
    assert [rows.nth(i).locator("td").first.inner_text() for i in range(3)] == [
        "0.44", "0.84", "0.91",
    ]  # fmt: skip
    expect(page.locator("#report-reproduction thead")).to_contain_text("2ε")
    assert violations(page) == []
    context.close()


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_the_lab_shows_the_averaging_attack_stopped_by_a_permanent_answer(
    browser, live_server, locale
):
    context = browser.new_context(reduced_motion="reduce", locale=locale, bypass_csp=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server}/lab#averaging")
    page.wait_for_selector("#averaging-chart svg path.line.laplace", timeout=120_000)
    expect(page.locator("#averaging-chart svg path.line")).to_have_count(2)
    expected = rr.averaging_attack(1.0, 2.0, 50)
    summary = page.inner_text("#averaging-summary")
    assert "88.1%" in summary and ("99.9%" in summary or "100%" in summary)
    assert expected.permanent[-1] == pytest.approx(0.881, abs=5e-4)
    page.fill("#averaging-epsilon", "3")  # above ε∞ = 2: refused with the reason
    page.wait_for_selector("#averaging-error:not(:empty)")
    assert violations(page) == []
    assert errors == []
    context.close()


@no_database
def test_the_projectors_averaging_chart_holds_its_place_while_its_numbers_come(
    browser, live_server
):
    """The chart is drawn when the server's numbers arrive: until then its box is already the
    size of the chart, so nothing on the projector moves when it appears."""
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    held = HeldRequests(page, r"/api/lab/averaging")
    page.goto(f"{live_server}/lab/averaging")
    held.wait("the chart's numbers")
    expect(page.locator("#averaging-chart svg")).to_have_count(0)
    waiting = page.locator("#averaging-chart").bounding_box()
    held.release()
    page.wait_for_selector("#averaging-chart svg path.line.laplace", timeout=120_000)
    drawn = page.locator("#averaging-chart").bounding_box()
    assert drawn["height"] == pytest.approx(waiting["height"], abs=8)
    assert drawn["width"] == pytest.approx(waiting["width"], abs=1)
    context.close()


@pytest.mark.parametrize(("locale", "width"), LANGUAGE_AND_WIDTH)
def test_the_averaging_attack_on_the_projector(browser, live_server, locale, width):
    context = browser.new_context(
        reduced_motion="reduce", locale=locale, bypass_csp=True,
        viewport={"width": width, "height": 800},
    )  # fmt: skip
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live_server}/lab/averaging")
    expect(page.locator("body.present")).to_have_count(1)
    page.locator("#averaging-chart").scroll_into_view_if_needed()
    page.wait_for_selector("#averaging-chart svg path.line.laplace", timeout=120_000)
    expect(page.locator("#averaging-chart svg path.line")).to_have_count(2)
    assert violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert errors == []
    context.close()
