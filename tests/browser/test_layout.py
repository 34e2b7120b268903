"""Dark mode that follows the system with readable contrast, measured in chromium, and the lab's
cards holding their content. That every page fits 320 px without sideways scrolling is checked on
the accessibility test's walk through every page at that width (test_accessibility.py)."""

from __future__ import annotations

import pytest

from tests.browser.researcher import cards_wider_than_their_box
from tests.conftest import no_database

pytestmark = [pytest.mark.browser, no_database]

# Text on background, as CSS custom properties: each pair must reach 4.5:1 (WCAG AA).
PAIRS = [
    ("--ink", "--paper"),
    ("--ink", "--card"),
    ("--muted", "--card"),
    ("--muted", "--paper"),
    ("--accent", "--card"),
    ("--accent", "--paper"),
    ("--on-accent", "--accent"),
    ("--error", "--card"),
    ("--ink", "--note"),
    ("--ink", "--notice"),
    ("--open-ink", "--open-bg"),
    ("--closed-ink", "--closed-bg"),
    ("--ink", "--field"),
]


def luminance(color: str) -> float:
    """Relative luminance of a #rrggbb colour (WCAG 2)."""
    channels = [int(color.strip()[index : index + 2], 16) / 255 for index in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_colours_follow_the_system_and_keep_their_contrast(browser, live_server, survey, scheme):
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    page.goto(f"{live_server}/s/{survey}")
    colours = page.evaluate(
        """(names) => {
            const style = getComputedStyle(document.documentElement);
            return Object.fromEntries(names.map((name) => [name, style.getPropertyValue(name)]));
        }""",
        sorted({name for pair in PAIRS for name in pair}),
    )
    for text, background in PAIRS:
        ratio = contrast(colours[text], colours[background])
        assert ratio >= 4.5, (scheme, text, background, round(ratio, 2))
    paper = luminance(colours["--paper"])
    assert (paper < 0.05) if scheme == "dark" else (paper > 0.9)
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == ("rgb(17, 21, 29)" if scheme == "dark" else "rgb(251, 250, 247)")
    context.close()


@pytest.mark.parametrize(("locale", "width"), [("en-US", 1280), ("ko-KR", 1280), ("en-US", 390)])
def test_the_labs_cards_hold_their_content(browser, live_server, locale, width):
    context = browser.new_context(
        locale=locale, viewport={"width": width, "height": 900}, reduced_motion="reduce"
    )
    page = context.new_page()
    page.goto(f"{live_server}/lab")
    assert cards_wider_than_their_box(page) == []
    context.close()
