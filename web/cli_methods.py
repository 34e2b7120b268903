"""``flask methods``: a survey's methods paragraph (as the API and the dashboard give it), from the
command line."""

from __future__ import annotations

import click
from flask import current_app
from flask.cli import with_appcontext
from flask_babel import force_locale

from web.cli_lookup import survey_named
from web.core.infrastructure.i18n import LANGUAGES
from web.core.results.methods import survey_methods


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
