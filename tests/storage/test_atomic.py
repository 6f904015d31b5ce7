"""Saving is atomic: a killed process, a full disk or a folder it may not write leaves the
previous file byte-identical and no temporary file behind, and says why (SaveError)."""

from __future__ import annotations

import errno
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from afdesk.storage import SaveError, atomic, clean_stale_temps, encode, load, save
from afdesk.storage.samples import build
from tests.storage.builders import big_state, random_encounter

ROOT = Path(__file__).resolve().parents[2]


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(atomic.TEMP_SUFFIX))


def _saved(tmp_path: Path):
    """A saved encounter and its bytes; the state to try to save over it."""
    path = tmp_path / "fight.afenc"
    save(path, build().state())
    return path, path.read_bytes(), random_encounter(3, 60).state()


# ------------------------------------------------------------------- killed mid-save


# Where a save can be killed, in the order a save reaches them: (the os function the
# child kills itself in, whether it dies before that call or after it returns).
KILL_POINTS = (
    ("open", "before"),  # nothing written yet
    ("write", "before"),  # the temporary file exists, empty
    ("write", "after"),  # the temporary file holds the new bytes, not yet fsynced
    ("fsync", "after"),  # the temporary file is complete and durable
    ("replace", "before"),  # ... and about to take the target's place
    ("replace", "after"),  # the target is the new file; the folder not yet fsynced
)


def _save_until_killed(path: Path, versions, pipe_w: int, kill_at=None) -> None:
    """The child: save the versions in turn, one byte down the pipe after each complete
    save. With ``kill_at = (saves, function, when)`` it SIGKILLs itself at that point of
    the save that follows ``saves`` complete ones (fault injection at an exact step)."""
    write = os.write  # the pipe's byte is no step of a save
    if kill_at is not None:
        saves_before, fname, when = kill_at
        real = getattr(os, fname)
        state = {"saves": 0}

        def hooked(*args, **kwargs):
            armed = state["saves"] == saves_before
            if armed and when == "before":
                os.kill(os.getpid(), signal.SIGKILL)
            result = real(*args, **kwargs)
            if armed and when == "after":
                os.kill(os.getpid(), signal.SIGKILL)
            return result

        setattr(os, fname, hooked)
    try:
        for i in range(10**9):
            save(path, versions[i % 2])
            if kill_at is not None:
                state["saves"] += 1
            write(pipe_w, b".")
    finally:
        os._exit(1)


