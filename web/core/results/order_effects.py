"""Order effects: each yes/no item of a randomized page estimated by the position it was shown
in, from the published responses (their ``order:<page>`` says where each item stood), each
position withheld below the minimum n; with the difference between the first position and the
last, through the item's own design (:meth:`rr.Design.difference`)."""

from __future__ import annotations

from dataclasses import dataclass

import rr
from web.core.models import Survey
from web.core.results.by_position import position_counts, position_groupings, positioned_items
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
    """One item of a randomized page by the position it was shown in."""

    page: str
    key: str
    text: Texts
    positions: tuple[AtPosition, ...]
    # First position minus last, where both are shown; None otherwise.
    first_minus_last: rr.Difference | None

    def __repr__(self) -> str:
        shown = [(at.position, at.n) for at in self.positions]
        return f"ItemByPosition({self.page!r}, {self.key!r}, {shown}, {self.first_minus_last!r})"


def order_effects(survey: Survey, min_n: int) -> tuple[ItemByPosition, ...]:
    """Every yes/no item of every randomized page by position, from the published responses
    (none while fewer than ``min_n`` are published; a survey asked by condition has none)."""
    groupings = position_groupings(survey)
    if not groupings or survey.published_count < max(min_n, 1):
        return ()
    items = positioned_items(survey)
    counts = position_counts(survey, groupings)
    return tuple(
        _by_position(grouping.page, items[key], grouping.count, counts, min_n)
        for grouping in groupings
        for key in grouping.items
    )


def _by_position(page: str, question, count: int, counts: dict, min_n: int) -> ItemByPosition:
    design = question.type.line_of(question)
    found = [counts.get((page, question.key, position), [0, 0]) for position in range(1, count + 1)]
    shown = [n >= max(min_n, 1) for n, _yes in found]
    positions = tuple(
        AtPosition(position, n, design.estimate(yes, n) if visible else None)
        for position, ((n, yes), visible) in enumerate(zip(found, shown, strict=True), start=1)
    )
    difference = None
    if count > 1 and shown[0] and shown[-1]:
        difference = design.difference(found[0][1], found[0][0], found[-1][1], found[-1][0])
    return ItemByPosition(page, question.key, question.texts, positions, difference)
