"""Browser fixtures: the app served on a loopback port, and Debian's chromium through Playwright."""

from __future__ import annotations

import os
import shutil

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.browser.axe import AXE
from tests.browser.researcher import log_in
from tests.conftest import PASSWORD

# Debian's chromium in its headless build (the package chromium-headless-shell: the same version's
# engine without the desktop browser around it), as Playwright itself runs headless tests: the
# browser tests take a third less of the processor in it (docs/testing.md). TEST_CHROMIUM names
# another build, e.g. TEST_CHROMIUM=/usr/bin/chromium for the desktop browser throughout;
# tests/browser/test_desktop_chromium.py always checks a respondent's page in that one.
DESKTOP_CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM = (
    os.environ.get("TEST_CHROMIUM") or shutil.which("chromium-headless-shell") or DESKTOP_CHROMIUM
)
# Without these, chromium keeps trying to reach Google's hosts on a machine with no network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


# Deadlines for a machine whose two cores the whole suite keeps busy: Playwright's own (30 s for
# an action or a wait, 5 s for expect()) were passed there by pages doing nothing wrong (a student's
# Submit on the projector's class, the lab's form posting a computation). A passing wait ends as
# soon as its condition holds, so only a failure waits this long.
WAIT_MS = 120_000
expect.set_options(timeout=WAIT_MS)


class PatientBrowser:
    """The browser, whose every new profile and page waits up to WAIT_MS by default. A profile or
    page that bypasses the app's CSP is one whose pages axe checks (tests/browser/axe.py): axe is
    loaded into each of its documents as it starts, which costs chromium a quarter less than
    adding axe's 650 KB to every page checked (an accessibility walk: 31 -> 23 CPU seconds,
    measured 2026-11-30)."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(WAIT_MS)
        if options.get("bypass_csp"):
            context.add_init_script(path=str(AXE))
        return context

    def new_page(self, **options):
        page = self._browser.new_page(**options)
        page.set_default_timeout(WAIT_MS)
        page.set_default_navigation_timeout(WAIT_MS)
        if options.get("bypass_csp"):
            page.add_init_script(path=str(AXE))
        return page

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def playwright():
    """Playwright's driver, one per test process (a second one cannot start beside it)."""
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright):
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield PatientBrowser(browser)
    browser.close()


@pytest.fixture
def phone(browser, live_server):
    """Open a path of the live app on a phone 320 px wide, in a locale, asking for reduced motion
    (with the page's CSP bypassed for axe's injected script); its page. Closed after the test."""
    contexts = []

    def open_page(path: str, locale: str = "en-US"):
        context = browser.new_context(
            locale=locale,
            bypass_csp=True,
            reduced_motion="reduce",
            viewport={"width": 320, "height": 800},
        )
        contexts.append(context)
        page = context.new_page()
        page.goto(f"{live_server}{path}")
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def context(browser):
    """A fresh browser profile (its own cookies and storage) that asks for reduced motion."""
    context = browser.new_context(reduced_motion="reduce")
    yield context
    context.close()


class RequestLog:
    """Every request a page makes, and every script error it raises."""

    def __init__(self, page):
        self.requests = []
        self.errors = []
        page.on("request", lambda request: self.requests.append(request))
        page.on("pageerror", lambda error: self.errors.append(str(error)))
        page.on(
            "console", lambda message: message.type == "error" and self.errors.append(message.text)
        )


@pytest.fixture
def page_log():
    return RequestLog


@pytest.fixture
def researcher_at(browser, runner, live_server):
    """A researcher's logged-in page in a profile of a locale and a width (reduced motion, the
    CSP bypassed for axe); closed after the test."""
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    contexts = []

    def open_page(locale: str, width: int):
        context = browser.new_context(
            locale=locale,
            bypass_csp=True,
            reduced_motion="reduce",
            viewport={"width": width, "height": 900},
        )
        contexts.append(context)
        page = context.new_page()
        log_in(page, live_server, "rita@example.org")
        return page

    yield open_page
    for context in contexts:
        context.close()
