"""Login time for an existing account (wrong password) and for an unknown email: the medians
should differ by far less than 20%, so that timing does not say which accounts exist.

Run: python bench/login_timing.py [ROUNDS]. Prints figures; asserts nothing.
"""

from __future__ import annotations

import pathlib
import re
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from app import create_app  # noqa: E402
from web.core.infrastructure.extensions import db  # noqa: E402
from web.core.startup import prepare_database  # noqa: E402


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3",
                "RATELIMIT_ENABLED": False,
                "DEMO_SURVEY": False,
            }
        )
        prepare_database(app)
        runner = app.test_cli_runner()
        runner.invoke(args=["create-user", "rita@example.org", "--password", "violet kestrel 42"])
        client = app.test_client()
        page = client.get("/login").get_data(as_text=True)
        token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
        times: dict[str, list[float]] = {"existing account": [], "unknown email": []}
        for _ in range(rounds):
            for label, email in (
                ("existing account", "rita@example.org"),
                ("unknown email", "nobody@example.org"),
            ):
                start = time.perf_counter()
                client.post(
                    "/login", data={"csrf_token": token, "email": email, "password": "wrong one"}
                )
                times[label].append(time.perf_counter() - start)
        medians = {label: statistics.median(values) * 1000 for label, values in times.items()}
        for label, median in medians.items():
            print(f"{label:>16}: median {median:7.1f} ms over {rounds} logins")
        low, high = sorted(medians.values())
        print(f"difference of the medians: {100 * (high - low) / high:.1f}%")
        with app.app_context():
            db.engine.dispose()


if __name__ == "__main__":
    main()
