"""The campaign's crash journal: each campaign edit on disk before the GUI goes on.

Held to the encounter journal's standard (:mod:`afdesk.storage.journal`): a sealed header
line, then one sealed line per change (:func:`afdesk.storage.journal_file.seal`, CRC-32)
numbered 1, 2, 3, ..., each written and fsynced before :meth:`CampaignJournal.record`
returns (a campaign edit is rare and the file is saved after it anyway: the journal waits
for the disk, so an acknowledged edit survives a power cut), and an exclusive lock while
afdesk has the campaign open. It lives beside the campaign file
(``.campaign.afcamp-journal``), so it travels with the campaign folder::

    {"journal":"afdesk-campaign-journal","version":2,"schema_version":1,"name":"The river",
     "file_sha256":"9f2c...","created":"...","base":null,"c":"0c1d2e3f"}
    {"n":1,"do":[{"edit":"PutCharacter","character":{...}}],"text":"Huang joins the band","c":"..."}
    {"n":2,"saved":"77aa...","c":"..."}
    {"n":3,"undo":true,"campaign":{...},"c":"..."}

A ``do`` line holds the edits; an undo or a redo holds the campaign after it (an undo may
reach back before the journal began); a ``saved`` line is the save marker, written just
before the campaign file is saved with the SHA-256 of its bytes: if afdesk dies between
that save and the journal's restart, recovery sees the file holds the marked bytes and
replays only what came after (nothing: no false alarm). The campaign is saved after every
step; a clean save restarts the journal (:meth:`CampaignJournal.rebase`) and a clean close
removes it.

A failed write is cut back (no torn line is left for the next one to follow), kept in
:attr:`CampaignJournal.problem` and returned as False; the next change rewrites the journal
from the whole campaign. :func:`recover` replays a journal left with changes the next time
the campaign is opened: the lines up to the first damaged, missing, repeated or
out-of-order one (the seal and the line number say which), and what it left out, in words.
A journal that cannot be used is never overwritten: :func:`set_aside` keeps it under a name
of its own beside the campaign file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from dataclasses import dataclass
from pathlib import Path

import msgspec

from afdesk.encounter.campaign.edits import AnyEdit
from afdesk.encounter.campaign.history import CampaignEvent, CampaignHistory, CampaignStep
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.history import Change
from afdesk.storage import atomic, codec
from afdesk.storage.campaign import CURRENT_VERSION, FILE_NAME, decode_campaign
from afdesk.storage.errors import JournalError, LoadError
from afdesk.storage.files import read_bytes
from afdesk.storage.journal_file import encoder, lock, now, seal, unseal

JOURNAL_FORMAT = "afdesk-campaign-journal"
JOURNAL_VERSION = 2
"""2: save markers (``"saved"``), line numbers checked on replay; 1: read too."""
JOURNAL_NAME = ".campaign.afcamp-journal"
KEPT_PREFIX = "campaign.afcamp-journal-kept-"
"""How a journal set aside (:func:`set_aside`) is named: visible, beside the file."""

_O_BINARY = getattr(os, "O_BINARY", 0)


class Header(msgspec.Struct, kw_only=True):
    journal: str
    version: int
    schema_version: int
    name: str
    file_sha256: str = ""
    created: str = ""
    base: Campaign | None = None
    """The campaign the changes start from; None: the file's (by its hash)."""


class Line(msgspec.Struct, omit_defaults=True):
    n: int
    """1, 2, 3, ... since the header: a missing, repeated or moved line shows."""
    do: tuple[AnyEdit, ...] = ()
    text: str = ""
    undo: bool = False
    redo: bool = False
    campaign: Campaign | None = None
    saved: str = ""
    """A save marker: the SHA-256 of the bytes about to be saved to the campaign file."""


_header_decoder = msgspec.json.Decoder(Header)
_line_decoder = msgspec.json.Decoder(Line)


def journal_path(folder: Path) -> Path:
    return Path(folder) / JOURNAL_NAME


