"""``GET /api/openapi.json``: the API described in OpenAPI 3.1, for clients, generators and fuzzers.

Written here beside the routes, from the same limits the views check (the ranges of n, ε, runs,
seeds) and the designs' registry (procedures and their shares), so it cannot drift from them in
numbers; ``tests/web/api/test_openapi.py`` fails when a route under ``/api/`` is missing here or
this names one that does not exist, and Schemathesis checks every answer against it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from flask import Blueprint

from web.api.change_plan import MAX_WAVE_N, PLANS_PER_MINUTE
from web.api.views import MAX_PLANNED_N
from web.classroom.lab import DESIGNS_MAX_EPSILON, MAX_BITS, MAX_CLASS, MAX_N, MAX_TRIALS
from web.classroom.report_lab import MAX_REPORT_RUNS, REPORT_RUNS
from web.core.results.synthetic import MAX_M
from web.core.surveys.designs import default_design, known_designs, registered
from web.core.surveys.importing import IMPORT_STATUSES
from web.core.surveys.limits import MAX_EPSILON, MAX_OPTIONS, MIN_EPSILON
from web.site.query import MAX_SEED

bp = Blueprint("openapi", __name__, url_prefix="/api")

DEMO = "campus-life"  # the demo survey every fresh install has: examples reach real data
JSON = "application/json"
Schema = dict[str, Any]


@bp.get("/openapi.json")
def openapi_json():
    """This API's OpenAPI 3.1 document."""
    return openapi_document()


# --- pieces ----------------------------------------------------------------------------------


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def json_body(schema: Schema, description: str) -> dict:
    return {"description": description, "content": {JSON: {"schema": schema}}}


ERRORS = {
    400: "The request is not valid: the error says which argument and why.",
    401: "No valid API token: send Authorization: Bearer TOKEN.",
    403: "The token may not do this (a read-only token and a write), or the device link is "
    "refused.",
    404: "No such survey or series among those the token's account can read.",
    409: "The survey's state does not allow it; the error says why.",
    413: "The body is larger than the route takes.",
    415: "The body is not of a type the route takes.",
    429: "Too many requests from this address: wait and try again (Retry-After).",
    503: "The compute pool is full: try again after Retry-After seconds.",
}


def answers(ok: int, ok_body: dict, *errors: int) -> dict:
    """The responses of an operation: its success and each error status with the error body."""
    responses = {str(ok): ok_body}
    for status in errors:
        responses[str(status)] = json_body(ref("Error"), ERRORS[status])
    return responses


def parameter(name: str, schema: Schema, description: str, *, where: str = "query",
              required: bool = False, example: Any = None) -> dict:  # fmt: skip
    found = {"name": name, "in": where, "required": required or where == "path",
             "description": description, "schema": schema}  # fmt: skip
    if example is not None:
        found["example"] = example
    return found


def number(low: float, high: float, default: float | None = None) -> Schema:
    schema: Schema = {"type": "number", "minimum": low, "maximum": high}
    if default is not None:
        schema["default"] = default
    return schema


def whole(low: int, high: int, default: int | None = None) -> Schema:
    schema: Schema = {"type": "integer", "minimum": low, "maximum": high}
    if default is not None:
        schema["default"] = default
    return schema


def slug_parameter(description: str = "The survey's address.") -> dict:
    return parameter("slug", ref("Slug"), description, where="path", example=DEMO)


def procedures(spinners_only: bool = False) -> Schema:
    names = [d.name for d in registered() if d.every_type] if spinners_only else known_designs()
    return {"type": "string", "enum": list(names), "default": default_design().name}


def design_shares() -> list[dict]:
    """The query arguments that state a design by its shares, from the designs' registry."""
    names = sorted({name for design in registered() for name in design.plan_arguments()})
    return [
        parameter(name, {"type": "string"}, "A share of a design that states its own (not ε).")
        for name in names
    ]


def seed() -> dict:
    return parameter("seed", whole(0, MAX_SEED), "Random seed: the same seed, the same numbers.")


OBJECT: Schema = {"type": "object"}
NUMBER_OR_NULL: Schema = {"type": ["number", "null"]}


# --- operations ------------------------------------------------------------------------------


