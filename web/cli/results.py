"""Results and analysis from the published snapshot: ``flask results``, ``regress``, ``joint``,
``synthesize``, ``methods`` and a split ballot's ``experiment``."""

from __future__ import annotations

import json
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext
from flask_babel import force_locale

from web.cli.lookup import survey_named
from web.cli.refusals import refusals_as_errors
from web.core.infrastructure.i18n import LANGUAGES
from web.core.results.bayes import BayesError, bayes_settings
from web.core.results.by_group import GroupingError, by_group
from web.core.results.experiment import NotAnExperiment, experiment_document
from web.core.results.figures import published_results
from web.core.results.joint import joint_document
from web.core.results.list_experiments import list_results
from web.core.results.list_regression import regressed
from web.core.results.methods import survey_methods
from web.core.results.synthetic import SyntheticUnavailable, synthetic_csv, synthetic_data
from web.core.results.table import (
    grouped_table,
    joint_text,
    list_table,
    posterior_table,
    regression_text,
    results_table,
)


@click.command("results")
@click.argument("slug")
@click.option(
    "--by", default=None, metavar="DIRECT", help="Estimates per group of this direct question."
)
@click.option("--bayes", is_flag=True, help="Add each item's posterior (Bayesian estimates).")
@click.option("--prior", default=None, metavar="A,B", help="The Beta prior with --bayes (1,1).")
@click.option(
    "--threshold", default=None, metavar="T", help="With --bayes, also P(true share > T)."
)
@with_appcontext
@refusals_as_errors
def results(
    slug: str, by: str | None, bayes: bool, prior: str | None, threshold: str | None
) -> None:
    """Print a survey's estimates as a table (per group with --by; posteriors with --bayes)."""
    survey = survey_named(slug, one_snapshot=True)
    published = published_results(survey)
    if bayes:
        try:
            settings = bayes_settings(prior, threshold)
        except BayesError as error:
            raise click.BadParameter(str(error)) from None
        click.echo(results_table(published) + "\n\n" + posterior_table(published, settings))
        return
    if by is None:
        lists = list_results(survey, published.min_n)
        click.echo(results_table(published) + (f"\n\n{list_table(lists)}" if lists else ""))
        return
    try:
        click.echo(grouped_table(published, by_group(survey, by, published.min_n), by))
    except GroupingError as error:
        raise click.ClickException(str(error)) from None


@click.command("regress")
@click.argument("slug")
@click.argument("item")
@click.option(
    "--on",
    "on",
    required=True,
    metavar="QUESTION[,QUESTION]",
    help="Direct questions (dummy-coded) and numbers asked directly (a slope per unit).",
)
@click.option(
    "--reference",
    default="",
    metavar="DIRECT:OPTION[,...]",
    help="Reference level of a direct question (its first option with respondents otherwise).",
)
@with_appcontext
@refusals_as_errors
def regress(slug: str, item: str, on: str, reference: str) -> None:
    """Regress a randomized ITEM (question, or question.option) on direct questions and numbers
    asked directly: logistic for a share, linear for a number question's mean, Imai's ML model
    for a list experiment (a double list's two lists at once)."""
    survey = survey_named(slug, one_snapshot=True)
    levels = dict(part.partition(":")[::2] for part in reference.split(",") if part)
    try:
        fit = regressed(survey, item, on.split(","), current_app.config["RESULTS_MIN_N"], levels)
    except GroupingError as error:
        raise click.ClickException(str(error)) from None
    click.echo(regression_text(fit))


@click.command("joint")
@click.argument("slug")
@click.argument("items")
@with_appcontext
@refusals_as_errors
def joint(slug: str, items: str) -> None:
    """The joint distribution of ITEMS' true answers (comma-separated: yes/no questions,
    question.option, single-choice or direct questions), with 95% intervals."""
    survey = survey_named(slug, one_snapshot=True)
    try:
        document = joint_document(
            survey, [name for name in items.split(",") if name], current_app.config["RESULTS_MIN_N"]
        )
    except GroupingError as error:
        raise click.ClickException(str(error)) from None
    click.echo(joint_text(document))


@click.command("synthesize")
@click.argument("slug")
@click.option("--m", "m", type=click.IntRange(2, 100), default=5, show_default=True,
              help="How many synthetic datasets.")  # fmt: skip
@click.option("--seed", type=click.IntRange(0, 2**32 - 1), default=1, show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True)
@with_appcontext
@refusals_as_errors
def synthesize(slug: str, m: int, seed: int, output: Path) -> None:
    """Write m synthetic datasets of the published snapshot to one CSV (an .imp column 1…m)."""
    survey = survey_named(slug, one_snapshot=True)
    try:
        data = synthetic_data(survey, m, seed, current_app.config["RESULTS_MIN_N"])
    except (SyntheticUnavailable, GroupingError) as error:
        raise click.ClickException(str(error)) from None
    output.write_text(synthetic_csv(data), encoding="utf-8")
    click.echo(f"Wrote {m} synthetic datasets of {data.n} respondents to {output}.")


@click.command("methods")
@click.argument("slug")
@click.option("--latex", is_flag=True, help="LaTeX instead of Markdown.")
@click.option("--lang", type=click.Choice(list(LANGUAGES)), default="en", show_default=True)
@with_appcontext
def methods(slug: str, latex: bool, lang: str) -> None:
    """Print the survey's methods paragraph, with its references, to paste into a paper."""
    survey = survey_named(slug, one_snapshot=True)
    with force_locale(lang):
        written = survey_methods(survey, current_app.config["RESULTS_MIN_N"])
        click.echo(written.latex if latex else written.markdown, nl=False)


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
            epsilon = (
                "directly"
                if not entry["randomized"]
                else "no eps bound"
                if entry["epsilon"] is None
                else f"eps {entry['epsilon']:.4g}"
            )
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
