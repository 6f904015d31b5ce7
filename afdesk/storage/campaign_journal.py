"""The campaign's crash journal: each campaign edit on disk before the GUI goes on.

The same format as an encounter's journal (:mod:`afdesk.storage.journal`): a sealed header
line, then one sealed line per change (:func:`afdesk.storage.journal_file.seal`, CRC-32),
each written, flushed and fsynced before :meth:`CampaignJournal.record` returns, and an
exclusive lock while afdesk has the campaign open. It lives beside the campaign file
(``.campaign.afcamp-journal``), so it travels with the campaign folder::

    {"journal":"afdesk-campaign-journal","version":1,"schema_version":1,"name":"The river",
     "file_sha256":"9f2c...","created":"...","base":null,"c":"0c1d2e3f"}
    {"n":1,"do":[{"edit":"PutCharacter","character":{...}}],"text":"Huang joins the band","c":"..."}
    {"n":2,"undo":true,"campaign":{...},"c":"..."}

A ``do`` line holds the edits; an undo or a redo holds the campaign after it (an undo may
reach back before the journal began). The campaign is saved after every step; a clean save
restarts the journal (:meth:`CampaignJournal.rebase`) and a clean close removes it. A journal
left with changes (a crash, a save that failed) is replayed by :func:`recover` the next time
the campaign is opened.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path

import msgspec

from afdesk.encounter.campaign.edits import AnyEdit
from afdesk.encounter.campaign.history import CampaignEvent, CampaignHistory
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.history import Change
from afdesk.storage import atomic, codec
from afdesk.storage.campaign import CURRENT_VERSION, FILE_NAME, decode_campaign
from afdesk.storage.errors import JournalError, LoadError
from afdesk.storage.files import read_bytes
from afdesk.storage.journal_file import encoder, lock, now, seal, unseal

JOURNAL_FORMAT = "afdesk-campaign-journal"
JOURNAL_VERSION = 1
JOURNAL_NAME = ".campaign.afcamp-journal"


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
    do: tuple[AnyEdit, ...] = ()
    text: str = ""
    undo: bool = False
    redo: bool = False
    campaign: Campaign | None = None


_header_decoder = msgspec.json.Decoder(Header)
_line_decoder = msgspec.json.Decoder(Line)


def journal_path(folder: Path) -> Path:
    return Path(folder) / JOURNAL_NAME


class CampaignJournal:
    """The journal of one open campaign: :meth:`start` it, then :meth:`follow` the history."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd = fd
        self._n = 0
        self.problem = ""
        self._history: CampaignHistory | None = None

    @classmethod
    def start(cls, folder: Path, campaign: Campaign, digest: str) -> CampaignJournal:
        """A fresh journal for ``campaign``, saved in the folder's file with ``digest``
        ('' if the file does not hold it). :class:`JournalError` if it cannot be written."""
        path = journal_path(folder)
        fd = cls._write_fresh(path, campaign, digest)
        return cls(path, fd)

    @staticmethod
    def _write_fresh(path: Path, campaign: Campaign, digest: str) -> int:
        header = Header(
            journal=JOURNAL_FORMAT,
            version=JOURNAL_VERSION,
            schema_version=CURRENT_VERSION,
            name=campaign.name,
            file_sha256=digest,
            created=now(),
            base=None if digest else campaign,
        )
        data = seal(encoder.encode(header)) + b"\n"
        new = path.with_name(path.name + "-new")
        try:
            fd = os.open(new, os.O_RDWR | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0))
            if not lock(fd):
                os.close(fd)
                raise JournalError(f"another afdesk is using {path.name}")
            atomic.write_all(fd, data)
            os.fsync(fd)
            os.replace(new, path)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(new)
            raise JournalError(atomic.reason(exc, path)) from exc
        return fd

    def follow(self, history: CampaignHistory) -> None:
        self._history = history
        history.subscribe(self.record)

    def record(self, event: CampaignEvent) -> None:
        """Write one line for a history event (fsynced before this returns)."""
        self._n += 1
        if event.change is Change.DO:
            line = Line(self._n, do=tuple(event.step.edits), text=event.step.text)  # type: ignore[arg-type]
        else:
            assert self._history is not None
            line = Line(
                self._n,
                undo=event.change is Change.UNDO,
                redo=event.change is Change.REDO,
                campaign=self._history.campaign,
            )
        try:
            atomic.write_all(self._fd, seal(encoder.encode(line)) + b"\n")
            os.fsync(self._fd)
            self.problem = ""
        except OSError as exc:
            self.problem = atomic.reason(exc, self.path)

    def rebase(self, campaign: Campaign, digest: str) -> None:
        """The campaign was saved as ``digest``: start again from it."""
        old = self._fd
        try:
            self._fd = self._write_fresh(self.path, campaign, digest)
        except JournalError as exc:
            self.problem = exc.detail
            return
        os.close(old)
        self._n = 0

    def close(self, *, clean: bool) -> None:
        """Stop journaling; a clean close (everything saved) removes the journal."""
        if self._history is not None:
            self._history.unsubscribe(self.record)
            self._history = None
        if clean:
            with contextlib.suppress(OSError):
                os.unlink(self.path)
        with contextlib.suppress(OSError):
            os.close(self._fd)


