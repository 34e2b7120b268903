"""Stored responses: the reports of one respondent, and those a writer has yet to count."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    ForeignKey,
    Index,
    Integer,
    Text,
)
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

    __table_args__ = (Index("ix_response_survey_id", "survey_id"),)
    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=False
    )
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"))
    bits: Mapped[str] = mapped_column(Text)


class PendingResponse(Model):
    """A stored response that no publication has taken yet: the same columns as
    :class:`Response`, with the same random key. Only the writer adds rows, and only the
    publication removes them, so the table holds at most a batch or so per survey."""

    __tablename__ = "pending_response"
    __table_args__ = (Index("ix_pending_response_survey_id", "survey_id"),)
    id: Mapped[int] = mapped_column(
        BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=False
    )
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"))
    bits: Mapped[str] = mapped_column(Text)
