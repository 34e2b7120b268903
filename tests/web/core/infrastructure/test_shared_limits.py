"""Rate limits shared through Redis by several server processes, and what happens when Redis is
down: limits fall back to each process's memory, so nothing is refused for it and nothing goes
unlimited.

`make test` starts a throwaway Redis (.ci/redis) and passes its URL as TEST_REDIS_URL."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import pytest

from tests.conftest import PASSWORD, TEST_DATABASE_URL, VALID_ANSWERS, postgres_only
from tests.servers import free_port, start_gunicorn, wait_until_serving
from tests.web.site.test_security import login_attempt
from tests.workers import worker_redis
from web.core.infrastructure.extensions import db

REDIS_URL = worker_redis(os.environ.get("TEST_REDIS_URL"))
needs_redis = pytest.mark.skipif(not REDIS_URL, reason="needs TEST_REDIS_URL (make test sets it)")
DEMO = {
    "cheated": 1,
    "skipped": 0,
    "substances": {"alcohol": 0, "tobacco": 1, "sleeping_pills": 0},
    "shared_homework": 0,
    "all_nighters": 1,
    "copied_work": "never",
    "year": None,
}


def serve(port: int, log, storage: str) -> subprocess.Popen:
    return start_gunicorn(
        port,
        log,
        DATABASE_URL=TEST_DATABASE_URL,
        WEB_CONCURRENCY="1",
        THREADS="4",
        FLASK_RATELIMIT_STORAGE_URI=storage,
        FLASK_SUBMISSION_RATE_LIMIT="10/minute",
    )


def status_of(request: urllib.request.Request, opener=None) -> int:
    try:
        with (opener or urllib.request.build_opener()).open(request, timeout=60) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def submission(base: str) -> urllib.request.Request:
    return urllib.request.Request(
        f"{base}/api/surveys/campus-life/responses",
        data=json.dumps({"answers": DEMO}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )


def failed_login(base: str, email: str) -> int:
    """A wrong password for ``email``, from a browser of its own."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    with opener.open(f"{base}/login", timeout=60) as page:
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page.read().decode()).group(1)
    form = {"csrf_token": token, "email": email, "password": "wrong"}
    request = urllib.request.Request(
        f"{base}/login", data=urllib.parse.urlencode(form).encode(), method="POST"
    )
    return status_of(request, opener)


@postgres_only
@needs_redis
def test_two_server_processes_share_the_login_and_submission_limits(app, runner, tmp_path):
    with app.app_context():
        db.drop_all()  # the servers make the schema and the demo survey themselves
        db.engine.dispose()
    ports = [free_port(), free_port()]
    servers = []
    try:
        for index, port in enumerate(ports):
            with (tmp_path / f"gunicorn-{index}.log").open("w") as log:
                servers.append(serve(port, log, REDIS_URL))
        for server, port, index in zip(servers, ports, range(2), strict=True):
            wait_until_serving(
                server, f"http://127.0.0.1:{port}/s/campus-life", tmp_path / f"gunicorn-{index}.log"
            )
        assert runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        # Alternating between the two processes: one budget, not one each. Per address and
        # account it is 5 failures a minute ...
        logins = [failed_login(bases[attempt % 2], "rita@example.org") for attempt in range(7)]
        assert logins == [200] * 5 + [429] * 2
        # ... and per address 10, whichever accounts they name.
        others = [failed_login(bases[n % 2], f"u{n}@example.org") for n in range(6)]
        assert others == [200] * 5 + [429]
        submissions = [status_of(submission(bases[attempt % 2])) for attempt in range(14)]
        assert submissions == [201] * 10 + [429] * 4
    finally:
        for server in servers:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=120)


@pytest.fixture
def redis_down(app_like):
    """The app with its limits in a Redis that is not there (a closed loopback port)."""
    return app_like(
        RATELIMIT_ENABLED=True,
        RATELIMIT_STORAGE_URI=f"redis://127.0.0.1:{free_port()}/0",
        SUBMISSION_RATE_LIMIT="10/minute",
    )


def test_with_redis_down_limits_fall_back_to_memory(redis_down, runner, survey):
    runner.invoke(args=["create-user", "rita@example.org", "--password", PASSWORD])
    client = redis_down.test_client()
    codes = [
        login_attempt(client, f"user{index}@example.org", "wrong", "10.7.7.7").status_code
        for index in range(11)
    ]
    assert codes == [200] * 10 + [429]
    assert login_attempt(client, "rita@example.org", PASSWORD, "10.7.7.8").status_code == 302
    submitted = [
        redis_down.test_client()
        .post(f"/api/surveys/{survey}/responses", json=VALID_ANSWERS)
        .status_code
        for _ in range(11)
    ]
    assert submitted == [201] * 10 + [429]
