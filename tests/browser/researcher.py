"""What the researcher-side browser tests share: logging in, and the pages to visit."""

from __future__ import annotations

from tests.conftest import PASSWORD

# Every page, with {slug} for the test's survey: those anyone may open, and a researcher's.
PUBLIC_PAGES = ["/", "/s/{slug}", "/s/{slug}/thanks", "/lab", "/j/ZZZZZ", "/nowhere", "/login"]
# The survey page once more, after agreeing to its consent text (what follows "#" is a step the
# test takes, see open_page).
STEPPED_PAGES = ["/s/{slug}#agreed", "/surveys/{slug}/present#revealed"]
RESEARCHER_PAGES = [
    "/surveys",
    "/surveys/new",
    "/surveys/{slug}",
    "/surveys/{slug}/edit",
    "/surveys/{slug}/questions/new",
    "/surveys/{slug}/questions/cheated",
    "/surveys/{slug}/present",
    "/surveys/{slug}/preview",
    "/surveys/{slug}/groups",
    "/surveys/{slug}/devices#created",
    "/surveys?archived=1",
    "/surveys/import",
    "/account/tokens",
    "/account/password",
]


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
    elif step == "created":
        page.fill("#label", "tablet 2")
        with page.expect_navigation():
            page.click("form.row button[type='submit']")
        page.wait_for_selector("#device-link")
