"""Work off the UI thread without collecting garbage there.

Python's cycle collector runs in whichever thread happens to allocate past its threshold.
Run in a worker (odds, thumbnails), it would destroy the UI thread's unreachable Qt objects
(a closed dialog's widgets, an old scene's items) off the UI thread, which crashes Qt.

So the collector is off from before a worker runs any Python until the UI thread has heard
that it is done: :func:`start` turns it off on the UI thread and then starts the job, the
job calls :func:`done` as the last thing it does, and the UI thread turns the collector back
on when that news arrives (the UI thread collects then). A worker that turned the collector
off itself would be too late: making the context manager, the call into the job and the
``with`` line all allocate in the worker first, and with a collection due one of those ran
it there (all nine collections of a run of 3,000 odds jobs; tests/gui/test_off_thread.py).
The same holds at the end: switched back on in the worker, the job's next allocation (its
result's signal) could collect there. The holds are counted in :mod:`afdesk.storage.gc_hold`,
with the journal's fsync thread's.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThread, QThreadPool, Signal, Slot

from afdesk.storage.gc_hold import hold, no_collection, release

__all__ = ["done", "no_collection", "start"]


class _Resumer(QObject):
    """Lives in the UI thread: a worker's :func:`done` reaches :meth:`resume` there."""

    finished = Signal()

    @Slot()
    def resume(self) -> None:
        release()


_resumer: _Resumer | None = None


def start(pool: QThreadPool, job: QRunnable) -> None:
    """On the UI thread: the collector off, then ``job`` started on ``pool``. The job must
    call :func:`done` as the last thing its ``run`` does, whatever happens."""
    global _resumer
    app = QCoreApplication.instance()
    if app is not None and QThread.currentThread() is not app.thread():
        raise RuntimeError("off_thread.start must be called on the UI thread")
    if _resumer is None:
        _resumer = _Resumer()
        _resumer.finished.connect(_resumer.resume)  # queued when emitted from a worker
    hold()
    pool.start(job)


def done() -> None:
    """In the worker, last: the UI thread may collect again once it hears of it."""
    if _resumer is not None:
        _resumer.finished.emit()
