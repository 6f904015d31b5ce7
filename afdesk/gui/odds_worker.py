"""Odds computed off the UI thread (odds never freeze the table).

The dialog builds an odds *query* on the UI thread: a callable closed over immutable
values only (pool specs, roll states, the stateless ruleset), never a widget or the live
Encounter. :class:`OddsWorker` runs it on its own thread pool and hands the result back on
the UI thread through :attr:`OddsWorker.ready`. A newer request supersedes an older one: a
request still waiting is replaced, and the result of any request but the newest is dropped
(by its request id), so the dialog shows the odds of what is on screen now.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from afdesk.gui import off_thread


def run_query(query: Callable[[], Any]) -> Any:
    """Compute one odds query (the default of :attr:`OddsWorker.compute`)."""
    return query()


class _Relay(QObject):
    """Carries a finished result from the pool's thread to the UI thread (queued)."""

    done = Signal(int, object, object)


class _Job(QRunnable):
    def __init__(
        self,
        request: int,
        query: Callable[[], Any],
        compute: Callable[[Callable[[], Any]], Any],
        relay: _Relay,
        context: object,
    ) -> None:
        super().__init__()
        self.request = request
        self.query = query
        self.compute = compute
        self.relay = relay
        self.context = context

    def run(self) -> None:
        # Started by off_thread.start: no collection here (it would crash Qt) until the UI
        # thread hears off_thread.done(), the last thing this does.
        try:
            try:
                result: object = self.compute(self.query)
            except Exception as exc:  # shown as the odds' text, never raised into Qt
                result = exc
            # RuntimeError: the worker is gone (its dialog closed) and nobody waits.
            with contextlib.suppress(RuntimeError):
                self.relay.done.emit(self.request, result, self.context)
        finally:
            off_thread.done()


class OddsWorker(QObject):
    """Runs odds queries one at a time off the UI thread; the newest request wins.

    ``ready(request id, result, context)`` is emitted on the UI thread for the newest
    request only; ``result`` is the query's value or the exception it raised. ``compute``
    is the seam that runs a query (tests make it slow).
    """

    ready = Signal(int, object, object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.compute: Callable[[Callable[[], Any]], Any] = run_query
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._finished)
        self._latest = 0
        self._running = False
        self._pending: _Job | None = None
        self._closed = False

    @property
    def latest(self) -> int:
        """The id of the newest request."""
        return self._latest

    @property
    def busy(self) -> bool:
        """A request is running or waiting."""
        return self._running or self._pending is not None

    def request(self, query: Callable[[], Any], context: object = None) -> int:
        """Compute ``query`` off the UI thread; returns its request id. Any request still
        waiting is dropped, any still running will have its result dropped."""
        self._latest += 1
        job = _Job(self._latest, query, self.compute, self._relay, context)
        if self._closed:
            return self._latest
        if self._running:
            self._pending = job
        else:
            self._start(job)
        return self._latest

    def _start(self, job: _Job) -> None:
        self._running = True
        off_thread.start(self._pool, job)

    def _finished(self, request: int, result: object, context: object) -> None:
        self._running = False
        pending, self._pending = self._pending, None
        if pending is not None and not self._closed:
            self._start(pending)
        if request == self._latest:
            self.ready.emit(request, result, context)

    def shutdown(self, msecs: int = -1) -> bool:
        """Drop what is waiting and wait for what is running (the dialog closes)."""
        self._closed = True
        self._pending = None
        return self._pool.waitForDone(msecs)
