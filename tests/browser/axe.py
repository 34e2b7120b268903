"""axe-core, injected by Playwright into a page: the WCAG 2.x A and AA violations it finds."""

from __future__ import annotations

from tests.servers import ROOT

AXE = ROOT / "node_modules/axe-core/axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


def violations(page) -> list:
    # The test's own script is added with the page's CSP bypassed (the app allows no inline one).
    # Only violations are read: axe then builds a selector for one node of each other result
    # (passes, incomplete, inapplicable) instead of for every node, its slowest step.
    page.add_script_tag(path=str(AXE))
    return page.evaluate(
        """async (tags) => (await axe.run(document, {
              runOnly: {type: "tag", values: tags}, resultTypes: ["violations"],
            })).violations.map((v) => [v.id, v.nodes.map((n) => n.target.join(" ")).slice(0, 3)])""",
        RULES,
    )


def phone_problems(page, width: int = 320) -> list:
    """What keeps a page from working on a phone ``width`` px wide: axe's violations, and a page
    wider than the screen (a sideways scroll)."""
    wider = page.evaluate("document.documentElement.scrollWidth") > width
    return [*violations(page), *(["wider than the screen"] if wider else [])]
