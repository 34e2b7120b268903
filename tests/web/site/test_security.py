"""Headers, cookies, rate limits and logs that hold up in production."""

from __future__ import annotations

import json
import logging
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest
from werkzeug.serving import make_server

from tests.conftest import PASSWORD, VALID_ANSWERS, Researcher, csrf_token, sqlite_only
from tests.servers import ROOT, free_port, wait_for, wait_until_serving
from web.core.infrastructure import sqlite_guard
from web.core.surveys.lookup import find_survey

DEMO_ANSWERS = {
    "cheated": 1,
    "skipped": 0,
    "substances": {"alcohol": 0, "tobacco": 1, "sleeping_pills": 0},
    "shared_homework": 1,
    "all_nighters": 1,
    "copied_work": "once",
    "year": "first",
}


def test_hsts_only_over_https(client):
    assert "Strict-Transport-Security" not in client.get("/").headers
    secure = client.get("/", base_url="https://localhost")
    assert secure.headers["Strict-Transport-Security"].startswith("max-age=31536000")


def test_forwarded_https_counts_behind_a_trusted_proxy(app, app_like):
    proxied = app_like(TRUST_PROXY=1)
    response = proxied.test_client().get("/", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" in response.headers
    assert (
        "Strict-Transport-Security"
        not in app.test_client().get("/", headers={"X-Forwarded-Proto": "https"}).headers
    )


def test_login_cookie_is_httponly_lax_and_secure_in_production(app, runner, monkeypatch):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    app.config["SESSION_COOKIE_SECURE"] = True
    client = app.test_client()
    token = csrf_token(client.get("/login", base_url="https://localhost").get_data(as_text=True))
    response = client.post(
        "/login",
        base_url="https://localhost",
        data={"csrf_token": token, "email": "rita@example.org", "password": PASSWORD},
    )
    cookie = next(
        value for value in response.headers.getlist("Set-Cookie") if value.startswith("session=")
    )
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" in cookie


def gunicorn_settings(monkeypatch, **environment) -> tuple[dict, dict]:
    """Run gunicorn.conf.py against a private copy of the environment; its settings and that copy."""
    private = {
        k: v for k, v in os.environ.items() if not k.startswith("FLASK_") and k != "DATABASE_URL"
    }
    private.update(environment)
    monkeypatch.setattr(os, "environ", private)
    settings = {}
    exec((ROOT / "gunicorn.conf.py").read_text(), settings)
    return settings, private


def test_gunicorn_config_makes_cookies_secure_and_logs_no_address(monkeypatch):
    settings, environment = gunicorn_settings(monkeypatch)
    assert environment["FLASK_SESSION_COOKIE_SECURE"] == "true"
    assert settings["workers"] == 1 and settings["threads"] >= 4
    assert (
        "%(h)s" not in settings["access_log_format"]
        and "%(a)s" not in settings["access_log_format"]
    )
    assert "{x-forwarded-for}" not in settings["access_log_format"].lower()


def test_gunicorn_trusts_forwarded_headers_only_behind_a_proxy(monkeypatch):
    alone, _ = gunicorn_settings(monkeypatch)
    assert alone["forwarded_allow_ips"] == ""
    assert alone["control_socket_disable"] is True
    behind, _ = gunicorn_settings(monkeypatch, FLASK_TRUST_PROXY="1")
    assert behind["forwarded_allow_ips"] == "127.0.0.1,::1"
    told, _ = gunicorn_settings(monkeypatch, FLASK_TRUST_PROXY="1", FORWARDED_ALLOW_IPS="10.0.0.5")
    assert told["forwarded_allow_ips"] == "10.0.0.5"


def test_gunicorn_runs_several_processes_only_on_postgres(monkeypatch):
    settings, _ = gunicorn_settings(
        monkeypatch, DATABASE_URL="postgresql://u@db/rr", WEB_CONCURRENCY="4"
    )
    assert settings["workers"] == 4


@pytest.fixture
def limited(app_like):
    return app_like(RATELIMIT_ENABLED=True)


def login_attempt(client, email, password, address):
    token = csrf_token(
        client.get("/login", environ_base={"REMOTE_ADDR": address}).get_data(as_text=True)
    )
    return client.post(
        "/login",
        data={"csrf_token": token, "email": email, "password": password},
        environ_base={"REMOTE_ADDR": address},
    )


def test_failed_logins_are_limited_per_address_and_account(limited, runner):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    client = limited.test_client()
    codes = [
        login_attempt(client, "rita@example.org", "wrong", "10.0.0.1").status_code for _ in range(6)
    ]
    assert codes == [200] * 5 + [429]
    # The same address may still try another account (its own limit is 10 a minute) ...
    assert login_attempt(client, "other@example.org", "wrong", "10.0.0.1").status_code == 200
    # ... and another address this one.
    assert login_attempt(client, "rita@example.org", "wrong", "10.0.0.2").status_code == 200


def test_nobody_can_lock_a_researcher_out(limited, runner):
    # An attacker spends the account's hourly budget of failures from many addresses.
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    client = limited.test_client()
    for index in range(30):
        attempt = login_attempt(client, "rita@example.org", "wrong", f"10.1.{index}.1")
        assert attempt.status_code == 200
    # Every address that failed on the account is now refused, even with the right password ...
    assert login_attempt(client, "rita@example.org", "wrong", "10.1.0.1").status_code == 429
    assert login_attempt(client, "rita@example.org", PASSWORD, "10.1.1.1").status_code == 429
    # ... but the researcher, from an address that has not failed, logs in.
    researcher = limited.test_client()
    assert login_attempt(researcher, "rita@example.org", PASSWORD, "192.0.2.44").status_code == 302


def test_failed_logins_are_limited_per_address(limited, runner):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    client = limited.test_client()
    codes = [
        login_attempt(client, f"user{i}@example.org", "wrong", "10.9.9.9").status_code
        for i in range(11)
    ]
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
        limited.test_client()
        .post(
            f"/api/surveys/{survey}/responses",
            json=VALID_ANSWERS,
            environ_base={"REMOTE_ADDR": "192.0.2.10"},
        )
        .status_code
        for _ in range(300)
    ]
    assert codes == [201] * 300


