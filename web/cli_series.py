"""``flask trend`` and ``flask next-wave``: a series' trend (as the API and the trend CSV give it)
and the next wave of a survey, from the command line."""

from __future__ import annotations

import json

import click
from flask import current_app
from flask.cli import with_appcontext

from web.cli_lookup import survey_named, user_named
from web.core.infrastructure.database import add_unique
from web.core.results.by_group import GroupingError
from web.core.results.exports import trend_csv
from web.core.results.trend import series_trend
from web.core.surveys.limits import SLUG
from web.core.surveys.series import next_wave


@click.command("trend")
@click.argument("series")
@click.option(
    "--owner", default=None, metavar="EMAIL", help="The series of this account's surveys."
)
@click.option("--by", default=None, metavar="DIRECT", help="Per group of this direct question.")
@click.option("--csv", "as_csv", is_flag=True, help="The trend CSV instead of JSON.")
@with_appcontext
def trend(series: str, owner: str | None, by: str | None, as_csv: bool) -> None:
    """Print a series' estimate per wave and the changes between waves (JSON, or CSV)."""
    owner_id = user_named(owner).id if owner else None
    try:
        found = series_trend(series, owner_id, current_app.config["RESULTS_MIN_N"], by)
    except GroupingError as error:
        raise click.BadParameter(str(error), param_hint="--by") from None
    if found is None:
        raise click.ClickException(f"no series {series!r} among the surveys of that owner")
    click.echo(trend_csv(found) if as_csv else json.dumps(found.to_dict(), ensure_ascii=False))


@click.command("next-wave")
@click.argument("slug")
@click.option("--slug", "new_slug", required=True, help="The new wave's address.")
@with_appcontext
def next_wave_command(slug: str, new_slug: str) -> None:
    """Make the next wave of a survey's series as a draft (a survey on its own becomes wave 1 of
    a series named after it); prints the new wave's slug."""
    survey = survey_named(slug)
    if not SLUG.fullmatch(new_slug):
        raise click.BadParameter("1-64 lowercase letters, digits and hyphens", param_hint="--slug")
    try:
        wave = next_wave(survey, new_slug)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    if not add_unique(wave):
        raise click.ClickException(f"slug {new_slug!r} is already taken")
    click.echo(f"Wave {wave.wave} of series {wave.series!r}, a draft.")
    click.echo(wave.slug)
