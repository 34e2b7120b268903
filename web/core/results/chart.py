"""Bar charts of estimates with interval whiskers, drawn on the server as accessible SVG."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from flask_babel import gettext as _
from markupsafe import Markup, escape

from web.core.infrastructure.i18n import percent

LABEL_WIDTH = 280
PLOT_WIDTH = 380
ROW_HEIGHT = 34
LINE_HEIGHT = 16  # a label's further lines
TOP = 26
LABEL_CHARACTERS = 30  # per line of a label, which wraps onto up to three lines
LABEL_LINES = 3
# The phone's drawing: narrow enough that a 390 px screen draws its words at about 13 px.
NARROW_WIDTH = 360
NARROW_LEFT = 24  # half the "0.0%" tick
NARROW_PLOT = 272  # leaves room for "100.0%" after the bar
NARROW_CHARACTERS = 44


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
    share as text (the page's locale formats it). It is drawn twice: labels beside the bars for
    a wide screen, and labels above them for a phone, whose narrower drawing keeps its words
    readable without scrolling sideways; the stylesheet shows the one that fits."""
    return Markup(
        _wide_chart(bars, title, description, chart_id, show)
        + _narrow_chart(bars, title, description, f"{chart_id}-n", show)
    )


def _opening(kind: str, width: float, height: float, title: str, description: str, chart_id: str):
    """An accessible chart's <svg> opening, title and description (assumes valid input)."""
    return [
        f'<svg class="chart {kind}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="{chart_id}-t {chart_id}-d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-t">{escape(title)}</title>',
        f'<desc id="{chart_id}-d">{escape(description)}</desc>',
    ]


def _bar(bar: Bar, x: Callable[[float], float], y: float, show: Callable[[float], str]) -> list:
    """One bar, its whisker and its value, the bar's top at ``y + 7`` (assumes valid input)."""
    shown = min(max(bar.estimate, 0.0), 1.0)
    # An interval past the axis (a list experiment's Wald interval, say) stops at its ends, where
    # it would otherwise run into the labels; the table beside the chart gives it whole.
    low, high = (min(max(end, 0.0), 1.0) for end in (bar.ci_low, bar.ci_high))
    return [
        f'<rect class="bar" x="{x(0):.1f}" y="{y + 7}" width="{x(shown) - x(0):.1f}" height="18"/>',
        f'<line class="whisker" x1="{x(low):.1f}" y1="{y + 16}" x2="{x(high):.1f}" y2="{y + 16}"/>',
        f'<line class="whisker" x1="{x(low):.1f}" y1="{y + 9}" x2="{x(low):.1f}" y2="{y + 23}"/>',
        f'<line class="whisker" x1="{x(high):.1f}" y1="{y + 9}" x2="{x(high):.1f}" y2="{y + 23}"/>',
        # The value as the bar draws it: a raw estimate past the axis is said in a note.
        f'<text class="value" x="{x(1) + 8:.1f}" y="{y + 21}">{escape(show(shown))}</text>',
    ]  # fmt: skip


def _axis(x: Callable[[float], float], top: float, bottom: float, show) -> list:
    """The 0–100% grid lines and their ticks above them (assumes valid input)."""
    parts = []
    for tick in range(0, 101, 25):
        at = x(tick / 100)
        parts.append(
            f'<line class="grid" x1="{at:.1f}" y1="{top - 6}" x2="{at:.1f}" y2="{bottom}"/>'
        )
        parts.append(
            f'<text class="tick" x="{at:.1f}" y="{top - 10}" text-anchor="middle">{escape(show(tick / 100))}</text>'
        )
    return parts