def test_a_client_flooding_a_survey_is_stopped(limited, survey):
    flood = limited.test_client()
    codes = [
        flood.post(
            f"/api/surveys/{survey}/responses",
            json=VALID_ANSWERS,
            environ_base={"REMOTE_ADDR": "192.0.2.66"},
        ).status_code
        for _ in range(620)
    ]
    assert 429 in codes and codes.count(429) >= 19
    refused = flood.post(
        f"/api/surveys/{survey}/responses",
        json=VALID_ANSWERS,
        environ_base={"REMOTE_ADDR": "192.0.2.66"},
    )
    assert refused.status_code == 429 and "error" in refused.json
    other = limited.test_client().post(
        f"/api/surveys/{survey}/responses",
        json=VALID_ANSWERS,
        environ_base={"REMOTE_ADDR": "192.0.2.67"},
    )
    assert other.status_code == 201


def test_rate_limits_can_be_switched_off(app, survey):
    client = app.test_client()
    codes = {
        client.post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS).status_code
        for _ in range(3)
    }
    assert 429 not in codes


def post_answers(url: str, answers: dict, **headers) -> int:
    request = urllib.request.Request(
        url,
        data=json.dumps({"answers": answers}).encode(),
        headers={"Content-Type": "application/json", **headers},
        method="POST",
    )
    try:
        return urllib.request.urlopen(request, timeout=5).status
    except urllib.error.HTTPError as error:
        return error.code


