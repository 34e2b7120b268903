"""Downloads of a survey: its file, its reported responses, its estimates and its codebook."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, request, stream_with_context
from flask_login import current_user

from web.core.results.bayes import BayesError, bayes_settings
from web.core.results.by_group import GroupingError, by_group
from web.core.results.exports import (
    codebook_text,
    estimates_csv,
    grouped_estimates_csv,
    responses_csv,
)
from web.core.results.figures import published_results
from web.core.results.labelled_files import FORMATS, labelled_file
from web.core.results.list_experiments import list_results
from web.core.results.synthetic import (
    MAX_M,
    SyntheticUnavailable,
    synthetic_csv,
    synthetic_data,
)
from web.core.surveys.team import record_now
from web.core.surveys.xlsform.write import survey_xlsform
from web.site.attachment import attachment
from web.workspace.access import require_login, researcher_survey

bp = Blueprint("exports", __name__, url_prefix="/surveys")
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
bp.before_request(require_login)


@bp.get("/<slug>/survey.json")
def survey_file(slug: str):
    """The survey in the survey-file format, to import elsewhere."""
    return attachment(
        researcher_survey(slug, needs="responses").to_spec().to_json(),
        "application/json",
        f"{slug}.json",
    )


@bp.get("/<slug>/survey.xlsx")
def survey_workbook(slug: str):
    """The survey as an XLSForm workbook (KoboToolbox, ODK), which imports back unchanged."""
    return attachment(
        survey_xlsform(researcher_survey(slug, needs="responses").to_spec()), XLSX, f"{slug}.xlsx"
    )


@bp.get("/<slug>/responses.csv")
def responses(slug: str):
    """Reported bits of the published snapshot, one row per response, in random order."""
    survey = researcher_survey(slug, one_snapshot=True, needs="responses")
    record_now(survey.id, current_user.id, "exported", "responses.csv")
    body = stream_with_context(responses_csv(survey, current_app.config["RESULTS_MIN_N"]))
    return attachment(body, "text/csv", f"{slug}-responses.csv")


@bp.get("/<slug>/responses.sav", defaults={"kind": "sav"})
@bp.get("/<slug>/responses.dta", defaults={"kind": "dta"})
def labelled_responses(slug: str, kind: str):
    """The reported responses as an SPSS or Stata file, under the CSV's batch rules."""
    survey = researcher_survey(slug, one_snapshot=True, needs="responses")
    record_now(survey.id, current_user.id, "exported", f"responses.{kind}")
    body = labelled_file(survey, current_app.config["RESULTS_MIN_N"], kind)
    return attachment(body, FORMATS[kind], f"{slug}-responses.{kind}")


@bp.get("/<slug>/estimates.csv")
def estimates(slug: str):
    """Estimates with their intervals, one row per yes/no question and per option (and per group
    of a direct question with ``?by=``)."""
    survey = researcher_survey(slug, one_snapshot=True, needs="estimates")
    results = published_results(survey)
    by = request.args.get("by")
    if by is None:
        settings = None
        if request.args.get("method") == "bayes":
            try:
                settings = bayes_settings(request.args.get("prior"), request.args.get("threshold"))
            except BayesError as error:
                abort(400, str(error))
        lists = list_results(survey, results.min_n)
        return attachment(
            estimates_csv(results, settings, lists), "text/csv", f"{slug}-estimates.csv"
        )
    try:
        groups = by_group(survey, by, results.min_n)
    except GroupingError as error:
        abort(400, str(error))
    return attachment(
        grouped_estimates_csv(results, groups, by),
        "text/csv",
        f"{slug}-estimates-by-{by.replace(':', '-')}.csv",
    )


@bp.get("/<slug>/synthetic.csv")
def synthetic(slug: str):
    """m synthetic datasets of the published snapshot (``m``, ``seed``), one CSV."""
    survey = researcher_survey(slug, one_snapshot=True, needs="responses")
    m = request.args.get("m", 5, type=int)
    seed = request.args.get("seed", 1, type=int)
    if not (2 <= m <= MAX_M and 0 <= seed < 2**32):
        abort(400, f"m must be from 2 to {MAX_M} and seed from 0 to 2^32 - 1")
    try:
        data = synthetic_data(survey, m, seed, current_app.config["RESULTS_MIN_N"])
    except SyntheticUnavailable as error:
        abort(409, str(error))
    except GroupingError as error:
        abort(400, str(error))
    record_now(survey.id, current_user.id, "exported", f"synthetic.csv (m={m}, seed={seed})")
    return attachment(synthetic_csv(data), "text/csv", f"{slug}-synthetic.csv")


@bp.get("/<slug>/codebook.json")
def codebook_file(slug: str):
    """Each question's ε, procedure and p, and how to recompute every estimate."""
    survey = researcher_survey(slug, one_snapshot=True, needs="responses")
    record_now(survey.id, current_user.id, "exported", "codebook.json")
    return attachment(codebook_text(survey), "application/json", f"{slug}-codebook.json")
