"""The estimate chart's drawing: bars, values and whiskers stay on the 0–100% axis."""

from __future__ import annotations

import re

from tests.conftest import no_database
from web.core.results.chart import Bar, estimate_chart


@no_database
def test_an_interval_past_the_axis_stops_at_its_ends():
    """A list experiment's Wald interval may run below 0% or past 100%: drawn whole, its whisker
    ran into the labels beside the axis."""
    drawn = estimate_chart(
        [Bar("First", 0.143, -0.218, 0.503), Bar("Fourth", 0.95, 0.7, 1.2)], "t", "d", "c"
    )
    for chart in re.findall(r"<svg.*?</svg>", drawn, re.DOTALL):
        axis = [float(x) for x in re.findall(r'<line class="grid" x1="([\d.]+)"', chart)]
        whiskers = re.findall(
            r'<line class="whisker" x1="([\d.]+)" y1="[\d.]+" x2="([\d.]+)"', chart
        )
        ends = [float(end) for whisker in whiskers for end in whisker]
        assert len(ends) == 12
        assert min(axis) <= min(ends) and max(ends) <= max(axis)
