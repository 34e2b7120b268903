"""The routes a researcher scripts a study against with an API token: list, import, open, close
and download. Reading needs any token; importing, opening and closing a read-and-write one."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, request, stream_with_context, url_for

from web.api.bearer import bearer_user_id, writing_user_id
from web.core.infrastructure.extensions import db
from web.core.models import Survey, User, surveys_readable_by, unbounded_questions
from web.core.results.exports import codebook_text, responses_csv
from web.core.results.labelled_files import FORMATS, labelled_file
from web.core.surveys.editing import EditError, change_status
from web.core.surveys.importing import IMPORT_STATUSES, ImportRefused, import_survey_file
from web.core.surveys.team import record_now, record_status
from web.site.attachment import attachment
from web.site.lookup import survey_or_404
from web.site.roles import checked_role

bp = Blueprint("surveys_api", __name__, url_prefix="/api")


def summary(survey: Survey) -> dict:
    """What a list of surveys says of one: its address, title, status, published n and series."""
    return {
        "slug": survey.slug,
        "title": survey.title,
        "status": survey.status,
        "archived": survey.archived,
        "n": survey.published_count,
        "epsilon_total": survey.epsilon_total,
        # Questions whose design has no ε bound: left out of the total.
        "epsilon_unbounded": [question.key for question in unbounded_questions(survey)],
        "series": survey.series,
        "wave": survey.wave,
        "url": url_for("respond.survey_page", slug=survey.slug),
    }


@bp.get("/surveys")
def list_surveys():
    """The surveys the token's account can read, by address."""
    user_id = bearer_user_id()
    surveys = db.session.scalars(surveys_readable_by(user_id).order_by(Survey.slug)).all()
    return {"surveys": [summary(survey) for survey in surveys]}


@bp.get("/surveys/<slug>")
def one_survey(slug: str):
    """One survey as the list shows it."""
    return summary(readable_survey(slug, bearer_user_id(), needs="estimates"))


@bp.post("/surveys")
def import_survey():
    """Import a survey file (JSON body, or a multipart ``file``: JSON or XLSForm) as a new survey
    of the token's account; 400 with every mistake, 409 when its address is taken."""
    owner = db.get_or_404(User, writing_user_id())
    status = request.args.get("status", "draft")
    if status not in IMPORT_STATUSES:
        abort(400, f"status must be one of {', '.join(IMPORT_STATUSES)}, got {status!r}")
    filename, raw = uploaded_file()
    try:
        survey = import_survey_file(filename, raw, owner, status)
    except ImportRefused as error:
        status_code = 409 if error.taken else 400
        return {
            "error": "the survey file was not imported",
            "problems": error.problems,
        }, status_code
    location = url_for("surveys_api.one_survey", slug=survey.slug)
    return summary(survey) | {"join_code": survey.join_code}, 201, {"Location": location}


def uploaded_file() -> tuple[str, bytes]:
    """The survey file of the request: a JSON body, or the ``file`` part of a multipart form;
    415 for anything else, 400 for a form without the part."""
    if request.is_json:
        return "survey.json", request.get_data()
    if request.mimetype == "multipart/form-data":
        upload = request.files.get("file")
        if upload is None:
            abort(400, "the form has no part named 'file'")
        return upload.filename or "", upload.read()
    abort(
        415, "send a survey file as application/json, or as the part 'file' of multipart/form-data"
    )


@bp.post("/surveys/<slug>/open")
def open_survey(slug: str):
    """Open a draft or closed survey to respondents; 409 with the reason when it cannot open."""
    return changed_status(slug, "open")


@bp.post("/surveys/<slug>/close")
def close_survey(slug: str):
    """Close an open survey (everything received is published); 409 when it is not open."""
    return changed_status(slug, "closed")


def changed_status(slug: str, status: str) -> dict | tuple[dict, int]:
    """The survey moved to ``status`` as the dashboard moves it, and its summary."""
    user_id = writing_user_id()
    survey = readable_survey(slug, user_id, needs="edit")
    try:
        change_status(survey, status)
    except EditError as error:
        problems = [problem.message for problem in error.problems]
        return {"error": "; ".join(problems), "problems": problems}, 409
    record_status(survey, user_id)
    db.session.commit()
    return summary(survey)


@bp.get("/surveys/<slug>/responses.csv")
def responses_file(slug: str):
    """The published snapshot's reported bits, one row per response in random order: the
    dashboard's download, under the same batch rules."""
    user_id = bearer_user_id()
    survey = readable_survey(slug, user_id, one_snapshot=True)
    record_now(survey.id, user_id, "exported", "responses.csv (API)")
    body = stream_with_context(responses_csv(survey, current_app.config["RESULTS_MIN_N"]))
    return attachment(body, "text/csv", f"{slug}-responses.csv")


@bp.get("/surveys/<slug>/responses.sav", defaults={"kind": "sav"})
@bp.get("/surveys/<slug>/responses.dta", defaults={"kind": "dta"})
def labelled_responses(slug: str, kind: str):
    """The responses CSV as an SPSS or Stata file (labels, value labels, the designs in its
    notes), under the same batch rules."""
    user_id = bearer_user_id()
    survey = readable_survey(slug, user_id, one_snapshot=True)
    record_now(survey.id, user_id, "exported", f"responses.{kind} (API)")
    body = labelled_file(survey, current_app.config["RESULTS_MIN_N"], kind)
    return attachment(body, FORMATS[kind], f"{slug}-responses.{kind}")


@bp.get("/surveys/<slug>/codebook.json")
def codebook_file(slug: str):
    """The dashboard's codebook: each question's parameters and how to recompute its estimate."""
    user_id = bearer_user_id()
    survey = readable_survey(slug, user_id, one_snapshot=True)
    record_now(survey.id, user_id, "exported", "codebook.json (API)")
    return attachment(codebook_text(survey), "application/json", f"{slug}-codebook.json")


def readable_survey(
    slug: str, user_id: int, one_snapshot: bool = False, needs: str = "api"
) -> Survey:
    """The survey if the account's role on it may ``needs`` (a capability of
    web/core/surveys/permissions.py; the API reads as an analyst); 404 where it has no role, as
    if it did not exist, 403 where the role is too small."""
    survey = survey_or_404(slug, one_snapshot=one_snapshot)
    checked_role(survey.role_of(user_id), needs, slug, user_id, by="token")
    return survey
