"""The OpenAPI operations of surveys: list, import, open, close, downloads and submissions."""

from __future__ import annotations

from web.api.openapi.parts import (
    JSON,
    OBJECT,
    answers,
    json_body,
    operation,
    parameter,
    read_operation,
    ref,
    slug_parameter,
    write_operation,
)
from web.core.results.labelled_files import FORMATS
from web.core.surveys.importing import IMPORT_STATUSES

# The statistics packages the responses are written for (web/core/results/labelled_files.py).
PACKAGES = {"sav": "SPSS", "dta": "Stata"}


def survey_paths() -> dict:
    csv = {"description": "A CSV file.", "content": {"text/csv": {"schema": {"type": "string"}}}}
    return {
        "/api/surveys": {
            "get": read_operation(
                "List surveys",
                "The surveys the token's account can read (its own, and unowned ones), by address.",
                [],
                json_body(ref("SurveyList"), "The surveys."),
            ),
            "post": operation(
                "Import a survey file",
                "A survey file as JSON, or a multipart upload whose part `file` holds JSON or an "
                "XLSForm workbook, imported as a new survey of the token's account. The command "
                "line's and the builder's checks apply: a file with mistakes is refused whole, "
                "each mistake a line of `problems`.",
                [
                    parameter(
                        "status",
                        {"type": "string", "enum": list(IMPORT_STATUSES), "default": "draft"},
                        "The new survey's status.",
                    )
                ],
                answers(
                    201,
                    json_body(ref("ImportedSurvey"), "Imported; Location names it."),
                    400,
                    401,
                    403,
                    409,
                    413,
                    415,
                ),  # fmt: skip
                bearer=True,
            )
            | {
                "requestBody": {
                    "required": True,
                    "content": {
                        JSON: {"schema": ref("SurveyFile")},
                        "multipart/form-data": {
                            "schema": {
                                "type": "object",
                                "required": ["file"],
                                "properties": {
                                    "file": {
                                        "type": "string",
                                        "contentMediaType": "application/octet-stream",
                                    }
                                },
                            }
                        },
                    },
                },
            },
        },
        "/api/surveys/{slug}": {
            "get": read_operation(
                "One survey",
                "A survey as the list shows it.",
                [slug_parameter()],
                json_body(ref("SurveySummary"), "The survey."),
                404,
            )
        },
        "/api/surveys/{slug}/open": {
            "post": write_operation(
                "Open a survey",
                "Opens a draft or closed survey to respondents (a join code is made); 409 with "
                "the reason when it cannot open (open already, no question, missing texts).",
                json_body(ref("SurveySummary"), "The survey, now open."),
                409,
            )
        },
        "/api/surveys/{slug}/close": {
            "post": write_operation(
                "Close a survey",
                "Closes an open survey; everything received is published at once.",
                json_body(ref("SurveySummary"), "The survey, now closed."),
                409,
            )
        },
        "/api/surveys/{slug}/responses.csv": {
            "get": read_operation(
                "Reported responses",
                "The published snapshot's reported bits, one row per response in random order; "
                "only the header below the minimum n. The dashboard's download.",
                [slug_parameter()],
                csv,
                404,
            )
        },
        **{
            f"/api/surveys/{{slug}}/responses.{kind}": labelled_file_path(kind, mimetype)
            for kind, mimetype in FORMATS.items()
        },
        "/api/surveys/{slug}/codebook.json": {
            "get": read_operation(
                "Codebook",
                "Each question's parameters and how to recompute its estimate (with R code).",
                [slug_parameter()],
                json_body(OBJECT, "The codebook."),
                404,
            )
        },
        "/api/surveys/{slug}/responses": {
            "post": operation(
                "Submit one respondent's reports",
                "The reported bits only, never a true answer: every option of an answered "
                "question exactly once. A question the respondent skipped is left out or sent as "
                "null and stored as skipped (counted in no n); a question whose file says "
                '`"required": true` cannot be skipped (400). Stored once per Idempotency-Key '
                "however often it is sent. A response into a full quota is 409 with the quota "
                "and the panel's address for it (`redirect`), and is not stored.",
                [
                    slug_parameter(),
                    parameter(
                        "Idempotency-Key",
                        {"type": "string", "pattern": "^[A-Za-z0-9_-]{22,128}$"},
                        "A fresh random id per respondent: a resend stores nothing more.",
                        where="header",
                    ),
                    parameter(
                        "X-Survey-Revision",
                        {"type": "string"},
                        "The revision the page was loaded at: 409 if the survey changed since.",
                        where="header",
                    ),
                    parameter(
                        "X-Field-Device",
                        {"type": "string"},
                        "A shared field device's secret.",
                        where="header",
                    ),
                ],
                answers(
                    201, json_body(ref("Stored"), "Stored."), 400, 403, 404, 409, 413, 415, 429
                ),
                bearer=False,
            )
            | {
                "requestBody": {
                    "required": True,
                    "content": {JSON: {"schema": ref("Submission"), "example": DEMO_SUBMISSION}},
                },
            }
        },
    }


DEMO_SUBMISSION = {
    "answers": {
        "cheated": 1,
        "skipped": 0,
        "substances": {"alcohol": 0, "tobacco": 1, "sleeping_pills": 0},
        "shared_homework": 1,
        "copied_work": "once",
        "all_nighters": 1,
        "year": "first",
    }
}


def labelled_file_path(kind: str, mimetype: str) -> dict:
    """The responses as one statistics package's file: the CSV's rows with their labels."""
    package = PACKAGES[kind]
    notes = "; each design's probabilities in the file's notes" if kind == "sav" else ""
    return {
        "get": read_operation(
            f"Reported responses ({package})",
            f"The responses CSV's rows as a {package} file, under the same batch rules: the "
            "wording as variable labels (a randomized column labelled as a report with its "
            "design and epsilon), options coded 1, 2, ... with their texts as value labels"
            f"{notes}.",
            [slug_parameter()],
            {
                "description": f"A {package} file.",
                "content": {mimetype: {"schema": {"type": "string", "format": "binary"}}},
            },
            404,
        )
    }
