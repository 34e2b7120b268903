"""A survey's team: the accounts it is shared with and their roles, and the audit log of what the
researchers did to it (never anything a respondent did).

Roles, each allowed everything the ones before it are:

- ``viewer``: the dashboard's estimates, the projector; no download of responses;
- ``analyst``: results, downloads and the API's reads;
- ``editor``: questions, texts, pages, quotas, schedule, opening and closing, field devices;
- ``owner``: sharing, the audit log, deleting.

A survey's ``owner_id`` is its owner; an unowned survey (imported from the command line, the
demo) is every account's, as it always was. A survey an account has no role on does not exist for
it (404); an action its role does not allow is refused (403).
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from web.core.infrastructure.extensions import Model, db

ROLES = ("viewer", "analyst", "editor", "owner")
VIEWER, ANALYST, EDITOR, OWNER = ROLES


def allows(role: str | None, needed: str) -> bool:
    """Whether ``role`` may do what ``needed`` may (None: no role at all)."""
    return role is not None and ROLES.index(role) >= ROLES.index(needed)


class SurveyMember(Model):
    """An account a survey is shared with, and its role there."""

    __tablename__ = "survey_member"
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id"), primary_key=True, index=True)
    role: Mapped[str] = mapped_column(String(10))


def survey_role(survey_id: int, owner_id: int | None, user_id: int) -> str | None:
    """The role of account ``user_id`` on a survey: owner of its own and of an unowned one,
    else the role it was shared with, else None."""
    if owner_id is None or owner_id == user_id:
        return OWNER
    return db.session.scalar(
        db.select(SurveyMember.role).where(
            SurveyMember.survey_id == survey_id, SurveyMember.user_id == user_id
        )
    )


class AuditEvent(Model):
    """One thing a researcher did to a survey (shared it, edited, imported, opened, closed,
    exported, made a device link), by whom, to the minute. Respondents' actions are never
    logged here: nothing in this table can say when a response came in."""

    __tablename__ = "audit_event"
    id: Mapped[int] = mapped_column(primary_key=True)
    survey_id: Mapped[int] = mapped_column(ForeignKey("survey.id"), index=True)
    # The account that acted (None: the command line, or an account since deleted).
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"))
    action: Mapped[str] = mapped_column(String(32))
    detail: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[datetime] = mapped_column()


def this_minute() -> datetime:
    """Now, to the minute (UTC, naive as stored): an audit log needs no finer time."""
    return datetime.now(UTC).replace(second=0, microsecond=0, tzinfo=None)
