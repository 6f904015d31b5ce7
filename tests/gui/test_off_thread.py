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
    assert during == [False]
    qtbot.waitUntil(gc.isenabled)  # back on once the UI thread hears the job is done


def test_no_collection_ever_runs_in_an_odds_worker(qtbot):
    """The collector is off before the worker runs any Python, and only the UI thread turns
    it back on. Turned off inside the job instead, the job's first allocations (the context
    manager, the call into run) ran the collections that were due in the worker: 60 of
    this test's collections did."""
    threads: list[bool] = []

    def seen(phase, _info):
        if phase == "start":
            threads.append(threading.current_thread() is threading.main_thread())

    worker = OddsWorker()
    results: list[object] = []
    worker.ready.connect(lambda request, result, context: results.append(result))
    before = gc.get_threshold()
    gc.set_threshold(20, 5, 5)
    gc.callbacks.append(seen)
    try:
        for i in range(300):
            worker.request(lambda: sum(range(200)))
            qtbot.waitUntil(lambda i=i: len(results) > i, timeout=20000)
    finally:
        gc.callbacks.remove(seen)
        gc.set_threshold(*before)
    assert results == [sum(range(200))] * 300
    assert threads and all(threads), f"{threads.count(False)} collections in a worker"
