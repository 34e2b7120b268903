"""kill -9 the server while clients submit, again and again; then check nothing acknowledged is lost.

Each round starts gunicorn (gunicorn.conf.py: one process on SQLite) on the same database, lets
CLIENTS threads submit as fast as they can, and after a random 1-3 s kills the whole process group
with SIGKILL. After every round the database is opened afresh and checked:

- every response the server acknowledged (201) is stored: rows >= acknowledged;
- the survey's response count equals its rows, and every tally equals the sum of the stored bits;
- PRAGMA integrity_check says ok.

Run: python bench/crash.py [--rounds 5] [--clients 16]. Prints figures; exits 1 if a check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
BODY = json.dumps(
    {
        "answers": {
            "cheated": 1,
            "skipped": 0,
            "substances": {"alcohol": 0, "tobacco": 1, "sleeping_pills": 0},
            "shared_homework": 1,
            "all_nighters": 1,
            "copied_work": "once",
            "year": "second",
        }
    }
).encode()


def submit_until(
    stop: threading.Event, url: str, acknowledged: list[int], lock: threading.Lock
) -> None:
    while not stop.is_set():
        request = urllib.request.Request(
            url, data=BODY, headers={"Content-Type": "application/json"}, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                if response.status == 201:
                    with lock:
                        acknowledged[0] += 1
        except (urllib.error.URLError, ConnectionError, OSError):
            time.sleep(0.01)


def option_bit(answer, key: str) -> int:
    """The bit a stored answer reports for one option: multi-select bits, or a single choice."""
    return answer[key] if isinstance(answer, dict) else int(answer == key)


def check(database: pathlib.Path) -> dict:
    connection = sqlite3.connect(database)
    try:
        integrity = connection.execute("PRAGMA integrity_check").fetchone()[0]
        rows = connection.execute("SELECT bits FROM response").fetchall()
        count = connection.execute(
            "SELECT response_count FROM survey WHERE slug = 'campus-life'"
        ).fetchone()[0]
        stored = [json.loads(bits) for (bits,) in rows]
        tallies_ok = True
        for key, n, yes in connection.execute(
            "SELECT key, n, noisy_yes FROM question WHERE kind = 'yesno'"
        ):
            tallies_ok &= (n, yes) == (len(stored), sum(row[key] for row in stored))
        for question, key, n, yes in connection.execute(
            "SELECT question.key, option.key, option.n, option.noisy_yes "
            "FROM option JOIN question ON question.id = option.question_id"
        ):
            reported = sum(option_bit(row[question], key) for row in stored)
            tallies_ok &= (n, yes) == (len(stored), reported)
        return {
            "integrity": integrity,
            "rows": len(stored),
            "count": count,
            "tallies_ok": tallies_ok,
        }
    finally:
        connection.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    random.seed(arguments.seed)
    failures = 0
    with tempfile.TemporaryDirectory() as folder:
        database = pathlib.Path(folder) / "crash.sqlite3"
        environment = {
            **os.environ,
            "DATABASE_URL": f"sqlite:///{database}",
            "FLASK_SECRET_KEY": "crash",
            "FLASK_RATELIMIT_ENABLED": "false",
            "ACCESS_LOG": "/dev/null",
            "BIND": "127.0.0.1:8765",
        }
        acknowledged = [0]
        lock = threading.Lock()
        print(
            f"{'round':>5} {'killed after':>12} {'acknowledged':>13} {'stored':>8} {'count':>8} "
            f"{'tallies':>8} integrity"
        )
        for round_number in range(1, arguments.rounds + 1):
            server = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "app:create_app()"],
                cwd=ROOT,
                env=environment,
                start_new_session=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for _ in range(300):
                try:
                    urllib.request.urlopen("http://127.0.0.1:8765/", timeout=1)
                    break
                except (urllib.error.URLError, OSError):
                    time.sleep(0.05)
            stop = threading.Event()
            clients = [
                threading.Thread(
                    target=submit_until,
                    args=(
                        stop,
                        "http://127.0.0.1:8765/api/surveys/campus-life/responses",
                        acknowledged,
                        lock,
                    ),
                )
                for _ in range(arguments.clients)
            ]
            for client in clients:
                client.start()
            delay = random.uniform(1, 3)
            time.sleep(delay)
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
            stop.set()
            for client in clients:
                client.join()
            result = check(database)
            ok = (
                result["integrity"] == "ok"
                and result["rows"] >= acknowledged[0]
                and result["rows"] == result["count"]
                and result["tallies_ok"]
            )
            failures += not ok
            print(
                f"{round_number:>5} {delay:>11.2f}s {acknowledged[0]:>13} {result['rows']:>8} {result['count']:>8} "
                f"{'ok' if result['tallies_ok'] else 'WRONG':>8} {result['integrity']}{'' if ok else '  <- FAILED'}"
            )
    print(
        "every acknowledged response was stored and counted"
        if not failures
        else f"{failures} rounds FAILED"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
