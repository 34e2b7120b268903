"""A colleague with no account joins through the owner's invitation: a single-use link that
expires, shown once (the People card, `flask share`), through which they set a password and land
on the shared survey in the role given; the owner can withdraw it; each step is in the audit log.
There is no open sign-up."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from tests.conftest import PASSWORD, csrf_token
from tests.web.core.surveys import test_team
from web.core.infrastructure.extensions import db
from web.core.models import AuditEvent, Invitation, SurveyMember, User

shared = test_team.shared  # the fixture: a survey owned by Olga, and her logged-in page
NEWCOMER = "nina@example.org"
NEW_PASSWORD = "lichen harbour 77"
LINK = re.compile(r"(https?://[^\s<\"]*)?(/invitations/inv_[A-Za-z0-9_-]+)")


def invited_on_the_card(owner, slug: str, role: str = "analyst") -> str:
    """Invite NEWCOMER on the People card; the link's path, read off the card."""
    reply = owner.post(f"/surveys/{slug}/people", data={"email": NEWCOMER, "role": role})
    assert reply.status_code == 302
    page = owner.get(f"/surveys/{slug}").get_data(as_text=True)
    assert 'id="new-invitation"' in page and f'data-invitation="{NEWCOMER}"' in page
    return LINK.search(page).group(2)


def join(client, path: str, password: str = NEW_PASSWORD):
    form = client.get(path)
    assert form.status_code == 200, form.get_data(as_text=True)
    return client.post(
        path,
        data={"csrf_token": csrf_token(form.get_data(as_text=True)), "password": password,
              "confirm": password},
    )  # fmt: skip


def actions(app, slug) -> list[str]:
    """The audit log's actions in the order they were logged (a table without ORDER BY has none:
    PostgreSQL once gave these two back the other way round)."""
    with app.app_context():
        events = db.session.scalars(db.select(AuditEvent).order_by(AuditEvent.id))
        return [event.action for event in events]


def test_an_invitation_makes_the_account_and_lands_on_the_survey_in_its_role(app, shared):
    owner, slug = shared
    path = invited_on_the_card(owner, slug)
    # Shown once: the next look at the card lists the invitation, not its link.
    again = owner.get(f"/surveys/{slug}").get_data(as_text=True)
    assert not LINK.search(again) and f'data-invitation="{NEWCOMER}"' in again
    client = app.test_client()
    page = client.get(path).get_data(as_text=True)
    assert NEWCOMER in page and "as analyst" in page
    joined = join(client, path)
    assert joined.status_code == 302 and joined.location.endswith(f"/surveys/{slug}")
    dashboard = client.get(f"/surveys/{slug}").get_data(as_text=True)
    assert "You are analyst on this survey" in dashboard
    assert client.get(f"/surveys/{slug}/responses.csv").status_code == 200
    assert client.get(f"/surveys/{slug}/edit").status_code == 403
    with app.app_context():
        user = db.session.scalar(db.select(User).filter_by(email=NEWCOMER))
        assert user.check_password(NEW_PASSWORD)
        assert (
            db.session.scalar(db.select(SurveyMember.role).filter_by(user_id=user.id)) == "analyst"
        )
        assert db.session.scalar(db.select(db.func.count()).select_from(Invitation)) == 0
    # Single use: the link works no more, for anyone.
    assert app.test_client().get(path).status_code == 410
    assert [action for action in actions(app, slug) if action in ("invited", "joined")] == [
        "invited",
        "joined",
    ]
    card = owner.get(f"/surveys/{slug}").get_data(as_text=True)
    assert f'data-member="{NEWCOMER}"' in card and f'data-invitation="{NEWCOMER}"' not in card


def test_a_withdrawn_or_expired_invitation_no_longer_works(app, shared):
    owner, slug = shared
    path = invited_on_the_card(owner, slug)
    withdrawn = owner.post(f"/surveys/{slug}/people/withdraw", data={"email": NEWCOMER})
    assert withdrawn.status_code == 302
    gone = app.test_client().get(path)
    assert gone.status_code == 410 and "no longer works" in gone.get_data(as_text=True)
    assert "invitation_withdrawn" in actions(app, slug)
    path = invited_on_the_card(owner, slug)
    with app.app_context():
        invitation = db.session.scalar(db.select(Invitation))
        invitation.expires_at -= timedelta(days=8)
        db.session.commit()
    assert app.test_client().get(path).status_code == 410
    with app.app_context():
        assert db.session.scalar(db.select(User).filter_by(email=NEWCOMER)) is None


def test_an_invitation_expires_after_seven_days_by_default(app, shared):
    owner, slug = shared
    invited_on_the_card(owner, slug)
    with app.app_context():
        invitation = db.session.scalar(db.select(Invitation))
        days = (invitation.expires_at - db.session.scalar(db.select(AuditEvent.at).where(
            AuditEvent.action == "invited"))).days  # fmt: skip
    assert days == 7


def test_flask_share_prints_the_link_on_one_line_and_remove_withdraws_it(app, runner, shared):
    _owner, slug = shared
    printed = runner.invoke(args=["share", slug, NEWCOMER, "--role", "viewer"])
    assert printed.exit_code == 0, printed.output
    (line,) = printed.output.strip().splitlines()
    path = LINK.search(line).group(2)
    assert NEWCOMER in line and "viewer" in line
    client = app.test_client()
    assert join(client, path).status_code == 302
    assert "You are viewer on this survey" in client.get(f"/surveys/{slug}").get_data(as_text=True)
    other = "otto@example.org"
    runner.invoke(args=["share", slug, other, "--role", "editor"])
    removed = runner.invoke(args=["share", slug, other, "--remove"])
    assert removed.exit_code == 0, removed.output
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Invitation)) == 0


def test_a_weak_password_is_refused_and_the_invitation_waits(app, shared):
    owner, slug = shared
    path = invited_on_the_card(owner, slug)
    client = app.test_client()
    refused = join(client, path, password="short")
    assert refused.status_code == 200 and "at least 8 characters" in refused.get_data(as_text=True)
    assert join(client, path).status_code == 302


def test_an_invited_email_that_has_an_account_by_then_joins_at_once(app, runner, shared):
    owner, slug = shared
    path = invited_on_the_card(owner, slug, role="editor")
    assert runner.invoke(args=["create-user", NEWCOMER, "--password", PASSWORD]).exit_code == 0
    reply = app.test_client().get(path)
    assert reply.status_code == 302 and "/login" in reply.location
    with app.app_context():
        assert db.session.scalar(db.select(SurveyMember.role)) == "editor"


@pytest.mark.parametrize("path", ["/invitations/inv_madeup", "/signup", "/register"])
def test_there_is_no_way_in_without_an_invitation(client, path):
    assert client.get(path).status_code in (404, 410)
