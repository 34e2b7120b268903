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
    """An SVG chart: one bar per estimate and its value (clipped to 0–100%), a whisker for its
    interval, a 0–100% axis, and a <title>/<desc> so that it reads without sight. ``show`` writes a
    share as text (the page's locale formats it)."""
    labels = [_wrap(bar.label) for bar in bars]
    height = TOP + sum(ROW_HEIGHT + LINE_HEIGHT * (len(lines) - 1) for lines in labels) + 8
    width = LABEL_WIDTH + PLOT_WIDTH + 90  # room for "100.0%" at the projector's size
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
            # The value as the bar draws it: a raw estimate past the axis is said in a note.
            f'<text class="value" x="{_x(1) + 8:.1f}" y="{y + 21}">{escape(show(shown))}</text>',
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


TREND_WIDTH = 640
TREND_HEIGHT = 260
TREND_LEFT = 64
TREND_RIGHT = 24
TREND_TOP = 18
TREND_BOTTOM = 40


@dataclass(frozen=True)
class TrendPoint:
    label: str  # the wave, as the axis names it
    estimate: float | None  # None: withheld
    ci_low: float | None = None
    ci_high: float | None = None


def trend_chart(
    points: list[TrendPoint],
    low: float,
    high: float,
    title: str,
    description: str,
    chart_id: str,
    show: Callable[[float], str],
    withheld: str,
) -> Markup:
    """An SVG chart of one item over the waves: each shown wave's estimate as a dot with its
    interval as a whisker, the dots joined in order, a withheld wave marked as such on its axis
    place; the y axis runs from ``low`` to ``high`` (0–100% for a share) in ``show``'s words."""
    plot = TREND_HEIGHT - TREND_TOP - TREND_BOTTOM
    step = (TREND_WIDTH - TREND_LEFT - TREND_RIGHT) / max(len(points), 1)

    def y(value: float) -> float:
        share = (min(max(value, low), high) - low) / (high - low)
        return TREND_TOP + plot * (1 - share)

    def x(index: int) -> float:
        return TREND_LEFT + step * (index + 0.5)

    parts = [
        f'<svg class="chart trend-chart" viewBox="0 0 {TREND_WIDTH} {TREND_HEIGHT}" role="img" '
        f'aria-labelledby="{chart_id}-t {chart_id}-d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-t">{escape(title)}</title>',
        f'<desc id="{chart_id}-d">{escape(description)}</desc>',
    ]
    for quarter in range(5):
        value = low + (high - low) * quarter / 4
        parts.append(
            f'<line class="grid" x1="{TREND_LEFT}" y1="{y(value):.1f}" '
            f'x2="{TREND_WIDTH - TREND_RIGHT}" y2="{y(value):.1f}"/>'
            f'<text class="tick" x="{TREND_LEFT - 8}" y="{y(value) + 4:.1f}" '
            f'text-anchor="end">{escape(show(value))}</text>'
        )
    shown = [(x(i), point) for i, point in enumerate(points) if point.estimate is not None]
    if len(shown) > 1:
        path = " ".join(f"{px:.1f},{y(point.estimate):.1f}" for px, point in shown)  # type: ignore[arg-type]
        parts.append(f'<polyline class="trend-line" points="{path}"/>')
    for index, point in enumerate(points):
        px = x(index)
        parts.append(
            f'<text class="tick" x="{px:.1f}" y="{TREND_HEIGHT - TREND_BOTTOM + 18}" '
            f'text-anchor="middle">{escape(point.label)}</text>'
        )
        if point.estimate is None:
            parts.append(
                f'<text class="withheld" x="{px:.1f}" y="{TREND_TOP + plot / 2:.1f}" '
                f'text-anchor="middle">{escape(withheld)}</text>'
            )
            continue
        top, bottom = y(point.ci_high), y(point.ci_low)  # type: ignore[arg-type]
        parts += [
            f'<line class="whisker" x1="{px:.1f}" y1="{top:.1f}" x2="{px:.1f}" y2="{bottom:.1f}"/>',
            f'<line class="whisker" x1="{px - 6:.1f}" y1="{top:.1f}" x2="{px + 6:.1f}" y2="{top:.1f}"/>',
            f'<line class="whisker" x1="{px - 6:.1f}" y1="{bottom:.1f}" x2="{px + 6:.1f}" y2="{bottom:.1f}"/>',
            f'<circle class="dot" cx="{px:.1f}" cy="{y(point.estimate):.1f}" r="5"/>',
            f'<text class="value" x="{px + 9:.1f}" y="{y(point.estimate) - 8:.1f}">'
            f"{escape(show(point.estimate))}</text>",
        ]
    parts.append("</svg>")
    return Markup("".join(parts))


@dataclass(frozen=True)
class Stack:
    """One stacked bar: its label and its segments' shares in order, each with its class (the
    option's place in the legend, or ``withheld``)."""

    label: str
    segments: tuple[tuple[str, float], ...]


STACK_WIDTH = 400  # the chart is narrow, so that a phone draws its words at a readable size
STACK_LABEL_CHARACTERS = 48
STACK_BAR = 24


def stacked_chart(stacks: list[Stack], title: str, description: str, chart_id: str) -> Markup:
    """An SVG chart of stacked bars across 0–100%: one per row of a grid, its label above it,
    its segments in the options' order (a legend beside the chart names them), each wide enough
    segment with its share written in it, and a <title>/<desc> so that it reads without sight."""
    labels = [
        textwrap.wrap(stack.label, STACK_LABEL_CHARACTERS, break_long_words=True)[:2] or [""]
        for stack in stacks
    ]
    height = 8 + sum(LINE_HEIGHT * len(lines) + STACK_BAR + 14 for lines in labels)
    parts = [
        f'<svg class="chart stacked-chart" viewBox="0 0 {STACK_WIDTH} {height}" role="img" '
        f'aria-labelledby="{chart_id}-t {chart_id}-d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-t">{escape(title)}</title>',
        f'<desc id="{chart_id}-d">{escape(description)}</desc>',
    ]
    top = 4
    for stack, lines in zip(stacks, labels, strict=True):
        for line in lines:
            top += LINE_HEIGHT
            parts.append(f'<text class="label" x="0" y="{top - 3}">{escape(line)}</text>')
        top += 3
        start = 0.0
        for kind, share in stack.segments:
            end = min(start + max(share, 0.0), 1.0)
            x, width = start * STACK_WIDTH, (end - start) * STACK_WIDTH
            parts.append(
                f'<rect class="segment {kind}" x="{x:.1f}" y="{top}" width="{width:.1f}" '
                f'height="{STACK_BAR}"/>'
            )
            if end - start >= 0.08:  # room for its share
                parts.append(
                    f'<text class="segment-value" x="{x + width / 2:.1f}" y="{top + 17}" '
                    f'text-anchor="middle">{round(share * 100):d}%</text>'
                )
            start = end
        top += STACK_BAR + 11
    parts.append("</svg>")
    return Markup("".join(parts))
