"""Loading and saving encounter files (``.afenc``)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import msgspec

from afdesk.encounter.snapshot import EncounterState
from afdesk.storage import atomic, codec, meaning, migrations
from afdesk.storage.errors import FileChangedError, LoadError, SaveError

EXTENSION = ".afenc"


class Loaded(msgspec.Struct, frozen=True):
    """An encounter read from a file."""

    state: EncounterState
    path: Path
    schema_version: int
    """The version on disk (older files are upgraded in ``state``, not on disk)."""
    digest: str
    """SHA-256 of the bytes read (the crash journal uses it to spot a changed file)."""


def read_bytes(path: Path, source: str) -> bytes:
    """A file's bytes, refusing folders, devices and anything over the size limit before
    reading it; :class:`LoadError` otherwise."""
    flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise LoadError(source, f"there is no such file ({path})") from None
    except IsADirectoryError:
        raise LoadError(source, "this is a folder, not an encounter file") from None
    except PermissionError:
        raise LoadError(source, "no permission to read it") from None
    except (OSError, ValueError) as exc:
        raise LoadError(source, f"it cannot be opened: {_strerror(exc)}") from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise LoadError(source, "this is a folder, not an encounter file")
        if not stat.S_ISREG(st.st_mode):
            raise LoadError(source, "this is not a regular file")
        if st.st_size > codec.MAX_BYTES:
            raise LoadError(
                source,
                f"it is {codec.size_text(st.st_size)}; afdesk opens files of at most 64 MiB "
                "(it is not read)",
            )
        chunks = []
        total = 0
        while total <= codec.MAX_BYTES:  # the file may grow while it is read
            chunk = os.read(fd, min(1 << 20, codec.MAX_BYTES + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > codec.MAX_BYTES:
            raise LoadError(source, "it is larger than 64 MiB, the most afdesk opens")
        return b"".join(chunks)
    except OSError as exc:
        raise LoadError(source, f"it cannot be read: {_strerror(exc)}") from None
    finally:
        os.close(fd)


def _strerror(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)


def _source(path: Path) -> str:
    return path.name or str(path)


def load(path: str | os.PathLike[str]) -> Loaded:
    """Read an encounter file (older versions are upgraded in memory).

    Raises :class:`LoadError` with the file name, the place and the problem, whatever is
    wrong (missing, a folder, too big, not JSON, wrong types, a newer version, ...).
    """
    try:
        path = Path(path)
    except TypeError as exc:
        raise LoadError(str(path), f"this is not a file path: {exc}") from None
    source = _source(path)
    data = read_bytes(path, source)
    state, version = codec.decode_versioned(data, source=source)
    return Loaded(state=state, path=path, schema_version=version, digest=codec.digest(data))


def file_digest(path: str | os.PathLike[str]) -> str | None:
    """The SHA-256 of a file's bytes now (None if it cannot be read)."""
    path = Path(path)
    try:
        return codec.digest(read_bytes(path, _source(path)))
    except LoadError:
        return None


def _check_target(path: Path, exists: bool, expected_digest: str | None) -> None:
    unchanged = "the file on disk is unchanged"
    if exists:
        try:
            mode = path.stat().st_mode
        except OSError as exc:
            raise SaveError(path.name, atomic.reason(exc, path)) from exc
        if stat.S_ISREG(mode) and not mode & stat.S_IWUSR:
            raise SaveError(
                path.name,
                f"the file is read-only; {unchanged}. Save it under another name, or make "
                "it writable first",
            )
    if expected_digest is None:
        return
    if not exists:
        raise FileChangedError(path.name, "it was deleted or moved on disk since it was opened")
    if file_digest(path) != expected_digest:
        raise FileChangedError(
            path.name,
            f"it was changed on disk (by another program?) since it was opened; {unchanged}",
        )


def backup_path(path: Path, version: int) -> Path:
    """Where the copy of a version-``version`` file goes before it is overwritten."""
    return path.with_name(f"{path.name}.v{version}.bak")


def peek_version(path: Path) -> int | None:
    """The schema version of an existing encounter file (None: absent or unreadable)."""
    try:
        fmt, version = codec.read_header(read_bytes(path, _source(path)))
    except (LoadError, msgspec.DecodeError, UnicodeDecodeError, RecursionError):
        return None  # not an encounter afdesk can read: nothing to keep a backup of
    if fmt != migrations.FORMAT or not isinstance(version, int) or isinstance(version, bool):
        return None
    return version


def save(
    path: str | os.PathLike[str],
    state: EncounterState,
    *,
    on_disk_version: int | None = None,
    expected_digest: str | None = None,
) -> int:
    """Save atomically: afterwards the file holds ``state``, or, if this raises
    :class:`SaveError`, exactly what it held before (and no temporary file remains).
    Returns the schema version written.

    Before the first save over a file of another schema version (an older file that was
    upgraded on load, or a newer one), its bytes are kept as ``NAME.vN.bak``. The version
    on disk is read from the file itself; ``on_disk_version`` (``Loaded.schema_version``)
    is used when the file's own header cannot be read.

    With ``expected_digest`` (``Loaded.digest``, or :func:`file_digest` after the last
    save) a file whose bytes are no longer those is not overwritten:
    :class:`FileChangedError` (changed or deleted on disk since). A read-only file is
    never replaced (:class:`SaveError`); the GM saves elsewhere or makes it writable.
    """
    path = Path(path)
    try:
        data = codec.encode(state)
    except (msgspec.EncodeError, TypeError, ValueError, OverflowError) as exc:
        # text msgspec cannot write (a lone surrogate), a number out of range, ...
        raise SaveError(path.name, f"the encounter could not be encoded: {exc}") from exc
    try:
        meaning.check(state, data, path.name, lambda: msgspec.json.decode(data))
    except LoadError as exc:  # what afdesk could not open again is never written
        raise SaveError(
            path.name,
            f"{exc.detail}; the encounter breaks a limit of the file format, so it is not "
            "saved (the file on disk is unchanged)",
        ) from exc
    if len(data) > codec.MAX_BYTES:
        raise SaveError(
            path.name,
            f"the encounter takes {codec.size_text(len(data))}, more than the 64 MiB a file may "
            "hold; the file on disk is unchanged",
        )
    try:
        if path.is_symlink():
            path = path.resolve()  # replace the file the link points to, not the link
        exists = path.exists()
    except OSError as exc:  # a folder that cannot even be looked into
        raise SaveError(path.name, atomic.reason(exc, path)) from exc
    _check_target(path, exists, expected_digest)
    atomic.clean_stale_temps(path)
    version = peek_version(path) if exists else None
    if version is None and exists:
        version = on_disk_version
    if version is not None and version != migrations.CURRENT_VERSION:
        try:
            old = read_bytes(path, path.name)
        except LoadError as exc:
            raise SaveError(path.name, f"the old version could not be kept: {exc.detail}") from exc
        atomic.replace(backup_path(path, version), old)
    atomic.replace(path, data)
    return migrations.CURRENT_VERSION