def _read(summary: str, description: str, parameters: list, ok: dict, *errors: int) -> dict:
    """A GET that needs a token."""
    return {
        "summary": summary,
        "description": description,
        "security": [{"bearer": []}],
        "parameters": parameters,
        "responses": answers(200, ok, 401, *errors),
    }


def _public(summary: str, description: str, parameters: list, ok: dict, *errors: int) -> dict:
    """A GET anyone may send."""
    return {
        "summary": summary,
        "description": description,
        "security": [],
        "parameters": parameters,
        "responses": answers(200, ok, *errors),
    }


def _write(summary: str, description: str, ok: dict, *errors: int, status: int = 200) -> dict:
    """A POST that needs a read-and-write token."""
    return {
        "summary": summary,
        "description": description,
        "security": [{"bearer": []}],
        "parameters": [slug_parameter()],
        "responses": answers(status, ok, 401, 403, 404, *errors),
    }


def survey_paths() -> dict:
    csv = {"description": "A CSV file.", "content": {"text/csv": {"schema": {"type": "string"}}}}
    return {
        "/api/surveys": {
            "get": _read(
                "List surveys",
                "The surveys the token's account can read (its own, and unowned ones), by address.",
                [],
                json_body(ref("SurveyList"), "The surveys."),
            ),
            "post": {
                "summary": "Import a survey file",
                "description": "A survey file as JSON, or a multipart upload whose part `file` "
                "holds JSON or an XLSForm workbook, imported as a new survey of the token's "
                "account. The command line's and the builder's checks apply: a file with "
                "mistakes is refused whole, each mistake a line of `problems`.",
                "security": [{"bearer": []}],
                "parameters": [
                    parameter(
                        "status",
                        {"type": "string", "enum": list(IMPORT_STATUSES), "default": "draft"},
                        "The new survey's status.",
                    )
                ],
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
                                    }  # fmt: skip
                                },
                            }
                        },
                    },
                },
                "responses": answers(
                    201,
                    json_body(ref("ImportedSurvey"), "Imported; Location names it."),
                    400,
                    401,
                    403,
                    409,
                    413,
                    415,
                ),  # fmt: skip
            },
        },
        "/api/surveys/{slug}": {
            "get": _read(
                "One survey",
                "A survey as the list shows it.",
                [slug_parameter()],
                json_body(ref("SurveySummary"), "The survey."),
                404,
            )
        },
        "/api/surveys/{slug}/open": {
            "post": _write(
                "Open a survey",
                "Opens a draft or closed survey to respondents (a join code is made); 409 with "
                "the reason when it cannot open (open already, no question, missing texts).",
                json_body(ref("SurveySummary"), "The survey, now open."),
                409,
            )
        },
        "/api/surveys/{slug}/close": {
            "post": _write(
                "Close a survey",
                "Closes an open survey; everything received is published at once.",
                json_body(ref("SurveySummary"), "The survey, now closed."),
                409,
            )
        },
        "/api/surveys/{slug}/responses.csv": {
            "get": _read(
                "Reported responses",
                "The published snapshot's reported bits, one row per response in random order; "
                "only the header below the minimum n. The dashboard's download.",
                [slug_parameter()],
                csv,
                404,
            )
        },
        "/api/surveys/{slug}/codebook.json": {
            "get": _read(
                "Codebook",
                "Each question's parameters and how to recompute its estimate (with R code).",
                [slug_parameter()],
                json_body(OBJECT, "The codebook."),
                404,
            )
        },
        "/api/surveys/{slug}/responses": {
            "post": {
                "summary": "Submit one respondent's reports",
                "description": "The reported bits only, never a true answer: every question and "
                "option exactly once. Stored once per Idempotency-Key however often it is sent.",
                "security": [],
                "parameters": [
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
                "requestBody": {
                    "required": True,
                    "content": {JSON: {"schema": ref("Submission"), "example": DEMO_SUBMISSION}},
                },
                "responses": answers(
                    201,
                    json_body(ref("Stored"), "Stored."),
                    400,
                    403,
                    404,
                    409,
                    413,
                    415,
                    429,
                ),  # fmt: skip
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


def results_paths() -> dict:
    slug = slug_parameter()
    text = {"type": "string"}
    return {
        "/api/surveys/{slug}/results": {
            "get": _read(
                "Published results",
                "Every question's estimate with its 95% interval from the published snapshot "
                "(withheld below the minimum n); per group of a direct question with `by`; "
                "posteriors beside with `method=bayes`.",
                [
                    slug,
                    parameter("by", text, "A direct question: estimates per group."),
                    parameter(
                        "method",
                        {"type": "string", "enum": ["frequentist", "bayes"]},
                        "Add each item's posterior with bayes.",
                    ),
                    parameter("prior", text, "Beta prior a,b (with bayes).", example="1,1"),
                    parameter("threshold", text, "Also P(true share > t) (with bayes)."),
                ],
                json_body(ref("Results"), "The results document."),
                400,
                404,
            )  # fmt: skip
        },
        "/api/surveys/{slug}/regression": {
            "get": _read(
                "Regression on direct questions",
                "A randomized item regressed on direct questions, from published counts.",
                [
                    slug,
                    parameter(
                        "item",
                        text,
                        "The item: a question, or question.option.",
                        required=True,
                        example="cheated",
                    ),  # fmt: skip
                    parameter(
                        "on",
                        text,
                        "Direct questions, comma-separated.",
                        required=True,
                        example="year",
                    ),  # fmt: skip
                    parameter("reference", text, "Reference levels: question:option,…"),
                ],
                json_body(OBJECT, "Coefficients, n and predictions per group."),
                400,
                404,
            )  # fmt: skip
        },
        "/api/surveys/{slug}/difference": {
            "get": _read(
                "Difference between two groups",
                "An item's prevalence in two groups of a direct question, and their difference.",
                [
                    slug,
                    parameter("item", text, "The item.", required=True, example="cheated"),
                    parameter("by", text, "The direct question.", required=True, example="year"),
                    parameter(
                        "groups", text, "Two of its options.", required=True, example="first,fourth"
                    ),  # fmt: skip
                ],
                json_body(OBJECT, "The difference with its interval and p-value."),
                400,
                404,
            )  # fmt: skip
        },
        "/api/surveys/{slug}/joint": {
            "get": _read(
                "Joint distribution of true answers",
                "Every combination's probability with its interval, for up to 16 items.",
                [
                    slug,
                    parameter(
                        "items",
                        text,
                        "Items, comma-separated.",
                        required=True,
                        example="cheated,skipped",
                    ),
                ],  # fmt: skip
                json_body(OBJECT, "The cells, and for two yes/no items more."),
                400,
                404,
            )  # fmt: skip
        },
        "/api/surveys/{slug}/synthetic.csv": {
            "get": _read(
                "Synthetic microdata",
                "m synthetic datasets of the published snapshot in one CSV (`.imp` 1…m).",
                [slug, parameter("m", whole(2, MAX_M, 5), "How many datasets."), seed()],
                {
                    "description": "The CSV.",
                    "content": {"text/csv": {"schema": {"type": "string"}}},
                },  # fmt: skip
                400,
                404,
                409,
            )  # fmt: skip
        },
        "/api/surveys/{slug}/synthetic": {
            "get": _read(
                "Utility of the synthetic data",
                "How close the synthetic data come to the estimates, item by item and pair by "
                "pair.",
                [slug, parameter("m", whole(2, MAX_M, 5), "How many datasets."), seed()],
                json_body(OBJECT, "The utility table."),
                400,
                404,
                409,
            )  # fmt: skip
        },
        "/api/series/{series}/trend": {
            "get": _read(
                "A series' trend",
                "Every randomized item wave by wave, and the change between consecutive waves.",
                [
                    parameter(
                        "series",
                        ref("Slug"),
                        "The series' name.",
                        where="path",
                        example="campus-climate",
                    ),  # fmt: skip
                    parameter("by", text, "A direct question: the trend per group."),
                ],
                json_body(ref("Trend"), "The trend."),
                400,
                404,
            )  # fmt: skip
        },
    }


def plan_paths() -> dict:
    epsilon = parameter("epsilon", number(MIN_EPSILON, MAX_EPSILON), "ε per spin.", example=1)
    procedure = parameter("procedure", procedures(), "The design.")
    spinner = parameter("procedure", procedures(spinners_only=True), "The spinner.")
    rate = f"Rate limited ({PLANS_PER_MINUTE} per address)."
    lab = "Rate limited (240/minute per address)."
    return {
        "/api/plan": {
            "get": _public(
                "Plan a question",
                "The spinner's light share, the margin of error at n and sample sizes. With `k`, "
                "a single-choice question; with `min` and `max`, a number question; a design by "
                f"its shares in place of ε. {rate}",
                [
                    epsilon,
                    procedure,
                    parameter("n", whole(1, MAX_PLANNED_N, 100), "Planned respondents."),
                    parameter("k", whole(2, MAX_OPTIONS), "Options of a single-choice question."),
                    parameter("min", {"type": "number"}, "A number question's lowest value."),
                    parameter("max", {"type": "number"}, "A number question's highest value."),
                    *design_shares(),
                ],
                json_body(OBJECT, "The plan."),
                400,
                429,
            )  # fmt: skip
        },
        "/api/plan/change": {
            "get": _public(
                "Power to see a change",
                "Power, n per wave and the detectable change between two waves (or two groups). "
                f"Runs in the compute pool. {rate}",
                [
                    epsilon,
                    procedure,
                    parameter(
                        "n",
                        whole(2, MAX_WAVE_N),
                        "Respondents per wave.",
                        required=True,
                        example=500,
                    ),  # fmt: skip
                    parameter("n_2", whole(2, MAX_WAVE_N), "The second group's size."),
                    parameter(
                        "baseline", number(0, 1), "The share now.", required=True, example=0.2
                    ),  # fmt: skip
                    parameter(
                        "change",
                        number(-1, 1),
                        "The change to detect.",
                        required=True,
                        example=-0.05,
                    ),  # fmt: skip
                    parameter("power", number(0.01, 0.99, 0.8), "The target power."),
                    parameter("alpha", number(0.001, 0.5, 0.05), "The test's level."),
                    *design_shares(),
                ],
                json_body(ref("ChangePlan"), "The plan."),
                400,
                429,
                503,
            )  # fmt: skip
        },
        "/api/lab/report": {
            "get": _public(
                "The reference report's experiment, repeated",
                "Sanitized synthetic data at ε = 0.1, 1 and 10, repeated `runs` times. Runs in the "
                f"compute pool. {lab}",
                [
                    parameter("n", whole(10, 10_000, 1476), "Values per run."),
                    parameter("low", number(-1e9, 1e9), "The values' lower bound."),
                    parameter("high", number(-1e9, 1e9), "The values' upper bound."),
                    parameter("mean", {"type": "number"}, "The values' mean (in [low, high])."),
                    parameter(
                        "variance",
                        {"type": "number", "exclusiveMinimum": 0},
                        "The values' variance.",
                    ),  # fmt: skip
                    parameter("runs", whole(2, MAX_REPORT_RUNS, REPORT_RUNS), "Repetitions."),
                    parameter(
                        "accounting",
                        {"type": "string", "enum": ["report", "total"]},
                        "How ε is spent.",
                    ),  # fmt: skip
                    parameter(
                        "posterior",
                        {"type": "string", "enum": ["naive", "noise_aware"]},
                        "The sampler.",
                    ),  # fmt: skip
                ],
                json_body(OBJECT, "Per ε the runs' figures."),
                400,
                429,
                503,
            )  # fmt: skip
        },
        "/api/lab/distribution": {
            "get": _public(
                "The estimate over many simulated classes",
                f"A histogram of the estimates, their spread and the interval's coverage. Runs in "
                f"the compute pool. {lab}",
                [
                    parameter("true_proportion", number(0, 1, 0.3), "The true share."),
                    parameter("n", whole(1, MAX_N, 30), "Class size."),
                    parameter("epsilon", number(1e-3, 10, 1), "ε."),
                    parameter("trials", whole(1, MAX_TRIALS, 2000), "Simulated classes."),
                    spinner,
                    seed(),
                ],
                json_body(OBJECT, "The distribution."),
                400,
                429,
                503,
            )  # fmt: skip
        },
        "/api/lab/running": {
            "get": _public(
                "Running estimate",
                f"The estimate and its interval after each respondent of one class. {lab}",
                [
                    parameter(
                        "bits",
                        {"type": "string", "pattern": f"^[01]{{1,{MAX_BITS}}}$"},
                        "Reported bits in order.",
                        required=True,
                        example="0110",
                    ),  # fmt: skip
                    parameter("epsilon", number(1e-3, 10, 1), "ε."),
                    spinner,
                ],
                json_body(OBJECT, "Estimate, ci_low and ci_high after each respondent."),
                400,
                429,
            )  # fmt: skip
        },
        "/api/lab/number": {
            "get": _public(
                "A number question, one spin each",
                f"One class's mean by one spin each, beside Laplace and Gaussian noise. {lab}",
                [
                    parameter("n", whole(1, MAX_CLASS, 200), "Class size."),
                    parameter("epsilon", number(1e-3, 10, 1), "ε."),
                    spinner,
                    seed(),
                ],
                json_body(OBJECT, "The class and the three means."),
                400,
                429,
            )  # fmt: skip
        },
        "/api/lab/averaging": {
            "get": _public(
                "The averaging attack",
                f"How often the majority of one respondent's reports is the truth, wave after "
                f"wave, with fresh draws and with a permanent answer. {lab}",
                [
                    parameter("epsilon", number(0.05, DESIGNS_MAX_EPSILON, 1), "ε per wave."),
                    parameter("epsilon_permanent", number(0.1, 8, 2), "ε∞ over all waves."),
                    parameter("waves", whole(1, 200, 50), "Waves."),
                ],
                json_body(OBJECT, "The two curves."),
                400,
                429,
            )  # fmt: skip
        },
        "/api/lab/choice": {
            "get": _public(
                "Single-choice estimates",
                f"Each option's estimate from a class's single-choice reports. {lab}",
                [
                    parameter(
                        "counts",
                        {"type": "string"},
                        f"2 to {MAX_OPTIONS} counts, comma-separated, adding up to 1 to "
                        f"{MAX_CLASS}.",
                        required=True,
                        example="12,5,3",
                    ),  # fmt: skip
                    parameter("epsilon", number(1e-3, 10, 1), "ε."),
                    spinner,
                ],
                json_body(OBJECT, "Estimates and intervals per option."),
                400,
                429,
            )  # fmt: skip
        },
        "/api/lab/noise": {
            "get": _public(
                "Laplace and Gaussian noise",
                f"Laplace scale and Gaussian σ for a sensitivity, ε and δ. {lab}",
                [
                    parameter("sensitivity", number(1e-6, 1e6, 1), "Δ."),
                    parameter("epsilon", number(1e-3, 50, 1), "ε."),
                    parameter("delta", number(1e-15, 0.5, 1e-5), "δ."),
                ],
                json_body(OBJECT, "The scales."),
                400,
                429,
            )  # fmt: skip
        },
        "/api/openapi.json": {
            "get": _public(
                "This document",
                "The API described in OpenAPI 3.1.",
                [],
                json_body(OBJECT, "The document."),
            )
        },
    }


def schemas() -> dict:
    string_or_texts: Schema = {"type": ["string", "object"]}
    summary = {
        "type": "object",
        "required": [
            "slug",
            "title",
            "status",
            "archived",
            "n",
            "epsilon_total",
            "series",
            "wave",
            "url",
        ],  # fmt: skip
        "properties": {
            "slug": ref("Slug"),
            "title": {"type": "string"},
            "status": {"type": "string", "enum": ["draft", "open", "closed"]},
            "archived": {"type": "boolean"},
            "n": {"type": "integer", "minimum": 0, "description": "Published responses."},
            "epsilon_total": {"type": "number", "minimum": 0},
            "series": {"type": ["string", "null"]},
            "wave": {"type": ["integer", "null"]},
            "url": {"type": "string", "description": "The respondents' page."},
        },
    }
    return {
        "Error": {
            "type": "object",
            "required": ["error"],
            "properties": {
                "error": {"type": "string"},
                "problems": {"type": "array", "items": {"type": "string"}},
            },
        },
        "Slug": {"type": "string", "pattern": "^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$"},
        "SurveySummary": summary,
        "ImportedSurvey": {
            "allOf": [
                summary,
                {
                    "type": "object",
                    "required": ["join_code"],
                    "properties": {"join_code": {"type": ["string", "null"]}},
                },  # fmt: skip
            ]
        },
        "SurveyList": {
            "type": "object",
            "required": ["surveys"],
            "properties": {"surveys": {"type": "array", "items": ref("SurveySummary")}},
        },
        "SurveyFile": {
            "type": "object",
            "description": "A survey file (see the README's Surveys section).",
            "required": ["slug", "title", "questions"],
            "properties": {
                "slug": ref("Slug"),
                "title": string_or_texts,
                "questions": {"type": "array", "items": OBJECT},
            },
            "example": {
                "slug": "api-example",
                "title": "Example",
                "questions": [
                    {
                        "id": "cheated",
                        "type": "yesno",
                        "text": "Cheated?",
                        "epsilon": 1,
                        "procedure": "spinner_coin",
                    }
                ],  # fmt: skip
            },
        },
        "Submission": {
            "type": "object",
            "required": ["answers"],
            "additionalProperties": False,
            "properties": {"answers": {"type": "object"}},
        },
        "Stored": {
            "type": "object",
            "required": ["ok"],
            "properties": {
                "ok": {"const": True},
                "completion_code": {"type": "string"},
                "completion_url": {"type": "string"},
            },
        },
        "Results": {
            "type": "object",
            "required": [
                "slug",
                "languages",
                "title",
                "status",
                "n",
                "received",
                "results_batch",
                "min_n",
                "withheld",
                "epsilon_total",
                "questions",
            ],  # fmt: skip
            "properties": {
                "slug": ref("Slug"),
                "languages": {"type": "array", "items": {"type": "string"}},
                "title": string_or_texts,
                "status": {"type": "string"},
                "n": {"type": "integer", "minimum": 0},
                "received": {"type": "integer", "minimum": 0},
                "results_batch": {"type": "integer"},
                "min_n": {"type": "integer"},
                "withheld": {"type": "boolean"},
                "epsilon_total": {"type": "number"},
                "questions": {"type": "array", "items": OBJECT},
            },
        },
        "Trend": {
            "type": "object",
            "required": ["series", "min_n", "waves", "items"],
            "properties": {
                "series": {"type": "string"},
                "min_n": {"type": "integer"},
                "waves": {"type": "array", "items": OBJECT},
                "items": {"type": "array", "items": OBJECT},
            },
        },
        "ChangePlan": {
            "type": "object",
            "required": [
                "procedure",
                "epsilon",
                "n",
                "n_2",
                "baseline",
                "change",
                "power",
                "n_per_wave",
                "detectable_change",
                "curve",
            ],  # fmt: skip
            "properties": {
                "epsilon": {"type": "number"},
                "n": {"type": "integer"},
                "n_2": {"type": "integer"},
                "power": {"type": "number", "minimum": 0, "maximum": 1},
                "n_per_wave": {"type": ["integer", "null"]},
                "detectable_change": {
                    "type": "object",
                    "properties": {"up": NUMBER_OR_NULL, "down": NUMBER_OR_NULL},
                },
                "curve": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["change", "power"],
                        "properties": {"change": {"type": "number"}, "power": {"type": "number"}},
                    },
                },  # fmt: skip
            },
        },
    }


@cache
def openapi_document() -> dict:
    """The whole document (built once per process: it depends on nothing a request says)."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Randomized-response surveys",
            "version": "1",
            "description": "Submit reported bits; read published estimates, downloads and "
            "trends; script a study (import, open, close, export) with a read-and-write token; "
            'plan a question; the classroom lab. Errors are JSON `{"error": …}`. Published '
            "numbers move only in batches and never below the minimum n.",
        },
        "servers": [{"url": "/"}],
        "paths": survey_paths() | results_paths() | plan_paths(),
        "components": {
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "An API token from Account → API tokens, or flask "
                    "create-token [--write].",
                }
            },
            "schemas": schemas(),
        },
    }
