"""Which passwords an account may not have: the common ones, and words of this app's context.

Any composition is allowed (no rules about digits or capitals); what is refused is a password
from the list of common passwords that zxcvbn ships (its 11,611 entries of 8 characters or more,
checked without regard to case), or one made of this app's own words or the account's email.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

# What an account may hold: an email address of this shape and length, a password of this length.
EMAIL = re.compile(r"\A[^@\s]+@[^@\s]+\.[^@\s]+\Z")
MAX_EMAIL = 254
MIN_PASSWORD = 8
MAX_PASSWORD = 200

# Words an attacker guesses first for this app (ASVS 6.1.2): its subject and its name.
CONTEXT_WORDS = (
    "randomized",
    "randomised",
    "response",
    "survey",
    "surveys",
    "spinner",
    "privacy",
    "epsilon",
    "research",
    "researcher",
    "password",
)


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    """Common passwords long enough to meet the minimum, lower-cased."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(
        word.lower() for word in FREQUENCY_LISTS["passwords"] if len(word) >= MIN_PASSWORD
    )


def password_problem(password: str, email: str = "") -> str | None:
    """Why ``password`` may not be used (English), or None."""
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        return f"at least {MIN_PASSWORD} characters (and at most {MAX_PASSWORD})"
    folded = password.lower()
    if folded in common_passwords():
        return "too common: it is on the list of passwords that attackers try first"
    stripped = re.sub(r"[\W\d_]+", "", folded)
    local_part = email.lower().partition("@")[0]
    if stripped in CONTEXT_WORDS or (len(local_part) >= 3 and local_part in folded):
        return "too easy to guess here: it is made of this app's words or of the email address"
    return None


def account_problem(email: str, password: str) -> str | None:
    """Why an email and password cannot make an account, or None; English, for the command line
    (the browser's forms say the same through their validators)."""
    if not EMAIL.fullmatch(email) or len(email) > MAX_EMAIL:
        return f"{email!r} is not an email address"
    problem = password_problem(password, email)
    return None if problem is None else f"the password is not allowed: {problem}"


def token_digest(token: str) -> str:
    """What the server keeps of a secret it hands out (an API token, a field device's link, a
    session's key, an invitation's link): its SHA-256, in hex."""
    return hashlib.sha256(token.encode()).hexdigest()
