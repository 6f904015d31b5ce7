"""The crash journal: every change since the last save, on disk before the GUI goes on.

While an encounter is open, each applied Op, undo and redo is appended to a journal file in
``<data folder>/journal/`` as one JSON line, written before :meth:`Journal.record` returns and
fsynced by a thread of the journal's own while the GUI repaints (the fsync took
about 5 ms of the UI thread per change). The next change waits for that fsync before it is
written. The promise (the README's, in SQLite's terms ``synchronous=NORMAL``): a crash of
afdesk loses no acknowledged change (its line is in the system's hands); a power cut may
cost the last change acknowledged, whose fsync had not finished, never more and never a
wrong encounter (recovery keeps the prefix and says so when it finds part of a line;
``tests/storage/test_power_cut.py``). A clean save
restarts the journal (:meth:`Journal.rebase`), a clean close deletes it. At the next start
:func:`pending_journals` lists what is left and :func:`recover` replays it.

A journal file (each line sealed with the CRC-32 of the rest of it, ``"c"``)::

    {"journal":"afdesk-journal","version":3,"schema_version":2,"name":"River ford",
     "file":"/home/gm/river-ford.afenc","file_sha256":"9f2c...","file_size":10698,
     "created":"2025-03-01T20:15:04+01:00","base":null,"c":"0c1d2e3f"}
    {"n":1,"do":{"op":"MoveCombatant","id":"huang","path":[[7,11],[7,10]],"facing":0.0},
     "text":"Green-Jade Huang moves (7, 11) -> (7, 10) (1 area), facing N","c":"5a6b7c8d"}
    {"n":2,"undo":true,"c":"01234567"}
    {"n":3,"redo":true,"c":"89abcdef"}
    {"n":4,"saved":"77aa...","to":"/home/gm/river-ford.afenc","c":"fedcba98"}

Why lines and not SQLite: the journal is appended to once per change and read once after
a crash; a sealed line per change costs one ``write`` and one ``fsync`` (the same as
before), a restart writes a new file and renames it over the old one (atomic, and a full
disk leaves the old journal whole), and a damaged line is found by its seal, so recovery
keeps the intact lines before it. The ``saved`` marker is written just before a save:
if afdesk dies between the save and the journal's restart, recovery sees the file holds
the marked bytes and recovers from it.

The header names the file the changes apply to and the SHA-256 of its bytes, so a file
changed since (saved elsewhere, replaced) is reported instead of replayed onto. When the
file does not hold the encounter the changes start from (never saved, upgraded from an older
version, changed by a recovery), ``base`` holds that encounter as a whole document.

The journal follows the encounter's :class:`~afdesk.encounter.history.History`: each step
event becomes one line per Op, a ``do`` line with the log line its Op wrote (the replay
logs it as written instead of describing the Op again). Replay keeps the undo and redo
steps the same way (it replays into a History). An undo that reaches past the start of the
journal (undoing a change made before the last save) cannot point into the replay's steps,
so its line carries the Op and its inverse (``"op"``, ``"inverse"``), and a redo of such a
change carries the Op; the history's events hold both, so the journal keeps no copy of the
encounter of its own.

A running afdesk holds an exclusive lock on each journal it writes, so another afdesk never
offers a journal that is still in use for recovery.
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import weakref
from pathlib import Path

from afdesk.encounter.history import Change, History, StepEvent
from afdesk.encounter.op import Op
from afdesk.encounter.snapshot import EncounterState
from afdesk.storage import atomic, codec, files, gc_hold
from afdesk.storage.errors import SaveError
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
    seal,
)
from afdesk.storage.recovery import (
    PendingRecovery,
    Recovered,
    discard,
    pending_journals,
    recover,
    recover_report,
)

__all__ = [
    "Journal",
    "PendingRecovery",
    "Recovered",
    "data_dir",
    "discard",
    "journal_dir",
    "pending_journals",
    "recover",
    "recover_report",
]


class Journal:
    """The crash journal of one open encounter. Create it with :meth:`start`, then
    :meth:`follow` the encounter's history."""

    def __init__(self, path: Path, fd: int, name: str, file: Path | None):
        self.path = path
        self.name = name
        self.file = file
        self.problem = ""
        """Why changes are not being journaled right now ('' while they are). After a
        failed write the journal tries again, from the whole encounter, at each change."""
        self._file_obj = os.fdopen(fd, "ab", buffering=0)  # closes the descriptor on GC
        self._fd = fd
        self._history: History | None = None
        self._undo_depth = 0  # how many steps a replay of the file could undo, and redo
        self._redo_depth = 0
        self._lines = 0
        self._size = os.fstat(fd).st_size
        self._closed = False
        self._syncer = _Syncer()
        # A journal dropped without close() (an error path, a test) takes its fsync thread
        # with it: the thread holds the syncer, never the journal, and would sleep on.
        self._stop_syncer = weakref.finalize(self, self._syncer.stop)
        self._synced_size = self._size  # the file's size before the line being fsynced

    @classmethod
    def start(
        cls,
        name: str,
        file: str | os.PathLike[str] | None = None,
        base: EncounterState | None = None,
    ) -> Journal:
        """Start journaling an encounter opened from ``file`` (its state ``base`` if the
        caller has it, else the file is loaded), or a never-saved one (``base`` only).

        Raises :class:`SaveError` if the journal cannot be written, :class:`LoadError` if
        ``file`` must be loaded and cannot be.
        """
        path_file = None if file is None else Path(file).resolve()
        if base is None:
            if path_file is None:
                raise ValueError("a journal needs the encounter's file or its state")
            base = files.load(path_file).state
        folder = journal_dir()
        stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.urandom(4).hex()}"
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
        return cls(final, fd, name, path_file)

    def follow(self, history: History, *, subscribe: bool = True) -> Journal:
        """Journal the changes of ``history`` (whose encounter is the journal's base now).

        With ``subscribe=False`` the caller hands the events to :meth:`record` itself (the
        GUI does, to report a failed write to the GM instead of raising into the table).
        """
        self._history = history
        if subscribe:
            history.subscribe(self.record)
        return self

    # --------------------------------------------------------------------- recording

    @property
    def ops(self) -> int:
        """Lines written since the journal (re)started."""
        return self._lines

    def record(self, event: StepEvent) -> None:
        """A step was done, undone or redone: append its Ops, flushed and fsynced.

        Raises :class:`SaveError` when the journal cannot write; the GUI goes on
        (``problem`` says what is wrong) and the journal tries again at the next change.
        """
        self._check_open()
        step = event.step
        if event.change is Change.OUTSIDE or step is None:
            # Changed behind the history's back: the lines so far no longer lead to the
            # encounter; start again from the whole of it.
            self._restart()
            return
        if event.change is Change.DO:
            texts = self._log_lines(step.changes)
            for (op, _inverse), text in zip(step.changes, texts, strict=True):
                if not self._write(Line(self._lines + 1, do=op, text=text)):
                    break  # started afresh: the header holds the whole step
                self._undo_depth += 1
                self._redo_depth = 0
        elif event.change is Change.UNDO:
            for op, inverse in reversed(step.changes):
                explicit = self._undo_depth == 0
                line = Line(
                    self._lines + 1,
                    undo=True,
                    op=op if explicit else None,
                    inverse=inverse if explicit else None,
                )
                if not self._write(line):
                    break
                if not explicit:
                    self._undo_depth -= 1  # the replay undoes its own step
                self._redo_depth += 1
        elif event.change is Change.REDO:
            for op, _inverse in step.changes:
                explicit = self._redo_depth == 0
                line = Line(self._lines + 1, redo=True, op=op if explicit else None)
                if not self._write(line):
                    break
                if not explicit:
                    self._redo_depth -= 1
                self._undo_depth += 1

    def _log_lines(self, changes: tuple[tuple[Op, Op], ...]) -> list[str | None]:
        """The log line each of a step's Ops just wrote (None for one that wrote none, or
        whose line is not at the end of the log any more: its replay describes it)."""
        assert self._history is not None
        log = self._history.encounter.log
        texts: list[str | None] = [None] * len(changes)
        k = len(log) - 1
        for i in range(len(changes) - 1, -1, -1):
            op = changes[i][0]
            if not op.logged:
                continue
            if k < 0 or log[k].op != op:
                break
            texts[i] = log[k].text
            k -= 1
        return texts

    def rebase(self, file: str | os.PathLike[str], *, name: str | None = None) -> None:
        """After a clean save (or save-as) to ``file``: the journal restarts empty for it.

        Undo and redo keep working across the save (their lines then carry the Ops).
        """
        self._check_open()
        self.file = Path(file).resolve()
        if name is not None:
            self.name = name
        self._restart()
        if self.problem:
            raise SaveError(TARGET, self.problem)

    def saving(self, file: str | os.PathLike[str]) -> None:
        """Just before the encounter is saved to ``file``: a marker line with the hash of
        the bytes the save writes. A crash between the save and :meth:`rebase` then
        recovers from the saved file (which holds every change) instead of refusing a
        file that changed. Raises :class:`SaveError` as :meth:`record` does."""
        self._check_open()
        if self._history is None:
            return
        try:
            digest = codec.digest(codec.encode(self._history.encounter.state()))
        except Exception:  # an unencodable state cannot be saved either: no marker
            return
        self._write(Line(self._lines + 1, saved=digest, to=str(Path(file).resolve())))

    def restart(self) -> None:
        """Rewrite the journal from the whole encounter now (after a failed write, say);
        :class:`SaveError` if that fails too."""
        self._check_open()
        self._restart()
        if self.problem:
            raise SaveError(TARGET, self.problem)

    def flush(self) -> None:
        """Wait until every line written is on disk; :class:`SaveError` as :meth:`record`."""
        self._check_open()
        self._settle()

    def close(self, clean: bool = True) -> None:
        """Stop journaling. A clean close (the encounter was saved or deliberately
        discarded) deletes the journal; ``clean=False`` leaves it for recovery."""
        if self._closed:
            return
        self._closed = True
        if self._history is not None:
            self._history.unsubscribe(self.record)
        with contextlib.suppress(SaveError):
            self._settle()  # an unclean close leaves a journal whose lines are all on disk
        self._stop_syncer()
        if clean:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        self._file_obj.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        self.close(clean=exc_type is None)

    # ---------------------------------------------------------------------- internals

    def _check_open(self) -> None:
        if self._closed:
            raise ValueError("the journal is closed")

    def _settle(self) -> None:
        """Wait for the fsync of the last line written. If it failed, the line is cut off
        again (it may not be on disk) and :class:`SaveError` says so, as a failed write
        does; the next change then starts the journal afresh from the whole encounter."""
        exc = self._syncer.wait()
        if exc is None:
            self._synced_size = self._size
            return
        self._lines = max(self._lines - 1, 0)
        raise self._cut_back(self._synced_size, exc)

    def _cut_back(self, size: int, exc: OSError) -> SaveError:
        """After a failed write or fsync: the journal cut back to ``size`` bytes (what is
        surely on disk), the problem kept, and the error that says so."""
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, size)
        self._size = size
        self.problem = atomic.reason(exc, self.path).split(";")[0]
        error = SaveError(
            TARGET,
            f"{self.problem}: changes are not protected against a crash until afdesk can "
            "write again",
        )
        error.__cause__ = exc
        return error

    def _settle_quietly(self) -> None:
        """:meth:`_settle` before a rewrite of the whole journal, which needs no line."""
        with contextlib.suppress(SaveError):
            self._settle()

    def _write(self, line: Line) -> bool:
        """Append a line; True if it was written. After an earlier failure the journal
        starts afresh from the whole encounter instead (which includes this change)."""
        self._settle()  # the line before is on disk before this one is written
        if self.problem:
            self._restart()
            return False
        try:
            data = seal(encoder.encode(line)) + b"\n"
        except Exception as exc:  # text msgspec cannot encode (a lone surrogate, say)
            self.problem = f"a change could not be journaled ({exc})"
            raise SaveError(TARGET, self.problem) from exc
        try:
            atomic.write_all(self._fd, data)
        except OSError as exc:
            raise self._cut_back(self._size, exc) from exc  # no torn line before the next
        self._synced_size = self._size
        self._size += len(data)
        self._lines += 1
        self._syncer.start(self._fd)  # on disk before the next change is written
        return True

    def _restart(self) -> None:
        """Rewrite the journal as a header for the current encounter and no lines.

        The new journal is written beside the old one, locked, fsynced and renamed over
        it, so a full disk or a crash in the middle leaves the old journal whole (Windows,
        which cannot rename over an open file, rewrites it in place)."""
        self._settle_quietly()  # the rewrite holds everything; the old file may go
        if self._history is None:
            self.problem = "the journal does not follow an encounter's history"
            return
        state = self._history.encounter.state()
        try:
            content = header_line(self.name, self.file, state)
        except Exception as exc:  # an unencodable state: journaling is off until a save
            self.problem = f"the encounter could not be journaled ({exc})"
            return
        try:
            if os.name == "posix":
                self._replace_with(content)
            else:
                os.ftruncate(self._fd, 0)
                atomic.write_all(self._fd, content)
                os.fsync(self._fd)
        except OSError as exc:
            self.problem = atomic.reason(exc, self.path).split(";")[0]
            return
        self.problem = ""
        self._size = len(content)
        self._lines = 0
        self._undo_depth = self._redo_depth = 0

    def _replace_with(self, content: bytes) -> None:
        making = self.path.with_name(self.path.name.removesuffix(SUFFIX) + NEW_SUFFIX)
        flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_APPEND | getattr(os, "O_BINARY", 0)
        fd = os.open(making, flags, 0o600)
        try:
            lock(fd)
            atomic.write_all(fd, content)
            os.fsync(fd)
            os.replace(making, self.path)
        except BaseException:
            os.close(fd)
            with contextlib.suppress(OSError):
                os.unlink(making)
            raise
        atomic.fsync_folder(self.path.parent)
        old = self._file_obj
        self._file_obj = os.fdopen(fd, "ab", buffering=0)
        self._fd = fd
        old.close()


