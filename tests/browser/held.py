"""Requests a test holds back, to see the page as a slow network shows it."""

from __future__ import annotations

import re
import time


class HeldRequests:
    """Every request of ``page`` whose address matches ``pattern``, held until :meth:`release`."""

    def __init__(self, page, pattern: str):
        self.page = page
        self.routes: list = []
        page.route(re.compile(pattern), lambda route: self.routes.append(route))

    def wait(self, what: str, seconds: float = 30) -> None:
        """Wait until at least one request is held; ``what`` names it in the failure."""
        deadline = time.monotonic() + seconds
        while not self.routes:  # the route's handler runs as Playwright's events come in
            assert time.monotonic() < deadline, f"{what} was never asked for"
            self.page.wait_for_timeout(20)

    def release(self) -> None:
        """Let every held request go on to the server."""
        for route in self.routes:
            route.continue_()