def post_chunked(base: str, path: str, body: bytes, content_type: str) -> int:
    """POST ``body`` in 64 KiB chunks with no Content-Length; the status. A server that refuses
    the body may answer and stop reading before it is all sent: the client stops sending once an
    answer is there (writing on would make the server's kernel reset the connection and drop the
    answer unread), and a closed pipe is taken as such an answer."""
    host, port = base.removeprefix("http://").split(":")
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}:{port}\r\nContent-Type: {content_type}\r\n"
        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    )
    pieces = [body[start : start + 65536] for start in range(0, len(body), 65536)]
    with socket.create_connection((host, int(port)), timeout=30) as connection:
        try:
            connection.sendall(head.encode())
            for piece in pieces:
                if select.select([connection], [], [], 0)[0]:
                    break  # answered already
                connection.sendall(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            else:
                connection.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        reply = b""
        while b"\r\n" not in reply:
            received = connection.recv(4096)
            if not received:
                break
            reply += received
    return int(reply.split(b" ", 2)[1])


PADDED = json.dumps({"answers": VALID_ANSWERS["answers"]}).encode() + b" " * 2**21 + b"x"


def test_chunked_bodies_over_the_limit_are_refused(app, survey):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        path = f"/api/surveys/{survey}/responses"
        assert post_chunked(base, path, PADDED, "application/json") == 413
        small = json.dumps(VALID_ANSWERS).encode()
        assert post_chunked(base, path, small, "application/json") == 201
        upload = b'--b\r\nContent-Disposition: form-data; name="file"; filename="s.json"\r\n\r\n'
        upload += b" " * 2**21 + b"\r\n--b--\r\n"
        assert (
            post_chunked(base, "/surveys/import", upload, "multipart/form-data; boundary=b") == 413
        )
    finally:
        server.shutdown()
    with app.app_context():
        assert find_survey(survey).response_count == 1


def test_development_server_log_has_no_address_and_no_stored_response(app, survey, caplog):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        with caplog.at_level(logging.INFO, logger="werkzeug"):
            assert (
                post_answers(f"{base}/api/surveys/{survey}/responses", VALID_ANSWERS["answers"])
                == 201
            )
            assert post_answers(f"{base}/api/surveys/{survey}/responses", {"cheated": 7}) == 400
            # A panel's id in the page's address is logged nowhere (web/core/surveys/panel.py).
            with urllib.request.urlopen(f"{base}/s/{survey}?PROLIFIC_PID=secret-id-123") as page:
                assert page.status == 200

            def logged():
                return [
                    record.getMessage()
                    for record in caplog.records
                    if "/responses" in record.getMessage()
                ]

            # Request lines are logged after the reply is sent, by the server's threads: the
            # refused submission's line comes, the stored one's never does.
            wait_for(logged, "the development server logged the refused submission")
    finally:
        server.shutdown()
    assert len(logged()) == 1 and '" 400 ' in logged()[0]
    assert not any("127.0.0.1" in line for line in logged())
    wait_for(lambda: [r for r in caplog.records if f"/s/{survey}" in r.getMessage()],
             "the development server logged the page")  # fmt: skip
    assert not any("secret-id-123" in record.getMessage() for record in caplog.records)


@sqlite_only
def test_gunicorn_access_log_has_no_address_and_no_stored_response(tmp_path, runner, survey_file):
    database = tmp_path / "served.sqlite3"
    port = free_port()
    environment = dict(
        os.environ,
        DATABASE_URL=f"sqlite:///{database}",
        BIND=f"127.0.0.1:{port}",
        FLASK_SECRET_KEY="x",
        FLASK_RATELIMIT_ENABLED="false",
        ACCESS_LOG=str(tmp_path / "access.log"),
        XDG_RUNTIME_DIR=str(tmp_path),  # where gunicorn would put its control socket
    )
    log = tmp_path / "gunicorn.log"
    with log.open("w") as log_file:
        server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"],
            cwd=ROOT,
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=log_file,
        )
    try:
        wait_until_serving(server, f"http://127.0.0.1:{port}/s/campus-life", log)
        url = f"http://127.0.0.1:{port}/api/surveys/campus-life/responses"
        assert post_answers(url, DEMO_ANSWERS, **{"User-Agent": "ProbeAgent/1"}) == 201
        assert post_answers(url, {"no_such_question": 1}, **{"User-Agent": "ProbeAgent/1"}) == 400
        base = f"http://127.0.0.1:{port}"
        assert (
            post_chunked(base, "/api/surveys/campus-life/responses", PADDED, "application/json")
            == 413
        )
        with socket.create_connection(("127.0.0.1", port), timeout=10) as malformed:
            malformed.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            assert malformed.recv(100).startswith(b"HTTP/1.1 400")
        # Without FLASK_TRUST_PROXY a local client cannot claim HTTPS: no HSTS, no secure scheme.
        claimed = urllib.request.Request(
            f"{base}/s/campus-life", headers={"X-Forwarded-Proto": "https"}
        )
        with urllib.request.urlopen(claimed, timeout=30) as page:
            assert "Strict-Transport-Security" not in page.headers
        # A panel's id in the page's address reaches no log (web/core/surveys/panel.py).
        with urllib.request.urlopen(f"{base}/s/campus-life?PROLIFIC_PID=secret-pid-42", timeout=30):
            pass
        assert not (tmp_path / "gunicorn.ctl").exists()
    finally:
        server.send_signal(signal.SIGTERM)
        # Up to gunicorn's graceful_timeout (20 s) for its workers, then the master's own exit:
        # longer on a loaded machine (it once took past 20 s beside the rest of the suite).
        server.wait(timeout=120)
    log = (tmp_path / "access.log").read_text()
    # Every request is logged but the stored response, which a line would give a time.
    # Each worker writes its own lines, so two workers' lines may come in either order.
    statuses = sorted(line.split('" ')[1][:3] for line in log.splitlines() if "/responses" in line)
    assert statuses == ["400", "413"]
    assert "GET /s/campus-life" in log
    assert "127.0.0.1" not in log and "ProbeAgent" not in log
    assert (
        "secret-pid-42" not in log
        and "secret-pid-42" not in (tmp_path / "gunicorn.log").read_text()
    )
    errors = (tmp_path / "gunicorn.log").read_text()
    # The server names its own address once, when it starts listening; no client's appears.
    assert "Invalid request from ip=-" in errors
    assert [
        line for line in errors.splitlines() if "127.0.0.1" in line and "Listening at" not in line
    ] == []


