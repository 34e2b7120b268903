"""A grid on the results panel: a stacked bar per row in the viewer's language, with its legend
(the options in order) and the counts behind it (web/core/results/grids.py)."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from markupsafe import Markup

from web.core.infrastructure.i18n import percent, shown
from web.core.results.chart import Stack, stacked_chart
from web.core.results.grids import GridResult

# Segment classes cycle through this many colours (static/css/workspace.css).
COLOURS = 7
WITHHELD = "withheld"


@dataclass(frozen=True)
class GridPanel:
    """One grid as the panel shows it: its counts, and its chart (None while withheld)."""

    result: GridResult
    chart: Markup | None

    @property
    def legend(self) -> list[tuple[str, str]]:
        """(segment class, option text) in the options' order, then the withheld share's."""
        named = [(segment(index), shown(texts).text) for index, (_key, texts) in
                 enumerate(self.result.options)]  # fmt: skip
        if any(row.withheld_share > 0 for row in self.result.rows):
            named.append((WITHHELD, _("Options chosen by fewer than the minimum n, together")))
        return named


def segment(index: int) -> str:
    return f"segment-{index % COLOURS}"


def grid_panel(result: GridResult, chart_id: str) -> GridPanel:
    """A grid's chart: each row shown, its options' shares stacked in order."""
    if result.withheld or not result.rows:
        return GridPanel(result, None)
    stacks = []
    for row in result.rows:
        segments = [(segment(index), row.share(index) or 0.0) for index in range(len(row.counts))]
        if row.withheld_share > 0:
            segments.append((WITHHELD, row.withheld_share))
        stacks.append(Stack(shown(row.text).text, tuple(segments)))
    question = shown(result.text).text
    described = "; ".join(
        f"{shown(row.text).text}: "
        + ", ".join(
            f"{shown(texts).text} {percent(row.share(index), 0)}"
            for index, (_key, texts) in enumerate(result.options)
            if row.share(index) is not None
        )
        for row in result.rows
    )
    chart = stacked_chart(
        stacks, _("Answers as given (not randomized), by row: %(question)s", question=question),
        described, chart_id,
    )  # fmt: skip
    return GridPanel(result, chart)
