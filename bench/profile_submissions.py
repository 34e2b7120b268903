"""Where a submission's time goes: cProfile over in-process submissions of bench/load.py's body,
with a key each (as the page sends them), through the app's full request path but no server.

    python bench/profile_submissions.py [--n 3000] [--top 30]

Prints the time per submission unprofiled, then the profile's largest cumulative entries (the
profile inflates every part, so read its shares, not its milliseconds).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pathlib
import pstats
import sys
import tempfile
import time
import uuid

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app import create_app  # noqa: E402
from bench.load import BODY  # noqa: E402
from web.core.startup import prepare_database  # noqa: E402


def submit_all(client, n: int) -> None:
    for _ in range(n):
        response = client.post(
            "/api/surveys/campus-life/responses",
            data=BODY,
            headers={"Content-Type": "application/json", "Idempotency-Key": uuid.uuid4().hex},
        )
        assert response.status_code == 201, response.get_data(as_text=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=3000)
    parser.add_argument("--top", type=int, default=30)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/app.sqlite3",
                "SECRET_KEY": "bench",
                "RATELIMIT_ENABLED": False,
            }
        )
        prepare_database(app)
        client = app.test_client(use_cookies=False)  # each submission from a new respondent
        submit_all(client, 200)  # warm up: imports, caches, the survey's first load
        started = time.perf_counter()
        submit_all(client, arguments.n)
        each = (time.perf_counter() - started) / arguments.n
        print(f"{arguments.n} submissions, {each * 1000:.3f} ms each unprofiled")
        profile = cProfile.Profile()
        profile.runcall(submit_all, client, arguments.n)
        text = io.StringIO()
        pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(arguments.top)
        print(text.getvalue())


if __name__ == "__main__":
    main()
