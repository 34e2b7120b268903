"""Sharing a survey with colleagues, each in a role, and the audit log of what researchers did to
it (web/core/models/team.py holds the rows).

An event is written in the transaction of the change it records (:func:`record`), so a change
that is rolled back leaves no event; a download, which reads one snapshot and changes nothing,
writes its event on a connection of its own (:func:`record_now`). Events carry the minute, never
a finer time, and only researchers' actions: no respondent's submission is ever an event.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask_babel import force_locale
from flask_babel import gettext as _

from web.core.infrastructure.extensions import db
from web.core.infrastructure.i18n import AUDIT_LABELS
from web.core.models import AuditEvent, Survey, SurveyMember, User
from web.core.models.team import ROLES, this_minute
from web.core.surveys.problems import Problem

# What an event may record.
ACTIONS = ("created", "shared", "unshared", "invited", "invitation_withdrawn", "joined",
           "imported", "edited", "opened", "closed", "exported", "device_link",
           "device_revoked")  # fmt: skip
MAX_EVENTS_SHOWN = 200
STATUS_EVENTS = {"open": "opened", "closed": "closed"}


class TeamError(ValueError):
    """A share the survey cannot take; the message says why."""

    def __init__(self, problem: Problem):
        super().__init__(problem.message)
        self.problem = problem


@dataclass(frozen=True)
class Member:
    """An account a survey is shared with: its email and role."""

    email: str
    role: str


@dataclass(frozen=True)
class Event:
    """One line of the audit log: when (to the minute, UTC), who, what and on what."""

    at: datetime
    by: str | None
    action: str
    detail: str

    def to_dict(self) -> dict:
        return {
            "at": self.at.strftime("%Y-%m-%dT%H:%MZ"),
            "by": self.by,
            "action": self.action,
            "detail": self.detail,
            "said": self.said(),
        }

    def said(self) -> str:
        """The event in words, as the dashboard's log says it ("downloaded responses.csv"), in
        English: the command line's and the API's words."""
        with force_locale("en"):
            verb = str(AUDIT_LABELS.get(self.action, self.action))
        return f"{verb} {self.detail}".strip()


def members(survey: Survey) -> list[Member]:
    """The accounts the survey is shared with, by email."""
    rows = db.session.execute(
        db.select(User.email, SurveyMember.role)
        .join(SurveyMember, SurveyMember.user_id == User.id)
        .where(SurveyMember.survey_id == survey.id)
        .order_by(User.email)
    )
    return [Member(email, role) for email, role in rows]


def share(survey: Survey, email: str, role: str, by: int | None) -> Member:
    """Share the survey with the account of ``email`` in ``role`` (or change its role)."""
    if role not in ROLES:
        raise TeamError(Problem("role", _("must be one of %(roles)s, got %(role)r",
                                          roles=", ".join(ROLES), role=role)))  # fmt: skip
    user = _account(email)
    if user.id == survey.owner_id:
        raise TeamError(Problem("email", _("%(email)s owns this survey", email=user.email)))
    member = db.session.get(SurveyMember, (survey.id, user.id))
    if member is None:
        db.session.add(SurveyMember(survey_id=survey.id, user_id=user.id, role=role))
    else:
        member.role = role
    record(survey, by, "shared", f"{user.email} as {role}")
    return Member(user.email, role)


def unshare(survey: Survey, email: str, by: int | None) -> None:
    """Take the survey away from the account of ``email``."""
    user = _account(email)
    member = db.session.get(SurveyMember, (survey.id, user.id))
    if member is None:
        raise TeamError(Problem("email", _("%(email)s has no role on this survey",
                                           email=user.email)))  # fmt: skip
    db.session.delete(member)
    record(survey, by, "unshared", user.email)


def record(survey: Survey, by: int | None, action: str, detail: str = "") -> None:
    """Add an event to the audit log, in the transaction of the change it records."""
    db.session.add(AuditEvent(**_event(survey.id, by, action, detail)))


def record_status(survey: Survey, by: int | None) -> None:
    """Record that the survey was opened or closed (as it now is)."""
    if survey.status in STATUS_EVENTS:
        record(survey, by, STATUS_EVENTS[survey.status])


def record_now(survey_id: int, by: int | None, action: str, detail: str = "") -> None:
    """Write an event at once, on a connection of its own (a download, which reads a snapshot
    and changes nothing)."""
    with db.engine.begin() as connection:
        connection.execute(db.insert(AuditEvent).values(**_event(survey_id, by, action, detail)))


def audit_log(survey: Survey, limit: int = MAX_EVENTS_SHOWN) -> list[Event]:
    """The survey's events, the latest first."""
    rows = db.session.execute(
        db.select(AuditEvent.at, User.email, AuditEvent.action, AuditEvent.detail)
        .outerjoin(User, User.id == AuditEvent.user_id)
        .where(AuditEvent.survey_id == survey.id)
        .order_by(AuditEvent.id.desc())
        .limit(limit)
    )
    return [Event(at, email, action, detail) for at, email, action, detail in rows]


def _event(survey_id: int, by: int | None, action: str, detail: str) -> dict:
    """An event's columns, as a row or an insert takes them."""
    assert action in ACTIONS, action
    return {"survey_id": survey_id, "user_id": by, "action": action, "detail": detail[:500],
            "at": this_minute()}  # fmt: skip


def _account(email: str) -> User:
    user = db.session.scalar(db.select(User).filter_by(email=email.strip().lower()))
    if user is None:
        raise TeamError(Problem("email", _("no account has the email %(email)s",
                                           email=email.strip())))  # fmt: skip
    return user
