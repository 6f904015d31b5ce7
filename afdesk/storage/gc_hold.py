"""The cycle collector held off while a thread of afdesk's own works.

Python's collector runs in whichever thread allocates past its threshold. In the GUI a
collection in a worker thread (the journal's fsync thread, an odds or thumbnail worker)
would destroy the UI thread's unreachable Qt objects off the UI thread, which crashes Qt.
So whoever wakes such a thread holds the collector off *before* the thread runs any Python
(:func:`hold`), and the hold is released (:func:`release`) only where nothing the collector
counts is allocated afterwards in that thread. Holds count, across threads: the collector
is back as it was when the last one is released. No Qt here: storage's journal uses it,
and ``afdesk.gui.off_thread`` builds its workers on it.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holds = 0
_was_on = False


def hold() -> None:
    """The collector off until a matching :func:`release`."""
    global _holds, _was_on
    with _lock:
        if _holds == 0:
            _was_on = gc.isenabled()
            gc.disable()
        _holds += 1


def release(count: int = 1) -> None:
    """End ``count`` holds; the last one puts the collector back as it was."""
    global _holds
    if count <= 0:
        return
    with _lock:
        _holds -= count
        if _holds == 0 and _was_on:
            gc.enable()


def held() -> int:
    """How many holds are in force: 0 when none of afdesk's workers is running or has yet
    to be heard of by the UI thread (the tests wait for that before taking a test apart)."""
    with _lock:
        return _holds


def turn_on() -> None:
    """The collector on, once no hold keeps it off: the start turns it off before any of
    afdesk's threads runs (afdesk.cli) and on here when the window is drawn, so that a
    worker holding it off then is not collected under (the last release turns it on)."""
    global _was_on
    with _lock:
        if _holds:
            _was_on = True
        else:
            gc.enable()


@contextmanager
def no_collection() -> Iterator[None]:
    """A hold for the body (for the thread that runs it: entered in a worker, it comes
    after the worker's first allocations, so a worker is held off by whoever starts it)."""
    hold()
    try:
        yield
    finally:
        release()