def _new_path(path: Path) -> Path:
    return path.with_name(path.name + "-new")


class CampaignJournal:
    """The journal of one open campaign: :meth:`start` it, then :meth:`follow` the history."""

    def __init__(self, path: Path, fd: int, size: int) -> None:
        self.path = path
        self._fd = fd
        self._size = size  # bytes surely written: a failed write is cut back to this
        self._n = 0
        self.problem = ""
        """Why changes are not journaled right now ('' while they are)."""
        self._history: CampaignHistory | None = None

    @classmethod
    def start(cls, folder: Path, campaign: Campaign, digest: str) -> CampaignJournal:
        """A fresh journal for ``campaign``, saved in the folder's file with ``digest``
        ('' if the file does not hold it). :class:`JournalError` if it cannot be written,
        or if a journal is there already (recover it, set it aside or discard it first:
        a journal is never overwritten unread)."""
        path = journal_path(folder)
        if path.exists():
            raise JournalError(
                f"{path.name} is already there (left by an afdesk that stopped); it is not "
                "overwritten"
            )
        fd, size = _write_fresh(path, campaign, digest)
        return cls(path, fd, size)

    def follow(self, history: CampaignHistory, *, subscribe: bool = True) -> None:
        """Journal ``history``'s changes; with ``subscribe=False`` the caller hands the
        events to :meth:`record` itself (to see whether each one was written)."""
        self._history = history
        if subscribe:
            history.subscribe(self._hear)

    def _hear(self, event: CampaignEvent) -> None:
        self.record(event)  # a failure stays in ``problem``

    # ---------------------------------------------------------------------- writing

    def record(self, event: CampaignEvent) -> bool:
        """Write one line for a history event, fsynced before this returns; False if it
        could not be (``problem`` says why). After a failure the journal is rewritten
        from the whole campaign, which holds this change too."""
        if self.problem:
            return self.restart()
        if event.change is Change.DO:
            line = Line(self._n + 1, do=tuple(event.step.edits), text=event.step.text)  # type: ignore[arg-type]
        else:
            campaign = self._history.campaign if self._history is not None else None
            line = Line(
                self._n + 1,
                undo=event.change is Change.UNDO,
                redo=event.change is Change.REDO,
                campaign=campaign,
            )
        return self._append(line)

    def saving(self, digest: str) -> bool:
        """Just before the campaign file is saved with bytes of ``digest``: the save
        marker, so a crash between the save and :meth:`rebase` is no false alarm."""
        if self.problem:
            return False
        return self._append(Line(self._n + 1, saved=digest))

    def rebase(self, campaign: Campaign, digest: str) -> bool:
        """The campaign was saved as ``digest``: start again from it. False (and
        ``problem``) if the new journal could not be written; the old one is whole."""
        return self._replace(campaign, digest)

    def restart(self) -> bool:
        """Rewrite the journal from the whole campaign now; False (``problem``) if not."""
        if self._history is None:
            self.problem = "the journal does not follow the campaign's history"
            return False
        return self._replace(self._history.campaign, "")

    def _append(self, line: Line) -> bool:
        try:
            data = seal(encoder.encode(line)) + b"\n"
        except Exception as exc:  # text msgspec cannot write (a lone surrogate)
            self.problem = f"a change could not be journaled ({exc})"
            return False
        try:
            atomic.write_all(self._fd, data)
            os.fsync(self._fd)
        except OSError as exc:
            # Cut back: a torn line would hide every later one from recovery.
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, self._size)
            self.problem = atomic.reason(exc, self.path).split(";")[0]
            return False
        self._size += len(data)
        self._n += 1
        return True

    def _replace(self, campaign: Campaign, digest: str) -> bool:
        try:
            fd, size = _write_fresh(self.path, campaign, digest)
        except JournalError as exc:
            self.problem = exc.detail
            return False
        with contextlib.suppress(OSError):
            os.close(self._fd)
        self._fd, self._size, self._n, self.problem = fd, size, 0, ""
        return True

    def close(self, *, clean: bool) -> None:
        """Stop journaling; a clean close (everything saved) removes the journal."""
        if self._history is not None:
            self._history.unsubscribe(self._hear)
            self._history = None
        if clean:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        with contextlib.suppress(OSError):
            os.close(self._fd)


