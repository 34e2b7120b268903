"""The limit on guessing a secret in an address (a join code, a field device's link): only the
misses count against the client's address."""

from __future__ import annotations

from web.core.infrastructure.extensions import limiter

# Enough for a lecture hall's typos behind one address, far too few to try secrets one by one.
GUESSES = "60/minute;300/hour"


def missed(response) -> bool:
    """Whether the address named nothing: an unknown code or link."""
    return response.status_code == 404


def limit_guesses(scope: str):
    """A view decorator: misses beyond :data:`GUESSES` from one address are refused with 429."""
    return limiter.limit(GUESSES, deduct_when=missed, scope=scope)
