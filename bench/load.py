"""Submission throughput and results latency under wrk, against gunicorn on loopback.

1. Submissions: the app's POST /api/surveys/campus-life/responses (each with its own
   Idempotency-Key, as the survey page sends them) beside a minimal Flask + SQLite
   insert endpoint (bench/baseline_app.py) and a constant WSGI reply (the server's own ceiling),
   all under gunicorn with the same settings (one gthread worker, the same threads, no access log)
   and running side by side. Each round measures the three back to back, in alternating order;
   the median throughput and p99 latency are printed, and the app/baseline ratio per round.
2. The survey page: GET /s/campus-life, a respondent's first request.
3. Results: GET /api/surveys/campus-life/results with 10^3 and then 10^6 stored responses.

Submissions go to the demo survey (``--survey campus-life``: seven questions, one of them asked
directly, so each response also adds to the cells of results by group) or to the plain survey of
the page's budget (``--survey plain``: three yes/no questions and one multi-select,
bench/plain_survey.py). Issue 43's setting is ``--survey plain --threads 8 --connections 16
--without-keys``.

Run: python bench/load.py [--seconds 5] [--rounds 7] [--only submissions|page|results]
[--survey campus-life|plain].
Needs wrk (apt-get install wrk). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pathlib
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.plain_survey import PLAIN_BODY, PLAIN_SURVEY  # noqa: E402

PYTHON = sys.executable
# Submissions to each survey: its body and its path.
BODY = (
    '{"answers": {"cheated": 1, "skipped": 0, '
    '"substances": {"alcohol": 0, "tobacco": 1, "sleeping_pills": 0}, "shared_homework": 1, "all_nighters": 1, '
    '"copied_work": "once", "year": "first"}}'
)
SURVEYS = {"campus-life": BODY, "plain": PLAIN_BODY}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Served(str):
    """A served URL that can also tell how much CPU its server has used so far."""

    pid: int

    def cpu_seconds(self) -> float:
        """User and system time of the gunicorn master and its worker, in seconds."""
        children = pathlib.Path(f"/proc/{self.pid}/task/{self.pid}/children").read_text().split()
        total = 0
        for pid in [self.pid, *map(int, children)]:
            fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
            total += int(fields[11]) + int(fields[12])  # utime and stime, in clock ticks
        return total / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def gunicorn(target: str, environment: dict, threads: int):
    """Serve ``target`` with gunicorn (one gthread worker) on a free loopback port; yield its URL
    (a :class:`Served`)."""
    port = free_port()
    command = [
        PYTHON,
        "-m",
        "gunicorn",
        "--worker-class",
        "gthread",
        "--workers",
        "1",
        "--threads",
        str(threads),
        "--bind",
        f"127.0.0.1:{port}",
        "--access-logfile",
        "/dev/null",
        "--error-logfile",
        "/dev/null",
        target,
    ]
    server = subprocess.Popen(
        command, cwd=ROOT, env={**os.environ, **environment}, start_new_session=True
    )
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
                break
            except urllib.error.HTTPError:
                break
            except OSError:
                time.sleep(0.05)
        served = Served(f"http://127.0.0.1:{port}")
        served.pid = server.pid
        yield served
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def wrk(
    url: str, seconds: int, connections: int, script: str | None = None, headers: dict | None = None
) -> dict:
    """Run wrk; return requests/s, p50 and p99 latency in ms, and errors."""
    command = ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    if script:
        command += ["-s", script]
    output = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout
    latency = dict(re.findall(r"^\s+(50|99)%\s+([\d.]+\w+)", output, re.M))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {
        "rps": float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        "p50": to_ms(latency["50"]),
        "p99": to_ms(latency["99"]),
        "non2xx": int(errors.group(1)) if errors else 0,
    }


def to_ms(text: str) -> float:
    number, unit = re.match(r"([\d.]+)(\w+)", text).groups()
    return float(number) * {"us": 1e-3, "ms": 1.0, "s": 1e3}[unit]


def seeded_database(folder: pathlib.Path, responses: int) -> tuple[dict, str]:
    """A fresh SQLite database with the demo survey (with ``responses`` simulated responses), the
    plain survey and an API token; the server's environment and the token."""
    environment = {
        "DATABASE_URL": f"sqlite:///{folder / 'app.sqlite3'}",
        "FLASK_SECRET_KEY": "bench",
        "FLASK_RATELIMIT_ENABLED": "false",
        "FLASK_SESSION_COOKIE_SECURE": "false",
    }
    flask = [PYTHON, "-m", "flask", "--app", "app"]

    def run(*args: str) -> str:
        return subprocess.run(
            flask + list(args),
            cwd=ROOT,
            env={**os.environ, **environment},
            capture_output=True,
            text=True,
            check=True,
        ).stdout

    run("db", "upgrade")
    plain = folder / "plain.json"
    plain.write_text(json.dumps(PLAIN_SURVEY), encoding="utf-8")
    run("import-survey", str(plain))
    run("create-user", "bench@example.org", "--password", "violet kestrel 42")
    token = run("create-token", "bench@example.org").split()[-1]
    if responses:
        run("simulate-responses", "campus-life", "--n", str(responses), "--seed", "1")
    return environment, token


