"""A team in the browser, on a phone: the owner shares a survey on the People card and sees it in
the audit log; the colleague, an analyst, finds it in their list, downloads the responses, and is
shown no control their role does not allow. Axe finds nothing on either dashboard."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.browser.axe import phone_problems
from tests.browser.researcher import log_in
from tests.conftest import PASSWORD, SAMPLE_SURVEY

pytestmark = pytest.mark.browser

OWNER, COLLEAGUE = "olga@example.org", "carl@example.org"


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_the_owner_shares_on_a_phone_and_the_analyst_sees_what_the_role_allows(
    browser, runner, live_server, tmp_path, locale
):
    for email in (OWNER, COLLEAGUE):
        assert runner.invoke(args=["create-user", email, "--password", PASSWORD]).exit_code == 0
    path = tmp_path / "survey.json"
    path.write_text(json.dumps(SAMPLE_SURVEY), encoding="utf-8")
    assert runner.invoke(args=["import-survey", str(path), "--owner", OWNER]).exit_code == 0
    slug = SAMPLE_SURVEY["slug"]

    owner = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale,
                                reduced_motion="reduce", bypass_csp=True).new_page()  # fmt: skip
    log_in(owner, live_server, OWNER)
    owner.goto(f"{live_server}/surveys/{slug}")
    owner.fill("#share-email", COLLEAGUE)
    owner.select_option("#share-role", "analyst")
    owner.locator("form.share-form button[type=submit]").click()
    expect(owner.locator(f"li[data-member='{COLLEAGUE}']")).to_be_visible(timeout=60_000)
    expect(owner.locator("#audit-table tr[data-action='shared']")).to_contain_text(COLLEAGUE)
    assert phone_problems(owner, 390) == []
    owner.context.close()

    colleague = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale,
                                    reduced_motion="reduce", bypass_csp=True).new_page()  # fmt: skip
    log_in(colleague, live_server, COLLEAGUE)
    colleague.goto(f"{live_server}/surveys")
    colleague.locator(f"a[href='/surveys/{slug}']").first.click()
    expect(colleague.locator("#your-role")).to_be_visible(timeout=60_000)
    expect(colleague.locator("#people")).to_have_count(0)
    expect(colleague.locator(f"a[href='/surveys/{slug}/edit']")).to_have_count(0)
    expect(colleague.locator(f"a[href='/surveys/{slug}/responses.csv']")).to_be_visible()
    assert phone_problems(colleague, 390) == []
    with colleague.expect_download() as download:
        colleague.click(f"a[href='/surveys/{slug}/responses.csv']")
    assert download.value.suggested_filename == f"{slug}-responses.csv"
    colleague.context.close()