def _write_fresh(path: Path, campaign: Campaign, digest: str) -> tuple[int, int]:
    """Write a header-only journal beside ``path``, lock it, fsync it and rename it over
    ``path``: the old journal stays whole if anything fails. The descriptor and size."""
    header = Header(
        journal=JOURNAL_FORMAT,
        version=JOURNAL_VERSION,
        schema_version=CURRENT_VERSION,
        name=campaign.name,
        file_sha256=digest,
        created=now(),
        base=None if digest else campaign,
    )
    try:
        data = seal(encoder.encode(header)) + b"\n"
    except Exception as exc:
        raise JournalError(f"the campaign could not be journaled ({exc})") from exc
    new = _new_path(path)
    fd = None
    try:
        fd = os.open(new, os.O_RDWR | os.O_CREAT | os.O_APPEND | _O_BINARY, 0o600)
        if not lock(fd):
            os.close(fd)
            fd = None
            raise JournalError(f"another afdesk is using {path.name}")
        os.ftruncate(fd, 0)  # a leftover of a killed afdesk (locked: not in use)
        atomic.write_all(fd, data)
        os.fsync(fd)
        os.replace(new, path)
    except OSError as exc:
        if fd is not None:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(new)
        raise JournalError(atomic.reason(exc, path)) from exc
    atomic.fsync_folder(path.parent)
    return fd, len(data)


def in_use(folder: Path) -> bool:
    """Whether another afdesk has the campaign in ``folder`` open (it holds the lock on the
    journal). Two afdesks saving one campaign would undo each other's changes."""
    try:
        fd = os.open(journal_path(folder), os.O_RDONLY | _O_BINARY)
    except OSError:
        return False
    try:
        return not lock(fd)
    finally:
        os.close(fd)  # closing the probe's descriptor drops the probe's own lock


# ---------------------------------------------------------------------------- recovery


@dataclass(frozen=True)
class Recovered:
    campaign: Campaign
    changes: int
    """How many changes since the last save the journal gave back."""
    dropped: str = ""
    """What recovery left out, in words ('' if nothing): a damaged line and those after."""


def _left_out(number: int, total: int, problem: str) -> str:
    after = total - number
    rest = f" and the {after} after it are" if after else " is"
    return f"line {number} of {total} {problem}: it{rest} left out"


def _read(path: Path) -> tuple[Header, list[Line], str, int]:
    """The header, the intact lines (up to the first damaged, missing, repeated or moved
    one: the seal and the number say which), what was left out in words, and how many
    lines the journal has (the header and a cut-short last one included).
    :class:`LoadError` if the header cannot be used."""
    data = read_bytes(path, path.name)
    *complete, torn = data.split(b"\n")
    if not complete:
        raise LoadError(path.name, "line 1: the header is cut short")
    head = unseal(complete[0])
    if head is None:
        raise LoadError(path.name, "line 1: the header is damaged (it fails its check)")
    try:
        header = _header_decoder.decode(head)
    except msgspec.MsgspecError as exc:
        raise LoadError(path.name, f"line 1: {exc}") from None
    if header.journal != JOURNAL_FORMAT:
        raise LoadError(path.name, "line 1: this is not an afdesk campaign journal")
    if header.version > JOURNAL_VERSION:
        raise LoadError(
            path.name, f"it was written by a newer afdesk (journal version {header.version})"
        )
    if header.schema_version != CURRENT_VERSION:
        raise LoadError(
            path.name,
            f"it was written by an afdesk using campaign file version "
            f"{header.schema_version}; this one uses version {CURRENT_VERSION}",
        )
    raws = complete[1:]
    total = len(raws) + 1 + (1 if torn else 0)
    lines: list[Line] = []
    for i, raw in enumerate(raws):
        body = unseal(raw)
        problem = ""
        if body is None:
            problem = "is damaged (it fails its check)"
        else:
            try:
                line = _line_decoder.decode(body)
            except msgspec.MsgspecError:
                problem = "cannot be read"
            else:
                if line.n != i + 1:
                    problem = (
                        f"is out of place (it is numbered {line.n} where {i + 1} was due: "
                        "a line is missing, repeated or moved)"
                    )
        if problem:
            return header, lines, _left_out(i + 2, total, problem), total
        lines.append(line)
    if torn:
        cut = _left_out(total, total, "is cut short (afdesk stopped writing it)")
        return header, lines, cut, total
    return header, lines, "", total


