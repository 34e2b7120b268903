"""A flood of costly anonymous requests against a respondent's survey page, on loopback.

The app is served as in production (gunicorn.conf.py: one gthread worker of 16 threads on SQLite)
with the demo survey. Sixteen anonymous clients loop over the public computations that cost the
most (the lab page with a fresh report setting and a fresh ε of the designs' comparison, the
report's experiment at its limits, the change planner at 10⁴ per wave, the distribution at its
limits), each request with fresh parameters so that no cache answers it. Meanwhile one respondent
loads the survey page every 0.2 s, from a process of its own.

Printed: the survey page's latency (median, p95, max) and the flood's answers by status. The
target (docs/performance.md): p95 ≤ 300 ms and max ≤ 1 s, and the flood gets only 200, 429 or 503.

Run: python bench/flood.py [--seconds 60] [--clients 16] [--no-limits]
(--no-limits switches the rate limits off, to see the compute pool hold on its own). Prints
figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import http.client
import multiprocessing
import os
import pathlib
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import free_port  # noqa: E402

SURVEY_PAGE = "/s/campus-life"
RESPONDENT_EVERY = 0.2


def costly_path(rng: random.Random) -> str:
    """One costly public request with parameters no cache has seen."""
    fresh = rng.random()
    return rng.choice(
        [
            f"/lab?report_n={rng.randint(10, 10_000)}&report_low={fresh:.9f}&report_high=100",
            f"/lab?designs_epsilon={0.05 + 4.9 * fresh:.3f}",
            "/api/lab/report?n=1476&low=0&high=100&mean=50&variance=225"
            f"&accounting=total&posterior=noise_aware&runs={rng.randint(100, 200)}",
            "/api/plan/change?procedure=spinner_coin&epsilon=1&n=10000&n_2=10000"
            f"&baseline={0.05 + 0.5 * fresh:.9f}&change=0.05",
            f"/api/lab/distribution?n=1000000&trials=20000&true_proportion={fresh:.9f}",
        ]
    )


def flood(port: int, stop: threading.Event, statuses: collections.Counter, seed: int) -> None:
    """One anonymous client: costly requests back to back until ``stop``."""
    rng = random.Random(seed)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    while not stop.is_set():
        try:
            connection.request("GET", costly_path(rng))
            response = connection.getresponse()
            response.read()
            statuses[response.status] += 1
        except (OSError, http.client.HTTPException):
            statuses["connection error"] += 1
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)


def respondent(port: int, seconds: float, results) -> None:
    """Load the survey page every 0.2 s for ``seconds``; put the latencies (s) and statuses."""
    latencies, statuses = [], collections.Counter()
    end = time.monotonic() + seconds
    next_start = time.monotonic()
    while next_start < end:
        time.sleep(max(0.0, next_start - time.monotonic()))
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(
                f"http://127.0.0.1:{port}{SURVEY_PAGE}", timeout=60
            ) as page:
                page.read()
                statuses[page.status] += 1
        except urllib.error.HTTPError as error:
            statuses[error.code] += 1
        latencies.append(time.perf_counter() - started)
        next_start += RESPONDENT_EVERY
    results.put((latencies, dict(statuses)))


@contextlib.contextmanager
def served(folder: pathlib.Path, limits: bool):
    """The app under gunicorn.conf.py on a free loopback port, on a fresh SQLite database with
    the demo survey; yields the port."""
    port = free_port()
    environment = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{folder / 'flood.sqlite3'}",
        "BIND": f"127.0.0.1:{port}",
        "FLASK_SECRET_KEY": "flood",
        "FLASK_SESSION_COOKIE_SECURE": "false",
        "FLASK_RATELIMIT_ENABLED": "true" if limits else "false",
        "ACCESS_LOG": "/dev/null",
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}{SURVEY_PAGE}", timeout=5).read()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit("the server did not start")
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=60)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--no-limits", action="store_true", help="switch the rate limits off")
    arguments = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as folder,
        served(pathlib.Path(folder), not arguments.no_limits) as port,
    ):
        # Warm: the first survey page and the pool's first start are not the flood's doing.
        urllib.request.urlopen(f"http://127.0.0.1:{port}/api/lab/distribution?n=10", timeout=120)
        quiet = multiprocessing.get_context("spawn").Queue()
        respondent(port, 5, quiet)
        calm, _ = quiet.get()
        stop, statuses = threading.Event(), collections.Counter()
        clients = [
            threading.Thread(target=flood, args=(port, stop, statuses, seed), daemon=True)
            for seed in range(arguments.clients)
        ]
        for client in clients:
            client.start()
        results = multiprocessing.get_context("spawn").Queue()
        measuring = multiprocessing.get_context("spawn").Process(
            target=respondent, args=(port, arguments.seconds, results)
        )
        measuring.start()
        latencies, page_statuses = results.get()
        measuring.join()
        stop.set()
        for client in clients:
            client.join(180)
    ms = [latency * 1000 for latency in latencies]
    calm_ms = [latency * 1000 for latency in calm]
    print(f"rate limits: {'off' if arguments.no_limits else 'on'}; {arguments.clients} clients")
    print(
        f"survey page alone:  median {statistics.median(calm_ms):.1f} ms, max {max(calm_ms):.1f} ms"
    )
    print(
        f"survey page, flood: {len(ms)} loads, median {statistics.median(ms):.1f} ms, "
        f"p95 {percentile(ms, 0.95):.1f} ms, max {max(ms):.1f} ms, statuses {page_statuses}"
    )
    print(f"flood answers: {dict(sorted(statuses.items(), key=str))}")


if __name__ == "__main__":
    main()
