"""The crash journal: every change since the last save, on disk before the GUI goes on.

While an encounter is open, each applied Op, undo and redo is appended to a journal file in
``<data folder>/journal/`` as one JSON line, flushed and fsynced before ``record_*``
returns, so a crash or a power cut loses at most the change in flight. A clean save
restarts the journal (:meth:`Journal.rebase`), a clean close deletes it. At the next start
:func:`pending_journals` lists what is left and :func:`recover` replays it.

A journal file::

    {"journal":"afdesk-journal","version":1,"schema_version":1,"name":"River ford",
     "file":"/home/gm/river-ford.afenc","file_sha256":"9f2c...","file_size":10698,
     "created":"2025-03-01T20:15:04+01:00","base":null}
    {"n":1,"do":{"op":"MoveCombatant","id":"huang","path":[[7,11],[7,10]],"facing":0.0}}
    {"n":2,"undo":true}
    {"n":3,"redo":true}

The header names the file the changes apply to and the SHA-256 of its bytes, so a file
changed since (saved elsewhere, replaced) is reported instead of replayed onto. When the
file does not hold the encounter the changes start from (never saved, upgraded from an older
version, changed by a recovery), ``base`` holds that encounter as a whole document.

Replay keeps an undo stack of inverses and a redo stack, as the GUI does. An undo that
reaches past the start of the journal (undoing a change made before the last save) cannot
point into that stack, so its line carries the Op and its inverse (``"op"``,
``"inverse"``), and a redo of such a change carries the Op. The journal knows those because
it applies every change to a shadow copy of the encounter.

A running afdesk holds an exclusive lock on each journal it writes, so another afdesk never
offers a journal that is still in use for recovery.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from pathlib import Path
from typing import NoReturn

from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.base import Op
from afdesk.encounter.snapshot import EncounterState
from afdesk.storage import atomic, files
from afdesk.storage.errors import LoadError, SaveError
from afdesk.storage.journal_file import (
    NEW_SUFFIX,
    SUFFIX,
    TARGET,
    Line,
    data_dir,
    encoder,
    header_line,
    journal_dir,
    lock,
)
from afdesk.storage.recovery import PendingRecovery, discard, pending_journals, recover

__all__ = [
    "Journal",
    "PendingRecovery",
    "data_dir",
    "discard",
    "journal_dir",
    "pending_journals",
    "recover",
]


class Journal:
    """The crash journal of one open encounter. Create it with :meth:`start`."""

    def __init__(self, path: Path, fd: int, name: str, file: Path | None, shadow: Encounter):
        self.path = path
        self.name = name
        self.file = file
        self.problem = ""
        """Why changes are not being journaled right now ('' while they are). After a
        failed write the journal tries again, from the whole encounter, at each change."""
        self._file_obj = os.fdopen(fd, "ab", buffering=0)  # closes the descriptor on GC
        self._fd = fd
        self._shadow = shadow
        self._undo: list[tuple[Op, Op]] = []
        self._redo: list[Op] = []
        self._undo_depth = 0  # how much of each stack a replay of the file would have
        self._redo_depth = 0
        self._lines = 0
        self._size = os.fstat(fd).st_size
        self._closed = False
        self._lost = False  # the shadow no longer matches the GUI's encounter

    @classmethod
    def start(
        cls,
        name: str,
        file: str | os.PathLike | None = None,
        base: EncounterState | None = None,
    ) -> Journal:
        """Start journaling an encounter opened from ``file`` (its state ``base`` if the
        caller has it, else the file is loaded), or a never-saved one (``base`` only).

        Raises :class:`SaveError` if the journal cannot be written, :class:`LoadError` if
        ``file`` must be loaded and cannot be.
        """
        if file is None and base is None:
            raise ValueError("a journal needs the encounter's file or its state")
        path_file = None if file is None else Path(file).resolve()
        if base is None:
            base = files.load(path_file).state
        shadow = Encounter.from_state(base)
        folder = journal_dir()
        stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{secrets.token_hex(4)}"
        final = folder / f"{stem}{SUFFIX}"
        # Created under another name and renamed once locked, so that another afdesk
        # listing journals never sees it unlocked (and empty) and removes it.
        making = folder / f"{stem}{NEW_SUFFIX}" if os.name == "posix" else final
        fd = None
        try:
            content = header_line(name, path_file, base)
        except Exception as exc:
            raise SaveError(TARGET, f"the encounter could not be journaled ({exc})") from exc
        try:
            folder.mkdir(parents=True, exist_ok=True)
            flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND | getattr(os, "O_BINARY", 0)
            fd = os.open(making, flags, 0o600)
            lock(fd)
            atomic.write_all(fd, content)
            os.fsync(fd)
            if making != final:
                os.replace(making, final)
            atomic.fsync_folder(folder)
        except OSError as exc:
            if fd is not None:
                os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(making)
            raise SaveError(TARGET, atomic.reason(exc, making).split(";")[0]) from exc
        return cls(final, fd, name, path_file, shadow)

    # --------------------------------------------------------------------- recording

    @property
    def ops(self) -> int:
        """Lines written since the journal (re)started."""
        return self._lines

    def state(self) -> EncounterState:
        """The encounter as the journal knows it (what a recovery would give now)."""
        return self._shadow.state()

    def record_do(self, op: Op) -> None:
        """An Op was applied: append it, flushed and fsynced.

        Raises :class:`SaveError` when the journal cannot follow or write; the GUI goes on
        (``problem`` says what is wrong) and the journal tries again at the next change.
        """
        if self._skip():
            return
        inverse = self._follow(op)
        self._undo.append((op, inverse))
        self._redo.clear()
        if self._write(Line(self._lines + 1, do=op)):
            self._undo_depth += 1
            self._redo_depth = 0

    def record_undo(self) -> None:
        """The last change was undone."""
        if self._skip():
            return
        if not self._undo:
            self._lose("an undo of a change made before the journal started")
        op, inverse = self._undo[-1]
        explicit = self._undo_depth == 0
        line = Line(
            self._lines + 1,
            undo=True,
            op=op if explicit else None,
            inverse=inverse if explicit else None,
        )
        self._follow(inverse)
        self._undo.pop()
        self._redo.append(op)
        if self._write(line):
            if not explicit:
                self._undo_depth -= 1  # the replay pops it from its own stack
            self._redo_depth += 1

    def record_redo(self) -> None:
        """The last undone change was redone."""
        if self._skip():
            return
        if not self._redo:
            self._lose("a redo the journal has no change for")
        op = self._redo[-1]
        explicit = self._redo_depth == 0
        line = Line(self._lines + 1, redo=True, op=op if explicit else None)
        inverse = self._follow(op)
        self._redo.pop()
        self._undo.append((op, inverse))
        if self._write(line):
            if not explicit:
                self._redo_depth -= 1
            self._undo_depth += 1

    def rebase(self, file: str | os.PathLike, *, name: str | None = None) -> None:
        """After a clean save (or save-as) to ``file``: the journal restarts empty for it.

        Undo and redo keep working across the save (their lines then carry the Ops).
        """
        self._check_open()
        self.file = Path(file).resolve()
        if name is not None:
            self.name = name
        if self._lost:
            # Start again from what was saved: the file is the truth now.
            try:
                state = files.load(self.file).state
            except LoadError as exc:
                raise SaveError(TARGET, f"{self.problem}; {exc}") from exc
            self._shadow = Encounter.from_state(state)
            self._undo.clear()
            self._redo.clear()
            self._lost = False
        self._restart()
        if self.problem:
            raise SaveError(TARGET, self.problem)

    def close(self, clean: bool = True) -> None:
        """Stop journaling. A clean close (the encounter was saved or deliberately
        discarded) deletes the journal; ``clean=False`` leaves it for recovery."""
        if self._closed:
            return
        self._closed = True
        if clean:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        self._file_obj.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        self.close(clean=exc_type is None)

    # ---------------------------------------------------------------------- internals

    def _check_open(self) -> None:
        if self._closed:
            raise ValueError("the journal is closed")

    def _skip(self) -> bool:
        """Whether to ignore a change: after losing track, until the next save."""
        self._check_open()
        return self._lost

    def _follow(self, op: Op) -> Op:
        try:
            return self._shadow.apply(op)
        except Exception as exc:
            self._lose(str(exc), exc)

    def _lose(self, why: str, exc: BaseException | None = None) -> NoReturn:
        """The GUI changed the encounter in a way the journal cannot follow: it stops
        until a save (rebase, from the file) gives it the encounter again."""
        self._lost = True
        self.problem = f"the journal lost track of the encounter ({why})"
        raise SaveError(TARGET, f"{self.problem}: save to protect the changes") from exc

    def _write(self, line: Line) -> bool:
        """Append a line; True if it was written. After an earlier failure the journal
        starts afresh from the whole encounter instead (which includes this change)."""
        if self.problem:
            self._restart()
            return False
        try:
            data = encoder.encode(line) + b"\n"
        except Exception as exc:  # text msgspec cannot encode (a lone surrogate, say)
            self.problem = f"a change could not be journaled ({exc})"
            raise SaveError(TARGET, self.problem) from exc
        try:
            atomic.write_all(self._fd, data)
            os.fsync(self._fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self._size)  # no torn line before the next ones
            self.problem = atomic.reason(exc, self.path).split(";")[0]
            raise SaveError(
                TARGET,
                f"{self.problem}: changes are not protected against a crash until afdesk "
                "can write again",
            ) from exc
        self._size += len(data)
        self._lines += 1
        return True

    def _restart(self) -> None:
        """Rewrite the journal as a header for the current encounter and no lines."""
        state = self._shadow.state()
        try:
            content = header_line(self.name, self.file, state)
            os.ftruncate(self._fd, 0)
            atomic.write_all(self._fd, content)
            os.fsync(self._fd)
        except OSError as exc:
            self.problem = atomic.reason(exc, self.path).split(";")[0]
            return
        except Exception as exc:  # an unencodable state: journaling is off until a save
            self.problem = f"the encounter could not be journaled ({exc})"
            return
        self.problem = ""
        self._size = len(content)
        self._lines = 0
        self._undo_depth = self._redo_depth = 0
