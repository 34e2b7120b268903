"""The OpenAPI document's named schemas: errors, surveys, results, trends and plans."""

from __future__ import annotations

import json

from web.api.openapi.parts import (
    NUMBER_OR_NULL,
    OBJECT,
    Schema,
    ref,
)
from web.core.surveys.demo import DEMO_FILE


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
            "epsilon_unbounded",
            "series",
            "wave",
            "url",
        ],
        "properties": {
            "slug": ref("Slug"),
            "title": {"type": "string"},
            "status": {"type": "string", "enum": ["draft", "open", "closed"]},
            "archived": {"type": "boolean"},
            "n": {"type": "integer", "minimum": 0, "description": "Published responses."},
            "epsilon_total": {"type": "number", "minimum": 0},
            "epsilon_unbounded": {
                "type": "array",
                "items": {"type": "string"},
                "description": "Questions whose design has no ε bound (the stochastic lie "
                "detector, a list experiment): left out of epsilon_total.",
            },
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
                # A response into a full quota (409): which, and the panel's address for it.
                "quota": {"type": "string"},
                "redirect": {"type": ["string", "null"]},
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
                },
            ]
        },
        "SurveyList": {
            "type": "object",
            "required": ["surveys"],
            "properties": {"surveys": {"type": "array", "items": ref("SurveySummary")}},
        },
        "SurveyFile": {
            "type": "object",
            "description": "A survey file (see the guide's pages under docs/ask/, served at /guide/).",
            "required": ["slug", "title", "questions"],
            "properties": {
                "slug": ref("Slug"),
                "title": string_or_texts,
                "questions": {
                    "type": "array",
                    "items": OBJECT,
                    "description": "Each {id, type, text, …}: yesno, multi, choice, number "
                    "(randomized; with procedure direct, asked plainly), direct (options, asked "
                    "plainly), text (an open answer asked plainly, with max_length, default "
                    "500) or grid (rows, each {id, text}, answered on the shared options, asked "
                    "plainly).",
                },
                "pages": {
                    "type": "array",
                    "items": OBJECT,
                    "description": "Pages in order, each {id, title, questions, randomize, "
                    "show_if}; without it the survey is one page.",
                },
            },
            # The demo survey's own file under another address: an example that imports.
            "example": json.loads(DEMO_FILE.read_text(encoding="utf-8")) | {"slug": "demo-copy"},
        },
        "Submission": {
            "type": "object",
            "required": ["answers"],
            "additionalProperties": False,
            "properties": {
                "answers": {
                    "type": "object",
                    "description": "Each answered question's reports by question id; a skipped "
                    "question is left out or null. A question asked directly sends its answer "
                    "as given: an option id, a number asked directly (in its range, on its "
                    "steps), an open question's words (text, not blank, at most its "
                    "max_length characters), or a grid's {row id: option id} (a row left out "
                    "or null is unanswered; a required grid needs every row).",
                },
                "condition": {"type": "string", "description": "An experiment's drawn condition."},
                "order": {
                    "type": "object",
                    "description": "The orders the page drew and showed: for each randomized "
                    "page shown its question ids, for each question with shuffled options shown "
                    "its option ids, as shown (a permutation; fixed options in their place). "
                    "Required where the survey draws orders; an answer to a question its "
                    "show_if hid is refused.",
                    "additionalProperties": {"type": "array", "items": {"type": "string"}},
                },
            },
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
                "due",
                "results_batch",
                "min_n",
                "withheld",
                "epsilon_total",
                "epsilon_unbounded",
                "questions",
                "lists",
            ],
            "properties": {
                "slug": ref("Slug"),
                "languages": {"type": "array", "items": {"type": "string"}},
                "title": string_or_texts,
                "status": {"type": "string"},
                "n": {"type": "integer", "minimum": 0},
                "received": {"type": "integer", "minimum": 0},
                "due": {
                    "type": "boolean",
                    "description": "Open past its closing time or at its target: the next "
                    "response, visit of its page or close publishes everything received. "
                    "Reading results never closes a survey.",
                },
                "results_batch": {"type": "integer"},
                "min_n": {"type": "integer"},
                "withheld": {"type": "boolean"},
                "epsilon_total": {"type": "number"},
                "epsilon_unbounded": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Questions whose design has no ε bound (the stochastic lie "
                    "detector, a list experiment): left out of epsilon_total.",
                },
                "questions": {
                    "type": "array",
                    "items": OBJECT,
                    "description": "Each estimated question's figures; open questions and "
                    "numbers asked directly are not here (the dashboard and the responses CSV "
                    "have them).",
                },
                "lists": {
                    "type": "array",
                    "items": ref("ListResult"),
                    "description": "Each list experiment, estimated from its published counts.",
                },
            },
        },
        "ListResult": list_result_schema(),
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
        "Experiment": experiment_schema(),
        "ExperimentPlan": {
            "type": "object",
            "required": ["procedure", "epsilon", "baseline", "lift", "n_per_condition", "power"],
            "properties": {
                "epsilon": NUMBER_OR_NULL,
                "n_per_condition": {"type": "integer", "minimum": 1},
                "n": {"type": ["integer", "null"]},
                "power": NUMBER_OR_NULL,
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
            ],
            "properties": {
                "epsilon": NUMBER_OR_NULL,
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
                },
            },
        },
    }


