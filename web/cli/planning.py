"""Series and planning: ``flask trend`` and ``next-wave`` for a survey's waves, and ``plan-change``
(the power to see a change between waves or groups)."""

from __future__ import annotations

import json

import click
from flask import current_app
from flask.cli import with_appcontext

import rr
from web.cli.lookup import survey_named, user_named
from web.core.infrastructure.database import add_unique
from web.core.results.by_group import GroupingError
from web.core.results.exports import trend_csv
from web.core.results.trend import series_trend
from web.core.surveys.designs import default_design, design_of_plan, find_design, known_designs
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


@click.command("plan-change")
@click.option(
    "--procedure",
    default=lambda: default_design().name,
    show_default="the survey file's default",
    help="The design.",
)
@click.option("--epsilon", type=float, help="A spinner's ε.")
@click.option(
    "--share",
    "shares",
    multiple=True,
    metavar="NAME=VALUE",
    help="A design's share, e.g. --share p_truth=0.75 (repeat for each).",
)
@click.option("--n", "n", type=click.IntRange(2), required=True, help="Respondents per wave.")
@click.option(
    "--n-2", "n_2", type=click.IntRange(2), default=None,
    help="The second group's size, for two groups of one wave (default: --n).",
)  # fmt: skip
@click.option("--baseline", type=click.FloatRange(0, 1), required=True, help="The share now.")
@click.option("--change", type=float, required=True, help="The change to detect (−0.05: a fall).")
@click.option(
    "--power", "target", type=click.FloatRange(0.01, 0.99), default=0.8, show_default=True
)
@with_appcontext
def plan_change(procedure, epsilon, shares, n, n_2, baseline, change, target) -> None:
    """Power, n per wave and detectable change for a change from BASELINE by CHANGE."""
    design = find_design(procedure)
    if design is None:
        raise click.BadParameter(f"one of {', '.join(known_designs())}", param_hint="--procedure")
    numbers = design.fields.from_query(dict(_pair(share) for share in shares))
    if not design.derived and epsilon is None:
        raise click.BadParameter("a spinner needs its ε", param_hint="--epsilon")
    try:
        line = design_of_plan(design, numbers, epsilon or 0.0)
        result = rr.change_power(line, n, baseline, change, n_2=n_2)
        needed = rr.change_sample_size(line, baseline, change, target) if change else None
        up = rr.detectable_change(line, n, baseline, target, direction=1, n_2=n_2)
        down = rr.detectable_change(line, n, baseline, target, direction=-1, n_2=n_2)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"design: {procedure}, epsilon {line.epsilon:.4g}")
    sizes = f"n = {n} per wave" if n_2 in (None, n) else f"groups of {n} and {n_2}"
    click.echo(f"power at {sizes}: {result.power:.4f} ({result.method})")
    if needed is not None:
        click.echo(f"n per wave for power {target:g}: {needed}")
    click.echo(f"detectable with power {target:g}: rise {_points(up)}, fall {_points(down)}")


def _pair(text: str) -> tuple[str, str]:
    name, equals, value = text.partition("=")
    if not equals:
        raise click.BadParameter(f"{text!r} is not NAME=VALUE", param_hint="--share")
    return name.strip(), value.strip()


def _points(change: float | None) -> str:
    return "none within [0, 1]" if change is None else f"{change:.4f}"
