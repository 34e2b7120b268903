"""Invitations to a survey's team for a colleague with no account yet: a single-use link that
expires. Only the link's SHA-256 is kept; accepting it (setting a password) makes the account, gives
it the role and deletes the invitation (web/core/surveys/invitations.py)."""

from __future__ import annotations

import secrets
from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from web.core.infrastructure.extensions import Model


class Invitation(Model):
    """An email invited to a survey in a role, until the link is used, withdrawn or expires."""

    __tablename__ = "invitation"

    id: Mapped[int] = mapped_column(primary_key=True)
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"), index=True)
    email: Mapped[str] = mapped_column(String(254))
    role: Mapped[str] = mapped_column(String(10))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    expires_at: Mapped[datetime] = mapped_column()
    invited_by: Mapped[int | None] = mapped_column(ForeignKey("user.id"))

    @staticmethod
    def new_token() -> str:
        return "inv_" + secrets.token_urlsafe(32)
