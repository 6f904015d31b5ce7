"""Thumbnails of a campaign's encounters, rendered off the UI thread.

Each thumbnail is the ``export-png`` picture of the map, made in three steps:

1. a :class:`QThreadPool` worker loads the encounter file (no Qt: opening a campaign reads
   no encounter file on the UI thread);
2. the UI thread builds the map's scene for it (a few ms): a ``QGraphicsScene`` enters
   itself in, and leaves, a list the application keeps without a lock, so one made or
   destroyed in a worker raced every scene the window makes or destroys meanwhile;
3. the worker paints the scene into a ``QImage`` (no ``QPixmap``, no widget: both belong
   to the UI thread), the longer part, and the UI thread destroys the scene.

Results come back through queued signals, keyed by the file's path, modification time, inode
and size (an atomic save makes a new file, so two saves within one tick of the clock still
differ), and are kept for the session.

A thumbnail follows its file's last save: every file asked for is watched, and when it is
saved again (by the editor, a prepare, a run) a fresh thumbnail is rendered and
:attr:`Thumbnails.ready` tells the dock, with nothing else to call.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections import deque
from pathlib import Path

from PySide6.QtCore import (
    QCoreApplication,
    QFileSystemWatcher,
    QObject,
    QRunnable,
    QThreadPool,
    Signal,
)
from PySide6.QtGui import QImage
from shiboken6 import Shiboken

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
    """Carries a worker's result to the UI thread (queued connections)."""

    loaded = Signal(str, object, str)  # key, the Encounter or None, problem
    painted = Signal(str, object, str, object)  # key, QImage or None, problem, worker thread


class _Load(QRunnable):
    """Step 1, in a pool thread (started by off_thread.start): the file read, no Qt."""

    def __init__(self, key: str, path: Path, carrier: _Carrier) -> None:
        super().__init__()
        self.key, self.path, self.carrier = key, path, carrier
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            try:
                from afdesk.encounter.model import Encounter
                from afdesk.storage import LoadError, load

                try:
                    enc, problem = Encounter.from_state(load(self.path).state), ""
                except LoadError as exc:
                    enc, problem = None, exc.detail
            except Exception as exc:  # a thumbnail never takes the campaign down
                enc, problem = None, f"{type(exc).__name__}: {exc}"
            with contextlib.suppress(RuntimeError):  # the Thumbnails gone meanwhile
                self.carrier.loaded.emit(self.key, enc, problem)
        finally:
            off_thread.done()  # (afdesk.gui.off_thread: no collection here until then)


class _Paint(QRunnable):
    """Step 3, in a pool thread: a scene the UI thread built, painted into a QImage. The
    scene is not referred to from here once painted: it is destroyed on the UI thread."""

    def __init__(self, key: str, scene, carrier: _Carrier, size: tuple[int, int]) -> None:
        super().__init__()
        self.key, self.scene, self.carrier, self.size = key, scene, carrier, size
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            scene, self.scene = self.scene, None
            try:
                from afdesk.gui.export import render_scene

                image, problem = render_scene(scene, self.size), ""
            except Exception as exc:  # a thumbnail never takes the campaign down
                image, problem = None, f"{type(exc).__name__}: {exc}"
            del scene
            with contextlib.suppress(RuntimeError):  # the Thumbnails gone meanwhile
                self.carrier.painted.emit(self.key, image, problem, threading.get_ident())
        finally:
            off_thread.done()


def _destroy(scene) -> None:
    """A thumbnail's scene destroyed now, on the UI thread, whoever else still holds its
    wrapper."""
    scene.detach()
    Shiboken.delete(scene)


class Thumbnails(QObject):
    """Thumbnails by encounter file: :meth:`request` it, hear :attr:`ready`."""

    ready = Signal(str, object, str)
    """(path, QImage or None, the problem if it could not be made)."""

    def __init__(self, parent: QObject | None = None, size: tuple[int, int] = THUMB_SIZE):
        super().__init__(parent)
        self.size = size
        self.pool = QThreadPool(self)
        # One worker, and one thumbnail at a time through the three steps: the UI thread
        # builds one scene per turn of its event loop (a few ms), never fifty in a row
        # when fifty files come in at once (about 20 ms a thumbnail in all).
        self.pool.setMaxThreadCount(1)
        self._cache: dict[Stamp, QImage] = {}
        self._pending: set[Stamp] = set()
        self._waiting: deque[tuple[Stamp, Path]] = deque()
        self._current = ""
        """The key of the thumbnail going through the steps ('' when none is)."""
        self._watcher = QFileSystemWatcher(self)
        self._watcher.fileChanged.connect(self._file_changed)
        self.render_threads: set[int] = set()
        """The threads thumbnails were painted in (never the UI thread, which only builds
        and destroys their scenes)."""
        self._painting: dict[str, object] = {}
        """The scenes the worker paints, by key: held here, destroyed here."""
        self._carrier = _Carrier(self)
        self._carrier.loaded.connect(self._loaded)
        self._carrier.painted.connect(self._painted)
        # Import and register everything a worker needs here, on the UI thread: the Op
        # registry fills itself on first use and is not meant to be raced by two threads.
        from afdesk.encounter.registry import registered_ops
        from afdesk.gui import export  # noqa: F401
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
            self._waiting.append((stamp, Path(path)))
            self._next()
        return None

    def _next(self) -> None:
        """Step 1 for the next thumbnail waiting, once none is going through the steps."""
        if not self._current and self._waiting:
            stamp, path = self._waiting.popleft()
            self._current = _key(stamp)
            off_thread.start(self.pool, _Load(self._current, path, self._carrier))

    def _file_changed(self, path: str) -> None:
        """A watched file saved again: render it afresh (an atomic save replaces the file,
        which ends its watch, so it is watched again)."""
        if _stamp(Path(path)) is None:
            return  # gone: the dock says so when it asks again
        self.request(Path(path))

    def busy(self) -> bool:
        return bool(self._pending)

    def _loaded(self, key: str, enc, problem: str) -> None:
        """Step 2: the scene built here, on the UI thread, and handed to the worker. The
        scene is a child of this object: destroyed here after its painting, or with this
        object (after the pool, made first, has waited for the worker)."""
        if enc is None:
            self._finish(key, None, problem)
            return
        scene = None
        try:
            from PySide6.QtWidgets import QGraphicsScene

            from afdesk.gui.map.scene import MapScene
            from afdesk.gui.map.still import StillDocument

            scene = MapScene(StillDocument(enc), parent=self)
            # One picture (as export.render_map): no item caches, no index to keep up to
            # date, and what the scene queued for itself done now, not while it is painted.
            for item in scene.items():
                item.setCacheMode(item.CacheMode.NoCache)
            scene.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
            QCoreApplication.sendPostedEvents(scene, 0)
            self._painting[key] = scene
            off_thread.start(self.pool, _Paint(key, scene, self._carrier, self.size))
        except Exception as exc:  # a thumbnail never takes the campaign down
            self._painting.pop(key, None)
            if scene is not None:
                _destroy(scene)
            self._finish(key, None, f"{type(exc).__name__}: {exc}")

    def _painted(self, key: str, image, problem: str, thread) -> None:
        self.render_threads.add(thread)
        scene = self._painting.pop(key, None)
        if scene is not None:
            _destroy(scene)
        self._finish(key, image, problem)

    def _finish(self, key: str, image, problem: str) -> None:
        stamp = _unkey(key)
        name = stamp[0]
        self._pending.discard(stamp)
        if image is not None:
            self._cache[stamp] = image
        self._current = ""
        self.ready.emit(name, image, problem)
        self._next()
