"""Nothing outlives its server: the compute pool's processes end when the web process that started
them dies (SIGKILL, as the OOM killer or gunicorn's timeout sends), and none of the server's
processes is left once it stops, gracefully or by SIGTERM to its whole process group."""

from __future__ import annotations

import os
import signal
import urllib.request
from pathlib import Path

import pytest

from tests.conftest import no_database
from tests.servers import free_port, start_gunicorn, wait_for, wait_until_serving

pytestmark = [no_database, pytest.mark.long]

PLAN = "/api/plan/change?procedure=spinner_coin&epsilon=1&n=300&baseline=0.2&change=0.1"
# Seconds within which every process of a stopped server must be gone.
GONE_WITHIN = 10.0


def group_of(pgid: int) -> dict[int, int]:
    """The live processes of process group ``pgid``: pid → parent pid (zombies left out)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid pgrp …; comm may hold spaces and parentheses.
        state, parent, group = stat.rsplit(")", 1)[1].split()[:3]
        if int(group) == pgid and state != "Z":
            found[int(entry.name)] = int(parent)
    return found


@pytest.fixture
def served(tmp_path):
    """gunicorn on SQLite with a compute pool of one process, its pool started by a plan; the
    server, the web worker's pid and the pool worker's pid."""
    port = free_port()
    log = (tmp_path / "gunicorn.log").open("w")
    server = start_gunicorn(
        port,
        log,
        DATABASE_URL=f"sqlite:///{tmp_path / 'served.sqlite3'}",
        FLASK_COMPUTE_PROCESSES="1",
        FLASK_COMPUTE_NICENESS="0",
        FLASK_RATELIMIT_ENABLED="false",
        XDG_RUNTIME_DIR=str(tmp_path),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(server, f"{base}/", tmp_path / "gunicorn.log")
        with urllib.request.urlopen(base + PLAN, timeout=120) as reply:
            assert reply.status == 200
        web = [pid for pid, parent in group_of(server.pid).items() if parent == server.pid]
        assert len(web) == 1, group_of(server.pid)
        pool = [pid for pid, parent in group_of(server.pid).items() if parent == web[0]]
        assert pool, "the plan started no pool process"
        yield server, web[0], pool, base
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=60)
        log.close()


def test_pool_processes_end_with_a_killed_web_worker_and_none_outlives_the_stop(served):
    server, web, pool, base = served
    os.kill(web, signal.SIGKILL)
    wait_for(lambda: not set(pool) & set(group_of(server.pid)), "the pool ends with its worker",
             GONE_WITHIN)  # fmt: skip
    # The master starts another worker, which starts a pool of its own.
    wait_until_serving(server, f"{base}/")
    with urllib.request.urlopen(base + PLAN, timeout=120) as reply:
        assert reply.status == 200
    server.send_signal(signal.SIGTERM)  # the master's graceful stop
    server.wait(timeout=60)
    wait_for(lambda: not group_of(server.pid), "no process of the server is left", GONE_WITHIN)


def test_sigterm_to_the_whole_group_leaves_no_process(served):
    server, _web, _pool, _base = served
    os.killpg(server.pid, signal.SIGTERM)
    server.wait(timeout=60)
    wait_for(lambda: not group_of(server.pid), "no process of the server is left", GONE_WITHIN)
