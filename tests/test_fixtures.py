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


def test_two_apps_share_their_compiled_sql_and_parsed_rules(app, app_like):
    """What tests/conftest.py makes once per test process: a statement compiled for one app's
    engine is found by another's, and a rule parsed for one app's map gives another its own
    converters, bound to that map."""
    import sqlalchemy

    from tests.conftest import COMPILED_STATEMENTS
    from web.core.infrastructure.extensions import db

    other = app_like(SECRET_KEY="another")
    statement = sqlalchemy.select(sqlalchemy.literal_column("41 + 1"))
    with app.app_context():
        db.session.execute(statement)
        kept = len(COMPILED_STATEMENTS)
    with other.app_context():
        assert db.session.execute(statement).scalar() == 42
        assert other.extensions["sqlalchemy"].engine._compiled_cache is COMPILED_STATEMENTS
    assert len(COMPILED_STATEMENTS) == kept
    mine, theirs = (
        next(rule for rule in each.url_map.iter_rules() if rule._converters)
        for each in (app, other)
    )
    assert mine.rule == theirs.rule and mine._parts == theirs._parts
    for name, converter in theirs._converters.items():
        assert converter is not mine._converters[name] and converter.map is other.url_map
