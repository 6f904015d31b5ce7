"""Thumbnails of a campaign's encounters, rendered off the UI thread.

Each thumbnail is the ``export-png`` renderer (:func:`afdesk.gui.export.render_map`) run in
a :class:`QThreadPool` worker on a ``QImage`` (no ``QPixmap``, no widget: both belong to the
UI thread). The worker loads the encounter file itself, so opening a campaign reads no
encounter file on the UI thread. Results come back through a queued signal, keyed by the
file's path, modification time, inode and size (an atomic save makes a new file, so two saves
within one tick of the clock still differ), and are kept for the session.

A thumbnail follows its file's last save: every file asked for is watched, and when it is
saved again (by the editor, a prepare, a run) a fresh thumbnail is rendered and
:attr:`Thumbnails.ready` tells the dock, with nothing else to call.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QFileSystemWatcher,
    QObject,
    QRunnable,
    QThreadPool,
    Signal,
)
from PySide6.QtGui import QImage

from afdesk.gui import off_thread

THUMB_SIZE = (192, 108)


Stamp = tuple[str, int, int, int]


def _stamp(path: Path) -> Stamp | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (str(path), st.st_mtime_ns, st.st_ino, st.st_size)


def _key(stamp: Stamp) -> str:
    return "\n".join(str(part) for part in stamp)


def _unkey(key: str) -> Stamp:
    name, mtime, ino, size = key.rsplit("\n", 3)
    return (name, int(mtime), int(ino), int(size))


class _Carrier(QObject):
    """Carries a worker's result to the UI thread (a queued connection)."""

    done = Signal(str, object, str, object)  # key, QImage or None, problem, worker thread


class _Render(QRunnable):
    def __init__(self, key: str, path: Path, carrier: _Carrier, size: tuple[int, int]) -> None:
        super().__init__()
        self.key, self.path, self.carrier, self.size = key, path, carrier, size
        self.setAutoDelete(True)

    def run(self) -> None:  # in a pool thread, started by off_thread.start
        try:
            self._render()
        finally:
            off_thread.done()  # (afdesk.gui.off_thread: no collection here until then)

    def _render(self) -> None:
        from afdesk.encounter.model import Encounter
        from afdesk.gui.export import render_map
        from afdesk.storage import LoadError, load

        me = threading.get_ident()
        try:
            state = load(self.path).state
            image = render_map(Encounter.from_state(state), self.size)
        except LoadError as exc:
            self.carrier.done.emit(self.key, None, exc.detail, me)
            return
        except Exception as exc:  # a thumbnail never takes the campaign down
            self.carrier.done.emit(self.key, None, f"{type(exc).__name__}: {exc}", me)
            return
        finally:
            # The renderer's scene and document were handed to deleteLater, and a pool
            # thread runs no event loop: delete them now, or every thumbnail's scene stays
            # alive and the garbage collector (which stops every thread) walks them all.
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        self.carrier.done.emit(self.key, image, "", me)


class Thumbnails(QObject):
    """Thumbnails by encounter file: :meth:`request` it, hear :attr:`ready`."""

    ready = Signal(str, object, str)
    """(path, QImage or None, the problem if it could not be made)."""

    def __init__(self, parent: QObject | None = None, size: tuple[int, int] = THUMB_SIZE):
        super().__init__(parent)
        self.size = size
        self.pool = QThreadPool(self)
        # One worker: the renderer's scenes share Qt's pixmap and font caches, and one
        # thread off the UI is all the table needs (about 40 ms a thumbnail).
        self.pool.setMaxThreadCount(1)
        self._cache: dict[Stamp, QImage] = {}
        self._pending: set[Stamp] = set()
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._file_changed)
        self.render_threads: set[int] = set()
        """The threads thumbnails were rendered in (never the UI thread)."""
        self._carrier = _Carrier(self)
        self._carrier.done.connect(self._done)
        # Import and register everything a worker needs here, on the UI thread: the Op
        # registry fills itself on first use and is not meant to be raced by two threads.
        from afdesk.encounter.registry import registered_ops
        from afdesk.gui import export  # noqa: F401
        from afdesk.gui.map import scene  # noqa: F401
        from afdesk.storage import codec

        registered_ops()
        codec._fast_decoder()

    def cached(self, path: Path) -> QImage | None:
        stamp = _stamp(path)
        return self._cache.get(stamp) if stamp else None

    def request(self, path: Path) -> QImage | None:
        """The thumbnail if it is ready; else None, and :attr:`ready` follows."""
        stamp = _stamp(path)
        if stamp is None:
            self.ready.emit(str(path), None, f"there is no file {Path(path).name}")
            return None
        if stamp[0] not in self._watcher.files():
            self._watcher.addPath(stamp[0])
        if stamp in self._cache:
            return self._cache[stamp]
        if stamp not in self._pending:
            self._pending.add(stamp)
            off_thread.start(self.pool, _Render(_key(stamp), Path(path), self._carrier, self.size))
        return None

    def _file_changed(self, path: str) -> None:
        """A watched file saved again: render it afresh (an atomic save replaces the file,
        which ends its watch, so it is watched again)."""
        if _stamp(Path(path)) is None:
            return  # gone: the dock says so when it asks again
        self.request(Path(path))

    def busy(self) -> bool:
        return bool(self._pending)

    def _done(self, key: str, image, problem: str, thread) -> None:
        self.render_threads.add(thread)
        stamp = _unkey(key)
        name = stamp[0]
        self._pending.discard(stamp)
        if image is not None:
            self._cache[stamp] = image
        self.ready.emit(name, image, problem)

    def wait(self, msecs: int = 30000) -> bool:
        return self.pool.waitForDone(msecs)
