"""Recovery at the next start: the journals a crashed afdesk left, and their replay onto
the file (or the encounter the journal holds) they started from."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from pathlib import Path
from typing import Any

import msgspec

from afdesk.encounter import limits
from afdesk.encounter.history import UNDO_LIMIT, History, Step
from afdesk.encounter.model import Encounter
from afdesk.encounter.number_scan import numbers_fit
from afdesk.encounter.registry import decode_hook, op_union
from afdesk.encounter.snapshot import EncounterState
from afdesk.storage import codec, files, meaning, migrations
from afdesk.storage.errors import LoadError, SaveError
from afdesk.storage.journal_file import (
    JOURNAL_FORMAT,
    JOURNAL_VERSION,
    NEW_SUFFIX,
    SUFFIX,
    TARGET,
    Header,
    Line,
    header_decoder,
    journal_dir,
    lock,
    unseal,
)


class PendingRecovery(msgspec.Struct, frozen=True):
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
    dropped: str = ""
    """What recovery leaves out, in words ('' if nothing): a damaged line and those after."""
    in_file: bool = False
    """The saved file holds every change (afdesk stopped between a save and the journal's
    restart): open the file, there is nothing to replay."""


class Recovered(msgspec.Struct, frozen=True):
    """The outcome of :func:`recover_report`."""

    state: EncounterState
    dropped: str
    """What was left out, in words ('' if nothing)."""
    steps: tuple[Step, ...] = ()
    """The replayed steps that ``state`` can undo, oldest first (as the replay's History
    holds them: the newest ``UNDO_LIMIT``, as a document keeps): the recovered document's
    undo history starts with them, so that the GM can undo back to where the journal
    began (the file as saved, or its base) or as far as a document can."""
    clean: int = -1
    """How many of ``steps`` lead from the file as saved to what the file holds now: 0 when
    the journal began at the file (undoing every recovered step is back at the saved file,
    so the document is clean there), -1 when it began at an encounter the file does not
    hold (never saved, or changed on disk)."""


class _Empty(Exception):
    """A journal with nothing to recover."""


class _Journal(msgspec.Struct):
    """A journal read: its header, the intact lines after it, what was left out."""

    header: Header
    lines: list[Line]
    total: int
    """Complete lines after the header, intact or not."""
    dropped: str


_fast: tuple[Any, msgspec.json.Decoder[Any]] | None = None


def _fast_line_decoder() -> msgspec.json.Decoder[Any]:
    """A decoder of journal lines whose Ops name the union of the Ops registered now.

    ``Line``'s Ops go through ``decode_hook`` (it must take Ops registered at any time),
    whose conversion to the union costs about 0.15 ms a line: 1.9 s of a three-hour
    journal's replay. This mirror of ``Line`` (the same fields, defaults and options) is
    rebuilt whenever the registry has grown, and decodes the Ops straight into their
    classes (as :mod:`afdesk.storage.codec` does for a file's log)."""
    global _fast
    ops = op_union()
    if _fast is None or _fast[0] is not ops:
        fields: list[tuple[str, Any, Any] | tuple[str, Any]] = []
        for f in msgspec.structs.fields(Line):
            kind = ops | None if f.name in _OP_FIELDS else f.type
            if f.default is msgspec.NODEFAULT:
                fields.append((f.name, kind))
            else:
                fields.append((f.name, kind, f.default))
        config = Line.__struct_config__
        mirror = msgspec.defstruct(
            "Line",
            fields,
            omit_defaults=config.omit_defaults,
            forbid_unknown_fields=config.forbid_unknown_fields,
            module=__name__,
        )
        _fast = (ops, msgspec.json.Decoder(mirror, dec_hook=decode_hook))
    return _fast[1]


_OP_FIELDS = ("do", "op", "inverse")
"""The fields of ``Line`` that hold an Op."""


def _decode_line(raw: bytes, sealed: bool, decoder: msgspec.json.Decoder[Any]) -> Line | None:
    body = unseal(raw) if sealed else raw
    if body is None:
        return None
    try:
        m = decoder.decode(body)
    except (msgspec.DecodeError, msgspec.ValidationError, UnicodeDecodeError):
        return None
    return Line(*(getattr(m, name) for name in Line.__struct_fields__))


def _parse(data: bytes, source: str) -> _Journal:
    """The header and the intact lines: up to the first line that is damaged (a wrong
    seal, unreadable, out of order); a torn last line (the change in flight, or the one a
    power cut caught before its fsync) is no line, and is said to be left out."""
    *complete, torn = data.split(b"\n")
    if not complete:
        raise _Empty
    sealed = unseal(complete[0])
    try:
        header = header_decoder.decode(complete[0] if sealed is None else sealed)
    except Exception:
        raise LoadError(source, "the journal is damaged (its first line is unreadable)") from None
    if header.journal != JOURNAL_FORMAT:
        raise LoadError(source, "this is not an afdesk crash journal")
    if header.version > JOURNAL_VERSION:
        raise LoadError(source, f"the journal was written by a newer afdesk (v{header.version})")
    if header.version >= 2 and sealed is None:
        raise LoadError(source, "the journal is damaged (its first line fails its check)")
    raws = [line for line in complete[1:] if line.strip()]
    lines: list[Line] = []
    dropped = ""
    decoder = _fast_line_decoder()
    for i, raw in enumerate(raws):
        line = _decode_line(raw, header.version >= 2, decoder)
        problem = ""
        if line is None:
            problem = "is damaged"
        elif line.n != i + 1:
            problem = f"is out of order (it says {line.n})"
        if problem:
            dropped = _dropped_text(i + 1, len(raws), problem)
            break
        assert line is not None
        lines.append(line)
    if torn and not dropped:  # a step whose line reached the disk only in part
        n = len(raws) + 1
        dropped = _dropped_text(n, n, "is cut short (afdesk stopped, or the power went)")
    return _Journal(header, lines, len(raws), dropped)


def _dropped_text(number: int, total: int, problem: str) -> str:
    after = total - number
    rest = f" and the {after} after it are" if after else " is"
    return f"step {number} of {total} {problem}: it{rest} left out"


def _changes(lines: list[Line]) -> int:
    return sum(1 for line in lines if not line.saved)


def _saved_base(j: _Journal) -> tuple[Path, int] | None:
    """The file and the index of the last save marker whose bytes the file holds now."""
    for k in range(len(j.lines) - 1, -1, -1):
        line = j.lines[k]
        if line.saved and line.to:
            file = Path(line.to)
            try:
                data = files.read_bytes(file, file.name)
            except LoadError:
                continue
            if codec.digest(data) == line.saved:
                return file, k
    return None


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


def _holds_header_file(header: Header) -> bool:
    """Whether the file a journal started from holds, now, the bytes it had then."""
    if header.file is None:
        return False
    file = Path(header.file)
    try:
        data = files.read_bytes(file, file.name)
    except LoadError:
        return False
    return codec.digest(data) == header.file_sha256


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
    """What a journal holds; None if it is in use, or read and found to hold nothing to
    recover (then it is removed). A journal that cannot be read is kept and reported."""
    try:
        fd = _open_locked(path, path.name)
    except LoadError:
        return None
    try:
        st = os.fstat(fd)
        modified = dt.datetime.fromtimestamp(st.st_mtime).astimezone()
        try:
            j = _parse(_read_fd(fd), path.name)
        except _Empty:
            return PendingRecovery(
                path.stem, None, modified, 0, path, "the journal is empty or cut short"
            )
        except LoadError as exc:
            return PendingRecovery(path.stem, None, modified, 0, path, exc.detail)
        file = Path(j.header.file) if j.header.file else None
        saved = _saved_base(j)
        if saved is not None:
            file, k = saved
            after = j.lines[k + 1 :]
            return PendingRecovery(
                j.header.name,
                file,
                modified,
                _changes(after),
                path,
                "",
                j.dropped,
                in_file=not _changes(after),
            )
        holds_state = bytes(j.header.base) != b"null"
        if _changes(j.lines) == 0 and not j.dropped and j.total == len(j.lines) and not holds_state:
            # Read whole: nothing changed since the last save, nothing to replay. (A journal
            # that holds its own encounter - never saved, or just recovered - holds what no
            # file does, even before its first change.) If the file is still the one saved,
            # afdesk stopped with it open (a crash right after a save: the journal had
            # restarted empty for it), so the GM's own file is what opens, not the sample.
            if file is not None and _holds_header_file(j.header):
                return PendingRecovery(j.header.name, file, modified, 0, path, "", in_file=True)
            with contextlib.suppress(OSError):
                os.unlink(path)
            return None
        return PendingRecovery(
            j.header.name,
            file,
            modified,
            _changes(j.lines),
            path,
            _problem(j.header),
            j.dropped,
        )
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
    """The encounter at the crash (see :func:`recover_report`)."""
    return recover_report(p).state


def recover_report(p: PendingRecovery) -> Recovered:
    """The encounter at the crash: the file (or the journal's base, or the file a save
    marker says holds the changes so far) plus every intact change after it, and what
    was left out (a damaged step and those after it: never a wrong state).

    Raises :class:`LoadError` if it cannot be rebuilt (``p.problem``).
    """
    source = f'the crash journal of "{p.name}"'
    try:
        fd = _open_locked(p.path, source)
        try:
            data = _read_fd(fd)
        finally:
            os.close(fd)
    except LoadError:
        raise
    except Exception as exc:  # whatever is in the journal, the answer is a LoadError
        raise LoadError(source, f"it could not be read ({type(exc).__name__}: {exc})") from None
    return replay_journal(data, source)


def live_journal_state(path: Path, name: str) -> Recovered:
    """What the journal at ``path`` that this process is writing rebuilds now (read
    without taking its lock, which its writer holds): after an unexpected error the app
    compares it with the encounter on screen, and restarts from it if they differ.
    :class:`LoadError` if it cannot be rebuilt."""
    source = f'the crash journal of "{name}"'
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LoadError(source, f"it cannot be read: {exc.strerror or exc}") from None
    return replay_journal(data, source)


def replay_journal(data: bytes, source: str) -> Recovered:
    """The encounter a journal's bytes rebuild (see :func:`recover_report`). The garbage
    collector is paused meanwhile, as a file's load pauses it: the replay makes hundreds
    of thousands of immutable records, and collections in the middle of it cost a quarter
    of a three-hour journal's replay."""
    with codec._gc_paused():
        return _replay_journal(data, source)


def _replay_journal(data: bytes, source: str) -> Recovered:
    try:
        j = _parse(data, source)
        saved = _saved_base(j)
        lines = j.lines
        from_file = True
        if saved is not None:
            file, k = saved
            base = files.load(file).state
            lines = lines[k + 1 :]
        else:
            problem = _problem(j.header)
            if problem:
                raise LoadError(source, problem)
            if bytes(j.header.base) != b"null":
                base = codec.decode(bytes(j.header.base), source=source)
                from_file = False  # embedded: the file does not hold it
            elif j.header.file is not None:  # _problem said so
                base = files.load(Path(j.header.file)).state
            else:
                raise LoadError(source, "the journal names neither a file nor its encounter")
        history, dropped = _replay(base, lines, j.total)
        steps = _kept(history)
        # The replay's History starts clean at its base and follows undo and redo; a
        # saved state among the steps left to redo is not among those handed back, nor
        # one among the steps a document does not keep.
        clean = history.clean_index if from_file and history.clean_index <= history.index else -1
        forgotten = history.index - len(steps)
        clean = clean - forgotten if clean >= forgotten else -1
        # No cycle left: what the replay made and the document does not keep (the older
        # steps) goes at once, before the collector is back.
        history.close()
        return Recovered(history.encounter.state(), dropped or j.dropped, steps, clean)
    except LoadError:
        raise
    except _Empty:
        raise LoadError(source, "the journal holds no changes") from None
    except Exception as exc:  # whatever is in the journal, the answer is a LoadError
        raise LoadError(source, f"it could not be replayed ({type(exc).__name__}: {exc})") from None


def _replay(base: EncounterState, lines: list[Line], total: int) -> tuple[History, str]:
    """The History of the encounter after ``lines``, replayed as the GUI made them, up to
    the first that does not replay; and what was left out ('' if nothing).

    The model takes the journal's Ops as checked (:meth:`Encounter.replaying`: it checked
    each when the journal was written), and what the recovered document can hold is
    checked once (:func:`_sound`). If that finds anything (a journal changed by hand and
    sealed again), the lines are replayed again with every Op checked, which stops at the
    first the model refuses, as the live session would have."""
    history = History(Encounter.from_state(base))
    with history.encounter.replaying():
        dropped = _replay_lines(history, lines, total)
    if not _sound(history):
        history.close()
        history = History(Encounter.from_state(base))
        dropped = _replay_lines(history, lines, total)
    return history, dropped


def _sound(history: History) -> bool:
    """Whether every value the recovered document holds or can put back is one the model
    accepts: the encounter, checked as a file's load checks it, and the Ops and inverses
    of the steps it keeps (:func:`_kept`), checked as the model checks an Op's. Every
    state its undo and redo reach is made of those values (a step's inverse holds what the
    parts it changed were before it; what no kept step changed is the encounter's)."""
    state = history.encounter.state()
    try:
        data = codec.encode(state)
        meaning.check(state, data, "", lambda: meaning.numbers_document(data))
        values = [value for step in _kept(history) for change in step.changes for value in change]
        if any(limits.problem(value) is not None for value in values):
            return False
        if not numbers_fit(values):
            return False
    except Exception:  # whatever is wrong, the careful replay finds where
        return False
    return True


def _kept(history: History) -> tuple[Step, ...]:
    """The steps a recovered document keeps: the newest ``UNDO_LIMIT`` of those it can
    undo (the journal counts Ops, not steps, so the replay keeps them all until it ends:
    a GM's undo may reach back further than ``UNDO_LIMIT`` Ops)."""
    return history.steps[: history.index][-UNDO_LIMIT:]


def _replay_lines(history: History, lines: list[Line], total: int) -> str:
    """:func:`_replay` onto ``history``: what was left out."""
    for line in lines:
        try:
            if line.saved:
                continue
            if line.do is not None:
                # Decoded into its class: no conversion; its log line as it was written.
                told = () if line.text is None else (line.text,)
                history.push(line.do, typed=True, described=told)
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
                return _dropped_text(line.n, total, "says neither do, undo nor redo")
        except IndexError:
            what = "undo" if line.undo else "redo"
            return _dropped_text(line.n, total, f"is an {what} with nothing to {what}")
        except Exception as exc:
            return _dropped_text(line.n, total, f"could not be replayed ({exc})")
    return ""


def discard(p: PendingRecovery) -> None:
    """Delete a journal the GM chose not to recover (or has recovered and saved)."""
    try:
        p.path.unlink(missing_ok=True)
    except OSError as exc:
        raise SaveError(TARGET, f"it could not be removed: {exc.strerror}") from exc