def _kill_and_check(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def test_killed_saves_leave_the_old_or_the_new_file(tmp_path):
    """200 times a child process saves a large encounter over and over, alternating two
    versions, and is killed: half the time with SIGKILL from outside at a random moment
    after its first complete save, half the time by itself at an exact step of a save
    (every step of ``atomic.replace`` in turn). The file is always exactly one of the two
    versions, the one the step says, and the next save cleans up the temporary file a
    kill left behind. Nothing here depends on how fast the machine is."""
    old = big_state(combatants=60, entries=2500, seed=1)
    new = big_state(combatants=60, entries=2600, seed=2)
    versions = (new, old)
    encoded = {encode(old): old, encode(new): new}
    path = tmp_path / "fight.afenc"
    save(path, old)
    start = time.perf_counter()
    save(path, old)
    one_save = time.perf_counter() - start
    rng = random.Random(20240601)
    seen = set()
    injected_mid_save = left_temps = 0
    for trial in range(200):
        save(path, old)
        clean_stale_temps(path)
        read_end, write_end = os.pipe()
        injected = trial % 2 == 1
        if injected:
            saves_before = rng.randrange(0, 3)
            fname, when = KILL_POINTS[(trial // 2) % len(KILL_POINTS)]
            kill_at = (saves_before, fname, when)
        else:
            kill_at = None
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            _save_until_killed(path, versions, write_end, kill_at)
        os.close(write_end)
        if injected:
            _, status = os.waitpid(pid, 0)  # it kills itself
            assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
            completed = len(os.read(read_end, 16))
            assert completed == saves_before
            done = saves_before + (fname == "replace" and when == "after")
            expected = versions[(done - 1) % 2] if done else old
            assert path.read_bytes() == encode(expected), (kill_at, "wrong file after the kill")
            mid_save = fname in ("write", "fsync") or (fname, when) == ("replace", "before")
            assert bool(_temps(tmp_path)) == mid_save, (kill_at, _temps(tmp_path))
            injected_mid_save += mid_save
        else:
            assert os.read(read_end, 1) == b"."  # blocks until one save is complete
            time.sleep(rng.uniform(0.0, 2 * one_save))
            _kill_and_check(pid)
            data = path.read_bytes()
            assert data in encoded, "the file is neither the old nor the new encounter"
            seen.add(data)
            left_temps += bool(_temps(tmp_path))
        os.close(read_end)
    assert load(path).state in (old, new)
    save(path, old)
    assert _temps(tmp_path) == [], "the next save did not clean up after the killed one"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.afenc"]
    points = [KILL_POINTS[(t // 2) % len(KILL_POINTS)] for t in range(1, 200, 2)]
    assert injected_mid_save == sum(
        p[0] in ("write", "fsync") or p == ("replace", "before") for p in points
    )
    assert injected_mid_save >= 60


def test_stale_temps_of_dead_processes_are_cleaned(tmp_path):
    path, _, _ = _saved(tmp_path)
    proc = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        check=True,
        capture_output=True,
        text=True,
    )
    dead = int(proc.stdout)
    stale = tmp_path / f".fight.afenc.{dead}.deadbeef{atomic.TEMP_SUFFIX}"
    stale.write_bytes(b"half a save")
    mine = tmp_path / f".fight.afenc.{os.getpid()}.cafe0000{atomic.TEMP_SUFFIX}"
    mine.write_bytes(b"a save in progress in this process")
    old = tmp_path / f".fight.afenc.{os.getpid()}.0000cafe{atomic.TEMP_SUFFIX}"
    old.write_bytes(b"ancient")
    ancient = time.time() - atomic.STALE_AFTER - 60
    os.utime(old, (ancient, ancient))
    other = tmp_path / f".other.afenc.{dead}.deadbeef{atomic.TEMP_SUFFIX}"
    other.write_bytes(b"another file's")
    assert sorted(clean_stale_temps(path)) == sorted([stale, old])
    assert _temps(tmp_path) == sorted([mine.name, other.name])


# ------------------------------------------------------------------------ disk full


def test_disk_full_in_the_middle_of_the_write(tmp_path, monkeypatch):
    path, before, state = _saved(tmp_path)

    def full(fd, data):
        os.write(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic, "write_all", full)
    with pytest.raises(SaveError) as info:
        save(path, state)
    assert str(info.value) == (
        "could not save fight.afenc: the disk is full; the file on disk is unchanged"
    )
    assert path.read_bytes() == before
    assert _temps(tmp_path) == []


def test_fsync_failure(tmp_path, monkeypatch):
    path, before, state = _saved(tmp_path)

    def broken(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken)
    with pytest.raises(SaveError, match="Input/output error"):
        save(path, state)
    assert path.read_bytes() == before
    assert _temps(tmp_path) == []


def test_file_size_limit_in_a_child_process(tmp_path):
    """RLIMIT_FSIZE (which binds root too): the write fails with EFBIG part way."""
    path, before, _ = _saved(tmp_path)
    script = textwrap.dedent(
        f"""
        import resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # fail the write instead of dying
        from afdesk.storage import SaveError, save
        from tests.storage.builders import big_state
        state = big_state(combatants=40, entries=800)
        resource.setrlimit(resource.RLIMIT_FSIZE, ({len(before) + 5000}, -1))
        try:
            save(sys.argv[1], state)
        except SaveError as exc:
            print("SaveError:", exc)
            sys.exit(3)
        print("saved")
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "SaveError: could not save fight.afenc: the file is larger than" in proc.stdout
    assert "Traceback" not in proc.stderr
    assert path.read_bytes() == before
    assert _temps(tmp_path) == []


# ----------------------------------------------------------------- no permission


def test_folder_refuses_new_files(tmp_path, monkeypatch):
    """The temporary file cannot be created (a read-only folder, as root sees it too)."""
    path, before, state = _saved(tmp_path)
    real_open = os.open

    def refusing(file, flags, *args, **kw):
        if flags & os.O_CREAT and Path(file).parent == tmp_path:
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return real_open(file, flags, *args, **kw)

    monkeypatch.setattr(os, "open", refusing)
    with pytest.raises(SaveError) as info:
        save(path, state)
    assert f"no permission to write in the folder {tmp_path}" in str(info.value)
    assert path.read_bytes() == before
    assert _temps(tmp_path) == []


def test_rename_refused(tmp_path, monkeypatch):
    """The temporary file was written but cannot replace the target: it is removed."""
    path, before, state = _saved(tmp_path)

    def refusing(src, dst, *args, **kw):
        raise PermissionError(errno.EPERM, "Operation not permitted", str(dst))

    monkeypatch.setattr(os, "replace", refusing)
    with pytest.raises(SaveError, match="no permission"):
        save(path, state)
    assert path.read_bytes() == before
    assert _temps(tmp_path) == []


def test_really_read_only_folder():
    """A folder without write permission, for a user that permissions bind: as root the
    test drops to 'nobody' in a child process, since root ignores folder permissions."""
    folder = Path(tempfile.mkdtemp(prefix="afdesk-ro-"))
    try:
        folder.chmod(0o755)
        path = folder / "fight.afenc"
        save(path, build().state())
        before = path.read_bytes()
        folder.chmod(0o555)
        state = random_encounter(3, 30).state()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                os.close(read)
                if os.geteuid() == 0:
                    os.setgid(65534)
                    os.setuid(65534)
                try:
                    save(path, state)
                    message = "saved"
                except SaveError as exc:
                    message = f"SaveError: {exc}"
                os.write(write, message.encode())
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        with os.fdopen(read, "rb") as pipe:
            message = pipe.read().decode()
        _, status = os.waitpid(pid, 0)
        assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, message
        assert message.startswith("SaveError: could not save fight.afenc: no permission")
        assert path.read_bytes() == before
        assert _temps(folder) == []
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


# --------------------------------------------------------------------- the rest


def test_missing_folder(tmp_path):
    with pytest.raises(SaveError, match="does not exist"):
        save(tmp_path / "nowhere" / "fight.afenc", build().state())


def test_target_is_a_folder(tmp_path):
    (tmp_path / "fight.afenc").mkdir()
    with pytest.raises(SaveError, match="is a folder"):
        save(tmp_path / "fight.afenc", build().state())
    assert _temps(tmp_path) == []


def test_permissions_of_the_file_are_kept(tmp_path):
    path, _, state = _saved(tmp_path)
    path.chmod(0o640)
    save(path, state)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640


def test_a_symlink_keeps_pointing_at_the_saved_file(tmp_path):
    real = tmp_path / "real.afenc"
    save(real, build().state())
    link = tmp_path / "link.afenc"
    link.symlink_to(real)
    state = random_encounter(5, 20).state()
    save(link, state)
    assert link.is_symlink()
    assert load(real).state == state


def test_an_interrupt_mid_save_cleans_up_and_propagates(tmp_path, monkeypatch):
    path, before, state = _saved(tmp_path)

    def interrupted(fd, data):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic, "write_all", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save(path, state)
    assert path.read_bytes() == before
    assert _temps(tmp_path) == []


def test_a_bug_mid_save_is_not_disguised_as_a_disk_problem(tmp_path, monkeypatch):
    """Only the disk's failures (OSError) become a SaveError; a bug propagates as itself,
    after the same clean-up."""
    path, before, state = _saved(tmp_path)

    def broken(fd, data):
        raise RuntimeError("a bug")

    monkeypatch.setattr(atomic, "write_all", broken)
    with pytest.raises(RuntimeError, match="a bug"):
        save(path, state)
    assert path.read_bytes() == before
    assert _temps(tmp_path) == []


def test_an_encounter_too_big_to_load_is_not_saved(tmp_path, monkeypatch):
    from afdesk.storage import codec

    path, before, state = _saved(tmp_path)
    monkeypatch.setattr(codec, "MAX_BYTES", 5000)
    with pytest.raises(SaveError, match="more than the 64 MiB a file may hold"):
        save(path, state)
    assert path.read_bytes() == before


def test_a_folder_that_cannot_be_looked_into(tmp_path, monkeypatch):
    def refusing(self):
        raise PermissionError(errno.EACCES, "Permission denied", str(self))

    monkeypatch.setattr(Path, "is_symlink", refusing)
    with pytest.raises(SaveError, match="no permission"):
        save(tmp_path / "fight.afenc", build().state())
    assert _temps(tmp_path) == []
