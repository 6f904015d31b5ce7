"""The crash journal's fsync runs on a thread of its own, and a change is still on
disk before the next one is written: at most the change in flight is lost."""

from __future__ import annotations

import errno
import gc
import os
import threading

import pytest

from afdesk.encounter.history import History
from afdesk.encounter.ops.meta import Rename
from afdesk.storage import SaveError, atomic, save
from afdesk.storage.journal import Journal, pending_journals, recover
from afdesk.storage.samples import build


def _journaled(tmp_path):
    path = tmp_path / "river-ford.afenc"
    enc = build()
    save(path, enc.state())
    history = History(enc)
    journal = Journal.start("River ford", file=path, base=enc.state()).follow(history)
    return enc, history, journal


def test_fsync_runs_off_the_calling_thread_and_before_the_next_line(tmp_path, monkeypatch):
    enc, history, journal = _journaled(tmp_path)
    real_fsync, real_write = os.fsync, atomic.write_all
    synced: list[tuple[int, str]] = []  # (file size when fsynced, thread)
    written: list[int] = []  # how many line fsyncs were done when each line was written

    def fsync(fd):
        real_fsync(fd)
        synced.append((os.fstat(fd).st_size, threading.current_thread().name))

    def write_all(fd, data):
        written.append(len(synced))
        real_write(fd, data)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(atomic, "write_all", write_all)
    for i in range(6):
        history.push(Rename(f"Ford {i}"))
    journal.flush()
    assert written == [0, 1, 2, 3, 4, 5]  # line k+1 waited for line k's fsync
    assert len(synced) == 6
    assert {name for _size, name in synced} == {"afdesk-journal-fsync"}
    assert synced[-1][0] == journal.path.stat().st_size  # the last line is on disk too
    journal.close(clean=False)
    (pending,) = pending_journals()
    assert recover(pending) == enc.state()


def test_a_failed_fsync_is_reported_at_the_next_change_and_cut_off(tmp_path, monkeypatch):
    enc, history, journal = _journaled(tmp_path)
    history.push(Rename("Ford 1"))
    journal.flush()
    durable = journal.path.read_bytes()
    real_fsync = os.fsync

    failures = [OSError(errno.EIO, "Input/output error")]

    def once_broken(fd):
        if failures:
            raise failures.pop()
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", once_broken)
    history.push(Rename("Ford 2"))  # written; its fsync fails on the journal's thread
    with pytest.raises(SaveError, match="not protected against a crash"):
        history.push(Rename("Ford 3"))
    assert journal.problem
    # the line that may not be on disk is cut off again: no torn or unsynced tail
    assert journal.path.read_bytes() == durable
    history.push(Rename("Ford 4"))  # starts afresh from the whole encounter
    assert journal.problem == ""
    journal.close(clean=False)
    (pending,) = pending_journals()
    assert recover(pending) == enc.state()
    assert enc.meta.name == "Ford 4"


def test_an_unclean_close_waits_for_the_last_fsync(tmp_path, monkeypatch):
    enc, history, journal = _journaled(tmp_path)
    release = threading.Event()
    done: list[int] = []
    order: list[str] = []
    real_fsync = os.fsync

    def slow(fd):
        release.wait(timeout=30)
        real_fsync(fd)
        done.append(fd)
        order.append("fsynced")

    def close():
        journal.close(clean=False)
        order.append("closed")

    monkeypatch.setattr(os, "fsync", slow)
    history.push(Rename("Ford 1"))
    assert done == []  # record returned while the fsync waits
    closer = threading.Thread(target=close)
    closer.start()
    closer.join(timeout=0.05)
    assert closer.is_alive()  # close waits for the fsync
    release.set()
    closer.join(timeout=30)
    assert not closer.is_alive() and len(done) == 1
    assert order == ["fsynced", "closed"]
    (pending,) = pending_journals()
    assert recover(pending) == enc.state()


def test_no_garbage_is_collected_in_the_fsync_thread(tmp_path):
    """In the GUI a collection in the fsync thread would destroy the UI thread's unreachable
    Qt objects off the UI thread (a crash). The thread is woken with the collector held off
    (afdesk.storage.gc_hold) and lets go of it just before it sleeps again; woken on its
    Condition instead, its first allocations ran collections that were due (102 of this
    test's did), and the collector is back on once the journal is closed."""
    threads: list[str] = []

    def seen(phase, _info):
        if phase == "start":
            threads.append(threading.current_thread().name)

    enc, history, journal = _journaled(tmp_path)
    before = gc.get_threshold()
    gc.set_threshold(1, 100, 100)  # a collection at the first allocation of any thread
    gc.callbacks.append(seen)
    try:
        for i in range(50):
            history.push(Rename(f"Ford {i % 7}"))
            journal.flush()
        journal.close(clean=False)
    finally:
        gc.callbacks.remove(seen)
        gc.set_threshold(*before)
    assert threads and threads.count("afdesk-journal-fsync") == 0, threads.count(
        "afdesk-journal-fsync"
    )
    assert gc.isenabled()
    (pending,) = pending_journals()
    assert recover(pending) == enc.state()


def test_turning_the_collector_on_waits_for_the_holds():
    """The start turns the collector off before any thread runs and on once the window
    is drawn (gc_hold.turn_on): under a worker's hold it stays off until that hold goes."""
    import gc

    from afdesk.storage import gc_hold

    was = gc.isenabled()
    try:
        gc.disable()  # as afdesk.cli does before the first frame
        gc_hold.hold()  # a worker at work
        gc_hold.turn_on()
        assert not gc.isenabled()
        gc_hold.release()
        assert gc.isenabled()
        gc.disable()
        gc_hold.turn_on()  # no hold: on at once
        assert gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()


def _fsync_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "afdesk-journal-fsync"]


def test_a_journal_dropped_unclosed_takes_its_fsync_thread_with_it(tmp_path):
    before = _fsync_threads()
    enc, history, journal = _journaled(tmp_path)
    history.push(Rename("Ford 1"))
    journal.flush()
    (thread,) = [t for t in _fsync_threads() if t not in before]
    path = journal.path
    del enc, history, journal  # the history and the journal hold each other: a cycle
    gc.collect()
    thread.join(timeout=10)
    assert not thread.is_alive()
    assert path.exists()  # not a clean close: the journal stays for recovery
    (pending,) = pending_journals()
    assert recover(pending).meta.name == "Ford 1"