def add_responses(environment: dict, count: int) -> None:
    subprocess.run(
        [
            PYTHON,
            "-m",
            "flask",
            "--app",
            "app",
            "simulate-responses",
            "campus-life",
            "--n",
            str(count),
            "--seed",
            "2",
        ],
        cwd=ROOT,
        env={**os.environ, **environment},
        check=True,
        capture_output=True,
    )


# Every submission carries its own Idempotency-Key, as the survey page's do: the wrk thread, the
# second the run started and a counter make it unique across threads, rounds and runs.
KEYED = """
local thread_number = 0
function setup(thread)
  thread_number = thread_number + 1
  thread:set("number", thread_number)
end
local sent = 0
local started = os.time()
function request()
  sent = sent + 1
  wrk.headers["Idempotency-Key"] = string.format("%012d%04d%016d", started, number or 0, sent)
  return wrk.format()
end
"""


def submissions(folder: pathlib.Path, environment: dict, arguments) -> None:
    """Both servers run side by side; each round measures them back to back, in alternating order,
    so that the machine's drift (large on a shared two-core machine) hits both alike."""
    script = folder / "post.lua"
    script.write_text(
        'wrk.method = "POST"\nwrk.headers["Content-Type"] = "application/json"\n'
        f"wrk.body = '{SURVEYS[arguments.survey]}'\n" + ("" if arguments.without_keys else KEYED)
    )
    targets = {
        "app": ("app:create_app()", environment, f"/api/surveys/{arguments.survey}/responses"),
        "baseline": (
            "bench.baseline_app:create_app()",
            {"BASELINE_DB": str(folder / "baseline.sqlite3")},
            "/insert",
        ),
        "ceiling": ("bench.baseline_app:constant_app", {}, "/"),
    }
    runs = {name: [] for name in targets}
    with contextlib.ExitStack() as servers:
        served = {
            name: servers.enter_context(gunicorn(target, extra, arguments.threads))
            for name, (target, extra, _) in targets.items()
        }
        urls = {name: served[name] + path for name, (_, _, path) in targets.items()}
        for url in urls.values():
            wrk(url, 2, arguments.connections, str(script))  # warm up: imports, caches, first pages
        for round_number in range(arguments.rounds):
            order = list(urls) if round_number % 2 == 0 else list(reversed(urls))
            for name in order:
                before = served[name].cpu_seconds()
                figures = wrk(urls[name], arguments.seconds, arguments.connections, str(script))
                used = served[name].cpu_seconds() - before
                figures["cpu_ms"] = used / (figures["rps"] * arguments.seconds) * 1e3
                runs[name].append(figures)
    print("\nSubmissions (median of rounds)")
    print(
        f"{'':28s} {'requests/s':>11s} {'p50 ms':>8s} {'p99 ms':>8s} {'CPU ms/req':>11s} {'non-2xx':>8s}"
    )
    labels = {
        "app": "app (validate, store, tally)",
        "baseline": "minimal Flask + SQLite",
        "ceiling": "gunicorn, constant reply",
    }
    for name, label in labels.items():
        print(
            f"{label:28s} {statistics.median(r['rps'] for r in runs[name]):11.0f} "
            f"{statistics.median(r['p50'] for r in runs[name]):8.2f} "
            f"{statistics.median(r['p99'] for r in runs[name]):8.2f} "
            f"{statistics.median(r['cpu_ms'] for r in runs[name]):11.3f} {sum(r['non2xx'] for r in runs[name]):8d}"
        )
        print(f"{'':28s} rounds: " + ", ".join(f"{run['rps']:.0f}" for run in runs[name]))
    ratios = [
        app["rps"] / baseline["rps"]
        for app, baseline in zip(runs["app"], runs["baseline"], strict=True)
    ]
    print(
        "throughput ratio app/baseline per round: " + ", ".join(f"{ratio:.2f}" for ratio in ratios)
    )
    medians = {name: statistics.median(r["rps"] for r in runs[name]) for name in runs}
    cpu = {name: statistics.median(r["cpu_ms"] for r in runs[name]) for name in runs}
    print(
        f"throughput ratio app/baseline, median of rounds: {statistics.median(ratios):.2f}; "
        f"of median throughputs: {medians['app'] / medians['baseline']:.2f}; "
        f"of CPU per request (baseline/app): {cpu['baseline'] / cpu['app']:.2f}"
    )