def _file_campaign(folder: Path) -> tuple[Campaign | None, str]:
    """The campaign file's campaign (None if it cannot be read) and its digest."""
    try:
        raw = read_bytes(Path(folder) / FILE_NAME, FILE_NAME)
        return decode_campaign(raw, source=FILE_NAME)[0], codec.digest(raw)
    except LoadError:
        return None, ""


def recover(folder: Path) -> Recovered | None:
    """The campaign as the journal left it (with what it left out), if a journal beside
    the file holds changes the file does not and no afdesk is using it; None otherwise.
    :class:`LoadError` (naming the journal) if it cannot be used at all: its header is
    damaged, or the file changed since it began; :func:`set_aside` keeps it then."""
    path = journal_path(folder)
    try:
        fd = os.open(path, os.O_RDONLY | _O_BINARY)
    except OSError:
        return None
    try:
        if not lock(fd):
            return None  # another afdesk has it open
    finally:
        os.close(fd)
    header, lines, dropped, total = _read(path)
    on_file, digest = _file_campaign(folder)
    start = 0
    marked = [k for k, line in enumerate(lines) if line.saved and line.saved == digest]
    if marked and on_file is not None:
        camp, start = on_file, marked[-1] + 1  # saved there: the file holds the rest
    elif header.base is not None:
        camp = header.base
    elif on_file is not None and digest == header.file_sha256:
        camp = on_file
    else:
        raise LoadError(
            path.name,
            f"{FILE_NAME} was changed after the journal began (saved elsewhere, or "
            "replaced): its changes would make a wrong campaign if replayed onto it",
        )
    history = CampaignHistory(camp)
    changes = 0
    for line in lines[start:]:
        if line.saved:
            continue
        try:
            if line.do:
                history.push(list(line.do), line.text)
            elif line.campaign is not None:
                history = CampaignHistory(line.campaign)
            else:
                raise ValueError("it says neither do, undo nor redo")
        except Exception as exc:
            dropped = _left_out(line.n + 1, total, f"could not be replayed ({exc})")
            break
        changes += 1
    if not dropped and history.campaign == on_file:
        return None  # the file holds every change
    return Recovered(history.campaign, changes, dropped)


def set_aside(folder: Path) -> Path:
    """Keep a journal afdesk cannot (wholly) use under a name of its own beside the
    campaign file, never over another; where it went. :class:`OSError` if it cannot be
    moved (then it must not be overwritten either)."""
    src = journal_path(folder)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for i in range(1, 1000):
        dst = Path(folder) / f"{KEPT_PREFIX}{stamp}{'' if i == 1 else f'-{i}'}"
        try:
            _move_no_clobber(src, dst)
        except FileExistsError:
            continue
        atomic.fsync_folder(Path(folder))
        return dst
    raise OSError(errno.EEXIST, "no free name to keep the journal under", str(src))


def _move_no_clobber(src: Path, dst: Path) -> None:
    if os.name != "posix":
        os.rename(src, dst)  # Windows: never replaces an existing file
        return
    try:
        os.link(src, dst)  # fails if dst exists
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links
        if dst.exists():
            raise FileExistsError(errno.EEXIST, "exists", str(dst)) from None
        os.rename(src, dst)
        return
    os.unlink(src)