def in_use(folder: Path) -> bool:
    """Whether another afdesk has the campaign in ``folder`` open (it holds the lock on the
    journal). Two afdesks saving one campaign would undo each other's changes."""
    try:
        fd = os.open(journal_path(folder), os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError:
        return False
    try:
        return not lock(fd)
    finally:
        os.close(fd)  # closing the probe's descriptor drops the probe's own lock


@dataclass(frozen=True)
class Recovered:
    campaign: Campaign
    changes: int
    """How many changes since the last save the journal gave back."""


def recover(folder: Path) -> Recovered | None:
    """The campaign as the journal left it, if a journal beside the file holds changes the
    file does not and no afdesk is using it; None otherwise. :class:`LoadError` (naming the
    journal) if it is damaged before its first change or its file changed since."""
    path = journal_path(folder)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
    except OSError:
        return None
    try:
        if not lock(fd):
            return None  # another afdesk has it open
    finally:
        os.close(fd)
    data = read_bytes(path, path.name)
    lines = data.split(b"\n")
    head = unseal(lines[0]) if lines else None
    if head is None:
        raise LoadError(path.name, "line 1: the header is damaged")
    try:
        header = _header_decoder.decode(head)
    except msgspec.MsgspecError as exc:
        raise LoadError(path.name, f"line 1: {exc}") from None
    if header.base is not None:
        camp = header.base
    else:
        file = Path(folder) / FILE_NAME
        raw = read_bytes(file, FILE_NAME)
        if codec.digest(raw) != header.file_sha256:
            raise LoadError(
                path.name, f"{FILE_NAME} was changed after the journal began: not replayed"
            )
        camp, _ = decode_campaign(raw, source=FILE_NAME)
    history = CampaignHistory(camp)
    changes = 0
    for raw_line in lines[1:]:
        body = unseal(raw_line)
        if body is None:
            break  # a torn last line: keep what came before it
        try:
            line = _line_decoder.decode(body)
        except msgspec.MsgspecError:
            break
        if line.do:
            try:
                history.push(list(line.do), line.text)
            except IllegalOp as exc:
                raise LoadError(path.name, f"line {line.n + 1}: {exc}") from None
        elif line.campaign is not None:
            history = CampaignHistory(line.campaign)
        changes += 1
    if not changes:
        return None
    return Recovered(history.campaign, changes)


def discard(folder: Path) -> None:
    """Remove a journal the GM chose not to recover."""
    with contextlib.suppress(OSError):
        os.unlink(journal_path(folder))


__all__ = ["CampaignJournal", "Recovered", "discard", "in_use", "journal_path", "recover"]
