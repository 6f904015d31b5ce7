"""Recovery at the next start: the journals a crashed afdesk left, and their replay onto
the file (or the encounter the journal holds) they started from."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from dataclasses import dataclass
from pathlib import Path

import msgspec

from afdesk.encounter.history import History, Step
from afdesk.encounter.model import Encounter
from afdesk.encounter.snapshot import EncounterState
from afdesk.storage import codec, files, migrations
from afdesk.storage.errors import LoadError, SaveError
from afdesk.storage.journal_file import (
    JOURNAL_FORMAT,
    JOURNAL_VERSION,
    NEW_SUFFIX,
    SUFFIX,
    TARGET,
    Header,
    header_decoder,
    journal_dir,
    line_decoder,
    lock,
)


@dataclass(frozen=True)
class PendingRecovery:
    """A journal left by an afdesk that did not close cleanly."""

    name: str
    file: Path | None
    """The encounter's file; None if it was never saved."""
    modified: dt.datetime
    """When the last change was journaled."""
    ops: int
    """How many changes (do, undo, redo) the journal holds."""
    path: Path
    """The journal file."""
    problem: str
    """Why it cannot be recovered ('' if it can)."""


class _Empty(Exception):
    """A journal with nothing to recover."""


def _parse(data: bytes, source: str) -> tuple[Header, list[bytes]]:
    """The header and the complete change lines (a torn last line is left out)."""
    complete = data.split(b"\n")[:-1]
    if not complete:
        raise _Empty
    try:
        header = header_decoder.decode(complete[0])
    except Exception:
        # A header without its newline cannot exist (it is written in one go): a line
        # that ends but does not parse means the journal was damaged.
        raise LoadError(source, "the journal is damaged (its first line is unreadable)") from None
    if header.journal != JOURNAL_FORMAT:
        raise LoadError(source, "this is not an afdesk crash journal")
    if header.version > JOURNAL_VERSION:
        raise LoadError(source, f"the journal was written by a newer afdesk (v{header.version})")
    return header, [line for line in complete[1:] if line.strip()]


def _problem(header: Header) -> str:
    if header.schema_version != migrations.CURRENT_VERSION:
        return (
            f"the journal was written by an afdesk using file format version "
            f"{header.schema_version}; this one uses version {migrations.CURRENT_VERSION}"
        )
    if bytes(header.base) != b"null":
        return ""
    if header.file is None:
        return "the journal names neither a file nor the encounter it started from"
    file = Path(header.file)
    try:
        data = files.read_bytes(file, file.name)
    except LoadError as exc:
        return f"{file.name}, which the changes apply to, cannot be read: {exc.detail}"
    if codec.digest(data) != header.file_sha256:
        return (
            f"{file.name} has changed since these changes were made (saved again elsewhere, "
            "or replaced): replaying them onto it would give a wrong encounter. Open the "
            "file itself"
        )
    return ""


