"""Brute force against logins, bounded without letting anyone lock a researcher out.

Only failed logins count, kept in the rate limiter's storage (memory, or Redis shared by every
process). An address is refused after 10 failures a minute (100 an hour), and an address and
account together after 5 a minute. Each account also has a budget of 30 failures an hour over all
addresses: once it is spent, every address that has itself failed on the account within the hour
is refused, but an address with no failure on it is not, so the researcher who types the right
password from their own machine still gets in while someone else hammers the account.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import current_app
from limits import RateLimitItem, parse

from web.core.extensions import limiter

PER_ADDRESS = (parse("10/minute"), parse("100/hour"))
PER_ADDRESS_AND_ACCOUNT = parse("5/minute")
FAILED_HERE_RECENTLY = parse("1000/hour")  # only counted: has this address failed on this account?
PER_ACCOUNT = parse("30/hour")


@dataclass(frozen=True)
class LoginAttempt:
    """Who is trying: the client's address and the (normalised) email it names."""

    address: str
    account: str

    def refused(self) -> bool:
        """Whether this attempt is refused before the password is checked."""
        if not current_app.config["RATELIMIT_ENABLED"]:
            return False
        strategy = limiter.limiter
        if not all(strategy.test(item, "login-address", self.address) for item in PER_ADDRESS):
            return True
        pair = ("login-pair", self.address, self.account)
        if not strategy.test(PER_ADDRESS_AND_ACCOUNT, *pair):
            return True
        if strategy.test(PER_ACCOUNT, "login-account", self.account):
            return False
        return _count(FAILED_HERE_RECENTLY, "login-failed-here", self.address, self.account) > 0

    def failed(self) -> None:
        """Count a failed attempt against every budget."""
        if not current_app.config["RATELIMIT_ENABLED"]:
            return
        strategy = limiter.limiter
        for item in PER_ADDRESS:
            strategy.hit(item, "login-address", self.address)
        strategy.hit(PER_ADDRESS_AND_ACCOUNT, "login-pair", self.address, self.account)
        strategy.hit(FAILED_HERE_RECENTLY, "login-failed-here", self.address, self.account)
        strategy.hit(PER_ACCOUNT, "login-account", self.account)


def _count(item: RateLimitItem, *identifiers: str) -> int:
    """Hits within ``item``'s window."""
    stats = limiter.limiter.get_window_stats(item, *identifiers)
    return item.amount - stats.remaining
