"""The sample sizes a plan states: respondents for each of three margins of error."""

from __future__ import annotations

from collections.abc import Callable

import rr

# The margins a plan states its sample size for, as shares of the answer's scale.
PLANNED_MARGINS = (0.1, 0.05, 0.03)


def sample_sizes(needed: Callable[[float], int]) -> dict[str, int | None]:
    """``needed(margin)`` for each planned margin, keyed as the API writes it ("0.05"); None
    where no survey reaches that margin (rr refuses a plan past its ceiling of respondents, as
    at ε near 0)."""
    sizes: dict[str, int | None] = {}
    for margin in PLANNED_MARGINS:
        try:
            sizes[f"{margin:g}"] = needed(margin)
        except rr.ParameterError:
            sizes[f"{margin:g}"] = None
    return sizes
