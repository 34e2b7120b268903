"""Numbers read from a request's query string, refused with a 400 that names the argument."""

from __future__ import annotations

import math

from flask import abort, request


def number_argument(name: str, default=None, low=-math.inf, high=math.inf, kind=float):
    """The query argument ``name`` as ``kind`` (float or int) in [low, high], ``default`` when it
    is absent; 400 naming it otherwise."""
    raw = request.args.get(name, default)
    try:
        value = kind(raw)
    except (TypeError, ValueError, OverflowError):
        abort(400, f"{name} must be a number, got {raw!r}")
    if not low <= value <= high:
        abort(400, f"{name} must lie in [{low:g}, {high:g}], got {raw!r}")
    return value


MAX_SEED = 2**32 - 1


def seed_argument(name: str = "seed") -> int | None:
    """The query's random seed, a whole number from 0 to 2³² − 1; None when it is absent (fresh
    randomness); 400 naming it otherwise."""
    if name not in request.args:
        return None
    return number_argument(name, None, 0, MAX_SEED, kind=int)
