"""Accounts and their API tokens: a researcher's password, sessions and scoped tokens."""

from __future__ import annotations

import secrets
from datetime import date
from functools import lru_cache
from typing import NamedTuple

from flask import current_app
from flask_login import UserMixin
from sqlalchemy import (
    ForeignKey,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship
from werkzeug.security import check_password_hash, generate_password_hash

from web.core.infrastructure.driver_sql import first_row, placeholder
from web.core.infrastructure.extensions import Model, db
from web.core.infrastructure.passwords import token_digest
from web.core.models.sessions import ResearcherSession


class User(UserMixin, Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(256))
    # Part of every session's user id (get_id): bumping it ends every session of the account,
    # copied cookies included (web/workspace/auth.py).
    session_generation: Mapped[int] = mapped_column(default=0)
    tokens: Mapped[list[ApiToken]] = relationship(
        back_populates="user", cascade="all, delete-orphan"
    )

    def set_password(self, password: str) -> None:
        """Set the password and end every session of the account."""
        self.password_hash = generate_password_hash(password, method=_password_method())
        self.end_sessions()

    def check_password(self, password: str) -> bool:
        return check_password_hash(self.password_hash, password)

    def end_sessions(self) -> None:
        """Make every session of this account, on any device, invalid from its next request."""
        self.session_generation = (self.session_generation or 0) + 1
        if self.id is not None:
            ResearcherSession.end(self.id)

    def get_id(self) -> str:
        """What a session keeps: the account and the generation it was opened under."""
        return f"{self.id}:{self.session_generation}"

    @classmethod
    def none_yet(cls) -> bool:
        """Whether no researcher account exists yet: the app's first run, set up at /setup."""
        return db.session.scalar(db.select(cls.id).limit(1)) is None

    @classmethod
    def from_session(cls, session_id: str) -> User | None:
        """The account of a session id, or None once its generation has ended."""
        account, _, generation = session_id.partition(":")
        if not (account.isdigit() and generation.isdigit()):
            return None
        user = db.session.get(cls, int(account))
        if user is None or user.session_generation != int(generation):
            return None
        return user

    @classmethod
    def authenticate(cls, email: str, password: str) -> User | None:
        """The account with this email and password, or None. An unknown email costs the same
        scrypt check as a wrong password, so the time taken does not say which accounts exist."""
        user = db.session.scalar(db.select(cls).filter_by(email=email.strip().lower()))
        stored = user.password_hash if user is not None else _stand_in_hash(_password_method())
        if check_password_hash(stored, password) and user is not None:
            return user
        return None


def _password_method() -> str:
    """Werkzeug's hash method for new passwords: ``scrypt`` (n = 2**15, r = 8, p = 1) unless the
    app's ``PASSWORD_HASH_METHOD`` says otherwise (the test suite's cheaper parameters)."""
    return current_app.config["PASSWORD_HASH_METHOD"]


@lru_cache(maxsize=4)
def _stand_in_hash(method: str) -> str:
    """A hash of a random password, with the same parameters as real ones."""
    return generate_password_hash(secrets.token_hex(16), method=method)


READ, READ_WRITE = "read", "read_write"  # an API token's scopes


class TokenHolder(NamedTuple):
    """Who a live API token speaks for, and whether it may change anything."""

    user_id: int
    may_write: bool


class ApiToken(Model):
    """A bearer token for the API; only the SHA-256 of the token is kept. Its scope is ``read``
    (results and downloads) or ``read_write`` (also importing, opening and closing surveys)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(100), default="")
    created_on: Mapped[date] = mapped_column(default=date.today)
    revoked: Mapped[bool] = mapped_column(default=False)
    scope: Mapped[str] = mapped_column(String(10), default=READ, server_default=READ)
    user: Mapped[User] = relationship(back_populates="tokens")

    @staticmethod
    def digest(token: str) -> str:
        return token_digest(token)

    @classmethod
    def issue(cls, user: User, label: str = "", write: bool = False) -> tuple[str, ApiToken]:
        """A new token for ``user`` (read-only unless ``write``): the plain token (shown once)
        and its stored record."""
        token = "rr_" + secrets.token_urlsafe(32)
        scope = READ_WRITE if write else READ
        record = cls(user=user, token_hash=cls.digest(token), label=label, scope=scope)
        db.session.add(record)
        return token, record

    @classmethod
    def holder_of(cls, token: str) -> TokenHolder | None:
        """Who a live token speaks for, or None: one statement in the driver's own SQL on a
        pooled connection (every results request asks it; through the ORM it took a third of
        the request)."""
        row = token_row(cls.__tablename__, "user_id", cls.digest(token), "scope")
        return None if row is None or row[1] else TokenHolder(row[0], row[2] == READ_WRITE)


def token_row(table: str, owner: str, token_hash: str, *more: str):
    """(``owner``, revoked, *``more``) of the row of ``table`` with this token hash, or None."""
    engine = db.engine
    mark = placeholder(engine.dialect.paramstyle)
    columns = ", ".join((owner, "revoked", *more))
    sql = f"SELECT {columns} FROM {table} WHERE token_hash = {mark}"
    return first_row(engine, sql, (token_hash,))
