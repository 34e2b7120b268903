"""The OpenAPI document: every route under /api/ is in it and nothing else is, it is valid
OpenAPI 3.1, and Schemathesis finds no answer of the live app that contradicts it."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from tests import guide
from tests.conftest import no_database, stricter_database
from web.core.surveys.demo import seed_demo_if_empty

METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE"}


def routes_of(app) -> set[tuple[str, str]]:
    """(method, path) of every route under /api/, with OpenAPI's {name} for <name>."""
    return {
        (method.lower(), re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule))
        for rule in app.url_map.iter_rules()
        if rule.rule.startswith("/api/")
        for method in rule.methods & METHODS
    }


def documented(document: dict) -> set[tuple[str, str]]:
    return {
        (method, path)
        for path, operations in document["paths"].items()
        for method in operations
        if method.upper() in METHODS
    }


@no_database
def test_the_document_names_every_api_route_and_no_other(app, client):
    document = client.get("/api/openapi.json").json
    assert document["openapi"] == "3.1.0"
    assert documented(document) == routes_of(app)


@no_database
def test_every_operation_documents_its_errors_as_json(client):
    document = client.get("/api/openapi.json").json
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, response in operation["responses"].items():
                if int(status) >= 400:
                    schema = response["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/Error"}, (method, path)
            bearer = operation["security"] == [{"bearer": []}]
            assert bearer == ("401" in operation["responses"]), (method, path)


@no_database
def test_the_document_is_valid_openapi(client):
    # Both come with schemathesis: OpenAPI 3.1's own schema, and a JSON Schema validator.
    import jsonschema_rs
    from schemathesis.specs.openapi import definitions

    document = client.get("/api/openapi.json").json
    jsonschema_rs.Draft202012Validator(definitions.OPENAPI_31).validate(document)


@no_database
def test_the_guide_links_the_document():
    assert "(http://127.0.0.1:5000/api/openapi.json)" in guide.page("run/api.md")


@pytest.fixture
def demo_token(app, write_token) -> str:
    """The demo survey seeded, and a read-and-write token."""
    with app.app_context():
        seed_demo_if_empty()
    return write_token


SCHEMATHESIS_CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_schema_conformance"
)
# The computations (the planners and the lab) read and write no database: they are fuzzed in the
# SQLite pass, and the run on PostgreSQL, the stricter database, spends its cases on the rest.
COMPUTATIONS = "^/api/(plan|lab)(/|$)"
LAB = "^/api/lab(/|$)"


def schemathesis(url: str, folder, *options: str, examples: int, seed: int) -> tuple[int, int]:
    """Run Schemathesis's examples, coverage and fuzzing phases against the live app's document
    (a fixed seed and a bounded number of cases per operation, so a run is the same every time);
    the number of operations it selected, and of those the document has."""
    command = [
        sys.executable, "-m", "schemathesis.cli", "run", f"{url}/api/openapi.json", *options,
        "--checks", SCHEMATHESIS_CHECKS,
        "--phases", "examples,coverage,fuzzing",
        # One worker: Hypothesis describes strategies with ast.parse, which CPython 3.11 cannot
        # run in two threads at once ("AST constructor recursion depth mismatch").
        "--max-examples", str(examples), "--seed", str(seed), "--workers", "1",
        "--request-timeout", "120", "--no-shrink",
    ]  # fmt: skip
    run = subprocess.run(command, capture_output=True, text=True, timeout=1500, cwd=folder)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    for phase in ("Examples", "Coverage", "Fuzzing"):
        assert f"✅  {phase}" in run.stdout, run.stdout[-3000:]
    selected, total = re.search(r"(\d+) selected / (\d+) total", run.stdout).groups()
    return int(selected), int(total)


def paths_of(app, pattern: str) -> set[str]:
    """The documented operations under /api/ whose path matches ``pattern`` (OpenAPI's form)."""
    return {f"{method} {path}" for method, path in routes_of(app) if re.search(pattern, path)}


@stricter_database
@pytest.mark.long
def test_schemathesis_finds_no_failure(app, live_server, demo_token, tmp_path):
    """Every operation but the computations, with a write token on the demo survey."""
    report = tmp_path / "report.json"
    selected, total = schemathesis(
        live_server, tmp_path,
        "--header", f"Authorization: Bearer {demo_token}",
        "--exclude-path-regex", COMPUTATIONS,
        "--report", "json", "--report-json-path", str(report),
        examples=40, seed=41,
    )  # fmt: skip
    # Every other operation was loaded and tested, but the document's own, which Schemathesis
    # leaves out of a run from its URL.
    assert total == len(routes_of(app)) - 1
    assert selected == total - len(paths_of(app, COMPUTATIONS))
    assert json.loads(report.read_text())


@no_database
@pytest.mark.long
def test_schemathesis_finds_no_failure_in_the_lab(app, live_server, tmp_path):
    """The lab's computations, with as many cases each as the run above gives every operation."""
    selected, _total = schemathesis(
        live_server, tmp_path, "--include-path-regex", LAB, examples=40, seed=41
    )
    assert selected == len(paths_of(app, LAB)) >= 9


@no_database
@pytest.mark.long
def test_schemathesis_finds_no_failure_in_the_planners(live_server, tmp_path):
    """The planners with more cases than the whole run gives each operation: a planner once
    answered a lift of 3.8e-275 with a 500 (its square underflowed to 0). Extreme floats are
    tried on every planning function itself (tests/rr/test_planners_extremes.py): here the
    cases check what the routes add: 60 of them (150 took a third longer, measured 2026-11-30)."""
    selected, _total = schemathesis(
        live_server, tmp_path, "--include-path-regex", "^/api/plan", examples=60, seed=57
    )
    assert selected == 3  # /api/plan, /api/plan/experiment and /api/plan/change