def results(environment: dict, token: str, arguments) -> None:
    """The results API (plain and with method=bayes) beside a static file of the same server, in
    alternating rounds, with the responses stored so far and then with 10^6 more."""
    print("\nResults API, GET with a bearer token, against a static file of the same server")
    headers = {"Authorization": f"Bearer {token}"}
    for extra in (0, 1_000_000):
        if extra:
            add_responses(environment, extra)
        with gunicorn("app:create_app()", environment, arguments.threads) as url:
            base = f"{url}/api/surveys/campus-life/results"
            page = urllib.request.urlopen(f"{url}/s/campus-life").read().decode()
            stylesheet = url + re.search(r'href="(/static/[^"]+\.css)"', page).group(1)
            targets = {
                "results": (base, headers),
                "results bayes": (f"{base}?method=bayes", headers),
                "static": (stylesheet, {}),
            }
            for target, target_headers in targets.values():
                wrk(target, 2, 8, headers=target_headers)  # warm up (and build the documents)
            rates: dict[str, list[float]] = {name: [] for name in targets}
            for _ in range(max(1, arguments.rounds // 3)):
                for name, (target, target_headers) in targets.items():
                    figures = wrk(target, arguments.seconds, 8, headers=target_headers)
                    assert figures["non2xx"] == 0, name
                    rates[name].append(figures["rps"])
            body = urllib.request.urlopen(urllib.request.Request(base, headers=headers)).read()
        stored = int(re.search(rb'"n":\s*(\d+)', body).group(1))
        static = statistics.median(rates["static"])
        print(f"n = {stored:>9,}:")
        for name, values in rates.items():
            ratio = statistics.median(values) / static
            print(f"  {name:14}: {statistics.median(values):7.0f} requests/s ({ratio:.2f}x static)")


def survey_page(environment: dict, arguments) -> None:
    """GET /s/campus-life, a respondent's first request, in English and in Korean, beside a
    static file of the same server (the stylesheet), with 8 connections, in alternating rounds."""
    print("\nSurvey page, GET /s/campus-life (Accept-Language en and ko) against a static file")
    with gunicorn("app:create_app()", environment, arguments.threads) as url:
        page = urllib.request.urlopen(f"{url}/s/campus-life").read().decode()
        stylesheet = url + re.search(r'href="(/static/[^"]+\.css)"', page).group(1)
        targets = {
            "page en": (f"{url}/s/campus-life", {"Accept-Language": "en"}),
            "page ko": (f"{url}/s/campus-life", {"Accept-Language": "ko"}),
            "static": (stylesheet, {}),
        }
        for target, headers in targets.values():
            wrk(target, 2, 8, headers=headers)  # warm up
        rates: dict[str, list[float]] = {name: [] for name in targets}
        for _ in range(max(1, arguments.rounds // 3)):
            for name, (target, headers) in targets.items():
                figures = wrk(target, arguments.seconds, 8, headers=headers)
                assert figures["non2xx"] == 0, name
                rates[name].append(figures["rps"])
    for name, values in rates.items():
        print(f"{name:8}: {statistics.median(values):7.0f} requests/s (median of {len(values)})")
    static = statistics.median(rates["static"])
    for name in ("page en", "page ko"):
        print(f"{name} / static file: {statistics.median(rates[name]) / static:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=4)
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--threads", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--only", choices=("submissions", "results", "page"))
    parser.add_argument("--survey", choices=tuple(SURVEYS), default="campus-life")
    parser.add_argument(
        "--without-keys", action="store_true", help="submit without Idempotency-Key (old clients)"
    )
    arguments = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is needed: apt-get install wrk")
    print(
        f"{os.cpu_count()} cores; wrk -t2 -c{arguments.connections} -d{arguments.seconds}s; "
        f"gunicorn gthread, 1 worker, {arguments.threads} threads; submissions to {arguments.survey}"
    )
    with tempfile.TemporaryDirectory() as folder_name:
        folder = pathlib.Path(folder_name)
        environment, token = seeded_database(folder, 1000)
        if arguments.only in (None, "submissions"):
            submissions(folder, environment, arguments)
        if arguments.only in (None, "page"):
            survey_page(environment, arguments)
        if arguments.only in (None, "results"):
            results(environment, token, arguments)


if __name__ == "__main__":
    main()
