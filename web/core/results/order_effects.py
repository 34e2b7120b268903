"""Order effects: each item of a randomized page estimated by the position it was shown in, from
the published responses (their ``order:<page>`` says where each question stood), each position
withheld below the minimum n; with the difference between the first position and the last,
through the item's own design (:meth:`rr.Design.difference`). An item is a yes/no question, each
option of a multi-select or single choice, and a split ballot's question in each condition
(:mod:`web.core.results.by_position`)."""

from __future__ import annotations

from dataclasses import dataclass

import rr
from web.core.models import Option, Question, Survey
from web.core.results.by_position import (
    option_key,
    position_counts,
    position_groupings,
    positioned_rows,
    positions_of,
)
from web.core.surveys.texts import Texts


@dataclass(frozen=True)
class AtPosition:
    """One item's respondents who were shown it at ``position`` (1 for first), and its estimate
    among them (None below the minimum n)."""

    position: int
    n: int
    estimate: rr.Estimate | None


@dataclass(frozen=True)
class ItemByPosition:
    """One item of a randomized page by the position it was shown in: its question's words, the
    option's (None for a yes/no question) and the condition it was asked in (None in every one)."""

    page: str
    page_title: Texts
    key: str
    text: Texts
    option: Texts | None
    condition: str | None
    positions: tuple[AtPosition, ...]
    # First position minus last, where both are shown; None otherwise.
    first_minus_last: rr.Difference | None

    def __repr__(self) -> str:
        shown = [(at.position, at.n) for at in self.positions]
        return f"ItemByPosition({self.page!r}, {self.key!r}, {shown}, {self.first_minus_last!r})"


def order_effects(survey: Survey, min_n: int) -> tuple[ItemByPosition, ...]:
    """Every item of every randomized page by position, from the published responses (none
    while fewer than ``min_n`` are published)."""
    groupings = position_groupings(survey)
    if not groupings or survey.published_count < max(min_n, 1):
        return ()
    rows = positioned_rows(survey)
    counts = position_counts(survey, groupings)
    return tuple(
        _by_position(grouping, rows[key], tally, option, positions_of(survey, grouping, rows[key]),
                     counts, min_n)
        for grouping in groupings
        for key in grouping.items
        for tally, option in enumerate(rows[key].type.spun(rows[key].options), start=1)
    )  # fmt: skip


def _by_position(
    grouping, row: Question, tally: int, option: Option | None, count: int, counts: dict, min_n
) -> ItemByPosition:
    """One tally of ``row`` (its ``tally``-th count after n) at each of its ``count`` places."""
    design = row.type.line_of(row)
    found = []
    for position in range(1, count + 1):
        tallied = counts.get((grouping.page, row.key, position))
        found.append((tallied[0], tallied[tally]) if tallied else (0, 0))
    shown = [n >= max(min_n, 1) for n, _yes in found]
    positions = tuple(
        AtPosition(position, n, design.estimate(yes, n) if visible else None)
        for position, ((n, yes), visible) in enumerate(zip(found, shown, strict=True), start=1)
    )
    difference = None
    if count > 1 and shown[0] and shown[-1]:
        difference = design.difference(found[0][1], found[0][0], found[-1][1], found[-1][0])
    key = row.key if option_key(option) is None else f"{row.key}.{option_key(option)}"
    return ItemByPosition(grouping.page, grouping.title, key, row.texts,
                          None if option is None else option.texts, row.condition, positions,
                          difference)  # fmt: skip
