"""The synthetic-data page in the browser: the utility chart and table, the download, and axe at
1280 and 390 px in both languages."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.axe import violations
from tests.browser.researcher import log_in
from tests.conftest import PASSWORD, no_database

pytestmark = [pytest.mark.browser, pytest.mark.imported(responses=600, seed=4)]


@pytest.fixture
def rita(runner):
    """The account researcher_page logs in as."""
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])


def researcher_page(browser, live_server, locale: str, width: int):
    """A logged-in researcher's page in ``locale`` at ``width`` px (axe needs the CSP bypassed)."""
    context = browser.new_context(
        locale=locale, bypass_csp=True, reduced_motion="reduce",
        viewport={"width": width, "height": 900},
    )  # fmt: skip
    page = context.new_page()
    log_in(page, live_server, "rita@example.org")
    return context, page


@pytest.mark.parametrize(("locale", "width"), [("en-US", 1280), ("ko-KR", 390)])
@no_database
def test_the_synthetic_page_reads_and_passes_axe(
    browser, live_server, designed, rita, locale, width
):
    context, page = researcher_page(browser, live_server, locale, width)
    page.goto(f"{live_server}/surveys/{designed}/synthetic")
    page.wait_for_selector("#utility-table")
    expect(page.locator("#utility-table tbody tr")).to_have_count(10)  # four items and six pairs
    expect(page.locator("svg.chart-wide rect.bar")).to_have_count(20)
    page.fill("#m", "3")
    page.click("#synthetic-controls button[type='submit']")
    page.wait_for_url(lambda url: "m=3" in url)
    with page.expect_download() as download:
        page.click("#synthetic-download")
    text = download.value.path().read_text(encoding="utf-8")
    assert text.splitlines()[0].startswith("# ") and ".imp,year,fr,own,uq,cw" in text
    assert violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()


@pytest.mark.parametrize(("locale", "width"), [("en-US", 1280), ("ko-KR", 320)])
@no_database
def test_the_two_answers_page_reads_and_passes_axe(
    browser, live_server, designed, rita, locale, width
):
    context, page = researcher_page(browser, live_server, locale, width)
    page.goto(f"{live_server}/surveys/{designed}/joint")
    page.select_option("#b", "cw")
    page.click("#joint-controls button[type='submit']")
    page.wait_for_url(lambda url: "b=cw" in url)
    expect(page.locator("#joint-table td")).to_have_count(4)
    assert violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()
