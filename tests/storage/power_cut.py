"""A fault-injection layer under the journals: what a power cut leaves on disk.

:class:`PowerCutDisk` watches ``os.fsync`` (and, through hooks, every write, truncate and
rename): a file's durable bytes are what it held at its last fsync. :meth:`image` gives a
file as a power cut at this moment might leave it: the durable bytes followed by none, a
part, or all of what was written since, or by zeros (a file system that grew the file but
never wrote its blocks). A rename is taken as durable at once (afdesk fsyncs the folder
right after each). Everything is seeded: the same run gives the same images.

With ``gate`` (a thread name), fsyncs on that thread wait for a permit
(:meth:`release`), so a test can look at the disk while the journal's background fsync of
the last change has deterministically not happened yet: the worst case.
"""

from __future__ import annotations

import os
import random
import stat
import threading
from collections.abc import Callable
from pathlib import Path

MODES = ("none", "part", "all", "zeros")


class PowerCutDisk:
    def __init__(self, monkeypatch, *, gate: str = "") -> None:
        self.durable: dict[tuple[int, int], bytes] = {}
        self._lock = threading.Lock()
        self._gate = gate
        self._permits = threading.Semaphore(0)
        self.on_op: Callable[[str], None] | None = None
        """Called after every watched operation (a write, fsync, truncate or rename)."""
        real_fsync = os.fsync

        def fsync(fd: int) -> None:
            if gate and threading.current_thread().name == gate:
                self._permits.acquire()
            real_fsync(fd)
            st = os.fstat(fd)
            if stat.S_ISREG(st.st_mode):
                data = _read_fd(fd, st.st_size)
                with self._lock:
                    self.durable[(st.st_dev, st.st_ino)] = data
            self._op("fsync")

        monkeypatch.setattr(os, "fsync", fsync)

    def watch(self, monkeypatch, module, name: str) -> None:
        """Call :attr:`on_op` after ``module.name`` (a write, truncate or rename) too."""
        real = getattr(module, name)

        def wrapped(*args, **kwargs):
            out = real(*args, **kwargs)
            self._op(name)
            return out

        monkeypatch.setattr(module, name, wrapped)

    def _op(self, what: str) -> None:
        if self.on_op is not None and threading.current_thread() is threading.main_thread():
            self.on_op(what)

    def release(self) -> None:
        """Let one gated fsync run."""
        self._permits.release()

    def image(self, path: Path, rng: random.Random) -> bytes:
        """``path`` as a power cut now might leave it (see the module)."""
        try:
            st = os.stat(path)
            now = Path(path).read_bytes()
        except FileNotFoundError:
            return b""
        with self._lock:
            durable = self.durable.get((st.st_dev, st.st_ino), b"")
        if not now.startswith(durable):  # cut back since its fsync: either may be on disk
            return durable if rng.random() < 0.5 else now
        pending = now[len(durable) :]
        if not pending:
            return durable
        mode = rng.choice(MODES)
        if mode == "none":
            return durable
        if mode == "all":
            return now
        k = rng.randrange(1, len(pending) + 1) if mode == "zeros" else rng.randrange(len(pending))
        return durable + (b"\0" * k if mode == "zeros" else pending[:k])


def _read_fd(fd: int, size: int) -> bytes:
    """A file's bytes through its descriptor, even one opened write-only (Linux)."""
    try:
        return os.pread(fd, size, 0)
    except OSError:
        with open(f"/proc/self/fd/{fd}", "rb") as f:
            return f.read(size)
