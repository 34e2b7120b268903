"""What a quota costs a submission: the same survey with and without quotas, 16 threads
submitting at once through the app's full request path (no server), on an SQLite file.

    python bench/quota_submissions.py [--n 1500] [--threads 16]

A response that counts in a quota is stored in a transaction of its own (its quota's place taken
first), where the others share a group commit: prints responses per second both ways, and checks
that the quota's count equals the responses stored in it.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import tempfile
import threading
import time
import uuid

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from web.core.infrastructure.extensions import db  # noqa: E402
from web.core.models import FieldworkCount  # noqa: E402
from web.core.startup import prepare_database  # noqa: E402

SURVEY = {
    "slug": "quota-bench",
    "title": "Exams",
    "quotas": [{"id": "women", "question": "gender", "in": ["f"], "limit": 1_000_000},
               {"id": "men", "question": "gender", "in": ["m"], "limit": 1_000_000}],
    "questions": [
        {"id": "gender", "type": "direct", "text": "Gender",
         "options": [{"id": "f", "text": "Woman"}, {"id": "m", "text": "Man"}]},
        {"id": "cheated", "type": "yesno", "text": "Cheated?", "epsilon": 1,
         "procedure": "spinner_coin"},
    ],
}  # fmt: skip


def rate(with_quotas: bool, n: int, threads: int) -> tuple[float, int]:
    """Responses per second, and the completes the quotas counted."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"SECRET_KEY": "bench", "RATELIMIT_ENABLED": False,
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3"})  # fmt: skip
        prepare_database(app)
        survey = dict(SURVEY) if with_quotas else {k: v for k, v in SURVEY.items() if k != "quotas"}
        path = pathlib.Path(folder, "survey.json")
        path.write_text(json.dumps(survey), encoding="utf-8")
        assert app.test_cli_runner().invoke(args=["import-survey", str(path)]).exit_code == 0
        per_thread = n // threads
        start = threading.Barrier(threads + 1)

        def submit(index: int) -> None:
            client = app.test_client()
            body = json.dumps({"answers": {"gender": "fm"[index % 2], "cheated": 1}})
            start.wait()
            for _ in range(per_thread):
                client.delete_cookie("rr_answered")
                reply = client.post("/api/surveys/quota-bench/responses", data=body,
                                    headers={"Content-Type": "application/json",
                                             "Idempotency-Key": uuid.uuid4().hex})  # fmt: skip
                assert reply.status_code == 201, reply.get_data(as_text=True)

        workers = [threading.Thread(target=submit, args=(i,)) for i in range(threads)]
        for worker in workers:
            worker.start()
        start.wait()
        began = time.perf_counter()
        for worker in workers:
            worker.join()
        elapsed = time.perf_counter() - began
        with app.app_context():
            counted = db.session.scalar(db.select(db.func.sum(FieldworkCount.count))) or 0
        return per_thread * threads / elapsed, counted


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1500)
    parser.add_argument("--threads", type=int, default=16)
    args = parser.parse_args()
    plain, _ = rate(False, args.n, args.threads)
    quoted, counted = rate(True, args.n, args.threads)
    stored = args.n // args.threads * args.threads
    print(f"{args.threads} threads, {stored} responses each way (SQLite)")
    print(f"without quotas: {plain:7.0f} responses/s")
    print(f"with quotas:    {quoted:7.0f} responses/s ({quoted / plain:.0%}); "
          f"quotas counted {counted} of {stored}")  # fmt: skip
    assert counted == stored


if __name__ == "__main__":
    main()
