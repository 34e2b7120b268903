"""The builder's Pages card in the browser: a page is cut, titled, ordered and ruled in one save,
each rule showing only the fields its question takes, on a phone in both languages."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.axe import violations
from tests.web.core.surveys.flow.test_quotas import QUOTA_STUDY
from web.core.infrastructure.extensions import db
from web.core.surveys.lookup import find_survey

pytestmark = pytest.mark.browser

ONE_PAGE = {key: value for key, value in QUOTA_STUDY.items() if key not in ("pages", "panel")}


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_a_page_is_cut_titled_and_ruled_in_one_save(
    app, researcher_at, live_server, import_survey, runner, locale
):
    slug = import_survey(ONE_PAGE | {"slug": "cuts"})
    runner.invoke(args=["share", slug, "rita@example.org", "--role", "owner"])
    page = researcher_at(locale, 390)
    page.goto(f"{live_server}/surveys/{slug}/edit#pages")
    row = page.locator("#pages li[data-question='cheated']")
    settings = row.locator(".page-settings")
    expect(settings).to_be_hidden()
    row.locator("input[name='start-cheated']").check()
    # Ticked, the new page's settings are there at once: no save in between.
    expect(settings).to_be_visible()
    page.fill("#title-cheated-en", "Exams")
    answers, least = row.locator("#answers-cheated"), row.locator("#at-least-cheated")
    expect(answers).to_be_hidden()
    expect(least).to_be_hidden()  # shown to every respondent: no condition to fill in
    row.locator("#show-cheated").select_option("age")
    expect(least).to_be_visible()
    expect(answers).to_be_hidden()
    row.locator("#show-cheated").select_option("gender")
    expect(answers).to_be_visible()
    expect(least).to_be_hidden()
    page.fill("#answers-cheated", "f m")
    assert violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    with page.expect_navigation():
        row.locator("xpath=ancestor::form").locator("button[type=submit]").click()
    with app.app_context():
        survey = find_survey(slug)
        db.session.refresh(survey)
        second = survey.pages[1]
    assert second["questions"] == ["cheated"] and second["title"] == {"en": "Exams"}
    assert second["show_if"] == {"question": "gender", "in": ["f", "m"]}
