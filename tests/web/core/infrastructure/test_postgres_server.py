"""The production server on PostgreSQL: several gunicorn processes, from an empty database."""

import json
import os
import signal
import subprocess
import threading
import urllib.request

from tests.conftest import TEST_DATABASE_URL, postgres_only, stored_count
from tests.servers import free_port, start_gunicorn, wait_until_serving
from web.core.infrastructure.extensions import db
from web.core.models import Option, Question, Survey

BITS = {
    "cheated": 1,
    "skipped": 0,
    "substances": {"alcohol": 0, "tobacco": 1, "sleeping_pills": 1},
    "shared_homework": 0,
    "all_nighters": 1,
    "copied_work": "two_to_five",
    "year": "third",
}


def serve(port: int, log) -> subprocess.Popen:
    return start_gunicorn(
        port, log, DATABASE_URL=TEST_DATABASE_URL, WEB_CONCURRENCY="3", THREADS="4"
    )


@postgres_only
def test_several_processes_start_on_an_empty_database_and_count_every_submission(app, tmp_path):
    with app.app_context():
        db.drop_all()  # a first deployment: every worker finds no tables and creates them
        db.engine.dispose()
    port = free_port()
    log = tmp_path / "gunicorn.log"
    with log.open("w") as log_file:
        server = serve(port, log_file)
    acknowledged = []
    try:
        wait_until_serving(server, f"http://127.0.0.1:{port}/s/campus-life", log)

        def submit():
            for _ in range(10):
                request = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/surveys/campus-life/responses",
                    data=json.dumps({"answers": BITS}).encode(),
                    headers={"Content-Type": "application/json"},
                    method="POST",
                )
                with urllib.request.urlopen(request, timeout=60) as response:
                    acknowledged.append(response.status)

        threads = [threading.Thread(target=submit) for _ in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=120)
    assert acknowledged == [201] * 120
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Survey)) == 1
        assert stored_count() == 120
        assert db.session.scalar(db.select(Survey.response_count)) == 120
        tallies = {
            q.key: (q.n, q.noisy_yes)
            for q in db.session.scalars(db.select(Question))
            if not q.options
        }
        options = {o.key: (o.n, o.noisy_yes) for o in db.session.scalars(db.select(Option))}
    assert tallies == {
        "cheated": (120, 120), "skipped": (120, 0), "shared_homework": (120, 0),
        "all_nighters": (120, 120),
    }  # fmt: skip
    assert options == {
        "alcohol": (120, 0),
        "tobacco": (120, 120),
        "sleeping_pills": (120, 120),
        "never": (120, 0),
        "once": (120, 0),
        "two_to_five": (120, 120),
        "more": (120, 0),
        "first": (120, 0),
        "second": (120, 0),
        "third": (120, 120),
        "fourth": (120, 0),
    }
