"""Brute force against logins, bounded without letting anyone lock a researcher out.

Only failed logins count, kept in the rate limiter's storage (memory, or Redis shared by every
process). An address is refused after 10 failures a minute (100 an hour), and an address and
account together after 5 a minute. Each account also has a budget of 30 failures an hour over all
addresses: once it is spent, every address that has itself failed on the account within the hour
is refused, but an address with no failure on it is not, so the researcher who types the right
password from their own machine still gets in while someone else hammers the account.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from flask import current_app
from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter, RateLimiter

from web.core.infrastructure.extensions import limiter

PER_ADDRESS = (parse("10/minute"), parse("100/hour"))
PER_ADDRESS_AND_ACCOUNT = parse("5/minute")
FAILED_HERE_RECENTLY = parse("1000/hour")  # only counted: has this address failed on this account?
PER_ACCOUNT = parse("30/hour")
T = TypeVar("T")


@dataclass(frozen=True)
class LoginAttempt:
    """Who is trying: the client's address and the (normalised) email it names."""

    address: str
    account: str

    def refused(self) -> bool:
        """Whether this attempt is refused before the password is checked."""
        if not current_app.config["RATELIMIT_ENABLED"]:
            return False
        return _with_storage(self._refused)

    def failed(self) -> None:
        """Count a failed attempt against every budget."""
        if current_app.config["RATELIMIT_ENABLED"]:
            _with_storage(self._count_failure)

    def _refused(self, strategy: RateLimiter) -> bool:
        if not all(strategy.test(item, "login-address", self.address) for item in PER_ADDRESS):
            return True
        if not strategy.test(PER_ADDRESS_AND_ACCOUNT, "login-pair", self.address, self.account):
            return True
        if strategy.test(PER_ACCOUNT, "login-account", self.account):
            return False
        here = ("login-failed-here", self.address, self.account)
        stats = strategy.get_window_stats(FAILED_HERE_RECENTLY, *here)
        return stats.remaining < FAILED_HERE_RECENTLY.amount  # it failed here within the hour

    def _count_failure(self, strategy: RateLimiter) -> None:
        for item in PER_ADDRESS:
            strategy.hit(item, "login-address", self.address)
        strategy.hit(PER_ADDRESS_AND_ACCOUNT, "login-pair", self.address, self.account)
        strategy.hit(FAILED_HERE_RECENTLY, "login-failed-here", self.address, self.account)
        strategy.hit(PER_ACCOUNT, "login-account", self.account)


# When the shared store (Redis) cannot be reached, the budgets are kept in this process's memory
# instead, as Flask-Limiter does for the other limits (RATELIMIT_IN_MEMORY_FALLBACK_ENABLED):
# logins stay bounded, per process, and nobody is locked out because a store is down.
_FALLBACK = FixedWindowRateLimiter(MemoryStorage())


def _with_storage(operation: Callable[[RateLimiter], T]) -> T:
    try:
        return operation(limiter.limiter)
    except limiter.storage.base_exceptions:
        current_app.logger.warning("rate-limit storage unreachable: login budgets kept in memory")
        return operation(_FALLBACK)
