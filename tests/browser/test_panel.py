"""A respondent from a panel link: the panel's id leaves the address bar at once, is never sent
with the answers, and is filled into the panel's completion address once the response is stored;
afterwards neither the database nor the server's log holds it."""

from __future__ import annotations

import logging
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_questionnaire import on_a_phone, spin_and_wait
from tests.web.core.surveys.test_panel import ON_A_PANEL

pytestmark = pytest.mark.browser

PID = "5f0c3a2b1d9e"


def test_a_panel_respondent_reaches_the_completion_address_with_the_id(
    browser, live_server, import_survey, tmp_path, caplog
):
    slug = import_survey(ON_A_PANEL)
    with caplog.at_level(logging.INFO, logger="werkzeug"):
        page, sent = on_a_phone(
            browser, f"{live_server}/s/{slug}?PROLIFIC_PID={PID}&STUDY_ID=s%201"
        )
        finished = []

        def panel_page(route):
            finished.append(route.request.url)
            route.fulfill(
                status=200, content_type="text/html", body="<p>Thanks, from the panel</p>"
            )

        page.route("https://app.prolific.com/**", panel_page)
        expect(page.locator("section[data-question='cheated']")).to_be_visible(timeout=60_000)
        # The page takes the parameters out of its address as soon as its script runs.
        expect(page).to_have_url(re.compile(rf"/s/{slug}$"), timeout=60_000)
        assert PID in page.evaluate(f"() => localStorage.getItem('rr-panel:{slug}')")
        spin_and_wait(page, "cheated")
        page.click("#submit-button")
        page.wait_for_url("https://app.prolific.com/**", timeout=60_000)
        (body,) = sent
        assert PID not in str(body) and set(body) == {"answers"}
        assert finished == [f"https://app.prolific.com/submissions/complete?cc=C1ABC&pid={PID}"]
        page.context.close()
    stored = b"".join(path.read_bytes() for path in tmp_path.glob("test.sqlite3*"))
    assert stored and PID.encode() not in stored
    assert not any(PID in record.getMessage() for record in caplog.records)
