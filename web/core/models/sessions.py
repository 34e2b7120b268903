"""A researcher's sessions, kept on the server: one row per login, named by a random key the
browser's signed cookie carries. Ending a session deletes its row, so a copy of the cookie made
before stops working too (OWASP ASVS 3.3.1). Only the key's SHA-256 is kept; a session's device
is a coarse name ("Firefox · Linux") and its times are to the minute."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import CursorResult, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from web.core.infrastructure.extensions import Model, db
from web.core.infrastructure.passwords import token_digest
from web.core.models.team import this_minute

# (what the User-Agent holds, the name shown), first match wins: Edge and Opera say "Chrome" too,
# Chrome says "Safari".
BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iOS"),
    ("iPad", "iPadOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)


def device_name(user_agent: str) -> str:
    """A browser and system a person recognises ("Chrome · Android"), in no language's words and
    never the whole header; "?" for neither."""
    found = [
        next((name for mark, name in known if mark in user_agent), None)
        for known in (BROWSERS, SYSTEMS)
    ]
    return " · ".join(name for name in found if name) or "?"


class ResearcherSession(Model):
    """One login of a researcher on one browser, until it is ended or expires."""

    __tablename__ = "researcher_session"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    device: Mapped[str] = mapped_column(String(40))
    signed_in_at: Mapped[datetime] = mapped_column()
    seen_at: Mapped[datetime] = mapped_column()

    @classmethod
    def open(cls, user_id: int, user_agent: str) -> str:
        """Start a session for ``user_id``; its key, for the browser's cookie only."""
        key = secrets.token_urlsafe(32)
        now = this_minute()
        db.session.add(
            cls(
                user_id=user_id,
                key_hash=token_digest(key),
                device=device_name(user_agent),
                signed_in_at=now,
                seen_at=now,
            )
        )
        return key

    @classmethod
    def live(cls, user_id: int, key: str | None) -> ResearcherSession | None:
        """The live session of ``user_id`` with this key, or None (ended, or never was)."""
        if not key:
            return None
        return db.session.scalar(
            db.select(cls).filter_by(user_id=user_id, key_hash=token_digest(key))
        )

    @classmethod
    def of_account(cls, user_id: int) -> list[ResearcherSession]:
        """The account's live sessions, the latest seen first."""
        return list(
            db.session.scalars(
                db.select(cls).filter_by(user_id=user_id).order_by(cls.seen_at.desc(), cls.id)
            )
        )

    @classmethod
    def end(cls, user_id: int, key: str | None = None, session_id: int | None = None) -> int:
        """End the account's session with this key or id, or every one of them with neither;
        how many ended."""
        query = db.delete(cls).where(cls.user_id == user_id)
        if key is not None:
            query = query.where(cls.key_hash == token_digest(key))
        if session_id is not None:
            query = query.where(cls.id == session_id)
        ended: CursorResult = db.session.execute(query)  # type: ignore[assignment]
        return ended.rowcount

    @property
    def signed_in(self) -> datetime:
        """When it began, in UTC (stored naive)."""
        return self.signed_in_at.replace(tzinfo=UTC)

    @property
    def seen(self) -> datetime:
        """When it was last used, to within a few minutes, in UTC."""
        return self.seen_at.replace(tzinfo=UTC)

    @classmethod
    def mark_seen(cls, key: str) -> None:
        """Mark the session with this key seen now (to the minute), for the account's list."""
        db.session.execute(
            db.update(cls).where(cls.key_hash == token_digest(key)).values(seen_at=this_minute())
        )

    def is_keyed(self, key: str | None) -> bool:
        """Whether ``key`` is this session's (the browser asking is this session's)."""
        return key is not None and secrets.compare_digest(self.key_hash, token_digest(key))
