"""The compute pool: the lab's and the planner's costly work runs in processes of its own behind
a bounded queue, and a request that finds it full is answered at once with 503 and Retry-After."""

from __future__ import annotations

import math
import os
import threading
import time

import pytest

from tests.conftest import no_database
from tests.web.site import dying
from web.site.compute import Busy, ComputePool, WorkerDied

PLAN = "/api/plan/change?procedure=spinner_coin&epsilon=1&n=300&baseline=0.2&change=0.1"


@pytest.fixture
def pooled(app_like):
    """The app with one worker process, as served (not niced: on a machine busy with the rest of
    the suite a niced worker may wait past the request's deadline)."""
    served = app_like(COMPUTE_PROCESSES=1, COMPUTE_QUEUE=1, COMPUTE_NICENESS=0)
    yield served
    served.extensions["compute"].shutdown()


@pytest.mark.long
@no_database
def test_the_pool_gives_what_the_request_thread_gives(client, pooled):
    inline = client.get(PLAN)
    in_pool = pooled.test_client().get(PLAN)
    assert in_pool.status_code == inline.status_code == 200
    assert in_pool.json == inline.json
    report = "/api/lab/report?runs=2&n=50&low=0&high=1&mean=0.5&variance=0.02"
    assert pooled.test_client().get(report).json == client.get(report).json


@no_database
def test_an_error_in_the_pool_is_the_requests_400(pooled):
    # Checked in the view before any work: the pool never sees it.
    refused = pooled.test_client().get("/api/lab/distribution?n=0")
    assert refused.status_code == 400 and "n must lie in" in refused.json["error"]


def _blocked_pool(
    capacity_queue: int,
) -> tuple[ComputePool, threading.Event, list[threading.Thread]]:
    """An in-thread pool whose every slot is taken by a computation waiting on an event."""
    pool = ComputePool(0, capacity_queue, timeout=30)
    release, started = threading.Event(), threading.Semaphore(0)

    def hold():
        started.release()
        release.wait(60)

    holders = [threading.Thread(target=pool.run, args=(hold,)) for _ in range(1 + capacity_queue)]
    for holder in holders:
        holder.start()
    for _ in holders:
        assert started.acquire(timeout=60)
    return pool, release, holders


def test_a_full_pool_refuses_at_once_and_takes_work_again_when_free():
    pool, release, holders = _blocked_pool(2)
    with pytest.raises(Busy):
        pool.run(sum, [1, 2])
    release.set()
    for holder in holders:
        holder.join(60)
    assert pool.run(sum, [1, 2]) == 3


@no_database
@pytest.mark.parametrize(
    "path",
    [
        PLAN,
        "/api/lab/report?runs=2&n=50",
        "/api/lab/distribution?n=30",
        "/lab?report_n=11",
    ],
)
def test_a_full_pool_is_503_with_retry_after(app, client, path):
    pool, release, holders = _blocked_pool(2)
    app.extensions["compute"] = pool
    try:
        busy = client.get(path)
    finally:
        release.set()
        for holder in holders:
            holder.join(60)
    assert busy.status_code == 503
    assert busy.headers["Retry-After"] == "5"
    if path.startswith("/api/"):
        assert "busy" in busy.json["error"]
    else:
        assert "busy" in busy.get_data(as_text=True)
    assert client.get(path).status_code == 200


def test_a_late_result_is_busy_and_frees_its_slot_when_done():
    # Builtins, so that the worker imports nothing of the tests; and not niced, because a niced
    # process on a machine busy with the rest of the suite may wait minutes for the processor.
    pool = ComputePool(1, 0, timeout=0.001, niceness=0)
    try:
        with pytest.raises(Busy):
            pool.run(time.sleep, 2.0)
        # The slot is held by the work still running, not by the request that gave up on it.
        with pytest.raises(Busy):
            pool.run(math.sqrt, 4.0)
        pool.timeout = 120
        _wait_for_free_slot(pool)
        assert pool.run(math.sqrt, 4.0) == 2.0
    finally:
        pool.shutdown()


def test_the_workers_step_back_for_the_web_process():
    pool = ComputePool(1, 0, timeout=120)
    try:
        assert pool.run(os.nice, 0) == os.nice(0) + 10
    finally:
        pool.shutdown()


def _wait_for_free_slot(pool: ComputePool) -> None:
    """Poll (generous deadline) until the pool takes work again."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if pool._slots.acquire(blocking=False):
            pool._slots.release()
            return
        time.sleep(0.05)
    raise AssertionError("the slot was never freed")


CHANGE_TOO_SMALL = (
    "/api/plan/change?procedure=spinner_coin&epsilon=1&n=300&baseline=0.3&change=3e-273"
)


@no_database
def test_a_refusal_raised_in_a_worker_is_the_requests_400_and_the_pool_lives_on(pooled):
    # rr's ParameterError is pickled back from the worker: it once could not be, which broke the
    # pool and answered 503 "busy".
    client = pooled.test_client()
    refused = client.get(CHANGE_TOO_SMALL)
    assert refused.status_code == 400, refused.json
    assert "change" in refused.json["error"]
    executor = pooled.extensions["compute"]._executor
    assert client.get(PLAN).status_code == 200
    assert pooled.extensions["compute"]._executor is executor


def test_a_worker_that_dies_fails_its_own_computation_only():
    pool = ComputePool(1, 1, timeout=120, niceness=0)
    try:
        with pytest.raises(WorkerDied):
            pool.run(dying.die)
        assert pool.run(math.sqrt, 4.0) == 2.0  # on a fresh worker
    finally:
        pool.shutdown()


def test_work_waiting_behind_a_dying_worker_still_runs(tmp_path):
    pool = ComputePool(1, 1, timeout=120, niceness=0)
    signal_file = tmp_path / "die-now"
    try:
        outcome: dict[str, object] = {}
        running = threading.Thread(
            target=_record, args=(outcome, "dying", pool.run, dying.die_when, str(signal_file))
        )
        running.start()
        _wait_until(lambda: pool._running._value == 0)
        waiting = threading.Thread(target=_record, args=(outcome, "waiting", pool.run, abs, -3))
        waiting.start()
        _wait_until(lambda: len(pool._running._cond._waiters) == 1)
        signal_file.touch()
        running.join(120)
        waiting.join(120)
        assert isinstance(outcome["dying"], WorkerDied)
        assert outcome["waiting"] == 3
    finally:
        pool.shutdown()


def _record(outcome: dict, key: str, call, *args) -> None:
    try:
        outcome[key] = call(*args)
    except Exception as error:  # noqa: BLE001 - the test looks at what was raised
        outcome[key] = error


def _wait_until(condition) -> None:
    deadline = time.monotonic() + 120
    while not condition():
        assert time.monotonic() < deadline, "never came to pass"
        time.sleep(0.01)


@no_database
def test_a_dead_worker_is_a_500_that_does_not_say_busy(app, client, monkeypatch):
    def died(function, *args):
        raise WorkerDied

    monkeypatch.setattr(app.extensions["compute"], "run", died)
    response = client.get(PLAN)
    assert response.status_code == 500
    assert "busy" not in response.json["error"] and "stopped" in response.json["error"]
