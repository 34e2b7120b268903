"""``flask fieldwork``: a survey's quotas and screen-outs, counted as the dashboard and the API
publish them (in whole batches, withheld below the minimum n)."""

from __future__ import annotations

import json

import click
from flask import current_app
from flask.cli import with_appcontext

from web.cli_lookup import survey_named
from web.core.results.fieldwork import fieldwork_counts


@click.command("fieldwork")
@click.argument("slug")
@click.option("--json", "as_json", is_flag=True, help="The API's JSON instead of lines.")
@with_appcontext
def fieldwork(slug: str, as_json: bool) -> None:
    """Print each quota's completes against its limit and its turn-aways, and each page's
    screen-outs."""
    counts = fieldwork_counts(survey_named(slug, one_snapshot=True),
                              current_app.config["RESULTS_MIN_N"])  # fmt: skip
    if as_json:
        click.echo(json.dumps(counts.to_dict(), ensure_ascii=False, indent=2))
        return
    if not counts:
        click.echo(f"{slug} has no quotas and screens nobody out.")
        return
    for row in counts.quotas:
        state = "full" if row.full else _shown(row.count, counts.min_n)
        click.echo(
            f"quota {row.quota.key} ({row.quota.rule.words()}): {state} of {row.quota.limit}; "
            f"turned away once full: {_shown(row.turned_away, counts.min_n)}"
        )
    for screen in counts.screen_outs:
        click.echo(f"screened out at {screen.page} ({screen.words}): "
                   f"{_shown(screen.count, counts.min_n)}")  # fmt: skip
    click.echo(f"(counts move in batches of {counts.batch} and show from {counts.min_n})")


def _shown(count: int | None, min_n: int) -> str:
    return f"< {min_n}" if count is None else f"≥ {count}"
