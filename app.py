"""The randomized-response survey app: ``flask --app app run``."""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask
from sqlalchemy import event

from web import (
    account,
    api,
    auth,
    builder,
    cli,
    dashboard,
    exports,
    home,
    i18n,
    join,
    lab,
    respond,
    security,
)
from web.demo import seed_demo_survey
from web.extensions import babel, csrf, db, login_manager

SUBMISSION_MAX_BYTES = 64 * 1024


def create_app(test_config: dict | None = None) -> Flask:
    """Create and configure the app: environment, database, blueprints and commands."""
    app = Flask(__name__, instance_relative_config=True)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(app.instance_path),
        MAX_CONTENT_LENGTH=1024 * 1024,
        SUBMISSION_MAX_BYTES=SUBMISSION_MAX_BYTES,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        DEMO_SURVEY=True,
        RESULTS_MIN_N=10,
        WTF_CSRF_TIME_LIMIT=None,
    )
    app.config.from_prefixed_env()
    if test_config is not None:
        app.config.update(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or instance_secret(app.instance_path)

    db.init_app(app)
    babel.init_app(app, locale_selector=i18n.select_locale)
    csrf.init_app(app)
    login_manager.init_app(app)
    i18n.init_app(app)
    # The JSON API takes no form posts and no login cookie: bearer tokens and JSON bodies only.
    csrf.exempt(api.bp)
    csrf.exempt(lab.bp)
    for module in (home, respond, join, lab, api, auth, account, dashboard, builder, exports):
        app.register_blueprint(module.bp)
    cli.init_app(app)
    security.init_app(app)
    with app.app_context():
        configure_sqlite(db.engine)
        db.create_all()
        if app.config["DEMO_SURVEY"]:
            seed_demo_survey()
    return app


def database_url(instance_path: str) -> str:
    """``DATABASE_URL`` if set (``postgres://`` accepted), else an SQLite file in the instance folder."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return f"sqlite:///{Path(instance_path) / 'rr.sqlite3'}"
    return "postgresql://" + url.removeprefix("postgres://") if url.startswith("postgres://") else url


def instance_secret(instance_path: str) -> str:
    """The secret key kept in the instance folder, created (readable by the owner only) if absent."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_text().strip()


def configure_sqlite(engine) -> None:
    """WAL journal, a busy timeout and foreign keys on every SQLite connection."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _pragmas(connection, _record):
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    engine.dispose()
