"""The crash journal's file: where journals live, what their lines hold, and the lock
that marks a journal as in use (see :mod:`afdesk.storage.journal`)."""

from __future__ import annotations

import datetime as dt
import os
import re
import zlib
from pathlib import Path

import msgspec

from afdesk.encounter.registry import AnyOp, decode_hook
from afdesk.encounter.snapshot import EncounterState
from afdesk.paths import data_dir as data_dir  # re-exported: journals live under it
from afdesk.storage import codec, files, migrations
from afdesk.storage.errors import LoadError

JOURNAL_FORMAT = "afdesk-journal"
JOURNAL_VERSION = 3
"""3: a ``do`` line keeps the log line its Op wrote (``"text"``); 2: every line is sealed
with a CRC-32 (``"c"``, see :func:`seal`) and may be a save marker (``"saved"``); 1: no
seals (still read). Every earlier version is still read."""
SUFFIX = ".afjournal"
NEW_SUFFIX = ".afjournal-new"
"""A journal being created; renamed to ``SUFFIX`` once it is locked and complete."""

TARGET = "the crash journal"


def journal_dir() -> Path:
    """Where the crash journals live."""
    return data_dir() / "journal"


class Header(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The first line: what the changes apply to."""

    journal: str
    version: int
    schema_version: int
    name: str
    file: str | None = None
    file_sha256: str = ""
    file_size: int = -1
    created: str = ""
    base: msgspec.Raw = msgspec.Raw(b"null")
    """The encounter the changes start from, as a whole document; null: the file's."""


class Line(msgspec.Struct, omit_defaults=True, forbid_unknown_fields=True):
    """One change: ``do`` an Op, or an undo or a redo (with the Ops when the replay's
    stacks cannot hold them, see :mod:`afdesk.storage.journal`); or a save marker:
    ``saved`` is the SHA-256 of the bytes about to be saved to the file ``to``."""

    n: int
    """1, 2, 3, ... since the header: a missing or repeated line shows."""
    do: AnyOp | None = None
    undo: bool = False
    redo: bool = False
    op: AnyOp | None = None
    inverse: AnyOp | None = None
    saved: str = ""
    to: str = ""
    text: str | None = None
    """The log line ``do``'s Op wrote (absent when it wrote none, or in a journal written
    before version 3): the replay logs it instead of describing the Op again (a third
    of a three-hour journal's replay was describing). A file's log holds the same text."""


_SEAL = re.compile(rb',"c":"([0-9a-f]{8})"\}$')


def seal(body: bytes) -> bytes:
    """A JSON object with its CRC-32 as a last field: ``{...,"c":"1a2b3c4d"}``. The CRC
    covers the object without that field, so one changed byte anywhere shows."""
    return body[:-1] + b',"c":"%08x"}' % zlib.crc32(body)


def unseal(line: bytes) -> bytes | None:
    """The object a sealed line holds, or None if it has no seal or the seal is wrong."""
    m = _SEAL.search(line)
    if m is None:
        return None
    body = line[: m.start()] + b"}"
    return body if zlib.crc32(body) == int(m.group(1), 16) else None


encoder = msgspec.json.Encoder()
header_decoder = msgspec.json.Decoder(Header)
line_decoder = msgspec.json.Decoder(Line, dec_hook=decode_hook)

# ------------------------------------------------------------------------------- locks


def lock(fd: int) -> bool:
    """Take the exclusive lock on an open journal; False if another process holds it.
    The system drops the lock when the process ends, however it ends."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        # Lock one byte far beyond the end, so that readers are not blocked.
        here = os.lseek(fd, 0, os.SEEK_CUR)
        try:
            os.lseek(fd, 1 << 30, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
            return True
        except OSError:
            return False
        finally:
            os.lseek(fd, here, os.SEEK_SET)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


# ------------------------------------------------------------------------- the header


def now() -> str:
    """The local time, as the header records it."""
    return dt.datetime.now().astimezone().isoformat(timespec="seconds")


def header_line(name: str, file: Path | None, state: EncounterState) -> bytes:
    """The header line (with its newline): the file's hash, or the whole ``state``."""
    data = None
    if file is not None:
        try:
            data = files.read_bytes(file, file.name)
        except LoadError:
            data = None
    base = msgspec.Raw(b"null")
    if data is None or codec.encode(state) != data:
        base = msgspec.Raw(codec.encode_compact(state))
    header = Header(
        journal=JOURNAL_FORMAT,
        version=JOURNAL_VERSION,
        schema_version=migrations.CURRENT_VERSION,
        name=name,
        file=None if file is None else str(file),
        file_sha256="" if data is None else codec.digest(data),
        file_size=-1 if data is None else len(data),
        created=now(),
        base=base,
    )
    return seal(encoder.encode(header)) + b"\n"
