"""Fixtures: a fresh app and database per test, its test client and its CLI runner."""

from __future__ import annotations

import copy
import fcntl
import functools
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path

import flask
import flask_sqlalchemy
import jinja2
import pytest
import sqlalchemy
import sqlalchemy.orm
from hypothesis import settings
from werkzeug.routing import Rule
from werkzeug.serving import make_server

from app import create_app, with_driver
from tests import postgres_pass
from tests.statements import RecordingPlugin, records
from tests.workers import worker_database
from web.core.infrastructure import sqlite_guard
from web.core.infrastructure.extensions import db
from web.core.models import PendingResponse, Response
from web.core.surveys.lookup import find_survey
from web.simulation import simulate_responses

# Hypothesis's per-example deadline measures time, which a busy two-core machine does not keep:
# a property test fails or passes by what it checks, never by how long one example took.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

# Set to a PostgreSQL URL to run the whole suite against PostgreSQL instead of SQLite files. Under
# pytest-xdist each worker takes a database of its own beside it (tests/workers.py).
TEST_DATABASE_URL = worker_database(os.environ.get("TEST_DATABASE_URL"))
ON_POSTGRES = bool(TEST_DATABASE_URL)
sqlite_only = pytest.mark.skipif(ON_POSTGRES, reason="checks the SQLite file itself")
# What no database changes (a page's rendering and script, the lab's computations, and any test
# whose own steps run no SQL): run once, on SQLite.
no_database = pytest.mark.skipif(
    ON_POSTGRES, reason="no database changes it: it runs on SQLite only"
)
postgres_only = pytest.mark.skipif(
    not ON_POSTGRES, reason="runs several server processes on PostgreSQL"
)
# What checks the app's contract against any input, where PostgreSQL is the stricter database
# (types and integer ranges SQLite lets pass): run once, in the PostgreSQL pass of `make test`.
stricter_database = pytest.mark.skipif(
    not ON_POSTGRES, reason="runs in the PostgreSQL pass, the stricter database"
)

SAMPLE_SURVEY = {
    "slug": "campus-life-test",
    "title": "Campus life",
    "description": "A test survey.",
    "questions": [
        {
            "id": "cheated",
            "type": "yesno",
            "text": "Cheated?",
            "epsilon": 1.0,
            "procedure": "spinner_coin",
        },
        {
            "id": "substances",
            "type": "multi",
            "text": "Used?",
            "epsilon": 1.5,
            "procedure": "spinner",
            "options": [{"id": "alcohol", "text": "Alcohol"}, {"id": "tobacco", "text": "Tobacco"}],
        },
    ],
}
# SAMPLE_SURVEY in English and Korean, fielded as a study: consent, thanks, completion, schedule.
FIELDED_SURVEY = {
    **SAMPLE_SURVEY,
    "slug": "fielded",
    "languages": ["en", "ko"],
    "title": {"en": "Campus life", "ko": "캠퍼스 생활"},
    "description": {"en": "A test survey.", "ko": "시험 설문입니다."},
    "consent": {
        "en": "Taking part is voluntary. Only reported answers leave your device.",
        "ko": "참여는 자유입니다. 보고된 답만 기기를 떠납니다.",
    },
    "thanks": {"en": "Thank you for taking part.", "ko": "참여해 주셔서 고맙습니다."},
    "completion_code": "CAMPUS7",
    "closes_at": "2099-12-31T00:00:00Z",
    "questions": [
        {**SAMPLE_SURVEY["questions"][0], "text": {"en": "Cheated?", "ko": "베꼈습니까?"}},
        {
            **SAMPLE_SURVEY["questions"][1],
            "text": {"en": "Used?", "ko": "써 보았습니까?"},
            "options": [
                {"id": "alcohol", "text": {"en": "Alcohol", "ko": "술"}},
                {"id": "tobacco", "text": {"en": "Tobacco", "ko": "담배"}},
            ],
        },
    ],
}
# A yes/no question added to SAMPLE_SURVEY through the builder, after responses came in.
LATER_QUESTION = {
    "text": "New?",
    "key": "later",
    "kind": "yesno",
    "epsilon": "1",
    "procedure": "spinner",
}
VALID_ANSWERS = {"answers": {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 1}}}


