"""Fielding: a submission's key (stored exactly once) and the field devices that collect offline."""

from __future__ import annotations

import secrets
from datetime import date
from typing import TYPE_CHECKING

from sqlalchemy import (
    ForeignKey,
    LargeBinary,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from web.core.infrastructure.extensions import Model, db
from web.core.infrastructure.passwords import token_digest
from web.core.models.accounts import token_row

if TYPE_CHECKING:
    from web.core.models.surveys import Survey


class SubmissionKey(Model):
    """A submission's idempotency key, kept as a keyed hash so that a resent submission is stored
    once (:mod:`web.respondent.writer`). The key is drawn at random on the respondent's device and
    kept there; ``key_hash`` is HMAC-SHA-256 of it under the app's secret, and ``reports_hash``
    the same of the key and the reports it came with, so neither says anything without the key,
    and no row names a response. SQLite keeps the table in key order (no rowid), which is random."""

    __tablename__ = "submission_key"
    __table_args__ = {"sqlite_with_rowid": False}
    # 128 bits of each HMAC: a collision is as likely as guessing a key.
    key_hash: Mapped[bytes] = mapped_column(LargeBinary(16), primary_key=True)
    # No index: every submission writes a row, and only deleting a survey looks rows up by it.
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"))
    reports_hash: Mapped[bytes] = mapped_column(LargeBinary(16))


class FieldDevice(Model):
    """A link that sets up a shared device (an interviewer's tablet) for one survey: a bearer
    secret, kept as its SHA-256, with a label; revoking it stops the device's submissions. No
    response records the device it came from."""

    __tablename__ = "field_device"
    id: Mapped[int] = mapped_column(primary_key=True)
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(100))
    created_on: Mapped[date] = mapped_column(default=date.today)
    revoked: Mapped[bool] = mapped_column(default=False)

    @staticmethod
    def digest(token: str) -> str:
        return token_digest(token)

    @classmethod
    def issue(cls, survey: Survey, label: str) -> tuple[str, FieldDevice]:
        """A new device link's secret (shown in the link, never stored) and its record."""
        token = "fd_" + secrets.token_urlsafe(24)
        record = cls(survey_id=survey.id, token_hash=cls.digest(token), label=label)
        db.session.add(record)
        return token, record

    @classmethod
    def state_of(cls, token: str) -> tuple[int, bool] | None:
        """The survey id of a device link and whether it is revoked, or None for no such link:
        one read in the driver's own SQL, as every submission from a device asks it."""
        row = token_row(cls.__tablename__, "survey_id", cls.digest(token))
        return None if row is None else (row[0], bool(row[1]))


class FieldworkCount(Model):
    # The kinds of count.
    QUOTA = "quota"
    SCREEN_OUT = "screen_out"
    TURNED_AWAY = "turned_away"

    """A count the fieldwork keeps per survey, apart from any response: the completes in a quota
    (``kind`` "quota", its id), the respondents screened out at a page (``kind``
    "screen_out", the page's id), or those turned away because their quota was full (``kind``
    "turned_away", the quota's id). A screened-out respondent leaves nothing else; a quota's count
    is claimed in the transaction that stores the response it counts (web/respondent/storing.py),
    so that two hosts never both take the last place, against the limit on the row (set with the
    survey's quotas, so that a raised limit holds at once for every page already loaded). No time
    is kept."""

    __tablename__ = "fieldwork_count"
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    count: Mapped[int] = mapped_column(default=0)
    # A quota's limit; none for a screen-out's count.
    quota_limit: Mapped[int | None]

    @classmethod
    def of_survey(cls, survey_id: int) -> dict[tuple[str, str], int]:
        """A survey's counts by (kind, key); a count not there yet is none."""
        rows = db.session.execute(
            db.select(cls.kind, cls.key, cls.count).where(cls.survey_id == survey_id)
        )
        return {(kind, key): count for kind, key, count in rows}
