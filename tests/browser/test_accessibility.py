"""axe-core (npm, injected by Playwright) on every page: respondent, home, join, lab, login,
survey list, builder, dashboard, projector before and after reveal, tokens, password, errors; in
Korean and English, light and dark, at 1280 and 320 px: no violation of a WCAG 2.x A or AA rule,
at 320 px nothing sticks out sideways (WCAG 1.4.10, reflow), and at either width no card's
content runs past the card's edge.

The walks cover every pair of those settings, not all eight combinations: each language in each
theme, each language at each width, each theme at each width. What a page gets wrong depends on
one setting (a dark colour's contrast) or on two (a Korean label too long at 320 px); none of the
checks depends on all three at once. Four walks instead of eight halve the suite's longest test."""

from __future__ import annotations

import pytest

from tests.browser.axe import AXE, violations
from tests.browser.researcher import (
    PUBLIC_PAGES,
    RESEARCHER_PAGES,
    STEPPED_PAGES,
    add_unanswered_question,
    cards_wider_than_their_box,
    log_in,
    make_wave_one,
    open_page,
    overflow,
)
from tests.conftest import PASSWORD, no_database

pytestmark = [pytest.mark.browser, no_database]

PUBLIC = [*PUBLIC_PAGES, STEPPED_PAGES[0]]
RESEARCHER = [*RESEARCHER_PAGES, STEPPED_PAGES[1]]


# An orthogonal array of strength two: every pair of values of any two settings is in a row.
SETTINGS = [
    ("en-US", "light", 1280),
    ("en-US", "dark", 320),
    ("ko-KR", "light", 320),
    ("ko-KR", "dark", 1280),
]


def test_the_check_finds_violations_and_names_their_nodes(context):
    """A page with an unlabelled image and a field with no name fails, each node named."""
    page = context.new_page()
    page.set_content(
        '<!doctype html><html lang="en"><head><title>t</title></head><body><main>'
        '<img src="data:," id="bare"><input type="text" id="nameless"></main></body></html>'
    )
    found = dict(violations(page))
    assert found["image-alt"] == ["#bare"]
    assert found["label"] == ["#nameless"]


def test_the_check_finds_a_control_drawn_in_its_backgrounds_colour(context):
    """The builder's Delete once had its text the colour of its background (a rule for danger
    buttons gave the link its red background back): axe calls that "incomplete", this check a
    violation, and passes the same control once it reads."""
    page = context.new_page()
    page.set_content(
        '<!doctype html><html lang="en"><head><title>t</title><style>'
        "button { background: #b00020; color: #fff; } button.link { background: none; }"
        "button.link.danger { color: #b00020; } button.danger { background: #b00020; }"
        '</style></head><body><main><button class="link danger">Delete</button>'
        "<button>Save</button></main></body></html>"
    )
    assert violations(page) == [["control-contrast", ['button.link.danger "Delete" 1.00:1']]]
    page.add_style_tag(content="button.link.danger { background: none; }")
    assert violations(page) == []


def test_the_walks_cover_every_pair_of_settings():
    for first, second in ((0, 1), (0, 2), (1, 2)):
        pairs = {(row[first], row[second]) for row in SETTINGS}
        values = [{row[index] for row in SETTINGS} for index in (first, second)]
        assert len(pairs) == len(values[0]) * len(values[1]) == 4


@pytest.mark.long
@pytest.mark.parametrize(("locale", "scheme", "width"), SETTINGS)
def test_no_page_violates_wcag_a_or_aa(
    app, browser, runner, live_server, fielded_survey, width, scheme, locale, seed_responses
):
    """The bilingual survey with consent, completion and a closing time, in each language."""
    assert AXE.exists(), "npm ci installs axe-core (make test does)"
    survey = fielded_survey
    make_wave_one(app, survey)
    seed_responses(survey, 40, seed=2)
    add_unanswered_question(app, survey)
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
        open_page(page, live_server, path, survey)
        assert violations(page) == [], path
        assert width > 320 or overflow(page) == [], path
        assert cards_wider_than_their_box(page) == [], path
    visitor.close()
    researcher = browser.new_context(**options)
    page = researcher.new_page()
    log_in(page, live_server, "rita@example.org")
    for path in RESEARCHER:
        open_page(page, live_server, path, survey)
        assert violations(page) == [], path
        assert width > 320 or overflow(page) == [], path
        assert cards_wider_than_their_box(page) == [], path
    researcher.close()
