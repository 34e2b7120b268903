"""Stored responses: the reports of one respondent, and those a writer has yet to count.

Both tables are keyed by survey, then by the response's random key, and on SQLite keep their rows
in that key itself (``WITHOUT ROWID``): one B-tree a table, with a survey's rows side by side and in
random order among themselves. A response stored or published then writes one page of each table
it goes into, where a rowid table with an index on the survey wrote two, each at a random place.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, ForeignKey, Integer, PrimaryKeyConstraint, Text
from sqlalchemy.orm import Mapped, mapped_column

from web.core.infrastructure.extensions import Model


class Response(Model):
    """One respondent's reported bits in the published snapshot, as JSON keyed by question and
    option id. Nothing else: no time, no address, no browser.

    A response waits in :class:`PendingResponse` until the publication that takes it moves it
    here with the rest of its batch, in the order of their random keys
    (:mod:`web.core.models.publication`): so neither the key nor the order in which the database
    keeps rows says more about when a response came in than which batch it was published in, which
    the published snapshots say anyway. Each response is written twice, once in each table."""

    __table_args__ = (PrimaryKeyConstraint("survey_id", "id"), {"sqlite_with_rowid": False})
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"))
    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), autoincrement=False
    )
    bits: Mapped[str] = mapped_column(Text)


class PendingResponse(Model):
    """A stored response that no publication has taken yet: the same columns as
    :class:`Response`, with the same random key. Only the writer adds rows, and only the
    publication removes them, so the table holds at most a batch or so per survey."""

    __tablename__ = "pending_response"
    __table_args__ = (PrimaryKeyConstraint("survey_id", "id"), {"sqlite_with_rowid": False})
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"))
    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), autoincrement=False
    )
    bits: Mapped[str] = mapped_column(Text)
