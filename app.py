"""The randomized-response survey app: ``flask --app app run``."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from flask import Flask
from sqlalchemy import event

from web import api, classroom, cli, respondent, site, workspace
from web.core.infrastructure import i18n, sqlite_guard
from web.core.infrastructure.database import MIGRATIONS
from web.core.infrastructure.extensions import babel, csrf, db, limiter, login_manager, migrate
from web.core.surveys.demo import seed_demo_if_empty
from web.respondent import submissions
from web.site import assets, compression, compute, errors, guide, public_url, roles, security
from web.site.logs import quiet_development_log
from web.site.sessions import LazyCookieSessions

SUBMISSION_MAX_BYTES = 64 * 1024


def create_app(test_config: dict | None = None) -> Flask:
    """Create and configure the app: environment, database, blueprints and commands."""
    app = Flask(__name__, instance_relative_config=True)
    private_folder(Path(app.instance_path))
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=database_url(app.instance_path),
        MAX_CONTENT_LENGTH=1024 * 1024,
        SUBMISSION_MAX_BYTES=SUBMISSION_MAX_BYTES,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        DEMO_SURVEY=True,
        RESULTS_MIN_N=10,
        PRESENT_REFRESH_MS=1000,  # how often the projector asks for the count and results
        DASHBOARD_REFRESH_MS=5000,  # and the dashboard for its results panel
        # The guide as `make docs` builds it (mkdocs.yml's site_dir), served at /guide/.
        GUIDE_FOLDER=str(Path(__file__).resolve().parent / "site"),
        WTF_CSRF_TIME_LIMIT=None,
        # Werkzeug's scrypt (n = 2**15, r = 8, p = 1): about 0.15 s a check on purpose. Only the
        # test suite lowers it (tests/conftest.py), to spend its minutes on what it tests.
        PASSWORD_HASH_METHOD="scrypt",
        # Flask-WTF's HTTPS check wants a same-origin Referer, which Referrer-Policy: no-referrer
        # never sends; the token and SameSite=Lax cookies protect the forms.
        WTF_CSRF_SSL_STRICT=False,
        RATELIMIT_ENABLED=True,
        RATELIMIT_STORAGE_URI="memory://",
        # With a shared store (Redis) that cannot be reached, limits are kept in each process's
        # memory until it is back: requests are neither refused nor left unlimited for it.
        RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,
        RATELIMIT_HEADERS_ENABLED=True,
        TRUST_PROXY=0,
        # 300 students behind one address stay well inside; a client flooding a survey does not.
        SUBMISSION_RATE_LIMIT="600/minute;3000/hour",
    )
    app.config.from_prefixed_env()
    app.config.setdefault("PUBLIC_URL", os.environ.get("PUBLIC_URL"))
    if test_config is not None:
        app.config.update(test_config)
    if app.config.get("SESSION_COOKIE_SECURE") and app.config["SESSION_COOKIE_NAME"] == "session":
        # Secure cookies carry the __Host- prefix: no other host or path can set or read them.
        app.config["SESSION_COOKIE_NAME"] = "__Host-session"
    if str(app.config["RATELIMIT_STORAGE_URI"]).startswith(("redis://", "rediss://")):
        # An unreachable Redis must cost a request a second at most, not a TCP timeout.
        app.config.setdefault(
            "RATELIMIT_STORAGE_OPTIONS", {"socket_connect_timeout": 1, "socket_timeout": 1}
        )
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or instance_secret(
            app.instance_path
        )

    app.session_interface = LazyCookieSessions()
    db.init_app(app)
    migrate.init_app(app, db, directory=str(MIGRATIONS))
    babel.init_app(app, locale_selector=i18n.select_locale)
    csrf.init_app(app)
    # First bound, so its after-request hook runs last, on the finished body.
    compression.init_app(app)
    login_manager.init_app(app)
    limiter.init_app(app)
    i18n.init_app(app)
    # The JSON API takes no form posts and no login cookie: bearer tokens and JSON bodies only.
    for blueprint in api.BLUEPRINTS:
        csrf.exempt(blueprint)
    csrf.exempt(classroom.lab.bp)
    for package in (site, respondent, classroom, api, workspace):
        for blueprint in package.BLUEPRINTS:
            app.register_blueprint(blueprint)
    cli.init_app(app)
    submissions.init_app(app)
    security.init_app(app)
    public_url.init_app(app)
    assets.init_app(app)
    errors.init_app(app)
    roles.init_app(app)
    guide.init_app(app)
    compute.init_app(app)
    quiet_development_log()
    with app.app_context():
        configure_sqlite(db.engine)
        if app.config["DEMO_SURVEY"]:
            seed_demo_if_empty()
    return app


def database_url(instance_path: str) -> str:
    """``DATABASE_URL`` if set, else an SQLite file in the instance folder."""
    url = os.environ.get("DATABASE_URL")
    if not url:
        return f"sqlite:///{Path(instance_path) / 'rr.sqlite3'}"
    return with_driver(url)


def with_driver(url: str) -> str:
    """PostgreSQL URLs (``postgres://`` or ``postgresql://``) use the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url.removeprefix(prefix)
    return url


def private_folder(path: Path) -> None:
    """Make ``path`` (the instance folder: the secret key, the SQLite database) if needed and
    leave it to its owner alone (0700)."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    path.chmod(0o700)


def private_file(path: str) -> None:
    """Create ``path`` for its owner alone (0600), or take others' access away if it exists:
    SQLite creates a database with the process's umask, and its -wal and -shm files copy the
    database's mode."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.close(descriptor)
    os.chmod(path, 0o600)


def instance_secret(instance_path: str) -> str:
    """The secret key kept in the instance folder, created (readable by the owner only) if absent."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_hex(32))
    return path.read_text().strip()


def configure_sqlite(engine) -> None:
    """WAL journal, a busy timeout and foreign keys on every SQLite connection, and the one-writing-
    process guard while the linked SQLite has the WAL-reset bug (see web/sqlite_guard.py)."""
    if engine.dialect.name != "sqlite":
        return
    if engine.url.database and engine.url.database != ":memory:":
        private_file(engine.url.database)  # it holds password hashes
    database = sqlite_guard.guarded_file(engine)
    if database:

        @event.listens_for(engine, "before_cursor_execute")
        def _one_writer(_connection, _cursor, statement, *_args):
            if sqlite_guard.is_write(statement):
                sqlite_guard.claim(database)

    @event.listens_for(engine, "connect")
    def _pragmas(connection, _record):
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    engine.dispose()
