"""Time `flask simulate-responses` for 10^6 responses into a fresh SQLite database, and the
results call before and after. Run: python bench/simulate_responses.py [N]. Prints figures."""

from __future__ import annotations

import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
from app import create_app  # noqa: E402
from web.core.infrastructure.extensions import db  # noqa: E402
from web.core.startup import prepare_database  # noqa: E402


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3"}
        )
        prepare_database(app)
        app = create_app(app.config)  # as the server starts after the upgrade: with the demo
        runner = app.test_cli_runner()
        runner.invoke(args=["create-user", "bench@example.org", "--password", "violet kestrel 42"])
        token = runner.invoke(args=["create-token", "bench@example.org"]).output.split()[-1]
        client = app.test_client()
        headers = {"Authorization": f"Bearer {token}"}

        def results_ms() -> float:
            best = float("inf")
            for _ in range(20):
                start = time.perf_counter()
                assert (
                    client.get("/api/surveys/campus-life/results", headers=headers).status_code
                    == 200
                )
                best = min(best, time.perf_counter() - start)
            return best * 1e3

        before = results_ms()
        start = time.perf_counter()
        result = runner.invoke(
            args=["simulate-responses", "campus-life", "--n", str(n), "--seed", "1"]
        )
        elapsed = time.perf_counter() - start
        assert result.exit_code == 0, result.output
        after = results_ms()
        size = pathlib.Path(folder, "bench.sqlite3").stat().st_size
        print(
            f"simulate-responses n={n:,}: {elapsed:.1f} s ({n / elapsed:,.0f} responses/s), "
            f"database {size / 2**20:.0f} MiB"
        )
        print(
            f"results API, best of 20: {before:.2f} ms with 0 responses, {after:.2f} ms with {n:,}"
        )
        with app.app_context():
            db.engine.dispose()


if __name__ == "__main__":
    main()
