"""The guide in chromium: its pages run under the app's Content-Security-Policy with nothing
refused, in both languages, on a phone and a laptop; its language switch stays in the guide; and a
card's "?" on the dashboard opens the card's page in the viewer's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.researcher import log_in
from tests.conftest import PASSWORD
from web.core.surveys.demo import seed_demo_if_empty

pytestmark = pytest.mark.browser


@pytest.fixture
def guide_server(app, built_guide, live_server):
    app.config["GUIDE_FOLDER"] = str(built_guide)
    return live_server


def watched(page) -> list[str]:
    """What went wrong on ``page``: script errors, console errors (a refused script or style is
    one), and requests answered with an error."""
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on(
        "response",
        lambda answer: (
            problems.append(f"{answer.status} {answer.url}") if answer.status >= 400 else None
        ),
    )
    return problems


@pytest.mark.parametrize("width", [390, 1280])
def test_the_guide_runs_under_the_apps_policy_in_both_languages(browser, guide_server, width):
    context = browser.new_context(viewport={"width": width, "height": 800}, locale="ko-KR")
    page = context.new_page()
    problems = watched(page)
    page.goto(f"{guide_server}/guide/")
    expect(page).to_have_url(f"{guide_server}/guide/ko/")
    expect(page.locator("html")).to_have_attribute("lang", "ko")
    page.goto(f"{guide_server}/guide/ko/start/first-survey/")
    expect(page.locator("h1")).to_contain_text("첫 설문 만들기")
    expect(page.locator("img").first).to_have_js_property("complete", True)
    assert page.locator("img").first.evaluate("image => image.naturalWidth") > 0
    # A table of short columns beside a long one leaves the long one the room on a phone.
    page.goto(f"{guide_server}/guide/ko/security/")
    expect(page.locator("h1")).to_contain_text("보안")
    table = page.locator("table").filter(has_text="7.1.1")
    where, whole = table.locator("td:last-child").first.bounding_box(), table.bounding_box()
    assert where and whole and where["width"] >= 0.5 * whole["width"]
    # The language switch: the same page in English.
    page.goto(f"{guide_server}/guide/start/first-survey/")
    expect(page.locator("h1")).to_contain_text("Your first survey")
    page.goto(f"{guide_server}/guide/ko/")
    english = page.locator("a.md-select__link[hreflang='en']")
    assert english.first.get_attribute("href") == "/guide/"
    page.wait_for_load_state("networkidle")
    assert problems == []
    context.close()


def test_a_cards_question_mark_opens_its_page_in_the_viewers_language(
    app, browser, runner, guide_server
):
    with app.app_context():
        seed_demo_if_empty()
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    context = browser.new_context(locale="ko-KR")
    page = context.new_page()
    log_in(page, guide_server, "rita@example.org")
    page.goto(f"{guide_server}/surveys/campus-life")
    problems = watched(page)
    page.locator("#methods > a.guide-help").click()
    expect(page).to_have_url(f"{guide_server}/guide/ko/analyse/downloads/")
    expect(page.locator("h1")).to_contain_text("내려받기와 연구 방법 문단")
    page.wait_for_load_state("networkidle")
    assert problems == []
    context.close()
