"""Grids as the researcher reads them: each row's answers counted from the published snapshot,
as a stacked bar per row and a table; a row answered by fewer than the minimum n is withheld, and
an option chosen by fewer than the minimum n in a row is not counted apart (as a direct
question's is not)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from web.core.models import Survey
from web.core.results.published import published_answers
from web.core.surveys.texts import Texts


@dataclass(frozen=True)
class GridRowCounts:
    """One row: how many answered it, and per option how many chose it (None where fewer than the
    minimum n did, so that no handful of answers can be read back)."""

    key: str
    text: Texts
    n: int
    counts: tuple[int | None, ...]

    @property
    def withheld_share(self) -> float:
        """The share of the row's answers in options not counted apart."""
        shown = sum(count for count in self.counts if count is not None)
        return (self.n - shown) / self.n if self.n else 0.0

    def share(self, index: int) -> float | None:
        count = self.counts[index]
        return None if count is None or not self.n else count / self.n


@dataclass(frozen=True)
class GridResult:
    """One grid: its options and rows; ``rows`` holds only the rows answered by at least the
    minimum n, ``withheld_rows`` counts the others."""

    key: str
    text: Texts
    options: tuple[tuple[str, Texts], ...]
    rows: tuple[GridRowCounts, ...]
    withheld: bool  # fewer than the minimum n responses published
    withheld_rows: int = 0

    def __repr__(self) -> str:
        shown = "withheld" if self.withheld else f"rows={len(self.rows)}"
        return f"GridResult({self.key!r}, {shown})"


def grid_results(survey: Survey, min_n: int) -> tuple[GridResult, ...]:
    """Every grid's rows counted from the published responses (one pass over them)."""
    grids = [question for question in survey.questions if question.type.has_rows]
    if not grids:
        return ()
    floor = max(min_n, 1)
    counted: dict[str, dict[str, Counter]] = {
        grid.key: {row.key: Counter() for row in grid.design.rows or ()} for grid in grids
    }
    published = survey.published_count >= floor
    if published:
        for answers in published_answers(survey):
            for key, rows in counted.items():
                answer = answers.get(key)
                if not isinstance(answer, dict):
                    continue
                for row, option in answer.items():
                    if row in rows:
                        rows[row][option] += 1
    results = []
    for grid in grids:
        options = tuple((option.key, option.texts) for option in grid.options)
        shown = []
        for row in grid.design.rows or ():
            counter = counted[grid.key][row.key]
            n = sum(counter.values())
            if n < floor:
                continue
            counts = tuple(
                counter[key] if counter[key] == 0 or counter[key] >= floor else None
                for key, _ in options
            )
            shown.append(GridRowCounts(row.key, row.text, n, counts))
        withheld_rows = len(grid.design.rows or ()) - len(shown)
        results.append(
            GridResult(grid.key, grid.texts, options, tuple(shown), not published, withheld_rows)
        )
    return tuple(results)
