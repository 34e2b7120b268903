"""What the researcher-side browser tests share: logging in, and the pages to visit."""

from __future__ import annotations

from tests.conftest import PASSWORD

# Every page, with {slug} for the test's survey: those anyone may open, and a researcher's.
PUBLIC_PAGES = ["/", "/s/{slug}", "/s/{slug}/thanks", "/lab", "/j/ZZZZZ", "/nowhere", "/login"]
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
