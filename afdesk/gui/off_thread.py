"""Work off the UI thread without collecting garbage there.

Python's cycle collector runs in whichever thread happens to allocate past its threshold.
Run in a worker (odds, thumbnails), it would destroy the UI thread's unreachable Qt objects
(a closed dialog's widgets, an old scene's items) off the UI thread, which crashes Qt.
:func:`no_collection` keeps the collector off while any worker works; the UI thread collects
once they are done."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_working = 0
_was_on = False


@contextmanager
def no_collection() -> Iterator[None]:
    """No automatic garbage collection while the body runs (in any thread); nested and
    concurrent uses count, and the collector is back as it was when the last one ends."""
    global _working, _was_on
    with _lock:
        if _working == 0:
            _was_on = gc.isenabled()
            gc.disable()
        _working += 1
    try:
        yield
    finally:
        with _lock:
            _working -= 1
            if _working == 0 and _was_on:
                gc.enable()
