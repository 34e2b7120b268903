"""Computations that end their worker process as the OOM killer would, for the compute pool's tests:
a module of their own that imports nothing heavy, since a spawned worker imports it."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path


def die() -> None:
    """End this process at once."""
    os.kill(os.getpid(), signal.SIGKILL)


def die_when(signal_file: str) -> None:
    """End this process once ``signal_file`` exists (polled; the test creates it)."""
    while not Path(signal_file).exists():
        time.sleep(0.01)
    die()
