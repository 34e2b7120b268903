"""Numbers asked directly, summarised for the researcher: each question's n, mean with its t
interval and quartiles (:func:`rr.describe_values`) from the published snapshot's values,
withheld below the minimum n."""

from __future__ import annotations

from dataclasses import dataclass

import rr
from web.core.models import Survey
from web.core.results.published import published_answers
from web.core.surveys.scales import Scale
from web.core.surveys.texts import Texts


@dataclass(frozen=True)
class PlainNumber:
    """One number question asked directly: its values' summary, or withheld."""

    key: str
    text: Texts
    scale: Scale | None  # a checked question's range
    summary: rr.ValueSummary | None  # None while withheld, or when nobody answered

    @property
    def withheld(self) -> bool:
        return self.summary is None

    def __repr__(self) -> str:
        return f"PlainNumber({self.key!r}, {self.summary!r})"


def plain_numbers(survey: Survey, min_n: int) -> tuple[PlainNumber, ...]:
    """Every number question asked directly, summarised from the published values (one pass over
    the responses); withheld while fewer than ``min_n`` responses are published or fewer than
    ``min_n`` gave a value."""
    asked = [q for q in survey.questions if q.type.has_range and not q.type.estimated]
    if not asked:
        return ()
    values: dict[str, list[float]] = {question.key: [] for question in asked}
    if survey.published_count >= max(min_n, 1):
        for answers in published_answers(survey):
            for key, found in values.items():
                value = answers.get(key)
                if isinstance(value, (int, float)):
                    found.append(value)
    return tuple(
        PlainNumber(
            question.key,
            question.texts,
            question.design.scale,
            rr.describe_values(values[question.key])
            if len(values[question.key]) >= max(min_n, 1)
            else None,
        )
        for question in asked
    )
