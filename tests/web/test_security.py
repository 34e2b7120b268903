"""Headers, cookies, rate limits and logs that hold up in production."""
from __future__ import annotations

import logging
import os
import pathlib
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from werkzeug.serving import make_server

from tests.conftest import PASSWORD, VALID_ANSWERS, csrf_token, sqlite_only
from web import sqlite_guard

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_hsts_only_over_https(client):
    assert "Strict-Transport-Security" not in client.get("/").headers
    secure = client.get("/", base_url="https://localhost")
    assert secure.headers["Strict-Transport-Security"].startswith("max-age=31536000")


def test_forwarded_https_counts_behind_a_trusted_proxy(app, app_like):
    proxied = app_like(TRUST_PROXY=1)
    response = proxied.test_client().get("/", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" in response.headers
    assert "Strict-Transport-Security" not in app.test_client().get("/", headers={"X-Forwarded-Proto": "https"}).headers


def test_login_cookie_is_httponly_lax_and_secure_in_production(app, runner, monkeypatch):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    app.config["SESSION_COOKIE_SECURE"] = True
    client = app.test_client()
    token = csrf_token(client.get("/login", base_url="https://localhost").get_data(as_text=True))
    response = client.post("/login", base_url="https://localhost",
                           data={"csrf_token": token, "email": "rita@example.org", "password": PASSWORD})
    cookie = next(value for value in response.headers.getlist("Set-Cookie") if value.startswith("session="))
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" in cookie


def gunicorn_settings(monkeypatch, **environment) -> tuple[dict, dict]:
    """Run gunicorn.conf.py against a private copy of the environment; its settings and that copy."""
    private = {k: v for k, v in os.environ.items() if not k.startswith("FLASK_") and k != "DATABASE_URL"}
    private.update(environment)
    monkeypatch.setattr(os, "environ", private)
    settings = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), settings)
    return settings, private


def test_gunicorn_config_makes_cookies_secure_and_logs_no_address(monkeypatch):
    settings, environment = gunicorn_settings(monkeypatch)
    assert environment["FLASK_SESSION_COOKIE_SECURE"] == "true"
    assert settings["workers"] == 1 and settings["threads"] >= 4
    assert "%(h)s" not in settings["access_log_format"] and "%(a)s" not in settings["access_log_format"]
    assert "{x-forwarded-for}" not in settings["access_log_format"].lower()


def test_gunicorn_runs_several_processes_only_on_postgres(monkeypatch):
    settings, _ = gunicorn_settings(monkeypatch, DATABASE_URL="postgresql://u@db/rr", WEB_CONCURRENCY="4")
    assert settings["workers"] == 4


@pytest.fixture
def limited(app_like):
    return app_like(RATELIMIT_ENABLED=True)


def login_attempt(client, email, password, address):
    token = csrf_token(client.get("/login", environ_base={"REMOTE_ADDR": address}).get_data(as_text=True))
    return client.post("/login", data={"csrf_token": token, "email": email, "password": password},
                       environ_base={"REMOTE_ADDR": address})


def test_failed_logins_are_limited_per_account(limited, runner):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    client = limited.test_client()
    codes = [login_attempt(client, "rita@example.org", "wrong", f"10.0.0.{i}").status_code for i in range(11)]
    assert codes[:10] == [200] * 10 and codes[10] == 429
    assert login_attempt(client, "other@example.org", "wrong", "10.0.1.1").status_code == 200


def test_failed_logins_are_limited_per_address(limited, runner):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    client = limited.test_client()
    codes = [login_attempt(client, f"user{i}@example.org", "wrong", "10.9.9.9").status_code for i in range(11)]
    assert codes[:10] == [200] * 10 and codes[10] == 429
    blocked = login_attempt(client, "x@example.org", "wrong", "10.9.9.9")
    assert "Too many attempts" in blocked.get_data(as_text=True)


def test_successful_logins_do_not_count(limited, runner):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    for _ in range(12):
        client = limited.test_client()
        assert login_attempt(client, "rita@example.org", PASSWORD, "10.1.1.1").status_code == 302


def test_a_lecture_hall_behind_one_address_is_never_blocked(limited, survey):
    codes = [
        limited.test_client().post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS,
                                   environ_base={"REMOTE_ADDR": "192.0.2.10"}).status_code
        for _ in range(300)
    ]
    assert codes == [201] * 300


def test_a_client_flooding_a_survey_is_stopped(limited, survey):
    flood = limited.test_client()
    codes = [flood.post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS,
                        environ_base={"REMOTE_ADDR": "192.0.2.66"}).status_code for _ in range(620)]
    assert 429 in codes and codes.count(429) >= 19
    refused = flood.post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS,
                         environ_base={"REMOTE_ADDR": "192.0.2.66"})
    assert refused.status_code == 429 and "error" in refused.json
    other = limited.test_client().post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS,
                                       environ_base={"REMOTE_ADDR": "192.0.2.67"})
    assert other.status_code == 201


