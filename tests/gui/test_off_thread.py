"""No garbage is collected in a worker thread (afdesk.gui.off_thread): a collection there
would destroy the UI thread's unreachable Qt objects off the UI thread and crash Qt."""

from __future__ import annotations

import gc
import threading

from afdesk.gui.odds_worker import OddsWorker
from afdesk.gui.off_thread import no_collection


def test_the_collector_is_off_while_any_worker_works_and_back_after():
    assert gc.isenabled()
    inside = threading.Event()
    leave = threading.Event()
    seen: list[bool] = []

    def worker():
        with no_collection():
            inside.set()
            leave.wait(5)
            seen.append(gc.isenabled())

    t = threading.Thread(target=worker)
    t.start()
    assert inside.wait(5)
    with no_collection():  # a second user ends first: still off for the worker
        seen.append(gc.isenabled())
    seen.append(gc.isenabled())
    leave.set()
    t.join(5)
    assert seen == [False, False, False] and gc.isenabled()


def test_the_collector_stays_off_if_it_was_off():
    gc.disable()
    try:
        with no_collection():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_odds_are_computed_with_the_collector_off(qtbot):
    worker = OddsWorker()
    during: list[bool] = []
    results: list[object] = []
    worker.compute = lambda query: during.append(gc.isenabled()) or query()
    worker.ready.connect(lambda request, result, context: results.append(result))
    worker.request(lambda: 0.5)
    qtbot.waitUntil(lambda: results == [0.5], timeout=10000)
    assert during == [False] and gc.isenabled()
