"""``flask experiment``: a split-ballot experiment's figures from the published snapshot, as the
API gives them (JSON) or as a table."""

from __future__ import annotations

import json

import click
from flask import current_app
from flask.cli import with_appcontext

from web.cli_lookup import survey_named
from web.core.results.experiment import NotAnExperiment, experiment_document


@click.command("experiment")
@click.argument("slug")
@click.option("--json", "as_json", is_flag=True, help="The API's JSON instead of a table.")
@with_appcontext
def experiment(slug: str, as_json: bool) -> None:
    """Print an experiment's conditions, allocation check, estimates per condition and contrasts
    with the condition asked directly."""
    survey = survey_named(slug, one_snapshot=True)
    try:
        document = experiment_document(survey, current_app.config["RESULTS_MIN_N"])
    except NotAnExperiment as error:
        raise click.ClickException(str(error)) from None
    click.echo(json.dumps(document, ensure_ascii=False) if as_json else experiment_table(document))


def experiment_table(document: dict) -> str:
    """The document as plain text: one line per condition, per item's condition and contrast."""
    allocation = document["allocation"]
    lines = [
        f"{document['slug']}: an experiment of {len(document['conditions'])} conditions "
        f"(figures shown from n = {document['min_n']} per condition)",
        *(f"  {c['id']:<16} share {c['share']:<6g} n {c['n']}" for c in document["conditions"]),
        f"Allocation: chi-square {allocation['chi_square']:.4g}, df {allocation['df']}, "
        f"p = {allocation['p_value']:.4g}",
    ]
    for check in document.get("checks", []):
        rate = "withheld" if check["pass_rate"] is None else (
            f"{check['pass_rate']:.4f} [{check['ci_low']:.4f}, {check['ci_high']:.4f}]"
        )  # fmt: skip
        lines.append(f"Check {check['id']} in {check['condition']}: passed {rate}, n {check['n']}")
    for item in document["items"]:
        known = item["known_prevalence"]
        lines.append("")
        lines.append(item["id"] + ("" if known is None else f" (known prevalence {known:g})"))
        for entry in item["by_condition"]:
            epsilon = "directly" if entry["epsilon"] is None else f"eps {entry['epsilon']:.4g}"
            figures = "withheld" if entry["estimate"] is None else (
                f"{entry['estimate']:.4f} [{entry['ci_low']:.4f}, {entry['ci_high']:.4f}]"
            )  # fmt: skip
            lines.append(
                f"  {entry['condition']:<16} {entry['procedure']:<20} {epsilon:<12} "
                f"n {entry['n']:<7} {figures}"
            )
        for contrast in item["contrasts"]:
            if contrast["difference"] is None:
                lines.append(f"  {contrast['condition']} - {contrast['versus']}: withheld")
                continue
            lines.append(
                f"  {contrast['condition']} - {contrast['versus']}: {contrast['difference']:+.4f} "
                f"[{contrast['ci_low']:+.4f}, {contrast['ci_high']:+.4f}], "
                f"p(more) = {contrast['p_more']:.4g}"
            )
    return "\n".join(lines)
