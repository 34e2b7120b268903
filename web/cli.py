"""Commands: ``flask --app app import-survey FILE`` and friends."""

from __future__ import annotations

import functools
import math
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy.exc import IntegrityError, OperationalError

from web.cli_devices import field_device
from web.cli_experiment import experiment
from web.cli_fieldwork import fieldwork
from web.cli_lookup import survey_named, user_named
from web.cli_methods import methods
from web.cli_power import plan_change
from web.cli_series import next_wave_command, trend
from web.cli_team import audit, roles, share
from web.core.infrastructure.database import add_unique
from web.core.infrastructure.extensions import db
from web.core.infrastructure.passwords import account_problem
from web.core.infrastructure.sqlite_guard import AnotherWriter
from web.core.models import ApiToken, User
from web.core.results.analysis import regression
from web.core.results.bayes import BayesError, bayes_settings
from web.core.results.by_group import GroupingError, by_group
from web.core.results.cells import direct_questions
from web.core.results.figures import published_results
from web.core.results.joint import joint_document
from web.core.results.synthetic import SyntheticUnavailable, synthetic_csv, synthetic_data
from web.core.results.table import (
    grouped_table,
    joint_text,
    posterior_table,
    regression_text,
    results_table,
)
from web.core.surveys.demo import give_demo_to_first_account
from web.core.surveys.importing import IMPORT_STATUSES, ImportRefused, import_survey_file
from web.core.surveys.xlsform_write import survey_xlsform
from web.simulation import simulate_responses


def init_app(app: Flask) -> None:
    for command in (
        import_survey,
        export_survey,
        create_user,
        create_token,
        reset_password,
        end_sessions,
        results,
        methods,
        fieldwork,
        share,
        audit,
        roles,
        regress,
        joint,
        synthesize,
        simulate,
        field_device,
        plan_change,
        experiment,
        trend,
        next_wave_command,
    ):
        app.cli.add_command(command)


def refusals_as_errors(command):
    """Turn the refusals a user can cause into one line on stderr and exit status 1, not a
    traceback: another process writing the SQLite file, a database that cannot be reached or is
    busy, a unique value taken by a concurrent writer, a file that cannot be read or written."""

    @functools.wraps(command)
    def run(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except AnotherWriter as error:
            raise click.ClickException(str(error)) from None
        except IntegrityError:
            db.session.rollback()
            raise click.ClickException(
                "not saved: another process stored the same value just now"
            ) from None
        except OperationalError as error:
            raise click.ClickException(f"the database refused: {_first_line(error.orig)}") from None
        except OSError as error:
            raise click.ClickException(f"{error.filename or 'file'}: {error.strerror}") from None

    return run


def _first_line(error: BaseException | None) -> str:
    return (
        str(error).strip().splitlines()[0]
        if error is not None and str(error).strip()
        else "no reason given"
    )


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
    click.echo(
        f"Imported {len(survey.questions)} questions, total epsilon {survey.epsilon_total:g}."
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
        click.echo(results_table(published))
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
    asked directly: logistic for a share, linear for a number question's mean."""
    survey = survey_named(slug, one_snapshot=True)
    levels = dict(part.partition(":")[::2] for part in reference.split(",") if part)
    try:
        fit = regression(survey, item, on.split(","), current_app.config["RESULTS_MIN_N"], levels)
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
    "true proportion × (1 − cheating share)).",
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