def _open_locked(path: Path, source: str) -> int:
    try:
        fd = os.open(path, os.O_RDWR | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise LoadError(source, "the journal is gone") from None
    except OSError as exc:
        raise LoadError(source, f"the journal cannot be opened: {exc.strerror}") from None
    if not lock(fd):
        os.close(fd)
        raise LoadError(source, "the journal is in use by an afdesk that is running")
    return fd


def _read_fd(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _inspect(path: Path) -> PendingRecovery | None:
    """What a journal holds; None (and it is removed) if in use or empty."""
    try:
        fd = _open_locked(path, path.name)
    except LoadError:
        return None
    try:
        st = os.fstat(fd)
        modified = dt.datetime.fromtimestamp(st.st_mtime).astimezone()
        header: Header | None = None
        lines: list[bytes] = []
        try:
            header, lines = _parse(_read_fd(fd), path.name)
        except _Empty:
            pass
        except LoadError as exc:
            return PendingRecovery(path.stem, None, modified, 0, path, exc.detail)
        if header is None or not lines:
            # Nothing changed since the last save: nothing to recover.
            with contextlib.suppress(OSError):
                os.unlink(path)
            return None
        file = Path(header.file) if header.file else None
        return PendingRecovery(header.name, file, modified, len(lines), path, _problem(header))
    except OSError:
        return None
    finally:
        os.close(fd)


def pending_journals() -> list[PendingRecovery]:
    """Journals left by afdesk sessions that did not end cleanly, newest first.

    Journals still in use by a running afdesk are left out; empty ones (nothing changed
    since a save) and half-created ones are removed.
    """
    folder = journal_dir()
    try:
        paths = sorted(folder.iterdir())
    except OSError:
        return []
    out = []
    for path in paths:
        if path.name.endswith(NEW_SUFFIX):
            try:
                fd = os.open(path, os.O_RDWR)
            except OSError:
                continue
            try:
                if lock(fd):
                    path.unlink()
            except OSError:
                pass
            finally:
                os.close(fd)
        elif path.name.endswith(SUFFIX):
            pending = _inspect(path)
            if pending is not None:
                out.append(pending)
    out.sort(key=lambda p: p.modified, reverse=True)
    return out


def recover(p: PendingRecovery) -> EncounterState:
    """The encounter at the crash: the file (or the journal's base) plus every change.

    Raises :class:`LoadError` if it cannot be rebuilt (``p.problem``, a damaged journal,
    a change that no longer applies).
    """
    source = f'the crash journal of "{p.name}"'
    try:
        fd = _open_locked(p.path, source)
        try:
            data = _read_fd(fd)
        finally:
            os.close(fd)
        header, lines = _parse(data, source)
        problem = _problem(header)
        if problem:
            raise LoadError(source, problem)
        if bytes(header.base) != b"null":
            base = codec.decode(bytes(header.base), source=source)
        elif header.file is not None:  # _problem said so
            base = files.load(Path(header.file)).state
        else:
            raise LoadError(source, "the journal names neither a file nor its encounter")
        return _replay(base, lines, source)
    except LoadError:
        raise
    except _Empty:
        raise LoadError(source, "the journal holds no changes") from None
    except Exception as exc:  # whatever is in the journal, the answer is a LoadError
        raise LoadError(source, f"it could not be replayed ({type(exc).__name__}: {exc})") from None


def _replay(base: EncounterState, lines: list[bytes], source: str) -> EncounterState:
    """The encounter after ``lines``, replayed into a History as the GUI made them."""
    history = History(Encounter.from_state(base))
    for i, raw in enumerate(lines):
        number = i + 1
        try:
            line = line_decoder.decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError) as exc:
            if number == len(lines):
                break  # the last line, damaged by the crash: the change in flight
            raise LoadError(source, f"change {number} of {len(lines)} is damaged ({exc})") from None
        if line.n != number:
            raise LoadError(source, f"change {number} is out of order (it says {line.n})")
        try:
            if line.do is not None:
                history.push(line.do)
            elif line.undo:
                if line.inverse is not None and line.op is not None:
                    history.undo_unknown(Step(((line.op, line.inverse),), ""))
                else:
                    history.undo()
            elif line.redo:
                if line.op is not None:
                    history.redo_unknown([line.op])
                else:
                    history.redo()
            else:
                raise LoadError(source, f"change {number} says neither do, undo nor redo")
        except IndexError:
            what = "undo" if line.undo else "redo"
            problem = f"change {number} is an {what} with nothing to {what}"
            raise LoadError(source, problem) from None
        except LoadError:
            raise
        except Exception as exc:
            raise LoadError(
                source, f"change {number} of {len(lines)} could not be replayed: {exc}"
            ) from None
    return history.encounter.state()


def discard(p: PendingRecovery) -> None:
    """Delete a journal the GM chose not to recover (or has recovered and saved)."""
    try:
        p.path.unlink(missing_ok=True)
    except OSError as exc:
        raise SaveError(TARGET, f"it could not be removed: {exc.strerror}") from exc
