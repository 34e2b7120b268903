"""The account's sessions page in chromium, on a phone: every session's button in sight without
scrolling sideways, and each time in the viewer's own zone, in English and Korean."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.researcher import log_in
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

# A table scrolled sideways, or a button past the screen's edge: each as [what, how far past].
PAST_THE_EDGE = """() => {
  const table = document.querySelector("#sessions-table");
  const past = [["table", table.scrollWidth - table.clientWidth]];
  for (const button of table.querySelectorAll("button")) {
    past.push([button.textContent.trim(), button.getBoundingClientRect().right - innerWidth]);
  }
  return past.filter(([, by]) => by > 0);
}"""


def test_the_sessions_page_fits_a_phone_in_the_viewers_time_zone(browser, runner, live_server):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    pages = {}
    for locale in ("en-US", "ko-KR"):
        context = browser.new_context(
            locale=locale, timezone_id="Asia/Seoul", viewport={"width": 320, "height": 700}
        )
        pages[locale] = context.new_page()
        log_in(pages[locale], live_server, "rita@example.org")
    for locale, page in pages.items():
        page.goto(f"{live_server}/account/sessions")
        expect(page.locator("#sessions-table tbody tr")).to_have_count(2)
        # The server writes UTC; the page's script writes it again in Seoul's time.
        expect(page.locator("#sessions-table time").first).to_contain_text("GMT+9")
        assert page.evaluate(PAST_THE_EDGE) == [], locale
    for page in pages.values():
        page.context.close()
