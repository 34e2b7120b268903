"""Accounts and the team: ``flask create-user``, ``create-token``, ``reset-password``,
``end-sessions``, and a survey's team (``share``, ``roles``, ``audit``)."""

from __future__ import annotations

import click
from flask import current_app, url_for
from flask.cli import with_appcontext

from web.cli.lookup import survey_named, user_named
from web.cli.refusals import refusals_as_errors
from web.core.infrastructure.database import add_unique
from web.core.infrastructure.extensions import db
from web.core.infrastructure.passwords import account_problem
from web.core.models import ApiToken, User
from web.core.models.team import ROLES
from web.core.surveys.demo import give_demo_to_first_account
from web.core.surveys.invitations import NewInvitation, has_account, invite, withdraw
from web.core.surveys.permissions import roles_table
from web.core.surveys.team import TeamError, audit_log, members, unshare
from web.core.surveys.team import share as share_survey


@click.command("create-user")
@click.argument("email")
@click.password_option("--password", help="Prompted for, twice, when not given.")
@with_appcontext
@refusals_as_errors
def create_user(email: str, password: str) -> None:
    """Create a researcher account."""
    email = email.strip().lower()
    problem = account_problem(email, password)
    if problem is not None:
        raise click.ClickException(problem)
    user = User(email=email)
    user.set_password(password)
    if not add_unique(user):
        raise click.ClickException(f"a user with email {email!r} already exists")
    give_demo_to_first_account(user.id)
    db.session.commit()
    click.echo(f"Created {email}.")


@click.command("create-token")
@click.argument("email")
@click.option("--label", default="", help="A note to recognise the token by.")
@click.option(
    "--write",
    is_flag=True,
    help="Read and write: may also import, open and close surveys (read-only without it).",
)
@with_appcontext
@refusals_as_errors
def create_token(email: str, label: str, write: bool) -> None:
    """Create an API token; prints it last. Only its hash is stored: copy it now."""
    token, _ = ApiToken.issue(user_named(email), label, write=write)
    db.session.commit()
    scope = "read and write" if write else "read-only"
    click.echo(f"New {scope} API token (shown once):")
    click.echo(token)


@click.command("reset-password")
@click.argument("email")
@click.password_option("--password", help="Prompted for, twice, when not given.")
@with_appcontext
@refusals_as_errors
def reset_password(email: str, password: str) -> None:
    """Set a researcher's password; every session of the account ends."""
    problem = account_problem(email.strip().lower(), password)
    if problem is not None:
        raise click.ClickException(problem)
    user = user_named(email)
    user.set_password(password)
    db.session.commit()
    click.echo(f"New password set for {user.email}; every session of the account has ended.")


@click.command("end-sessions")
@click.argument("email", required=False)
@with_appcontext
@refusals_as_errors
def end_sessions(email: str | None) -> None:
    """End every session of one researcher, or of every researcher when no EMAIL is given."""
    users = [user_named(email)] if email else list(db.session.scalars(db.select(User)))
    for user in users:
        user.end_sessions()
    db.session.commit()
    click.echo(f"Ended every session of {len(users)} account(s).")


@click.command("share")
@click.argument("slug")
@click.argument("email")
@click.option("--role", type=click.Choice(ROLES), default="analyst", show_default=True)
@click.option("--remove", is_flag=True, help="Stop sharing the survey with this account.")
@with_appcontext
def share(slug: str, email: str, role: str, remove: bool) -> None:
    """Share a survey with the account of EMAIL in a role (or change it), or stop sharing it; an
    EMAIL with no account is invited (one line: the link, shown once), --remove withdraws that."""
    survey = survey_named(slug)
    try:
        if remove and not has_account(email):
            withdraw(survey, email, None)
        elif remove:
            unshare(survey, email, None)
        elif not has_account(email):
            new = invite(survey, email, role, None)
            db.session.commit()
            click.echo(invitation_line(new))
            return
        else:
            share_survey(survey, email, role, None)
    except TeamError as error:
        raise click.ClickException(str(error)) from None
    db.session.commit()
    for member in members(survey):
        click.echo(f"{member.email}\t{member.role}")


def invitation_line(new: NewInvitation) -> str:
    """The invitation's link on one line, with whom it invites and until when."""
    base = current_app.config.get("PUBLIC_URL")
    # Without PUBLIC_URL there is no host to name: the path, for the server's address.
    with current_app.test_request_context(base_url=base or "http://localhost"):
        path = url_for("invitations.accept", token=new.token)
    return (
        f"Invitation for {new.email} as {new.role}, until {new.expires:%Y-%m-%d %H:%M} UTC "
        f"(shown once{'' if base else '; put the server address before it'}): {base or ''}{path}"
    )


@click.command("audit")
@click.argument("slug")
@with_appcontext
def audit(slug: str) -> None:
    """Print the survey's audit log, the latest first (UTC, to the minute)."""
    for event in audit_log(survey_named(slug)):
        # The dashboard's words: one verb for an action wherever it is read.
        click.echo(f"{event.at:%Y-%m-%d %H:%M}\t{event.by or '(command line)'}\t{event.said()}")


@click.command("roles")
@with_appcontext
def roles() -> None:
    """Print what each role on a survey may see and do, as Markdown (the table the app applies)."""
    click.echo(roles_table())
