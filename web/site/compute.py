"""Costly public computations (the lab's simulations, the change planner) run in a small pool of
processes of their own, behind a bounded queue, so that no flood of them can take the threads or
the interpreter lock that respondents' pages need.

A request that finds every worker busy and the queue full is answered at once with
``503 Service Unavailable`` and ``Retry-After``: it neither waits nor piles up. The workers run at
a lower scheduling priority than the web process (``nice``), so a respondent's page is served
first when both want the processor. A worker that dies (killed, out of memory) fails only the
computation it was running, with ``500`` and words that say so: waiting work is held here, never
in the executor, whose futures a dead worker fails all at once. What a computation raises comes
back whole (rr's exceptions survive a pickle round trip), so a refusal is the request's ``400``.

Settings: ``COMPUTE_PROCESSES`` (default 1; 0 runs each computation in the request's own thread,
still behind the bound: what the tests use), ``COMPUTE_QUEUE`` (waiting computations beyond the
running ones, default 2), ``COMPUTE_TIMEOUT`` (seconds a request waits for its result, 55: inside
gunicorn's 60) and ``COMPUTE_NICENESS`` (how far the workers step back, default 10).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from flask import Flask, current_app
from flask_babel import gettext as _
from werkzeug.exceptions import InternalServerError, ServiceUnavailable

Result = TypeVar("Result")
RETRY_AFTER = 5  # seconds: long enough for a computation to finish, short for a class waiting
NICENESS = 10
# How often a worker looks whether the process that started it is still there (seconds).
PARENT_CHECK = 0.5


class Busy(Exception):
    """Every worker is busy and the queue is full, or the result did not come in time."""


class WorkerDied(Exception):
    """The worker process running a computation ended before it finished (killed, or out of
    memory)."""


def _start_worker(niceness: int) -> None:
    """In each worker, at start: yield the processor to the web process, and end with the process
    that started it."""
    os.nice(niceness)
    parent = os.getppid()
    threading.Thread(target=_exit_with, args=(parent,), name="parent-watch", daemon=True).start()


def _exit_with(parent: int) -> None:
    """End this worker once ``parent`` is gone (a worker whose web process was killed, by the OOM
    killer or gunicorn's timeout, is handed to another parent and would live on, holding its
    memory, past even the server's stop). A watch rather than Linux's PR_SET_PDEATHSIG, which
    fires when the *thread* that started the worker ends: a request's thread, in a threaded
    server."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(0)


class ComputePool:
    """At most ``processes`` computations at once and ``queue`` more waiting; the rest refused.

    The pool of processes starts at the first computation (and again after a worker dies), with
    ``spawn``: a fork of a threaded server could copy a lock held by another thread.
    """

    def __init__(self, processes: int, queue: int, timeout: float, niceness: int = NICENESS):
        self.processes, self.timeout, self.niceness = processes, timeout, niceness
        self._slots = threading.BoundedSemaphore(max(processes, 1) + queue)
        self._running = threading.BoundedSemaphore(max(processes, 1))
        self._executor: ProcessPoolExecutor | None = None
        self._starting = threading.Lock()

    def run(self, function: Callable[..., Result], *args: Any) -> Result:
        """``function(*args)`` in a worker (``function`` importable, arguments and result
        picklable); raises :class:`Busy` when no slot is free or the result is late, and
        :class:`WorkerDied` when the worker running it ended before it finished."""
        if not self._slots.acquire(blocking=False):
            raise Busy
        if self.processes == 0:
            try:
                return function(*args)
            finally:
                self._slots.release()
        deadline = time.monotonic() + self.timeout
        # Waiting work stays here, not in the executor: a worker's death fails every future the
        # executor holds, and so fails only the computations running when it died.
        if not self._running.acquire(timeout=self.timeout):
            self._slots.release()
            raise Busy
        try:
            future = self._submitted(function, args)
        except BaseException:
            self._running.release()
            self._slots.release()
            raise
        # The slot is free when the work is done, not when this request stops waiting for it.
        future.add_done_callback(self._free)
        try:
            return future.result(timeout=max(deadline - time.monotonic(), 0.0))
        except FutureTimeout:
            raise Busy from None
        except BrokenProcessPool:
            raise WorkerDied from None

    def _free(self, _done: Future) -> None:
        self._running.release()
        self._slots.release()

    def _submitted(self, function: Callable, args: tuple) -> Future:
        with self._starting:
            if self._executor is None:
                self._executor = ProcessPoolExecutor(
                    self.processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(self.niceness,),
                )
            try:
                return self._executor.submit(function, *args)
            except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
                self._executor = None
        return self._submitted(function, args)

    def shutdown(self) -> None:
        """Stop the workers (the pool starts again if asked for more)."""
        with self._starting:
            if self._executor is not None:
                self._executor.shutdown(cancel_futures=True)
                self._executor = None


def init_app(app: Flask) -> None:
    app.config.setdefault("COMPUTE_PROCESSES", 1)
    app.config.setdefault("COMPUTE_QUEUE", 2)
    app.config.setdefault("COMPUTE_TIMEOUT", 55)
    app.config.setdefault("COMPUTE_NICENESS", NICENESS)
    app.extensions["compute"] = ComputePool(
        int(app.config["COMPUTE_PROCESSES"]),
        int(app.config["COMPUTE_QUEUE"]),
        float(app.config["COMPUTE_TIMEOUT"]),
        int(app.config["COMPUTE_NICENESS"]),
    )


def computed(function: Callable[..., Result], *args: Any) -> Result:
    """``function(*args)`` in the app's pool; 503 with Retry-After when it is full, 500 when its
    worker died."""
    try:
        return current_app.extensions["compute"].run(function, *args)
    except Busy:  # full, or late
        raise ServiceUnavailable(
            _("The app is busy with other calculations. Please try again in a few seconds."),
            retry_after=RETRY_AFTER,
        ) from None
    except WorkerDied:
        raise InternalServerError(
            _(
                "This calculation stopped before it finished: the process running it ended "
                "(perhaps out of memory). Try again with smaller numbers."
            )
        ) from None
