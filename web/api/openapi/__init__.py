"""``GET /api/openapi.json``: the API described in OpenAPI 3.1, for clients, generators and fuzzers.

Written here beside the routes, from the same limits the views check (the ranges of n, ε, runs,
seeds) and the designs' registry (procedures and their shares), so it cannot drift from them in
numbers; ``tests/web/api/test_openapi.py`` fails when a route under ``/api/`` is missing here or
this names one that does not exist, and Schemathesis checks every answer against it.
"""

from __future__ import annotations

from functools import cache

from flask import Blueprint

from web.api.openapi.computation_paths import computation_paths
from web.api.openapi.fieldwork_paths import fieldwork_paths, fieldwork_schemas
from web.api.openapi.results_paths import results_paths
from web.api.openapi.schemas import schemas
from web.api.openapi.survey_paths import survey_paths

bp = Blueprint("openapi", __name__, url_prefix="/api")


@bp.get("/openapi.json")
def openapi_json():
    """This API's OpenAPI 3.1 document."""
    return openapi_document()


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
        "paths": survey_paths() | results_paths() | fieldwork_paths() | computation_paths(),
        "components": {
            "securitySchemes": {
                "bearer": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "An API token from Account → API tokens, or flask "
                    "create-token [--write].",
                }
            },
            "schemas": schemas() | fieldwork_schemas(),
        },
    }