HOLDER = """
import sys, time
sys.path.insert(0, {root!r})
from web.core.infrastructure import sqlite_guard
from web.core.surveys.lookup import find_survey
sqlite_guard.claim({database!r})
print("held", flush=True)
sys.stdin.read()  # hold the claim until the test closes our input or kills us
"""


@pytest.fixture
def other_writer(tmp_path):
    """A database with its schema and demo survey, as a running server leaves it, and another
    process that holds its write claim, as that server does."""
    database = str(tmp_path / "shared.sqlite3")
    environment = dict(os.environ, DATABASE_URL=f"sqlite:///{database}", FLASK_SECRET_KEY="x")
    subprocess.run(
        [
            sys.executable,
            "-c",
            "from app import create_app; from web.core.startup import prepare_database; "
            "prepare_database(create_app())",
        ],
        cwd=ROOT,
        env=environment,
        check=True,
        timeout=120,
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER.format(root=str(ROOT), database=database)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "held"
    yield database, holder.pid
    holder.kill()
    holder.wait()
    holder.stdin.close()
    holder.stdout.close()


@sqlite_only
def test_second_process_may_not_write_the_same_sqlite_file(other_writer):
    database, pid = other_writer
    with pytest.raises(sqlite_guard.AnotherWriter, match=rf"pid {pid}.*PostgreSQL"):
        sqlite_guard.claim(database, wait=0.2)


@sqlite_only
def test_the_claim_is_freed_when_the_writer_dies(other_writer):
    database, pid = other_writer
    os.kill(pid, signal.SIGKILL)
    # The kernel drops a dead process's lock; claim polls for it, with room for a busy machine.
    sqlite_guard.claim(database, wait=60)
    sqlite_guard.release(database)


@pytest.mark.parametrize(
    "command",
    [
        ["import-survey", "{survey_file}"],
        ["create-user", "new@example.org", "--password", "long enough"],
    ],
)
@sqlite_only
def test_cli_refuses_to_write_beside_another_writer_in_one_line(
    other_writer, tmp_path, survey_file, command
):
    database, pid = other_writer
    environment = dict(os.environ, DATABASE_URL=f"sqlite:///{database}", FLASK_SECRET_KEY="x")
    arguments = [argument.format(survey_file=survey_file) for argument in command]
    result = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "app", *arguments],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert (
        result.stderr.startswith("Error: another process")
        and f"(pid {pid}) is writing" in result.stderr
    )
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_guard_is_needed_only_before_the_fix():
    assert sqlite_guard.needed((3, 40, 1)) and sqlite_guard.needed((3, 51, 2))
    assert not sqlite_guard.needed((3, 51, 3)) and not sqlite_guard.needed((3, 53, 0))


@pytest.mark.parametrize(
    ("statement", "write"),
    [
        ("INSERT INTO response", True),
        ("  update survey set", True),
        ("DELETE FROM x", True),
        ("CREATE TABLE t", True),
        ("SELECT 1", False),
        ("PRAGMA journal_mode=WAL", False),
    ],
)
def test_writes_are_recognised(statement, write):
    assert sqlite_guard.is_write(statement) is write


def test_security_headers_come_once_and_a_view_may_set_its_own(app_like, survey):
    other = app_like()
    other.add_url_rule(
        "/own-policy",
        "own_policy",
        lambda: ("", 204, {"content-security-policy": "default-src 'none'"}),
    )
    client = other.test_client()
    own = client.get("/own-policy").headers
    assert own.getlist("Content-Security-Policy") == ["default-src 'none'"]
    submitted = client.post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS).headers
    for name in ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"):
        assert len(submitted.getlist(name)) == 1


PUBLIC = "https://surveys.example.edu"


