"""What tests/conftest.py makes once per test process, for every app and engine the suite makes:
compiled SQL and parsed URL rules, shared without one app's state reaching another's."""

from __future__ import annotations

import sqlalchemy

from tests.conftest import COMPILED_STATEMENTS
from web.core.infrastructure.extensions import db


def test_two_apps_share_their_compiled_sql_and_parsed_rules(app, app_like):
    """What tests/conftest.py makes once per test process: a statement compiled for one app's
    engine is found by another's, and a rule parsed for one app's map gives another its own
    converters, bound to that map."""
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
