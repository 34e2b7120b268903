"""The pieces every operation of the OpenAPI document is made of: parameters with their ranges,
the error responses, and the three kinds of operation (public, read with a token, write)."""

from __future__ import annotations

from typing import Any

from web.core.surveys.designs import default_design, known_designs, registered
from web.site.query import MAX_SEED

DEMO = "campus-life"  # the demo survey every fresh install has: examples reach real data
JSON = "application/json"
Schema = dict[str, Any]


# --- pieces ----------------------------------------------------------------------------------


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def json_body(schema: Schema, description: str) -> dict:
    return {"description": description, "content": {JSON: {"schema": schema}}}


ERRORS = {
    400: "The request is not valid: the error says which argument and why.",
    401: "No valid API token: send Authorization: Bearer TOKEN.",
    403: "The token may not do this (a read-only token and a write; a role on the survey that "
    "does not allow it: viewer, analyst, editor, owner), or the device link is refused.",
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


def parameter(
    name: str,
    schema: Schema,
    description: str,
    *,
    where: str = "query",
    required: bool = False,
    example: Any = None,
) -> dict:
    found = {
        "name": name,
        "in": where,
        "required": required or where == "path",
        "description": description,
        "schema": schema,
    }
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
    names = sorted({name for design in registered() for name in design.fields.share_names()})
    return [
        parameter(name, {"type": "string"}, "A share of a design that states its own (not ε).")
        for name in names
    ]


def seed() -> dict:
    return parameter("seed", whole(0, MAX_SEED), "Random seed: the same seed, the same numbers.")


OBJECT: Schema = {"type": "object"}
NUMBER_OR_NULL: Schema = {"type": ["number", "null"]}


# --- operations ------------------------------------------------------------------------------


def operation(
    summary: str, description: str, parameters: list, responses: dict, bearer: bool
) -> dict:
    """One operation: its words, its parameters and responses, and whether it needs a token."""
    return {
        "summary": summary,
        "description": description,
        "security": [{"bearer": []}] if bearer else [],
        "parameters": parameters,
        "responses": responses,
    }


def read_operation(
    summary: str, description: str, parameters: list, ok: dict, *errors: int
) -> dict:
    """A GET that needs a token (and a role on the survey that allows it: 403 otherwise)."""
    return operation(summary, description, parameters, answers(200, ok, 401, 403, *errors), True)


def public_operation(
    summary: str, description: str, parameters: list, ok: dict, *errors: int
) -> dict:
    """A GET anyone may send."""
    return operation(summary, description, parameters, answers(200, ok, *errors), False)


def write_operation(summary: str, description: str, ok: dict, *errors: int) -> dict:
    """A POST on one survey that needs a read-and-write token."""
    responses = answers(200, ok, 401, 403, 404, *errors)
    return operation(summary, description, [slug_parameter()], responses, True)