def test_the_qr_code_and_shared_links_come_from_public_url(app_like, runner, survey, researcher):
    served = app_like(PUBLIC_URL=PUBLIC + "/")
    client = served.test_client()
    for headers in ({"Host": "evil.example"}, {"X-Forwarded-Host": "evil.example"}):
        response = client.get(f"/s/{survey}/qr.svg", headers=headers)
        svg = response.get_data(as_text=True)
        assert f"{PUBLIC}/s/{survey}" in svg and "evil.example" not in svg
        assert response.headers["Cache-Control"] == "private, max-age=300"
    # The projector's address too.
    teacher = Researcher(served.test_client(), researcher.email)
    html = teacher.get(f"/surveys/{survey}/present").get_data(as_text=True)
    assert f'<p class="join-url">{PUBLIC}/s/{survey}</p>' in html


def test_public_url_must_be_an_address(app_like):
    with pytest.raises(ValueError, match="PUBLIC_URL must look like"):
        app_like(PUBLIC_URL="surveys.example.edu")


def test_trusted_hosts_refuse_any_other_host(app_like, survey):
    client = app_like(TRUSTED_HOSTS=["surveys.example.edu"]).test_client()
    assert client.get(f"/s/{survey}", headers={"Host": "surveys.example.edu"}).status_code == 200
    refused = client.get(f"/s/{survey}", headers={"Host": "evil.example"})
    assert refused.status_code == 400 and "error" in refused.json


def test_join_codes_cannot_be_tried_one_by_one(limited, survey):
    client = limited.test_client()
    codes = [
        client.get(f"/j/ZZZZ{index % 10}", environ_base={"REMOTE_ADDR": "192.0.2.5"}).status_code
        for index in range(61)
    ]
    assert codes[:60] == [404] * 60 and codes[60] == 429
    with limited.app_context():
        code = find_survey(survey).join_code
    other = client.get(f"/j/{code}", environ_base={"REMOTE_ADDR": "192.0.2.6"})
    assert other.status_code == 302


def test_field_device_links_cannot_be_tried_one_by_one(limited, survey):
    client = limited.test_client()
    tried = [
        client.get(f"/s/{survey}/field/guess{index}", environ_base={"REMOTE_ADDR": "192.0.2.7"})
        for index in range(61)
    ]
    assert [response.status_code for response in tried[:60]] == [404] * 60
    assert tried[60].status_code == 429
    # Another address still reaches the page's answer (an unknown link: 404).
    other = client.get(f"/s/{survey}/field/guess", environ_base={"REMOTE_ADDR": "192.0.2.8"})
    assert other.status_code == 404


def test_gunicorn_refuses_a_public_bind_without_public_url(tmp_path):
    environment = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PUBLIC_URL", "FLASK_PUBLIC_URL")
    }
    environment.update(BIND=f"0.0.0.0:{free_port()}", DATABASE_URL=f"sqlite:///{tmp_path / 'g.db'}")
    refused = subprocess.run(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 1
    assert refused.stderr.strip().splitlines() == [
        f"Refusing to serve on {environment['BIND']} without PUBLIC_URL: set PUBLIC_URL to the "
        "address respondents open (e.g. PUBLIC_URL=https://surveys.example.edu)."
    ]


def test_cookies_over_https_are_secure_and_host_only(app_like, survey, runner):
    # As gunicorn.conf.py sets it up: every cookie Secure, with the __Host- prefix.
    served = app_like(SESSION_COOKIE_SECURE=True, REMEMBER_COOKIE_SECURE=True)
    client = served.test_client()
    base = {"base_url": "https://localhost"}
    answered = client.post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS, **base)
    language = client.get("/lang/ko?next=/", **base)
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    token = csrf_token(client.get("/login", **base).get_data(as_text=True))
    login = client.post(
        "/login",
        data={"csrf_token": token, "email": "rita@example.org", "password": PASSWORD},
        **base,
    )
    cookies = [
        header
        for response in (answered, language, login)
        for header in response.headers.getlist("Set-Cookie")
    ]
    names = {cookie.split("=", 1)[0] for cookie in cookies}
    assert names == {"__Host-rr_answered", "__Host-lang", "__Host-session"}
    for cookie in cookies:
        assert "Secure" in cookie and "Path=/" in cookie and "Domain" not in cookie, cookie
    # And they are read back under those names.
    assert client.get("/surveys", **base).status_code == 200
    again = client.post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS, **base)
    assert again.status_code == 409