def test_rate_limits_can_be_switched_off(app, survey):
    client = app.test_client()
    codes = {client.post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS).status_code for _ in range(3)}
    assert 429 not in codes


def test_development_server_log_has_no_client_address(app, survey, caplog):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with caplog.at_level(logging.INFO, logger="werkzeug"):
            request = urllib.request.Request(
                f"http://127.0.0.1:{server.server_port}/api/surveys/{survey}/responses",
                data=b'{"answers": {"cheated": 1, "substances": {"alcohol": 0, "tobacco": 1}}}',
                headers={"Content-Type": "application/json"}, method="POST")
            assert urllib.request.urlopen(request).status == 201
            time.sleep(0.2)
    finally:
        server.shutdown()
    lines = [record.getMessage() for record in caplog.records if "/responses" in record.getMessage()]
    assert lines and not any("127.0.0.1" in line for line in lines)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@sqlite_only
def test_gunicorn_access_log_has_no_client_address(tmp_path, runner, survey_file):
    database = tmp_path / "served.sqlite3"
    port = free_port()
    environment = dict(os.environ, DATABASE_URL=f"sqlite:///{database}", BIND=f"127.0.0.1:{port}",
                       FLASK_SECRET_KEY="x", FLASK_RATELIMIT_ENABLED="false", ACCESS_LOG=str(tmp_path / "access.log"))
    server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"],
                              cwd=ROOT, env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/s/campus-life", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/api/surveys/campus-life/responses",
            data=b'{"answers": {"cheated": 1, "skipped": 0, "substances": {"alcohol": 0, "tobacco": 1, "sleeping_pills": 0}}}',
            headers={"Content-Type": "application/json", "User-Agent": "ProbeAgent/1"}, method="POST")
        assert urllib.request.urlopen(request, timeout=5).status == 201
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=20)
    log = (tmp_path / "access.log").read_text()
    assert "/api/surveys/campus-life/responses" in log
    assert "127.0.0.1" not in log and "ProbeAgent" not in log


HOLDER = """
import sys, time
sys.path.insert(0, {root!r})
from web import sqlite_guard
sqlite_guard.claim({database!r})
print("held", flush=True)
time.sleep(30)
"""


@pytest.fixture
def other_writer(tmp_path):
    database = str(tmp_path / "shared.sqlite3")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER.format(root=str(ROOT), database=database)],
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "held"
    yield database, holder.pid
    holder.kill()
    holder.wait()
    holder.stdout.close()


def test_second_process_may_not_write_the_same_sqlite_file(other_writer):
    database, pid = other_writer
    with pytest.raises(sqlite_guard.AnotherWriter, match=rf"pid {pid}.*PostgreSQL"):
        sqlite_guard.claim(database, wait=0.2)


def test_the_claim_is_freed_when_the_writer_dies(other_writer):
    database, pid = other_writer
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.2)
    sqlite_guard.claim(database, wait=2)
    sqlite_guard.release(database)


def test_cli_refuses_to_write_beside_another_writer(other_writer, tmp_path, survey_file):
    database, pid = other_writer
    environment = dict(os.environ, DATABASE_URL=f"sqlite:///{database}", FLASK_SECRET_KEY="x")
    result = subprocess.run([sys.executable, "-m", "flask", "--app", "app", "import-survey", str(survey_file)],
                            cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert f"another process (pid {pid}) is writing" in result.stderr + result.stdout


def test_guard_is_needed_only_before_the_fix():
    assert sqlite_guard.needed((3, 40, 1)) and sqlite_guard.needed((3, 51, 2))
    assert not sqlite_guard.needed((3, 51, 3)) and not sqlite_guard.needed((3, 53, 0))


@pytest.mark.parametrize(("statement", "write"), [
    ("INSERT INTO response", True), ("  update survey set", True), ("DELETE FROM x", True),
    ("CREATE TABLE t", True), ("SELECT 1", False), ("PRAGMA journal_mode=WAL", False),
])
def test_writes_are_recognised(statement, write):
    assert sqlite_guard.is_write(statement) is write


def test_security_headers_come_once_and_a_view_may_set_its_own(app_like, survey):
    other = app_like()
    other.add_url_rule("/own-policy", "own_policy",
                       lambda: ("", 204, {"content-security-policy": "default-src 'none'"}))
    client = other.test_client()
    own = client.get("/own-policy").headers
    assert own.getlist("Content-Security-Policy") == ["default-src 'none'"]
    submitted = client.post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS).headers
    for name in ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"):
        assert len(submitted.getlist(name)) == 1