def _wide_chart(bars: list[Bar], title: str, description: str, chart_id: str, show) -> str:
    """Labels to the left of the bars (assumes valid input)."""
    labels = [_wrap(bar.label) for bar in bars]
    height = TOP + sum(ROW_HEIGHT + LINE_HEIGHT * (len(lines) - 1) for lines in labels) + 8
    width = LABEL_WIDTH + PLOT_WIDTH + 90  # room for "100.0%" at the projector's size
    parts = _opening("chart-wide", width, height, title, description, chart_id)
    parts += _axis(_x, TOP, height - 6, show)
    top = TOP
    for bar, lines in zip(bars, labels, strict=True):
        extra = LINE_HEIGHT * (len(lines) - 1)
        label = "".join(
            f'<tspan x="{LABEL_WIDTH - 8}" dy="{LINE_HEIGHT if number else 0}">'
            f"{escape(line)}</tspan>"
            for number, line in enumerate(lines)
        )
        parts.append(
            f'<text class="label" x="{LABEL_WIDTH - 8}" y="{top + 21}" text-anchor="end">{label}</text>'
        )
        # The bar's row, level with the middle of its label's lines.
        parts += _bar(bar, _x, top + extra / 2, show)
        top += ROW_HEIGHT + extra
    parts.append("</svg>")
    return "".join(parts)


def _narrow_chart(bars: list[Bar], title: str, description: str, chart_id: str, show) -> str:
    """Each label on its own lines above its bar, for a phone (assumes valid input)."""
    labels = [_wrap(bar.label, NARROW_CHARACTERS) for bar in bars]
    height = TOP + sum(ROW_HEIGHT + LINE_HEIGHT * len(lines) + 2 for lines in labels) + 8

    def x(share: float) -> float:
        return NARROW_LEFT + share * NARROW_PLOT

    parts = _opening("chart-narrow", NARROW_WIDTH, height, title, description, chart_id)
    parts += _axis(x, TOP, height - 6, show)
    top = TOP
    for bar, lines in zip(bars, labels, strict=True):
        label = "".join(
            f'<tspan x="0" dy="{LINE_HEIGHT if number else 0}">{escape(line)}</tspan>'
            for number, line in enumerate(lines)
        )
        parts.append(f'<text class="label" x="0" y="{top + 14}">{label}</text>')
        parts += _bar(bar, x, top + LINE_HEIGHT * len(lines) - 2, show)
        top += ROW_HEIGHT + LINE_HEIGHT * len(lines) + 2
    parts.append("</svg>")
    return "".join(parts)


def _wrap(label: str, characters: int = LABEL_CHARACTERS) -> list[str]:
    """A label in lines of at most ``characters`` (a wide character, as Korean's, counts two),
    broken between words; the last of LABEL_LINES lines ends in an ellipsis when the label is
    longer still (assumes a label)."""
    lines: list[str] = []
    line = ""
    for word in label.split():
        candidate = f"{line} {word}" if line else word
        if _width(candidate) <= characters:
            line = candidate
            continue
        if line:
            lines.append(line)
        while _width(word) > characters:  # a word longer than a line is cut
            cut = _fitting(word, characters)
            lines.append(word[:cut])
            word = word[cut:]
        line = word
    lines.append(line)
    if len(lines) > LABEL_LINES:
        lines = lines[:LABEL_LINES]
        last = lines[-1]
        lines[-1] = last[: _fitting(last, characters - 1)].rstrip() + "…"
    return lines


def _width(text: str) -> int:
    """Columns ``text`` takes: two for a wide (East Asian) character, one for any other."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)


def _fitting(text: str, columns: int) -> int:
    """How many of ``text``'s characters fit in ``columns`` (at least one)."""
    used = 0
    for index, char in enumerate(text):
        used += _width(char)
        if used > columns:
            return max(index, 1)
    return len(text)


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
    labels = [_wrap(stack.label, STACK_LABEL_CHARACTERS)[:2] for stack in stacks]
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


def describe(drawn: list[Bar], show: Callable[[float], str] | None = None) -> str:
    """The chart in words, for screen readers (``show`` writes a position on its axis)."""
    write = show or (lambda share: percent(share, 0))
    return "; ".join(
        _(
            "%(label)s: estimate %(estimate)s, 95%% interval %(low)s to %(high)s",
            label=bar.label,
            estimate=write(bar.estimate),
            low=write(bar.ci_low),
            high=write(bar.ci_high),
        )
        for bar in drawn
    )
