"""Configuration from the environment, the database settings and the demo survey."""

import math
import os
import stat

import pytest

from app import create_app, database_url
from tests.conftest import no_database, sqlite_only
from web.core.infrastructure.extensions import db
from web.core.models import Survey
from web.core.startup import prepare_database


@no_database
def test_default_database_is_sqlite_in_the_instance_folder(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert database_url(str(tmp_path)) == f"sqlite:///{tmp_path / 'rr.sqlite3'}"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgresql://u:p@localhost/rr", "postgresql+psycopg://u:p@localhost/rr"),
        ("postgres://u:p@localhost/rr", "postgresql+psycopg://u:p@localhost/rr"),
        ("postgresql+psycopg://u@db/rr", "postgresql+psycopg://u@db/rr"),
    ],
)
@no_database
def test_database_url_from_the_environment(monkeypatch, tmp_path, given, expected):
    monkeypatch.setenv("DATABASE_URL", given)
    assert database_url(str(tmp_path)) == expected


@sqlite_only
def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(app):
    with app.app_context():
        connection = db.engine.raw_connection()
        try:
            cursor = connection.cursor()
            assert cursor.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert cursor.execute("PRAGMA busy_timeout").fetchone()[0] == 10000
            assert cursor.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        finally:
            connection.close()


@no_database
def test_flask_settings_come_from_prefixed_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("FLASK_SUBMISSION_MAX_BYTES", "1234")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'env.sqlite3'}")
    app = create_app({"SECRET_KEY": "x", "DEMO_SURVEY": False})
    assert app.config["SUBMISSION_MAX_BYTES"] == 1234
    assert app.config["SQLALCHEMY_DATABASE_URI"].endswith("env.sqlite3")
    with app.app_context():
        db.engine.dispose()


@no_database
def test_secret_key_is_generated_once_and_kept(monkeypatch, tmp_path):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("FLASK_SECRET_KEY", raising=False)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 's.sqlite3'}")
    monkeypatch.setattr(
        "flask.Flask.auto_find_instance_path", lambda self: str(tmp_path / "instance")
    )
    first = create_app({"DEMO_SURVEY": False})
    second = create_app({"DEMO_SURVEY": False})
    key_file = tmp_path / "instance" / "secret_key"
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"] == key_file.read_text().strip()
    assert len(first.config["SECRET_KEY"]) == 64 and key_file.stat().st_mode & 0o077 == 0
    for app in (first, second):
        with app.app_context():
            db.engine.dispose()


@no_database
def test_secret_key_from_the_environment_wins(monkeypatch, tmp_path):
    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'k.sqlite3'}")
    app = create_app({"DEMO_SURVEY": False})
    assert app.config["SECRET_KEY"] == "from-env"
    with app.app_context():
        db.engine.dispose()


def test_demo_survey_is_seeded_once_on_first_start(tmp_path):
    config = {
        "SECRET_KEY": "x",
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'demo.sqlite3'}",
    }
    prepare_database(create_app(config))  # what the server does once at start
    for _ in range(2):
        app = create_app(config)
        with app.app_context():
            surveys = db.session.scalars(db.select(Survey)).all()
            assert [survey.slug for survey in surveys] == ["campus-life"]
            assert surveys[0].status == "open" and len(surveys[0].questions) == 7
            # 1 + 1 for the yes/no questions, 3 × 0.5 for the multi-select, ln 3 for the
            # crosswise question (innocuous prevalence 1/4), 1.5 once for the single choice of
            # four options, 1 for the number question, 0 for the year asked directly.
            assert surveys[0].epsilon_total == pytest.approx(6.0 + math.log(3))
            db.engine.dispose()
        html = app.test_client().get("/").get_data(as_text=True)
        assert "Try the demo survey" in html and 'href="/s/campus-life"' in html


@sqlite_only
def test_the_instance_folder_and_the_database_are_private(monkeypatch, tmp_path):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("FLASK_SECRET_KEY", raising=False)
    monkeypatch.setattr(
        "flask.Flask.auto_find_instance_path", lambda self: str(tmp_path / "instance")
    )
    previous = os.umask(0o022)  # the usual umask, under which files come out 0644
    try:
        app = create_app({"DEMO_SURVEY": False})
        prepare_database(app)
    finally:
        os.umask(previous)
    instance = tmp_path / "instance"
    assert stat.S_IMODE(instance.stat().st_mode) == 0o700
    for name in ("secret_key", "rr.sqlite3", "rr.sqlite3-wal", "rr.sqlite3-shm"):
        path = instance / name
        if path.exists() or name in ("secret_key", "rr.sqlite3"):
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, name
    with app.app_context():
        db.engine.dispose()


def test_a_template_reading_an_attribute_that_is_not_there_fails_the_test(app):
    """The test apps' templates fail on a missing attribute (a renamed one, say), while a missing
    variable or mapping key stays Jinja's quiet "not given"."""
    import jinja2
    from flask import render_template_string

    with app.test_request_context():
        assert render_template_string("{{ given or '' }}{{ row.gone or '' }}", row={}) == ""
        with pytest.raises(jinja2.UndefinedError, match="has no attribute 'gone'"):
            render_template_string("{{ row.gone }}", row=object())
