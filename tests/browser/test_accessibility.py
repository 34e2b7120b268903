"""axe-core (npm, injected by Playwright) on every page: respondent, home, join, lab, login,
survey list, builder, dashboard, projector before and after reveal, tokens, password, errors; in
Korean and English, light and dark, at 1280 and 390 px: no violation of a WCAG 2.x A or AA rule."""

from __future__ import annotations

import pytest

from tests.browser.axe import AXE, violations
from tests.browser.researcher import PUBLIC_PAGES, RESEARCHER_PAGES, log_in
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser

# The projector once more, after its reveal.
RESEARCHER = [*RESEARCHER_PAGES, "/surveys/{slug}/present#revealed"]


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
def test_no_page_violates_wcag_a_or_aa(browser, runner, live_server, survey, width, scheme, locale):
    assert AXE.exists(), "npm ci installs axe-core (make test does)"
    runner.invoke(args=["simulate-responses", survey, "--n", "40", "--seed", "2"])
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    options = dict(
        viewport={"width": width, "height": 900},
        color_scheme=scheme,
        locale=locale,
        bypass_csp=True,
        reduced_motion="reduce",
    )
    visitor = browser.new_context(**options)
    page = visitor.new_page()
    for path in PUBLIC_PAGES:
        page.goto(live_server + path.format(slug=survey))
        assert violations(page) == [], path
    visitor.close()
    researcher = browser.new_context(**options)
    page = researcher.new_page()
    log_in(page, live_server, "rita@example.org")
    for path in RESEARCHER:
        page.goto(live_server + path.format(slug=survey).removesuffix("#revealed"))
        if path.endswith("#revealed"):
            page.click("#reveal")
        assert violations(page) == [], path
    researcher.close()
