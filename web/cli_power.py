"""``flask plan-change``: the power to see a change between waves (or two groups), the n per
wave it needs and the smallest change it detects, as the builder's planner and
``GET /api/plan/change`` give them."""

from __future__ import annotations

import click
from flask.cli import with_appcontext

import rr
from web.core.surveys.designs import default_design, find_design, known_designs


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
        line = design.planned_design(numbers, epsilon or 0.0)
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
