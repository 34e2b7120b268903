"""Inviting a colleague who has no account yet to a survey's team. There is no open sign-up: the
owner's invitation is the only way in. It is a single-use link that expires (``INVITATION_DAYS``,
7 by default), shown once to the owner (the People card, ``flask share``) and kept only as its
SHA-256. Through it the colleague sets a password: that makes the account, gives it the role and
uses the invitation up. The owner may withdraw it before; each step is in the audit log.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import current_app
from flask_babel import gettext as _
from sqlalchemy import CursorResult

from web.core.infrastructure.extensions import db
from web.core.infrastructure.passwords import EMAIL, MAX_EMAIL, token_digest
from web.core.models import Invitation, Survey, SurveyMember, User
from web.core.models.team import ROLES, this_minute
from web.core.surveys.problems import Problem
from web.core.surveys.team import TeamError, record

DEFAULT_DAYS = 7


@dataclass(frozen=True)
class NewInvitation:
    """An invitation just made: its link's token, to be shown once, and when it expires."""

    email: str
    role: str
    token: str
    expires: datetime


@dataclass(frozen=True)
class Pending:
    """An invitation not yet used: to whom, in which role, until when (UTC)."""

    id: int
    email: str
    role: str
    expires: datetime


def invite(survey: Survey, email: str, role: str, by: int | None) -> NewInvitation:
    """Invite ``email`` (no account yet) to the survey in ``role``: a new single-use link. An
    earlier invitation of the same email to this survey is replaced (its link stops working)."""
    email = email.strip().lower()
    if not EMAIL.match(email) or len(email) > MAX_EMAIL:
        raise TeamError(Problem("email", _("%(email)s is not an email address", email=email)))
    if role not in ROLES:
        raise TeamError(Problem("role", _("must be one of %(roles)s, got %(role)r",
                                          roles=", ".join(ROLES), role=role)))  # fmt: skip
    db.session.execute(
        db.delete(Invitation).where(Invitation.survey_id == survey.id, Invitation.email == email)
    )
    token = Invitation.new_token()
    days = int(current_app.config.get("INVITATION_DAYS", DEFAULT_DAYS))
    expires = this_minute() + timedelta(days=days)
    db.session.add(
        Invitation(survey_id=survey.id, email=email, role=role, invited_by=by,
                   token_hash=token_digest(token), expires_at=expires)
    )  # fmt: skip
    record(survey, by, "invited", f"{email} as {role}")
    return NewInvitation(email, role, token, expires.replace(tzinfo=UTC))


def pending(survey: Survey) -> list[Pending]:
    """The survey's invitations not yet used or withdrawn (an expired one too, until then)."""
    rows = db.session.scalars(
        db.select(Invitation).filter_by(survey_id=survey.id).order_by(Invitation.email)
    )
    return [
        Pending(row.id, row.email, row.role, row.expires_at.replace(tzinfo=UTC)) for row in rows
    ]


def withdraw(survey: Survey, email: str, by: int | None) -> None:
    """Withdraw the survey's invitation of ``email``: its link stops working."""
    email = email.strip().lower()
    gone: CursorResult = db.session.execute(  # type: ignore[assignment]
        db.delete(Invitation).where(Invitation.survey_id == survey.id, Invitation.email == email)
    )
    if not gone.rowcount:
        raise TeamError(Problem("email", _("%(email)s has no invitation to this survey",
                                           email=email)))  # fmt: skip
    record(survey, by, "invitation_withdrawn", email)


def invitation_of(token: str) -> Invitation | None:
    """The live invitation of a link, or None (used, withdrawn, expired, or never made)."""
    found = db.session.scalar(db.select(Invitation).filter_by(token_hash=token_digest(token)))
    if found is None or found.expires_at <= this_minute():
        return None
    return found


def accept(invitation: Invitation, password: str | None) -> User:
    """Use ``invitation``: the account of its email (made with ``password`` if there is none yet)
    gets its role on the survey, and the invitation is gone. Commits nothing."""
    user = db.session.scalar(db.select(User).filter_by(email=invitation.email))
    if user is None:
        user = User(email=invitation.email)
        user.set_password(password or "")
        db.session.add(user)
        db.session.flush()
    survey = db.session.get(Survey, invitation.survey_id)
    assert survey is not None  # an invitation is deleted with its survey
    if user.id != survey.owner_id:
        member = db.session.get(SurveyMember, (survey.id, user.id))
        if member is None:
            db.session.add(SurveyMember(survey_id=survey.id, user_id=user.id, role=invitation.role))
        else:
            member.role = invitation.role
    record(survey, user.id, "joined", f"{invitation.email} as {invitation.role}")
    db.session.delete(invitation)
    return user


def has_account(email: str) -> bool:
    """Whether an account has this email."""
    email = email.strip().lower()
    return db.session.scalar(db.select(User.id).filter_by(email=email)) is not None