# The passes' marks above, each decided when the tests are collected: a test one of them keeps
# out of this pass is deselected, not collected and then skipped (skipping each of the PostgreSQL
# pass's two thousand SQLite-only tests cost about 9 ms of setting up and reporting, measured
# 2026-11-30).
PASS_MARKS = [mark.mark for mark in (sqlite_only, no_database, postgres_only, stricter_database)]
SQLITE_ONLY_REASONS = {mark.kwargs["reason"] for mark in (sqlite_only.mark, no_database.mark)}
POSTGRES_REASONS = {mark.kwargs["reason"] for mark in (postgres_only.mark, stricter_database.mark)}
# The tests of the app's database code, the PostgreSQL pass's; with POSTGRES_PASS=listed (as
# `make test` runs it) only those tests/postgres_pass.py chooses.
DATABASE_TESTS = "tests/web/"
POSTGRES_PASS_LISTED = os.environ.get("POSTGRES_PASS") == "listed"


def pytest_configure(config):
    """With ``RECORD_STATEMENTS`` set to a folder, record what SQL each test sends there
    (``tests/statements.py``); the SQLite pass of ``make test`` does, to check the PostgreSQL
    pass's list (``tests/postgres_pass.py``)."""
    folder = os.environ.get("RECORD_STATEMENTS")
    if not folder or ON_POSTGRES:
        return
    if not hasattr(config, "workerinput"):  # the first process of the run: start afresh
        shutil.rmtree(folder, ignore_errors=True)
    config.pluginmanager.register(RecordingPlugin(Path(folder), runs_on_postgres), "statements")


def runs_on_postgres(item) -> bool:
    """Whether the PostgreSQL pass collects ``item`` (in any pass: the marks' reasons say it)."""
    return item.nodeid.startswith(DATABASE_TESTS) and not _pass_reasons(item) & SQLITE_ONLY_REASONS


def _pass_reasons(item) -> set[str]:
    return {mark.kwargs.get("reason") for mark in item.iter_markers("skipif")}


@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session):
    """In the SQLite pass of ``make test`` (``CHECK_POSTGRES_PASS``), fail if a statement some
    test sent is sent by no test of the PostgreSQL pass."""
    folder = os.environ.get("RECORD_STATEMENTS")
    config = session.config
    if not (folder and os.environ.get("CHECK_POSTGRES_PASS")) or hasattr(config, "workerinput"):
        return
    found, listed = records(Path(folder)), postgres_pass.listed()
    config.postgres_pass_unsent = postgres_pass.unsent(found, listed)
    config.postgres_pass_gone = sorted(listed - set(found))
    if config.postgres_pass_unsent or config.postgres_pass_gone:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, config):
    """Say what the PostgreSQL pass would miss, and how to mend its list."""
    unsent = getattr(config, "postgres_pass_unsent", {})
    gone = getattr(config, "postgres_pass_gone", [])
    if not (unsent or gone):
        return
    terminalreporter.section("the PostgreSQL pass's list", red=True)
    for statement, test in unsent.items():
        terminalreporter.line(f"sent by no test of the PostgreSQL pass: {statement[:300]}")
        terminalreporter.line(f"    (sent by {test})")
    for test in gone:
        terminalreporter.line(f"listed but not run: {test}")
    terminalreporter.line(
        "Run `make postgres-list` to list the tests again (tests/postgres_pass.py); a statement "
        "only tests outside tests/web send needs a test there."
    )


