"""The OpenAPI operations of the fieldwork's counts (which quotas are full and a screen-out, for
the respondent's page; each quota's and page's count, for the researcher) and of the team's
audit log, for the owner."""

from __future__ import annotations

from web.api.openapi.parts import (
    JSON,
    answers,
    json_body,
    operation,
    parameter,
    public_operation,
    read_operation,
    ref,
    slug_parameter,
)
from web.core.surveys.flow.quotas import MAX_LIMIT
from web.core.surveys.team import ACTIONS

COUNT = {"type": ["integer", "null"], "minimum": 0}
URL_OR_NULL = {"type": ["string", "null"]}


def fieldwork_paths() -> dict:
    slug = slug_parameter()
    return {
        "/api/surveys/{slug}/quotas/full": {
            "get": public_operation(
                "Full quotas",
                "The ids of the survey's quotas that have taken all their completes: the page "
                "asks this at the end of a quota's page and decides on the device (it sends "
                "nothing of the respondent's).",
                [slug],
                json_body(
                    {
                        "type": "object",
                        "required": ["full"],
                        "properties": {"full": {"type": "array", "items": {"type": "string"}}},
                    },
                    "The full quotas' ids.",
                ),  # fmt: skip
                404,
            )
        },
        "/api/surveys/{slug}/screen-outs": {
            "post": ending_operation(
                "Count a screen-out",
                "A respondent screened out at a page's end (its `screen_out_if` held for their "
                "plain answers): the page's id alone, counted once per Idempotency-Key, which "
                "can never send a response after. Nothing else of theirs is sent or stored.",
                slug,
                "page",
                "ScreenedOut",
            )  # fmt: skip
        },
        "/api/surveys/{slug}/turned-away": {
            "post": ending_operation(
                "Count a respondent turned away by a full quota",
                "A respondent whose quota is full (the page asked which are, or a response was "
                "refused with 409): the quota's id alone, counted once per Idempotency-Key, "
                "which can never send a response after. Nothing else of theirs is sent or "
                "stored.",
                slug,
                "quota",
                "TurnedAway",
            )  # fmt: skip
        },
        "/api/surveys/{slug}/audit": {
            "get": read_operation(
                "Audit log",
                "For the survey's owner: what researchers did to it, the latest first (who "
                "shared it with whom, edited, imported, opened, closed, downloaded, made a "
                "device link), to the minute in UTC. Respondents' actions are never logged.",
                [slug],
                json_body(
                    {
                        "type": "object",
                        "required": ["events"],
                        "properties": {
                            "events": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "required": ["at", "by", "action", "detail", "said"],
                                    "properties": {
                                        "at": {"type": "string"},
                                        "by": {"type": ["string", "null"]},
                                        "action": {"type": "string", "enum": list(ACTIONS)},
                                        "detail": {"type": "string"},
                                        # The event in the dashboard's words, in English.
                                        "said": {"type": "string"},
                                    },
                                },
                            }
                        },
                    },
                    "The events.",
                ),
                404,
            )
        },
        "/api/surveys/{slug}/fieldwork": {
            "get": read_operation(
                "Quotas and screen-outs",
                "Each quota's completes against its limit and the respondents it turned away "
                "once full, and each screening page's count, "
                "published in whole batches and withheld (null) below the minimum n; whether "
                "each quota is full.",
                [slug],
                json_body(ref("FieldworkCounts"), "The counts."),
                404,
            )
        },
    }


def fieldwork_schemas() -> dict:
    return {
        "ScreenedOut": {
            "type": "object",
            "required": ["counted", "redirect"],
            "properties": {
                "counted": {"type": "boolean"},
                "redirect": URL_OR_NULL | {"description": "The panel's screen-out address, its "
                                           "placeholders to be filled in on the device."},
            },
        },
        "TurnedAway": {
            "type": "object",
            "required": ["counted", "redirect"],
            "properties": {
                "counted": {"type": "boolean"},
                "redirect": URL_OR_NULL | {"description": "The panel's quota-full address, its "
                                           "placeholders to be filled in on the device."},
            },
        },
        "FieldworkCounts": {
            "type": "object",
            "required": ["quotas", "screen_outs", "batch", "min_n"],
            "properties": {
                "quotas": {"type": "array", "items": {
                    "type": "object",
                    "required": ["id", "condition", "words", "limit", "count", "full",
                                 "turned_away"],
                    "properties": {
                        "id": {"type": "string"}, "condition": {"type": "object"},
                        "words": {"type": "string"},
                        "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                        "count": COUNT, "full": {"type": "boolean"},
                        # Respondents turned away once it was full, published as count is.
                        "turned_away": COUNT}}},
                "screen_outs": {"type": "array", "items": {
                    "type": "object", "required": ["page", "words", "count"],
                    "properties": {"page": {"type": "string"}, "words": {"type": "string"},
                                   "count": COUNT}}},
                "batch": {"type": "integer", "minimum": 1},
                "min_n": {"type": "integer", "minimum": 1},
            },
        },
    }  # fmt: skip


def ending_operation(summary: str, description: str, slug: dict, field: str, reply: str) -> dict:
    """A respondent's early end told to the server: one id (``field``) in the body, under the
    submission id as Idempotency-Key, answered with the ``reply`` schema."""
    key = parameter(
        "Idempotency-Key",
        {"type": "string", "pattern": "^[A-Za-z0-9_-]{22,128}$"},
        "The respondent's submission id.",
        where="header",
        required=True,
    )
    body = {
        "type": "object",
        "required": [field],
        "additionalProperties": False,
        "properties": {field: {"type": "string"}},
    }
    return operation(
        summary,
        description,
        [slug, key],
        answers(201, json_body(ref(reply), "Counted."), 400, 404, 409, 415, 429)
        | {"200": json_body(ref(reply), "Counted before under this key.")},
        bearer=False,
    ) | {"requestBody": {"required": True, "content": {JSON: {"schema": body}}}}
