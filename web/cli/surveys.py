"""``flask import-survey``, ``export-survey`` and ``simulate-responses``: a survey in and out of
the app as a file, and simulated respondents for demos and load tests."""

from __future__ import annotations

import math
from pathlib import Path

import click
from flask.cli import with_appcontext

from web.cli.lookup import survey_named, user_named
from web.cli.refusals import refusals_as_errors
from web.core.infrastructure.extensions import db
from web.core.models import User, unbounded_questions
from web.core.results.cells import direct_questions
from web.core.surveys.importing import IMPORT_STATUSES, ImportRefused, import_survey_file
from web.core.surveys.xlsform.write import survey_xlsform
from web.simulation import simulate_responses


def _values(survey, true_mean: float | None, true_values: str | None) -> list[float] | None:
    """The values number questions are simulated from, each inside every number question's
    range; a click error naming the first that is not."""
    if true_mean is not None and true_values is not None:
        raise click.UsageError("give --true-mean or --true-values, not both")
    option = "--true-mean" if true_mean is not None else "--true-values"
    try:
        values = [true_mean] if true_mean is not None else _floats(true_values)
    except ValueError:
        raise click.BadParameter(f"{true_values!r} is not numbers separated by commas",
                                 param_hint=option) from None  # fmt: skip
    if values is None:
        return None
    for question in survey.questions:
        scale = question.design.scale
        outside = [v for v in values if scale and not scale.low <= v <= scale.high]
        if outside:
            raise click.BadParameter(
                f"{outside[0]:g} is outside the range of {question.key!r} "
                f"({scale.low:g} to {scale.high:g})",
                param_hint=option,
            )
    return values


def _floats(text: str | None) -> list[float] | None:
    if text is None:
        return None
    values = [float(part) for part in text.split(",")]
    if not values or not all(math.isfinite(value) for value in values):
        raise ValueError(text)
    return values


def _groups(survey, text: str) -> tuple[str, dict[str, float]]:
    """``year=first:0.1,fourth:0.4`` read against the survey: a direct question and the share of
    each listed option's group; a click error naming what is wrong."""
    key, _, spec = text.partition("=")
    question = next((q for q in direct_questions(survey.questions) if q.key == key), None)
    if question is None:
        raise click.BadParameter(
            f"{key!r} is not a direct question of {survey.slug!r}",
            param_hint="--true-proportion-by",
        )
    shares = {}
    for part in spec.split(","):
        option, _, share = part.partition(":")
        try:
            value = float(share)
        except ValueError:
            value = -1.0
        if option not in {o.key for o in question.options} or not 0 <= value <= 1:
            raise click.BadParameter(
                f"{part!r}: use OPTION:SHARE with an option of {key!r} and a share in [0, 1]",
                param_hint="--true-proportion-by",
            )
        shares[option] = value
    return key, shares


@click.command("import-survey")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--owner", metavar="EMAIL", help="The researcher who owns the survey.")
@click.option("--status", type=click.Choice(IMPORT_STATUSES), default="open", show_default=True)
@with_appcontext
@refusals_as_errors
def import_survey(file: Path, owner: str | None, status: str) -> None:
    """Import a survey file (JSON, or an XLSForm workbook .xlsx); prints the survey's slug last.
    A file with mistakes is refused whole, one line per mistake."""
    account = user_named(owner) if owner else None
    if account is None and db.session.scalar(db.select(User.id).limit(1)) is not None:
        click.echo(
            "No --owner: every account on this site may read, change, share and delete this "
            "survey (its dashboard says so). Give --owner EMAIL to make it one account's.",
            err=True,
        )
    try:
        survey = import_survey_file(file.name, file.read_bytes(), account, status)
    except ImportRefused as error:
        raise click.ClickException(
            "\n".join([f"{file} was not imported:", *(f"  {line}" for line in error.problems)])
        ) from None
    unbounded = [question.key for question in unbounded_questions(survey)]
    left_out = f" (leaving out {', '.join(unbounded)}: no epsilon bound)" if unbounded else ""
    click.echo(
        f"Imported {len(survey.questions)} questions, total epsilon {survey.epsilon_total:g}"
        f"{left_out}."
    )
    if survey.join_code:
        click.echo(f"Join code: {survey.join_code}")
    click.echo(survey.slug)


@click.command("export-survey")
@click.argument("slug")
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write to this file instead of standard output.",
)
@click.option(
    "--format",
    "file_format",
    type=click.Choice(["json", "xlsx"]),
    default=None,
    help="json (the default) or xlsx (XLSForm); taken from the output's name when not given.",
)
@with_appcontext
@refusals_as_errors
def export_survey(slug: str, output: Path | None, file_format: str | None) -> None:
    """Write a survey back in the survey-file format, or as an XLSForm workbook."""
    spec = survey_named(slug).to_spec()
    if file_format is None:
        file_format = "xlsx" if output is not None and output.suffix.lower() == ".xlsx" else "json"
    if file_format == "xlsx":
        workbook = survey_xlsform(spec)
        if output is None:
            click.echo(workbook, nl=False)  # bytes go to the binary stream as they are
        else:
            output.write_bytes(workbook)
        return
    text = spec.to_json()
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")


@click.command("simulate-responses")
@click.argument("slug")
@click.option(
    "--n", "count", type=click.IntRange(min=1), required=True, help="How many responses to insert."
)
@click.option(
    "--true-proportion",
    type=click.FloatRange(0, 1),
    default=0.3,
    show_default=True,
    help="Share of simulated respondents whose true answer is yes, for every spin; for a "
    "single-choice question, the share whose true option is the first (the rest share the "
    "others evenly).",
)
@click.option(
    "--true-proportion-by",
    "by",
    metavar="DIRECT=OPTION:SHARE,...",
    default=None,
    help="Spread the answers to a direct question evenly over the listed options, and make every "
    "randomized item true with each group's share, e.g. year=first:0.1,fourth:0.4.",
)
@click.option(
    "--cheating-share",
    "cheating",
    type=click.FloatRange(0, 1),
    default=0.0,
    show_default=True,
    help="Share of respondents to a cheating-detection question who say no whatever they are "
    "told (drawn independently of the true answer, so the honest-yes share is "
    "true proportion × (1 − cheating share)); to a lie-detector question, the share of carriers "
    "who say no (1 − t); to an extended crosswise question, the share who answer 'different' "
    "whatever they are.",
)
@click.option(
    "--true-mean",
    type=float,
    default=None,
    help="Every respondent's value for each number question (the reports depend on the values "
    "through their mean only). Without it or --true-values, a number question's mean sits at the "
    "true proportion of its range.",
)
@click.option(
    "--true-values",
    metavar="X,Y,...",
    default=None,
    help="Values each respondent's number is drawn from (evenly), e.g. 0,0,1,2,5,12.",
)
@click.option("--seed", type=int, default=None, help="Seed, for repeatable data.")
@with_appcontext
@refusals_as_errors
def simulate(
    slug: str,
    count: int,
    true_proportion: float,
    by: str | None,
    cheating: float,
    true_mean: float | None,
    true_values: str | None,
    seed: int | None,
) -> None:
    """Insert simulated responses, reported through each question's procedure, for demos and
    load tests."""
    survey = survey_named(slug)
    groups = _groups(survey, by) if by else None
    values = _values(survey, true_mean, true_values)
    simulate_responses(
        survey, count, true_proportion, seed, by=groups, cheating=cheating, values=values
    )
    click.echo(f"Inserted {count} simulated responses into {slug!r}.")
