"""Bar charts of estimates with interval whiskers, drawn on the server as accessible SVG."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup, escape

LABEL_WIDTH = 280
PLOT_WIDTH = 380
ROW_HEIGHT = 34
TOP = 26


@dataclass(frozen=True)
class Bar:
    label: str
    estimate: float
    ci_low: float
    ci_high: float


def estimate_chart(
    bars: list[Bar],
    title: str,
    description: str,
    chart_id: str,
    show: Callable[[float], str] = lambda share: f"{share:.0%}",
) -> Markup:
    """An SVG chart: one bar per estimate (clipped to 0–100% for drawing), a whisker for its
    interval, a 0–100% axis, and a <title>/<desc> so that it reads without sight. ``show`` writes a
    share as text (the page's locale formats it)."""
    height = TOP + ROW_HEIGHT * len(bars) + 8
    width = LABEL_WIDTH + PLOT_WIDTH + 70
    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="{chart_id}-t {chart_id}-d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-t">{escape(title)}</title>',
        f'<desc id="{chart_id}-d">{escape(description)}</desc>',
    ]
    for tick in range(0, 101, 25):
        x = _x(tick / 100)
        parts.append(
            f'<line class="grid" x1="{x:.1f}" y1="{TOP - 6}" x2="{x:.1f}" y2="{height - 6}"/>'
        )
        parts.append(
            f'<text class="tick" x="{x:.1f}" y="{TOP - 10}" text-anchor="middle">{escape(show(tick / 100))}</text>'
        )
    for index, bar in enumerate(bars):
        y = TOP + index * ROW_HEIGHT
        shown = min(max(bar.estimate, 0.0), 1.0)
        label = bar.label if len(bar.label) <= 36 else bar.label[:35] + "…"
        parts += [
            f'<text class="label" x="{LABEL_WIDTH - 8}" y="{y + 21}" text-anchor="end">{escape(label)}</text>',
            f'<rect class="bar" x="{_x(0):.1f}" y="{y + 7}" width="{_x(shown) - _x(0):.1f}" height="18"/>',
            f'<line class="whisker" x1="{_x(bar.ci_low):.1f}" y1="{y + 16}" x2="{_x(bar.ci_high):.1f}" y2="{y + 16}"/>',
            f'<line class="whisker" x1="{_x(bar.ci_low):.1f}" y1="{y + 9}" x2="{_x(bar.ci_low):.1f}" y2="{y + 23}"/>',
            f'<line class="whisker" x1="{_x(bar.ci_high):.1f}" y1="{y + 9}" x2="{_x(bar.ci_high):.1f}" y2="{y + 23}"/>',
            f'<text class="value" x="{_x(1) + 8:.1f}" y="{y + 21}">{escape(show(bar.estimate))}</text>',
        ]
    parts.append("</svg>")
    return Markup("".join(parts))


def _x(share: float) -> float:
    return LABEL_WIDTH + share * PLOT_WIDTH
