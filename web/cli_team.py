"""``flask share`` and ``flask audit``: a survey's team and its audit log from the command line."""

from __future__ import annotations

import click
from flask.cli import with_appcontext

from web.cli_lookup import survey_named
from web.core.infrastructure.extensions import db
from web.core.models.team import ROLES
from web.core.surveys.team import TeamError, audit_log, members, unshare
from web.core.surveys.team import share as share_survey


@click.command("share")
@click.argument("slug")
@click.argument("email")
@click.option("--role", type=click.Choice(ROLES), default="analyst", show_default=True)
@click.option("--remove", is_flag=True, help="Stop sharing the survey with this account.")
@with_appcontext
def share(slug: str, email: str, role: str, remove: bool) -> None:
    """Share a survey with the account of EMAIL in a role (or change it), or stop sharing it."""
    survey = survey_named(slug)
    try:
        if remove:
            unshare(survey, email, None)
        else:
            share_survey(survey, email, role, None)
    except TeamError as error:
        raise click.ClickException(str(error)) from None
    db.session.commit()
    for member in members(survey):
        click.echo(f"{member.email}\t{member.role}")


@click.command("audit")
@click.argument("slug")
@with_appcontext
def audit(slug: str) -> None:
    """Print the survey's audit log, the latest first (UTC, to the minute)."""
    for event in audit_log(survey_named(slug)):
        detail = f"\t{event.detail}" if event.detail else ""
        click.echo(
            f"{event.at:%Y-%m-%d %H:%M}\t{event.by or '(command line)'}\t{event.action}{detail}"
        )
