"""The order of a save's system calls (afdesk.storage.atomic): the temporary file is
fsynced before it is renamed over the target, and the folder is fsynced after the rename,
so that the rename itself survives a power cut. The killed-save tests cannot see a missing
or early folder fsync (a killed process leaves the kernel's cache intact), so this test
watches the calls themselves (afdesk runs its tests on POSIX, where folders are fsynced)."""

from __future__ import annotations

import os
from pathlib import Path

from afdesk.storage import atomic, save
from afdesk.storage.samples import build


def _record_calls(monkeypatch) -> list[tuple]:
    """Wrap ``os.open``, ``os.fsync``, ``os.close`` and ``os.replace`` so that each call
    is noted, in order, with the path an fsynced descriptor was opened on."""
    calls: list[tuple] = []
    opened: dict[int, str] = {}
    real_open, real_fsync, real_close, real_replace = os.open, os.fsync, os.close, os.replace

    def open_(path, flags, *args, **kwargs):
        fd = real_open(path, flags, *args, **kwargs)
        opened[fd] = os.fspath(path)
        calls.append(("open", os.fspath(path)))
        return fd

    def fsync(fd):
        calls.append(("fsync", opened.get(fd, f"fd {fd}")))
        return real_fsync(fd)

    def close(fd):
        calls.append(("close", opened.pop(fd, f"fd {fd}")))
        return real_close(fd)

    def replace(src, dst, *args, **kwargs):
        calls.append(("replace", os.fspath(src), os.fspath(dst)))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "close", close)
    monkeypatch.setattr(os, "replace", replace)
    return calls


def _check_order(calls: list[tuple], target: Path) -> None:
    renames = [i for i, c in enumerate(calls) if c[0] == "replace"]
    assert len(renames) == 1, calls
    rename = renames[0]
    tmp = calls[rename][1]
    assert calls[rename][2] == str(target)
    assert Path(tmp).parent == target.parent and tmp.endswith(atomic.TEMP_SUFFIX)
    # The temporary file's bytes are durable before it takes the target's place ...
    assert ("fsync", tmp) in calls[:rename], calls
    assert ("close", tmp) in calls[:rename], calls
    # ... and the folder is fsynced after the rename, on a descriptor of the folder itself.
    folder = str(target.parent)
    assert ("fsync", folder) not in calls[:rename], (
        f"the folder was fsynced before the rename: {calls}"
    )
    after = calls[rename + 1 :]
    assert ("open", folder) in after and ("fsync", folder) in after, (
        f"the folder was not fsynced after the rename: {calls}"
    )
    assert after.index(("open", folder)) < after.index(("fsync", folder))
    assert after.index(("fsync", folder)) < after.index(("close", folder))  # no leaked fd


def test_atomic_replace_fsyncs_the_folder_after_the_rename(tmp_path, monkeypatch):
    target = tmp_path / "notes.txt"
    target.write_bytes(b"old")
    calls = _record_calls(monkeypatch)
    atomic.replace(target, b"new")
    monkeypatch.undo()
    assert target.read_bytes() == b"new"
    _check_order(calls, target)


def test_an_encounter_save_fsyncs_the_folder_after_the_rename(tmp_path, monkeypatch):
    target = tmp_path / "fight.afenc"
    state = build().state()
    save(target, state)  # a first save: the second replaces an existing file
    calls = _record_calls(monkeypatch)
    save(target, state)
    monkeypatch.undo()
    _check_order(calls, target)
