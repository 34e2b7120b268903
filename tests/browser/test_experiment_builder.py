"""Declaring a split ballot in the builder on a phone, with the keyboard's controls: the cells of
each condition appear as its id is typed and are named after it, a question's cells only where
it is asked its own way; saved, the survey's page names the conditions."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.axe import phone_problems
from tests.browser.researcher import log_in
from tests.conftest import PASSWORD
from tests.web.workspace.test_experiment_builder import SURVEY

pytestmark = pytest.mark.browser


def test_a_split_ballot_is_declared_on_a_phone(browser, runner, live_server, import_survey):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    slug = import_survey(SURVEY)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, reduced_motion="reduce", bypass_csp=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server, "rita@example.org")
    page.goto(f"{live_server}/surveys/{slug}/experiment")
    drugs = page.locator("fieldset.asking[data-question='drugs']")
    # Nothing declared: no condition's cells, and none for a question asked one way.
    expect(drugs.locator("[data-mode-cells]")).to_be_hidden(timeout=60_000)
    page.fill("#condition-1", "direct")
    page.fill("#share-1", "1")
    page.fill("#condition-2", "spin")
    page.fill("#share-2", "1")
    drugs.get_by_label("Its own way in each condition").check()
    expect(drugs.locator("[data-mode-cells]")).to_be_visible()
    expect(drugs.locator(".asking-cell:visible")).to_have_count(2)
    expect(drugs.locator("[data-condition-name='2']")).to_have_text("(spin)")
    page.select_option("#procedure-drugs-1", "direct")
    page.select_option("#procedure-drugs-2", "spinner_coin")
    page.fill("#epsilon-drugs-2", "1")
    assert phone_problems(page, 390) == []
    page.click("#save-experiment")
    page.wait_for_url(f"**/surveys/{slug}/edit", timeout=60_000)
    expect(page.locator("#experiment")).to_contain_text("Conditions: direct, spin.")
    assert errors == []
    context.close()
