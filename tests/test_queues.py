"""The workers' queues (tests/conftest.py): pytest-xdist's work stealing deals the tests in the
slices the layout assumes, so half the browser tests open the first worker's queue and half the
second's."""

from __future__ import annotations

from types import SimpleNamespace

from xdist.scheduler.worksteal import WorkStealingScheduling

from tests.conftest import _slices


class Worker:
    """What the scheduler calls on a worker: it is sent tests, asked to stop or to give some up."""

    shutting_down = False

    def __init__(self, number: int):
        self.gateway = SimpleNamespace(id=f"gw{number}")
        self.sent: list[int] = []

    def send_runtest_some(self, indices):
        self.sent.extend(indices)

    def send_steal(self, indices):
        pass

    def shutdown(self):
        pass


def dealt(count: int, workers: int) -> list[list[int]]:
    """The tests (by index) xdist's work stealing first sends each of ``workers`` workers."""
    config = SimpleNamespace(getvalue=lambda name: [f"{workers}*popen"])
    scheduler = WorkStealingScheduling(config)
    nodes = [Worker(number) for number in range(workers)]
    collection = [f"test_{index}" for index in range(count)]
    for node in nodes:
        scheduler.add_node(node)
    for node in nodes:
        scheduler.add_node_collection(node, collection)
    scheduler.schedule()
    return [node.sent for node in nodes]


def test_work_stealing_deals_the_slices_the_layout_assumes():
    for count, workers in ((4182, 4), (2911, 2), (10, 4), (7, 3)):
        queues = dealt(count, workers)
        assert [len(queue) for queue in queues] == _slices(count, workers)
        assert [index for queue in queues for index in queue] == list(range(count))
