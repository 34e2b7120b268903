"""Fixtures: a fresh app and database per test, its test client and its CLI runner."""
from __future__ import annotations

import json

import pytest

from app import create_app
from web.extensions import db

SAMPLE_SURVEY = {
    "slug": "campus-life-test",
    "title": "Campus life",
    "description": "A test survey.",
    "questions": [
        {"id": "cheated", "type": "yesno", "text": "Cheated?", "epsilon": 1.0,
         "procedure": "spinner_coin"},
        {"id": "substances", "type": "multi", "text": "Used?", "epsilon": 1.5,
         "procedure": "spinner",
         "options": [{"id": "alcohol", "text": "Alcohol"}, {"id": "tobacco", "text": "Tobacco"}]},
    ],
}
VALID_ANSWERS = {"answers": {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 1}}}


@pytest.fixture
def app(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite3'}",
            "DEMO_SURVEY": False,
        }
    )
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def survey_file(tmp_path):
    """The sample survey written to a file."""
    path = tmp_path / "survey.json"
    path.write_text(json.dumps(SAMPLE_SURVEY), encoding="utf-8")
    return path


@pytest.fixture
def survey(runner, survey_file):
    """The sample survey imported and open; its slug."""
    result = runner.invoke(args=["import-survey", str(survey_file)])
    assert result.exit_code == 0, result.output
    return SAMPLE_SURVEY["slug"]


@pytest.fixture
def token(runner):
    """An API token of a fresh researcher account."""
    assert runner.invoke(args=["create-user", "ada@example.org", "--password", "correct horse"]).exit_code == 0
    result = runner.invoke(args=["create-token", "ada@example.org"])
    assert result.exit_code == 0, result.output
    return result.output.strip().splitlines()[-1]