def discard(folder: Path) -> None:
    """Remove a journal the GM chose not to recover (or one holding nothing the file
    lacks), and a half-written new one left by a killed afdesk."""
    path = journal_path(folder)
    for p in (path, _new_path(path)):
        with contextlib.suppress(OSError):
            os.unlink(p)


# ------------------------------------------------------------- undo across a restart

UNDO_NAME = ".campaign.afcamp-undo"
"""The undo steps a clean close keeps beside the campaign file, for the next opening."""
UNDO_FORMAT = "afdesk-campaign-undo"
MAX_KEPT_STEPS = 50
"""Steps kept (each holds the campaign from before it): the newest ones."""


class KeptStep(msgspec.Struct, omit_defaults=True):
    edits: tuple[AnyEdit, ...]
    text: str
    before: Campaign


class UndoFile(msgspec.Struct, kw_only=True):
    format: str
    version: int
    schema_version: int
    file_sha256: str
    """The campaign file the steps lead to: a file changed since makes them void."""
    steps: tuple[KeptStep, ...] = ()


def undo_path(folder: Path) -> Path:
    return Path(folder) / UNDO_NAME


def keep_undo(folder: Path, history: CampaignHistory, digest: str) -> None:
    """At a clean close (the file holds ``history.campaign``, of SHA-256 ``digest``): keep
    the undo steps (not those undone) so that undo goes on after the next opening.
    :class:`SaveError` if it cannot be written (the campaign itself is saved)."""
    steps = history.steps[: history.index][-MAX_KEPT_STEPS:]
    path = undo_path(folder)
    if not steps:
        with contextlib.suppress(OSError):
            os.unlink(path)
        return
    kept = UndoFile(
        format=UNDO_FORMAT,
        version=1,
        schema_version=CURRENT_VERSION,
        file_sha256=digest,
        steps=tuple(KeptStep(s.edits, s.text, s.before) for s in steps),  # type: ignore[arg-type]
    )
    atomic.replace(path, msgspec.json.encode(kept) + b"\n")


def kept_undo(folder: Path, campaign: Campaign, digest: str) -> tuple[list[CampaignStep], str]:
    """The undo steps a clean close kept, if they lead to ``campaign``, the file as it is
    now (SHA-256 ``digest``: each step is applied again and checked), and ''; else no
    steps and why, in words. The file is removed
    once read: the steps live in the open campaign's history from then on."""
    path = undo_path(folder)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return [], ""
    except OSError as exc:
        return [], f"{UNDO_NAME} cannot be read ({exc.strerror or exc}): undo starts empty"
    with contextlib.suppress(OSError):
        os.unlink(path)
    try:
        kept = msgspec.json.decode(data, type=UndoFile)
    except (msgspec.DecodeError, UnicodeDecodeError) as exc:
        return [], f"{UNDO_NAME} is damaged ({exc}): undo starts empty"
    if kept.format != UNDO_FORMAT or kept.version != 1 or kept.schema_version != CURRENT_VERSION:
        return [], f"{UNDO_NAME} was written by another afdesk version: undo starts empty"
    if kept.file_sha256 != digest:
        return [], (
            f"{FILE_NAME} changed since afdesk last closed it: the undo steps kept then no "
            "longer lead to it, so undo starts empty"
        )
    steps = []
    try:
        for i, k in enumerate(kept.steps):
            after, first = CampaignHistory._run(k.before, k.edits)
            steps.append(CampaignStep(tuple(k.edits), k.text or first, k.before))
            nxt = kept.steps[i + 1].before if i + 1 < len(kept.steps) else campaign
            if after != nxt:
                raise IllegalOp(f"step {i + 1} ({k.text}) does not lead to the next")
    except IllegalOp as exc:
        return [], f"{UNDO_NAME} does not fit the campaign ({exc}): undo starts empty"
    return steps, ""


__all__ = [
    "CampaignJournal",
    "Recovered",
    "discard",
    "in_use",
    "journal_path",
    "keep_undo",
    "kept_undo",
    "recover",
    "set_aside",
]
