"""The ceiling of one survey on one PostgreSQL primary: groups stored one after another.

Every writer of a survey, on every host, waits for the survey's row: a group's claim locks it
until its commit. So one survey cannot take more groups per second than the server can run the
locked part of a group back to back, whatever the number of hosts. This script bounds that on a
fresh database (``.ci/postgres``, database ``rr_bench``) with the demo survey: the app's own
writer (:class:`web.respondent.writer.GroupCommit`) on one thread, no HTTP in front, stores groups
of 1, 4, 16 and 64 responses one after another. The time per group includes this process's work
(building the statements, outside the lock in real use) and the round trip: an upper bound on how
long the row stays locked per group, so its inverse is a lower bound on the survey's ceiling.

    python bench/survey_ceiling.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import create_app, with_driver  # noqa: E402
from bench.hosts import SLUG, random_answers  # noqa: E402
from web.core.infrastructure.extensions import db  # noqa: E402
from web.core.startup import prepare_database  # noqa: E402
from web.respondent.writer import _Pending  # noqa: E402

SIZES = (1, 4, 16, 64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per group size")
    arguments = parser.parse_args()
    url = subprocess.run(
        ["bash", str(ROOT / ".ci" / "postgres")],
        env={"PG_TEST_DATABASE": "rr_bench", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()[-1]
    app = create_app({"SQLALCHEMY_DATABASE_URI": with_driver(url), "SECRET_KEY": "bench"})
    prepare_database(app)
    draw = random.Random(1)
    print("group size | groups/s | responses/s | ms per group")
    print("---|---|---|---")
    with app.app_context():
        service = app.extensions["submissions"]
        plan = service.plan(service.state(SLUG, fresh=True))
        writer = service.writer
        for size in SIZES:
            groups = 0
            start = time.perf_counter()
            while time.perf_counter() - start < arguments.seconds:
                writer._write([_Pending(plan, random_answers(draw)) for _ in range(size)])
                groups += 1
            elapsed = time.perf_counter() - start
            print(
                f"{size} | {groups / elapsed:,.0f} | {groups * size / elapsed:,.0f} | "
                f"{1000 * elapsed / groups:.2f}"
            )
        writer.close()
        db.engine.dispose()


if __name__ == "__main__":
    main()
