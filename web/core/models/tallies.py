"""Counts of reports: every spin's tally, moved to its published pair only in batches, and a
group's tally of a question."""

from __future__ import annotations

from sqlalchemy import (
    ForeignKey,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from web.core.infrastructure.extensions import Model


class Tally:
    """Counts of reports for one spin: how many, and how many said yes. ``n`` and ``noisy_yes``
    run with every response; the ``published_`` pair is the snapshot every output shows, moved
    only in batches (see :mod:`web.core.models.publication`)."""

    n: Mapped[int] = mapped_column(default=0)
    noisy_yes: Mapped[int] = mapped_column(default=0)
    published_n: Mapped[int] = mapped_column(default=0)
    published_yes: Mapped[int] = mapped_column(default=0)


class GroupTally(Tally, Model):
    """The counts of one randomized tally (a yes/no question, or one option) among the
    respondents of one *cell*: one combination of answers to the survey's direct questions
    (``cell`` is that combination as sorted JSON, null where a respondent preferred not to say).
    Like every tally, ``n`` and ``noisy_yes`` run with every response (the writer adds its group's
    cells, :mod:`web.core.results.cells`) and the ``published_`` pair moves with the snapshot, so
    results by group cost O(cells) whatever the number of responses."""

    __table_args__ = (UniqueConstraint("item_kind", "item_id", "cell"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"), index=True)
    item_kind: Mapped[str] = mapped_column(String(10))  # "question" or "option": the tally's table
    item_id: Mapped[int]
    cell: Mapped[str] = mapped_column(Text)