def pytest_collection_modifyitems(config, items):
    """Leave out the tests this pass does not run (:data:`PASS_MARKS`), then lay the rest out in
    the queues of pytest-xdist's work stealing (``--dist worksteal``): the browser tests at the
    front of the first two queues, so that two workers each run half of them, one chromium page at
    a time; the other long tests at the front of the rest; then the short ones, so that each queue
    is as long as the scheduler makes it.

    The scheduler hands worker k the k-th of ``workers`` contiguous slices of this order (each
    the pending tests over the workers still to serve, ``_slices``), runs each queue from its
    front, and lets a worker that has run out take the back half of the longest queue left. So
    the long tests start first, and the end is shared among the workers, never left to one on a
    queue dealt too long (one worker ran alone for 157 s of the 760 that load scheduling's first
    chunks took, measured 2026-11-29).
    """
    kept, left_out = [], []
    for item in items:
        (left_out if _kept_out_of_this_pass(item) else kept).append(item)
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = kept
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    items.sort(key=lambda item: item.get_closest_marker("long") is None)
    browser = [item for item in items if item.get_closest_marker("browser") is not None]
    rest = [item for item in items if item.get_closest_marker("browser") is None]
    if workers < 2:
        items[:] = [*browser, *rest]
        return
    queues: list[list] = [[] for _ in range(workers)]
    queues[0].extend(browser[0::2])
    queues[1].extend(browser[1::2])
    room = [
        size - len(queue) for size, queue in zip(_slices(len(items), workers), queues, strict=True)
    ]
    for item in rest:  # each to the queue with the most room left, the long ones first
        roomiest = max(range(workers), key=lambda index: (room[index], -index))
        queues[roomiest].append(item)
        room[roomiest] -= 1
    items[:] = [item for queue in queues for item in queue]


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session):
    """Set the collected suite aside from Python's cyclic garbage collector, and let it run a
    hundred times less often. With the default thresholds a test process ran a collection every
    700 new objects, each walking the suite's long-lived objects again: 4.1 of 55 CPU seconds over
    ``tests/web/workspace`` and ``tests/web/core/results``, against 2.0 with these (measured
    2026-11-30). Garbage without cycles is freed at once either way."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 20, 100)


def _kept_out_of_this_pass(item) -> bool:
    if any(mark in PASS_MARKS and mark.args[0] for mark in item.iter_markers("skipif")):
        return True
    return ON_POSTGRES and POSTGRES_PASS_LISTED and not _postgres_pass_runs(item)


def _postgres_pass_runs(item) -> bool:
    return (
        item.nodeid in _postgres_list()
        or postgres_pass.database_code(item.nodeid)
        or bool(_pass_reasons(item) & POSTGRES_REASONS)
    )


@functools.cache
def _postgres_list() -> frozenset[str]:
    return frozenset(postgres_pass.listed())


def _slices(count: int, workers: int) -> list[int]:
    """The sizes of the slices work stealing first deals ``count`` tests into: each worker in
    turn gets the pending tests over the workers still to serve (xdist/scheduler/worksteal.py)."""
    sizes = []
    for served in range(workers):
        sizes.append(count // (workers - served))
        count -= sizes[-1]
    return sizes


class MissingAttribute(jinja2.Undefined):
    """Jinja's undefined, but one read from an object (not a mapping, whose keys may be
    optional) that lacks the attribute fails when used."""

    __slots__ = ()

    def _strict(method):
        def checked(self, *args):
            owner = self._undefined_obj
            if owner is not jinja2.utils.missing and not isinstance(owner, Mapping):
                self._fail_with_undefined_error()
            return method(self, *args)

        return checked

    __str__ = _strict(jinja2.Undefined.__str__)
    __iter__ = _strict(jinja2.Undefined.__iter__)
    __bool__ = _strict(jinja2.Undefined.__bool__)
    __len__ = _strict(jinja2.Undefined.__len__)
    __eq__ = _strict(jinja2.Undefined.__eq__)
    __ne__ = _strict(jinja2.Undefined.__ne__)
    __hash__ = jinja2.Undefined.__hash__
    del _strict


class CompiledTemplates(jinja2.BytecodeCache):
    """Templates compiled once per test process. Each test's fresh app has a Jinja environment of
    its own, which would compile every template it renders again (a tenth of the suite's time);
    a template whose source changed is compiled afresh (Jinja checks the source's checksum)."""

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self.kept:
            bucket.bytecode_from_string(self.kept[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = CompiledTemplates()


class RuleOfTheSuite(Rule):
    """A URL rule parsed, and its URL builders compiled, once per test process. Werkzeug parses
    every rule of every app and compiles two Python functions for each; the suite makes an app
    per test, and that work was four fifths of making one (55 of 70 ms; the parsing alone, 16 of
    the 28 ms left, measured 2026-11-30). A rule's parts depend only on its text, its host or
    subdomain and its map's converters; a builder on the rule's text, its parsed parts and
    defaults, and takes the rule itself as its first argument, so the apps' rules can share it.
    Each rule gets converters of its own, bound to its map."""

    parsed: dict = {}
    builders: dict = {}

    def compile(self) -> None:
        assert self.map is not None, "rule not bound"
        key = (
            self.rule, self.subdomain, self.host, self.map.host_matching, self.merge_slashes,
            tuple(self.map.converters.items()),
        )  # fmt: skip
        if key not in self.parsed:
            super().compile()
            self.parsed[key] = (tuple(self._parts), tuple(self._trace), dict(self._converters))
            return
        parts, trace, converters = self.parsed[key]
        self._parts, self._trace = list(parts), list(trace)
        self._converters = {name: copy.copy(kept) for name, kept in converters.items()}
        for converter in self._converters.values():
            converter.map = self.map
        self.arguments |= set(converters)
        self._build = self._compile_builder(False).__get__(self, None)
        self._build_unknown = self._compile_builder(True).__get__(self, None)

    def _compile_builder(self, append_unknown: bool = True):
        defaults = repr(sorted((self.defaults or {}).items()))
        key = (self.rule, self.subdomain, self.host, tuple(self._trace), defaults, append_unknown)
        if key not in self.builders:
            self.builders[key] = super()._compile_builder(append_unknown)
        return self.builders[key]


flask.Flask.url_rule_class = RuleOfTheSuite


class CompiledStatements(dict):
    """SQL compiled once per test process. SQLAlchemy keeps a statement's compiled form in its
    engine, keyed by the engine's dialect object; the suite makes an engine per test, so each test
    compiled every statement it ran again (a sixth of a test's time, measured 2026-11-30). Here
    the key names the dialect by what its compiled SQL depends on (its class, the server's
    version, the parameter style and the JSON functions), so the engines of one database kind
    share their statements: the engines' own, and the statements each mapper's flushes send."""

    @staticmethod
    def _shared(key: tuple) -> tuple:
        dialect = key[0]
        kind = (
            type(dialect),
            dialect.server_version_info,
            dialect.paramstyle,
            getattr(dialect, "_json_serializer", None),
            getattr(dialect, "_json_deserializer", None),
        )
        return (kind, *key[1:])

    def get(self, key, default=None):
        return super().get(self._shared(key), default)

    def __setitem__(self, key, value) -> None:
        super().__setitem__(self._shared(key), value)


COMPILED_STATEMENTS = CompiledStatements()
_make_engine = flask_sqlalchemy.SQLAlchemy._make_engine


def _engine_sharing_statements(self, bind_key, options, app):
    engine = _make_engine(self, bind_key, options, app)
    engine._compiled_cache = COMPILED_STATEMENTS
    return engine


flask_sqlalchemy.SQLAlchemy._make_engine = _engine_sharing_statements
sqlalchemy.orm.Mapper._compiled_cache = COMPILED_STATEMENTS


@pytest.fixture(scope="session")
def sqlite_schema(tmp_path_factory) -> Path:
    """An SQLite file holding the models' empty schema, made once per test process: each test's
    database is a copy of it (copying takes a fraction of a millisecond; creating the tables, 20 ms
    a test)."""
    schema = tmp_path_factory.mktemp("schema") / "schema.sqlite3"
    engine = sqlalchemy.create_engine(f"sqlite:///{schema}")
    db.metadata.create_all(engine)
    engine.dispose()
    return schema


@pytest.fixture
def app(tmp_path, sqlite_schema):
    """A fresh app on a fresh database: an SQLite file per test, or a clean PostgreSQL schema."""
    sqlite_file = tmp_path / "test.sqlite3"
    if not ON_POSTGRES:
        # The schema straight from the models (tests/web/core/test_migrations.py checks that the
        # migrations make the same one): running every migration for every test would be slow.
        shutil.copyfile(sqlite_schema, sqlite_file)
    url = with_driver(TEST_DATABASE_URL) if ON_POSTGRES else f"sqlite:///{sqlite_file}"
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SQLALCHEMY_DATABASE_URI": url,
            "DEMO_SURVEY": False,
            "RATELIMIT_ENABLED": False,
            # The lab's and the planner's computations in the request's thread, behind the same
            # bound (tests/web/site/test_compute.py runs them in the pool of processes).
            "COMPUTE_PROCESSES": 0,
            # scrypt at n = 2**10 instead of 2**15: an account and its login cost about 2 ms
            # instead of 0.3 s (test_accounts.py checks that the app's own default is the full one).
            "PASSWORD_HASH_METHOD": TEST_PASSWORD_HASH,
        }
    )
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
    # A template that reads an attribute its object does not have fails the test instead of
    # printing nothing (a missing variable stays the templates' "not given").
    app.jinja_env.undefined = MissingAttribute
    if ON_POSTGRES:
        with app.app_context():
            clear_postgres()
    yield app
    with app.app_context():
        db.session.remove()
        db.engine.dispose()
    sqlite_guard.release(str(sqlite_file))


def clear_postgres() -> None:
    """Empty the models' tables where the schema is the models' own, and start their ids at 1
    again; make it afresh where a test left another (migrations, servers). DELETE, not TRUNCATE:
    a test leaves a few rows, and TRUNCATE makes every table's files anew (72 ms a test, against
    8 ms)."""
    tables = db.metadata.sorted_tables
    with db.engine.begin() as connection:
        present = set(
            connection.exec_driver_sql(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            ).scalars()
        )
        if present == {table.name for table in tables}:
            sequences = connection.exec_driver_sql(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()"
            ).scalars()
            connection.exec_driver_sql(
                "; ".join(
                    [f'DELETE FROM "{table.name}"' for table in reversed(tables)]
                    + [f'ALTER SEQUENCE "{sequence}" RESTART' for sequence in sequences]
                )
            )
            return
    db.drop_all()
    with db.engine.begin() as connection:
        connection.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
    db.create_all()


@pytest.fixture
def app_like(app):
    """Make more apps on the test's database with changed settings; each is disposed after the
    test (a pooled PostgreSQL connection left open fails the run at exit)."""
    made = []

    def make(**changes):
        other = create_app(dict(app.config, **changes))
        made.append(other)
        return other

    yield make
    for other in made:
        with other.app_context():
            db.session.remove()
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
def fielded_survey(import_survey):
    """FIELDED_SURVEY imported and open; its slug."""
    return import_survey(FIELDED_SURVEY)


@pytest.fixture
def import_survey(runner, tmp_path):
    """Import a survey given as a dict through the command line; returns its slug."""

    def make(data: dict) -> str:
        path = tmp_path / f"{data['slug']}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        result = runner.invoke(args=["import-survey", str(path)])
        assert result.exit_code == 0, result.output
        return data["slug"]

    return make


@pytest.fixture
def import_in_batches(app, import_survey):
    """Import a survey given as a dict whose results show from 2 responses and move every
    ``batch`` responses (2 unless said), so that a test sees its few submissions; its slug."""

    def make(data: dict, batch: int = 2) -> str:
        slug = import_survey(data)
        app.config["RESULTS_MIN_N"] = 2
        with app.app_context():
            find_survey(slug).results_batch = batch
            db.session.commit()
        return slug

    return make


@pytest.fixture
def imported(request, import_survey, import_in_batches, seed_responses):
    """Import a survey given as a dict, open; its slug. A module or test marked
    ``pytest.mark.imported(batch=b)`` gets results that show from 2 responses and move every b
    (:func:`import_in_batches`); ``pytest.mark.imported(responses=n, seed=s)``, n simulated
    responses drawn with seed s. The fixtures below are the surveys several modules share."""

    def make(data: dict) -> str:
        marker = request.node.get_closest_marker("imported")
        settings = marker.kwargs if marker else {}
        if "batch" in settings:
            return import_in_batches(data, settings["batch"])
        slug = import_survey(data)
        if "responses" in settings:
            seed_responses(slug, settings["responses"], seed=settings["seed"])
        return slug

    return make


@pytest.fixture
def designed(imported):
    """The survey of every binary design (``tests/web/core/surveys/designs/test_designs.py``); its slug."""
    from tests.web.core.surveys.designs.test_designs import SURVEY

    return imported(SURVEY)


@pytest.fixture
def cheaters(imported):
    """A survey asked with cheating detection (``tests/web/core/surveys/designs/test_designs.py``); its slug."""
    from tests.web.core.surveys.designs.test_designs import CHEATING_SURVEY

    return imported(CHEATING_SURVEY)


@pytest.fixture
def liars(imported):
    """A survey asked with the stochastic lie detector
    (``tests/web/core/surveys/designs/test_lie_detector.py``); its slug."""
    from tests.web.core.surveys.designs.test_lie_detector import SURVEY

    return imported(SURVEY)


@pytest.fixture
def crossed(imported):
    """A survey asked with the extended crosswise model
    (``tests/web/core/surveys/designs/test_extended_crosswise.py``); its slug."""
    from tests.web.core.surveys.designs.test_extended_crosswise import SURVEY

    return imported(SURVEY)


@pytest.fixture
def amounts(imported):
    """A survey of number questions (``tests/web/core/surveys/questions/test_numbers.py``); its slug."""
    from tests.web.core.surveys.questions.test_numbers import SURVEY

    return imported(SURVEY)


@pytest.fixture
def cards(imported):
    """A survey asked with Kuk's cards (``tests/web/core/surveys/designs/test_kuk.py``); its slug."""
    from tests.web.core.surveys.designs.test_kuk import SURVEY

    return imported(SURVEY)


@pytest.fixture
def draft(researcher):
    """A draft survey made in the builder by ``researcher``; its slug."""
    response = researcher.post(
        "/surveys/new", data={"title": "Class survey", "slug": "", "description": "Hi"}
    )
    assert response.headers["Location"] == "/surveys/class-survey/edit"
    return "class-survey"


@pytest.fixture
def seed_responses(app):
    """Fill a survey with simulated responses in-process, as the command line's
    ``simulate-responses`` does (:func:`web.simulation.simulate_responses`): ``n`` of them, every
    randomized item true with ``share`` (or with its group's: ``by = (direct question, {option:
    share})``), a share ``cheating`` of cheaters, a number question's values drawn from
    ``values``; published as one batch if they make one."""

    def seed(slug: str, n: int, *, seed=None, share=0.3, by=None, cheating=0.0, values=None):
        with app.app_context():
            survey = find_survey(slug)
            simulate_responses(survey, n, share, seed, by=by, cheating=cheating, values=values)

    return seed


@pytest.fixture
def token(runner):
    """An API token of a fresh researcher account."""
    assert (
        runner.invoke(
            args=["create-user", "ada@example.org", "--password", "correct horse"]
        ).exit_code
        == 0
    )
    result = runner.invoke(args=["create-token", "ada@example.org"])
    assert result.exit_code == 0, result.output
    return result.output.strip().splitlines()[-1]


@pytest.fixture
def write_token(runner, token):
    """A read-and-write API token of the account ``token`` belongs to (``token`` is read-only)."""
    result = runner.invoke(args=["create-token", "ada@example.org", "--write", "--label", "w"])
    assert result.exit_code == 0, result.output
    assert "read and write" in result.output
    return result.output.strip().splitlines()[-1]


class Researcher:
    """A logged-in browser session of the test client that posts forms with their CSRF token."""

    def __init__(self, client, email: str):
        self.client = client
        self.email = email
        self.token = csrf_token(client.get("/login").get_data(as_text=True))
        response = client.post(
            "/login", data={"csrf_token": self.token, "email": email, "password": PASSWORD}
        )
        assert response.status_code == 302, response.get_data(as_text=True)
        self.token = csrf_token(client.get("/account/tokens").get_data(as_text=True))

    def get(self, url, **kwargs):
        return self.client.get(url, **kwargs)

    def post(self, url, data=None, **kwargs):
        return self.client.post(url, data={"csrf_token": self.token, **(data or {})}, **kwargs)


PASSWORD = "violet kestrel 42"
TEST_PASSWORD_HASH = "scrypt:1024:8:1"


def csrf_token(html: str) -> str:
    return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)


@pytest.fixture
def make_researcher(app, runner):
    """Create an account and return a logged-in :class:`Researcher` for it."""

    def make(email: str) -> Researcher:
        result = runner.invoke(args=["create-user", email, "--password", PASSWORD])
        assert result.exit_code == 0, result.output
        return Researcher(app.test_client(), email)

    return make


@pytest.fixture
def researcher(make_researcher):
    return make_researcher("rita@example.org")


def stored_bits() -> list[dict]:
    """Every stored response's bits, published or still pending (in an app context)."""
    return [
        json.loads(bits)
        for table in (Response, PendingResponse)
        for bits in db.session.scalars(db.select(table.bits))
    ]


def stored_count() -> int:
    """How many responses are stored, published or still pending (in an app context)."""
    return sum(
        db.session.scalar(db.select(db.func.count()).select_from(table))
        for table in (Response, PendingResponse)
    )


class InFlight:
    """The app, counting the requests it is answering: a page's service worker and its outbox
    send requests of their own, which may still be running when a test ends, and the app must
    not be torn down under them (their database connection would outlive its pool)."""

    def __init__(self, app):
        self.app = app
        self.running = 0
        self._lock = threading.Lock()

    def __call__(self, environ, start_response):
        with self._lock:
            self.running += 1
        try:
            result = self.app(environ, start_response)
            try:
                return list(result)
            finally:
                if hasattr(result, "close"):
                    result.close()  # ends the request's app context, releasing its connection
        finally:
            with self._lock:
                self.running -= 1


@pytest.fixture
def live_server(app):
    """The test app on 127.0.0.1 at a free port; its base URL."""
    served = InFlight(app)
    server = make_server("127.0.0.1", 0, served, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)
    deadline = time.monotonic() + 60
    while served.running and time.monotonic() < deadline:
        time.sleep(0.01)


@pytest.fixture(scope="session")
def built_guide(tmp_path_factory) -> Path:
    """The guide as `make docs` builds it (mkdocs --strict), into a folder of its own: what
    tests/web/site/test_guide.py and tests/browser/test_guide.py serve. Built once per run: the
    first worker of pytest-xdist that needs it builds it under a lock in the run's shared
    temporary folder, and the others read that one."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # every worker's own folder sits in the run's
    folder, done = shared / "guide", shared / "guide.built"
    with open(shared / "guide.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            build = subprocess.run(
                [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir",
                 str(folder)],
                cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True,
                timeout=600, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            )  # fmt: skip
            assert build.returncode == 0, build.stderr
            done.touch()
    return folder


@pytest.fixture
def listed(imported):
    """A survey with a list experiment (``tests/web/core/surveys/designs/test_list.py``); its
    slug."""
    from tests.web.core.surveys.designs.test_list import SURVEY

    return imported(SURVEY)


@pytest.fixture
def doubled(imported):
    """A survey with a double list experiment (``tests/web/core/surveys/designs/test_double_list.py``);
    its slug."""
    from tests.web.core.surveys.designs.test_double_list import SURVEY

    return imported(SURVEY)
