"""Every limit on what a survey may hold, defined once (an account's: with its password checks,
:mod:`web.core.infrastructure.passwords`).

The survey-file parser, the builder, the command line and the API check against these; pages hand
them to their scripts through :func:`page_limits`, so no limit is written twice.
"""

from __future__ import annotations

import math
import re

import rr

MIN_EPSILON = rr.MIN_EPSILON  # per spin; below it no survey could estimate anything
MAX_EPSILON = 10.0  # per spin; e^10 ≈ 22,000: past it the spin protects next to nothing
MAX_QUESTIONS = 100
MAX_OPTIONS = 30
MAX_GRID_ROWS = 30  # a grid's rows, each answered on its shared options
# A list experiment's control items (the published studies use 3 to 5).
MIN_LIST_ITEMS = 2
MAX_LIST_ITEMS = 10
MAX_TITLE = 200
MAX_TEXT = 2000  # a question's or an option's wording, a survey's description
# An open answer's length in characters: a file's "max_length", else the default.
DEFAULT_ANSWER_LENGTH = 500
MAX_ANSWER_LENGTH = 5000
# Published results move only when this many new responses are in (per survey, from 2), so that
# no single response can be read off a change; see web.core.models.publication.
DEFAULT_RESULTS_BATCH = 5
MIN_RESULTS_BATCH = 2
MAX_RESULTS_BATCH = 1000
# Anchored with \A and \Z, never ^ and $: "$" also matches before a final newline, and a slug
# or id ending in one would break every header and file name it is later written into. Checked
# with fullmatch besides.
SLUG = re.compile(r"\A[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?\Z")
KEY = re.compile(r"\A[A-Za-z0-9_-]{1,64}\Z")
# Ids name properties of plain objects in the respondent's browser: these are already properties
# of every JavaScript object, and a question or option so named would read as answered before any
# spin. Refused everywhere a survey is made or changed.
RESERVED_KEYS = frozenset(
    {
        "__proto__", "constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable",
        "toLocaleString", "toString", "valueOf", "__defineGetter__", "__defineSetter__",
        "__lookupGetter__", "__lookupSetter__",
    }
)  # fmt: skip
MAX_WAVE = 1000  # waves of one series


def valid_epsilon(value) -> bool:
    """Whether ``value`` is an ε this app collects under: a number from MIN_EPSILON to MAX_EPSILON."""
    return (
        not isinstance(value, bool)
        and isinstance(value, (int, float))
        and math.isfinite(value)
        and MIN_EPSILON <= value <= MAX_EPSILON
    )


def page_limits() -> dict:
    """The limits a page's script needs, for its JSON config."""
    return {
        "minEpsilon": MIN_EPSILON,
        "maxEpsilon": MAX_EPSILON,
        "maxOptions": MAX_OPTIONS,
        "maxText": MAX_TEXT,
        "maxAnswerLength": MAX_ANSWER_LENGTH,
    }
