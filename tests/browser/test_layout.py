"""Every page at 320 px without sideways scrolling, and dark mode that follows the system with
readable contrast, measured in chromium."""

from __future__ import annotations

import pytest

from tests.browser.researcher import (
    PUBLIC_PAGES,
    RESEARCHER_PAGES,
    STEPPED_PAGES,
    log_in,
    make_wave_one,
    open_page,
)
from tests.conftest import PASSWORD, no_database

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


@pytest.fixture
def researcher_browser(browser, runner, live_server):
    """A logged-in researcher's browser profile at 320 px; survey pages have 40 responses."""

    def open_profile(**options):
        context = browser.new_context(reduced_motion="reduce", **options)
        page = context.new_page()
        log_in(page, live_server, "rita@example.org")
        return context, page

    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    return open_profile


def overflow(page) -> list[str]:
    """What sticks out sideways (empty when the page fits its width)."""
    return page.evaluate(
        """() => {
            const width = document.documentElement.clientWidth;
            if (document.documentElement.scrollWidth <= width) return [];
            return [...document.querySelectorAll("body *")]
                .filter((node) => node.getBoundingClientRect().right > width + 1)
                .slice(0, 5)
                .map((node) => node.tagName + "." + node.getAttribute("class"));
        }"""
    )


@pytest.mark.parametrize("locale", ["en-US", "ko-KR"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_fits_320_pixels(
    app, researcher_browser, runner, live_server, fielded_survey, scheme, locale, seed_responses
):
    survey = fielded_survey
    seed_responses(survey, 40, seed=2)
    make_wave_one(app, survey)
    size = {"viewport": {"width": 320, "height": 700}, "color_scheme": scheme, "locale": locale}
    context, page = researcher_browser(**size)
    for path in [*RESEARCHER_PAGES, STEPPED_PAGES[1]]:
        open_page(page, live_server, path, survey)
        assert overflow(page) == [], path
    public = context.browser.new_context(reduced_motion="reduce", **size)
    visitor = public.new_page()
    for path in [*PUBLIC_PAGES, STEPPED_PAGES[0]]:
        open_page(visitor, live_server, path, survey)
        assert overflow(visitor) == [], path
    public.close()
    context.close()


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
