"""Bar charts of estimates with interval whiskers, drawn on the server as accessible SVG."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup, escape

LABEL_WIDTH = 280
PLOT_WIDTH = 380
ROW_HEIGHT = 34
LINE_HEIGHT = 16  # a label's further lines
TOP = 26
LABEL_CHARACTERS = 30  # per line of a label, which wraps onto up to three lines
LABEL_LINES = 3


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
    labels = [_wrap(bar.label) for bar in bars]
    height = TOP + sum(ROW_HEIGHT + LINE_HEIGHT * (len(lines) - 1) for lines in labels) + 8
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
    top = TOP
    for bar, lines in zip(bars, labels, strict=True):
        extra = LINE_HEIGHT * (len(lines) - 1)
        y = top + extra / 2  # the bar's row, level with the middle of its label's lines
        shown = min(max(bar.estimate, 0.0), 1.0)
        label = "".join(
            f'<tspan x="{LABEL_WIDTH - 8}" dy="{LINE_HEIGHT if number else 0}">'
            f"{escape(line)}</tspan>"
            for number, line in enumerate(lines)
        )
        parts += [
            f'<text class="label" x="{LABEL_WIDTH - 8}" y="{top + 21}" text-anchor="end">{label}</text>',
            f'<rect class="bar" x="{_x(0):.1f}" y="{y + 7}" width="{_x(shown) - _x(0):.1f}" height="18"/>',
            f'<line class="whisker" x1="{_x(bar.ci_low):.1f}" y1="{y + 16}" x2="{_x(bar.ci_high):.1f}" y2="{y + 16}"/>',
            f'<line class="whisker" x1="{_x(bar.ci_low):.1f}" y1="{y + 9}" x2="{_x(bar.ci_low):.1f}" y2="{y + 23}"/>',
            f'<line class="whisker" x1="{_x(bar.ci_high):.1f}" y1="{y + 9}" x2="{_x(bar.ci_high):.1f}" y2="{y + 23}"/>',
            f'<text class="value" x="{_x(1) + 8:.1f}" y="{y + 21}">{escape(show(bar.estimate))}</text>',
        ]
        top += ROW_HEIGHT + extra
    parts.append("</svg>")
    return Markup("".join(parts))


def _wrap(label: str) -> list[str]:
    """A label in lines of at most LABEL_CHARACTERS, broken between words; the last of
    LABEL_LINES lines ends in an ellipsis when the label is longer still (assumes a label)."""
    lines = textwrap.wrap(label, LABEL_CHARACTERS, break_long_words=True) or [""]
    if len(lines) > LABEL_LINES:
        lines = lines[:LABEL_LINES]
        lines[-1] = lines[-1][: LABEL_CHARACTERS - 1].rstrip() + "…"
    return lines


def _x(share: float) -> float:
    return LABEL_WIDTH + share * PLOT_WIDTH