class _Syncer:
    """One thread that fsyncs a journal's descriptor when asked, so the UI thread only
    waits for it when the next change comes (usually long done by then).

    The cycle collector never runs in that thread (:mod:`afdesk.storage.gc_hold`: in the GUI
    a collection there destroys Qt objects off the UI thread). :meth:`start` holds it off
    before waking the thread, and the thread releases its holds as the last thing before it
    sleeps again, on a lock made beforehand: sleeping on the Condition makes a lock, and a
    collection due then ran in this thread (tests/storage/test_journal_fsync.py)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._wake = threading.Lock()  # the thread sleeps acquiring it; released to wake it
        self._wake.acquire()
        self._woken = False
        self._holds = 0  # collector holds taken for the thread's work, not yet released
        self._fd: int | None = None  # a descriptor to fsync, not yet done
        self._busy = False
        self._error: OSError | None = None
        self._stopped = False
        self._thread: threading.Thread | None = None

    def start(self, fd: int) -> None:
        with self._cond:
            self._fd = fd
            self._busy = True
            gc_hold.hold()
            self._holds += 1
            self._wake_thread()
            if self._thread is None:  # started held: its start-up allocates too
                self._thread = threading.Thread(
                    target=self._run, name="afdesk-journal-fsync", daemon=True
                )
                self._thread.start()

    def _wake_thread(self) -> None:
        if not self._woken:
            self._woken = True
            self._wake.release()

    def wait(self) -> OSError | None:
        """Block until the last fsync asked for is done; its error, if it failed."""
        with self._cond:
            while self._busy:
                self._cond.wait()
            error, self._error = self._error, None
            return error

    def stop(self) -> None:
        gc_hold.hold()  # the thread's way out runs with the collector off as well
        with self._cond:
            self._stopped = True
            thread = self._thread
            if thread is not None:
                self._wake_thread()
        if thread is not None:
            thread.join(timeout=30)
        with self._cond:
            held, self._holds = self._holds, 0
        gc_hold.release(held + 1)

    def _run(self) -> None:
        while True:
            self._wake.acquire()  # asleep; nothing is allocated between the release and here
            with self._cond:
                self._woken = False
                fd, self._fd = self._fd, None
                stopped = self._stopped
            if fd is not None:
                error = None
                try:
                    os.fsync(fd)
                except OSError as exc:
                    error = exc
                with self._cond:
                    self._error = error
                    self._busy = self._fd is not None
                    self._cond.notify_all()
            if stopped:
                return  # stop() releases what is still held once this thread is gone
            with self._cond:
                if self._woken:
                    continue  # asked again meanwhile: still held for that
                held, self._holds = self._holds, 0
            gc_hold.release(held)
