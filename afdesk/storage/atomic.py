"""Atomic replacement of a file: the old bytes or the new ones, never a mix, never nothing.

The new bytes go to a temporary file in the same folder (so the rename cannot cross file
systems), which is flushed and fsynced, renamed over the target with ``os.replace``, and
then the folder is fsynced so the rename itself survives a power cut. Any failure removes
the temporary file and leaves the target untouched.

A process killed mid-save cannot clean up, so temporary files have a name that says
whose they are: ``.NAME.<pid>.<random>.afdesk-tmp``. :func:`clean_stale_temps` removes
those of processes that are gone: every :func:`replace` does it for its target (encounter
and campaign files, character files, backups), and opening an encounter or a campaign
does it too. Only names of that form are touched, never another file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from pathlib import Path

from afdesk.storage.errors import SaveError

TEMP_SUFFIX = ".afdesk-tmp"
STALE_AFTER = 3600.0
"""A temporary file this old (seconds) is stale even if its process id is in use again."""

_NAME_PART = 100  # keeps ".NAME.<pid>.<hex>.afdesk-tmp" within the 255-byte name limit


def temp_prefix(target: Path) -> str:
    """How the names of ``target``'s temporary files begin."""
    return f".{target.name[:_NAME_PART]}."


def temp_path(target: Path) -> Path:
    """A fresh temporary name beside ``target``."""
    return target.with_name(
        f"{temp_prefix(target)}{os.getpid()}.{os.urandom(4).hex()}{TEMP_SUFFIX}"
    )


def _pid_alive(pid: int) -> bool | None:
    """Whether a process exists (None where that cannot be asked safely)."""
    if os.name != "posix":
        return None  # on Windows os.kill(pid, 0) would terminate the process
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists, it is someone else's
        return True
    return True


def clean_stale_temps(target: Path) -> list[Path]:
    """Remove temporary files that killed saves of ``target`` left in its folder.

    A temporary file is stale when its process is gone, or when it is older than
    :data:`STALE_AFTER` seconds. Returns what was removed; never raises.
    """
    target = Path(target)
    prefix = temp_prefix(target)
    removed: list[Path] = []
    try:
        names = os.listdir(target.parent)
    except OSError:
        return removed
    for name in names:
        if not (name.startswith(prefix) and name.endswith(TEMP_SUFFIX)):
            continue
        path = target.parent / name
        middle = name[len(prefix) : -len(TEMP_SUFFIX)]
        pid_text = middle.split(".")[0]
        pid = int(pid_text) if pid_text.isdigit() else -1
        try:
            age = time.time() - path.stat().st_mtime
        except OSError:
            continue
        alive = _pid_alive(pid) if pid != os.getpid() else True
        if alive is False or age > STALE_AFTER:
            try:
                path.unlink()
                removed.append(path)
            except OSError:
                pass
    return removed


def fsync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (POSIX; Windows cannot open folders)."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse to fsync a folder; the rename has happened anyway
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """``os.write`` until every byte is out (it may write less than asked)."""
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        if n <= 0:
            raise OSError(errno.EIO, "the disk accepted no more bytes")
        view = view[n:]


def replace(target: Path, data: bytes) -> None:
    """Atomically make ``target`` hold ``data``; :class:`SaveError` if that failed, in
    which case ``target`` is as it was and no temporary file remains."""
    target = Path(target)
    clean_stale_temps(target)  # what killed saves of this file left behind
    tmp = temp_path(target)
    fd = None
    try:
        mode = None
        with contextlib.suppress(OSError):
            mode = os.stat(target).st_mode & 0o7777
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        fd = os.open(tmp, flags, 0o666)
        if mode is not None and hasattr(os, "fchmod"):
            os.fchmod(fd, mode)  # keep the permissions the GM gave the file
        write_all(fd, data)
        os.fsync(fd)
        os.close(fd)
        fd = None
        os.replace(tmp, target)
    except BaseException as exc:
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, (OSError, ValueError)):  # the disk, or a path it cannot hold
            raise SaveError(target.name, reason(exc, target)) from exc
        raise  # Ctrl+C, or a bug: the temporary file is gone, the old file untouched
    fsync_folder(target.parent)


def reason(exc: BaseException, target: Path) -> str:
    """Why a write failed, in words, ending with the reassurance that holds."""
    unchanged = "the file on disk is unchanged"
    folder = str(target.parent)
    if isinstance(exc, OSError):
        code = exc.errno
        if code == errno.ENOSPC or code == getattr(errno, "EDQUOT", -1):
            return f"the disk is full; {unchanged}"
        if code == errno.EFBIG:
            return f"the file is larger than this disk or account allows; {unchanged}"
        if code == errno.EROFS:
            return f"the folder {folder} is on a read-only disk; {unchanged}"
        if isinstance(exc, PermissionError):
            return f"no permission to write in the folder {folder}; {unchanged}"
        if isinstance(exc, FileNotFoundError):
            return f"the folder {folder} does not exist"
        if isinstance(exc, IsADirectoryError):
            return f"{target} is a folder"
        if isinstance(exc, NotADirectoryError):
            return f"{folder} is not a folder"
        return f"{exc.strerror or exc}; {unchanged}"
    return f"{type(exc).__name__}: {exc}; {unchanged}"
