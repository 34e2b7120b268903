"""axe-core (npm, injected by Playwright) on every page: respondent, home, join, lab, login,
survey list, builder, dashboard, projector before and after reveal, tokens, password, errors; in
Korean and English, light and dark, at 1280 and 390 px: no violation of a WCAG 2.x A or AA rule."""

from __future__ import annotations

import pytest

from tests.conftest import PASSWORD
from tests.servers import ROOT

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules/axe-core/axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
PUBLIC = ["/", "/s/{slug}", "/s/{slug}/thanks", "/lab", "/j/ZZZZZ", "/nowhere", "/login"]
RESEARCHER = [
    "/surveys",
    "/surveys/new",
    "/surveys/{slug}",
    "/surveys/{slug}/edit",
    "/surveys/{slug}/questions/new",
    "/surveys/{slug}/questions/cheated",
    "/surveys/{slug}/present",
    "/surveys/{slug}/present#revealed",
    "/surveys/import",
    "/account/tokens",
    "/account/password",
]


def violations(page) -> list:
    # The test's own script is added with the page's CSP bypassed (the app allows no inline one).
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        """async (tags) => (await axe.run(document, {runOnly: {type: "tag", values: tags}}))
            .violations.map((v) => [v.id, v.nodes.map((n) => n.target.join(" ")).slice(0, 3)])""",
        RULES,
    )


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
    for path in PUBLIC:
        page.goto(live_server + path.format(slug=survey))
        assert violations(page) == [], path
    visitor.close()
    researcher = browser.new_context(**options)
    page = researcher.new_page()
    page.goto(f"{live_server}/login")
    page.fill("#email", "rita@example.org")
    page.fill("#password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{live_server}/surveys")
    for path in RESEARCHER:
        page.goto(live_server + path.format(slug=survey).removesuffix("#revealed"))
        if path.endswith("#revealed"):
            page.click("#reveal")
        assert violations(page) == [], path
    researcher.close()