def experiment_schema() -> Schema:
    """A split-ballot experiment's figures (GET /api/surveys/{slug}/experiment)."""

    def entries(fields: dict[str, Schema]) -> Schema:
        return {
            "type": "array",
            "items": {"type": "object", "required": list(fields), "properties": fields},
        }

    text: Schema = {"type": "string"}
    by_condition = {
        "condition": text, "procedure": text, "epsilon": NUMBER_OR_NULL,
        "randomized": {"type": "boolean"}, "estimate": NUMBER_OR_NULL,
        "std_error": NUMBER_OR_NULL, "ci_low": NUMBER_OR_NULL, "ci_high": NUMBER_OR_NULL,
        "n": {"type": "integer", "minimum": 0},
    }  # fmt: skip
    contrasts = {
        "condition": text, "versus": text, "difference": NUMBER_OR_NULL, "ci_low": NUMBER_OR_NULL,
        "ci_high": NUMBER_OR_NULL, "p_more": NUMBER_OR_NULL,
    }  # fmt: skip
    return {
        "type": "object",
        "required": ["conditions", "allocation", "items"],
        "properties": {
            "conditions": entries(
                {"id": text, "share": {"type": "number"}, "n": {"type": "integer", "minimum": 0}}
            ),
            "allocation": {
                "type": "object",
                "required": ["chi_square", "df", "p_value"],
                "properties": {
                    "chi_square": {"type": "number", "minimum": 0},
                    "df": {"type": "integer", "minimum": 1},
                    "p_value": {"type": "number", "minimum": 0, "maximum": 1},
                },
            },
            "checks": {"type": "array", "items": OBJECT},
            "items": entries(
                {
                    "id": text,
                    "known_prevalence": NUMBER_OR_NULL,
                    "by_condition": entries(by_condition),
                    "contrasts": entries(contrasts),
                }
            ),
        },
    }


def list_result_schema() -> Schema:
    """A list experiment's entry in the results: withheld, or its counts and estimates."""
    share = {"type": "number"}
    return {
        "type": "object",
        "required": ["id", "type", "text", "sensitive", "controls", "epsilon", "withheld"],
        "properties": {
            "id": {"type": "string"},
            "type": {"type": "string"},
            "text": {"type": ["string", "object"]},
            "sensitive": {"type": ["string", "object"]},
            "controls": {"type": "integer", "minimum": 2, "description": "J, the control items."},
            "condition": {"type": "string"},
            "epsilon": {"type": "null", "description": "No ε bound."},
            "withheld": {"type": "boolean"},
            "n": {"type": "integer", "minimum": 0},
            "frequencies": {
                "type": "object",
                "description": "Per list, how many respondents gave each count (0 to J, or J + 1).",
                "properties": {
                    "control": {"type": "array", "items": {"type": "integer"}},
                    "treatment": {"type": "array", "items": {"type": "integer"}},
                },
            },
            "estimate": share,
            "std_error": share,
            "ci_low": share,
            "ci_high": share,
            "by_arm": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "arm": {"type": "string", "enum": ["control", "treatment"]},
                        "n": {"type": "integer"},
                        "mean": share,
                    },
                },
            },
            "ml": {
                "type": "object",
                "properties": {"estimate": share, "std_error": share, "log_likelihood": share},
            },
            "design_effect": {
                "type": ["object", "null"],
                "properties": {"p_value": share},
                "description": "Blair & Imai's (2012) test (list::ict.test).",
            },
            "ceiling": {"type": "integer", "description": "Long-list counts of J + 1: a yes."},
            "floor": {"type": "integer", "description": "Long-list counts of 0: a no."},
        },
    }
