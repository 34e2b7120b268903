"""Starting servers for tests and waiting for what a test started: a server that answers, a
condition that comes true.

Deadlines are generous (a loaded two-core machine takes seconds to import the app in each gunicorn
worker); a server that exits while being waited for fails the test at once, with its log.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START_DEADLINE = 180.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_serving(
    server: subprocess.Popen, url: str, log: Path | None = None, deadline: float = START_DEADLINE
) -> None:
    """Return once ``url`` answers; fail with the server's log if it exits or the deadline passes."""

    def tail() -> str:
        return log.read_text(errors="replace")[-3000:] if log and log.exists() else "(no log)"

    give_up = time.monotonic() + deadline
    while time.monotonic() < give_up:
        if server.poll() is not None:
            raise AssertionError(f"the server exited with status {server.returncode}:\n{tail()}")
        try:
            with urllib.request.urlopen(url, timeout=5):
                return
        except OSError:
            time.sleep(0.1)  # polling interval, not a wait for a condition
    raise AssertionError(f"the server did not answer {url} within {deadline:.0f} s:\n{tail()}")


def wait_for(condition: Callable[[], object], what: str, deadline: float = 60.0) -> None:
    """Poll ``condition`` until it is true; fail naming ``what`` after ``deadline`` seconds."""
    give_up = time.monotonic() + deadline
    while not condition():
        if time.monotonic() > give_up:
            raise AssertionError(f"{what}: not so after {deadline:.0f} s")
        time.sleep(0.02)


def start_gunicorn(port: int, log, **settings: str) -> subprocess.Popen:
    """The production server (``gunicorn -c gunicorn.conf.py``) on a loopback port, in a process
    group of its own (stop it with ``os.killpg``), with ``settings`` added to the environment."""
    environment = dict(
        os.environ,
        BIND=f"127.0.0.1:{port}",
        FLASK_SECRET_KEY="x",
        FLASK_SESSION_COOKIE_SECURE="false",
        **settings,
    )
    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=log,
        start_new_session=True,
    )
