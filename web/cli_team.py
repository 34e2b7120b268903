"""``flask share``, ``flask audit`` and ``flask roles``: a survey's team, its audit log and what
each role may, from the command line."""

from __future__ import annotations

import click
from flask import current_app, url_for
from flask.cli import with_appcontext

from web.cli_lookup import survey_named
from web.core.infrastructure.extensions import db
from web.core.models.team import ROLES
from web.core.surveys.invitations import NewInvitation, has_account, invite, withdraw
from web.core.surveys.permissions import roles_table
from web.core.surveys.team import TeamError, audit_log, members, unshare
from web.core.surveys.team import share as share_survey


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
