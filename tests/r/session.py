"""The tests' R code run in one R process per test process (``session.R``), not one Rscript each.

A new R process spends two seconds loading ``list``, ``RRreg`` or ``rr`` (most of it caching
Matrix's S4 methods, which all three bring), and ``tests/r`` started 19 of them: R took 83
processor seconds over ``tests/r``, and 44 in one session (measured 2026-11-30). The session
keeps the namespaces loaded and puts everything else back between blocks (attached packages,
options, variables, environment variables, graphics devices), so that a block still fails where
it would fail on its own: a block that forgets ``library(RRreg)`` finds no ``RRuni``
(``test_session.py``).
"""

from __future__ import annotations

import atexit
import selectors
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

SERVER = Path(__file__).with_name("session.R")


class RSessionError(RuntimeError):
    """The R process ended or stopped answering."""


class RSession:
    """An R process that runs blocks of R code one after another (:meth:`run`)."""

    def __init__(self, rscript: str) -> None:
        self.process = subprocess.Popen(
            [rscript, str(SERVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def run(
        self, code: str, folder: Path, environment: Mapping[str, str], timeout: float
    ) -> tuple[bool, str, str]:
        """Run ``code`` in ``folder`` with ``environment`` set: whether it succeeded, what it
        printed, and its messages (R's standard error)."""
        with tempfile.TemporaryDirectory(prefix="r-block-") as scratch:
            files = [Path(scratch) / name for name in ("block.R", "out.txt", "messages.txt")]
            files[0].write_text(code, encoding="utf-8")
            fields = [str(folder), *map(str, files), *(f"{k}={v}" for k, v in environment.items())]
            assert not any("\t" in field or "\n" in field for field in fields), fields
            self.process.stdin.write("\t".join(fields) + "\n")
            self.process.stdin.flush()
            answer = self._answer(timeout)
            return answer == "ok", files[1].read_text("utf-8"), files[2].read_text("utf-8")

    def _answer(self, timeout: float) -> str:
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(timeout):
                self.process.kill()
                self.close()
                raise RSessionError(f"R gave no answer in {timeout} s")
        answer = self.process.stdout.readline().strip()
        if answer not in ("ok", "error"):
            raise RSessionError(f"R ended (exit code {self.process.poll()})")
        return answer

    def close(self) -> None:
        """End the R process: its input closed, it ends its loop (killed if it has not within
        30 s)."""
        self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()


_session: RSession | None = None


def session(rscript: str) -> RSession:
    """This process's R session, started on first use (again if R ended) and ended when the
    process ends."""
    global _session
    if _session is None or _session.process.poll() is not None:
        _session = RSession(rscript)
        atexit.register(_session.close)
    return _session
