"""Each fixture is defined once in the whole suite: no module copies another's, and none shadows a
conftest fixture of the same name (a reader then finds a fixture where its name leads)."""

from __future__ import annotations

import ast
import collections
import pathlib

TESTS = pathlib.Path(__file__).resolve().parent


def is_fixture(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Attribute) and target.attr == "fixture"


def fixture_definitions() -> dict[str, list[str]]:
    """Every fixture's name, with the files that define one of that name."""
    found = collections.defaultdict(list)
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(map(is_fixture, node.decorator_list)):
                found[node.name].append(str(path.relative_to(TESTS)))
    return found


def test_every_fixture_is_defined_once():
    definitions = fixture_definitions()
    assert "designed" in definitions and "app" in definitions
    repeated = {name: files for name, files in definitions.items() if len(files) > 1}
    assert repeated == {}
