"""What the researcher-side browser tests share: logging in, and the pages to visit."""

from __future__ import annotations

from tests.conftest import PASSWORD
from web.core.infrastructure.extensions import db
from web.core.surveys.editing import set_series
from web.core.surveys.lookup import find_survey

# Every page, with {slug} for the test's survey: those anyone may open, and a researcher's.
# The lab's charts are drawn as they near the screen: "#drawn" draws them all first.
PUBLIC_PAGES = [
    "/", "/s/{slug}", "/s/{slug}/thanks", "/lab#drawn", "/lab/averaging#drawn", "/j/ZZZZZ",
    "/nowhere", "/login",
]  # fmt: skip
# The survey page once more, after agreeing to its consent text (what follows "#" is a step the
# test takes, see open_page).
STEPPED_PAGES = ["/s/{slug}#agreed", "/surveys/{slug}/present#revealed"]
RESEARCHER_PAGES = [
    "/surveys",
    "/surveys/new",
    "/surveys/{slug}",
    "/surveys/{slug}/edit",
    "/surveys/{slug}/experiment",
    "/surveys/{slug}/questions/new",
    "/surveys/{slug}/questions/cheated",
    "/surveys/{slug}/present",
    "/surveys/{slug}/preview",
    "/surveys/{slug}/groups",
    "/surveys/{slug}/devices#created",
    # The survey is made wave 1 of a series named as it is (test_accessibility.py).
    "/series/{slug}",
    "/series/{slug}/present",
    "/surveys?archived=1",
    "/surveys/import",
    "/account/tokens",
    "/account/password",
    "/account/sessions",
]


def add_unanswered_question(app, slug: str) -> None:
    """Add a question with no responses yet, so that the builder's page shows a question's
    Delete control among those the walk checks."""
    from web.core.surveys.question_edit import add_question
    from web.core.surveys.specs import QuestionSpec
    from web.core.surveys.texts import Texts

    with app.app_context():
        texts = Texts({"en": "Skipped a class?", "ko": "수업을 빠졌습니까?"})
        add_question(find_survey(slug), QuestionSpec("unasked", "yesno", texts, 1.0, "spinner"))
        db.session.commit()


def make_wave_one(app, slug: str) -> None:
    """Make the survey wave 1 of a series named as it is, as the builder does before its
    responses come in, so that the series' pages (``/series/{slug}``) are among the researcher's
    pages."""
    with app.app_context():
        set_series(find_survey(slug), slug, 1)
        db.session.commit()


def log_in(page, base: str, email: str) -> None:
    """Log in through the form, from a page that asks for a login, and land on the list."""
    page.goto(f"{base}/surveys")
    assert page.url.startswith(f"{base}/login?next=")
    page.fill("#email", email)
    page.fill("#password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/surveys")


def open_page(page, base: str, path: str, slug: str) -> None:
    """Go to ``path`` and take its step: agree to the consent text, or reveal the results."""
    address, _, step = path.format(slug=slug).partition("#")
    page.goto(base + address)
    if step == "agreed":
        page.click("#consent-agree")
        page.wait_for_selector("#survey-form:not([hidden])")
    elif step == "revealed":
        page.click("#reveal")
    elif step == "drawn":
        draw_every_chart(page)
    elif step == "created":
        page.fill("#label", "tablet 2")
        with page.expect_navigation():
            page.click("form.row button[type='submit']")
        page.wait_for_selector("#device-link")


def draw_every_chart(page) -> None:
    """Have a page draw the charts it keeps until they near the screen (as before printing), and
    wait until every one is drawn. Its modules have run: they run before the load event that
    ``goto`` waits for."""
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.plot')].every((chart) => chart.querySelector('svg'))",
        timeout=120_000,
    )


def cards_wider_than_their_box(page) -> list[str]:
    """The heading of each card whose content runs past the card's edge: a table wider than its
    card once did at 1280 px (the lab's comparison of designs) with no sideways scroll of the
    page to show it."""
    return page.evaluate(
        """() => [...document.querySelectorAll(".card")]
            .filter((card) => card.scrollWidth > card.clientWidth + 1)
            .map((card) => (card.querySelector("h2, h3") || card).textContent.trim().slice(0, 60))"""
    )


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
