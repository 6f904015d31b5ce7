"""The campaign's crash journal held to the encounter journal's standard: a failed write is
cut back and reported, a journal afdesk cannot use is kept aside (never overwritten), every
kind of damage (cut, flip, removed, swapped, duplicated lines) gives the intact prefix with
words for what was left out and never a wrong campaign, a save marker spares the false
alarm after a kill between a save and the journal's restart, and a campaign file changed
on disk is not overwritten. Fault injection through monkeypatched os calls; seeded."""

from __future__ import annotations

import errno
import os
import random
import subprocess
import sys

import msgspec
import pytest

from afdesk.encounter.campaign.edits import (
    PutCharacter,
    PutEncounter,
    RemoveCharacter,
    RenameCampaign,
    StartSession,
)
from afdesk.encounter.campaign.history import CampaignHistory
from afdesk.encounter.campaign.roster import Character, Role
from afdesk.encounter.campaign.state import Campaign, Planned
from afdesk.storage import atomic
from afdesk.storage import campaign as store
from afdesk.storage import campaign_journal as cj
from afdesk.storage.errors import FileChangedError, JournalError, LoadError, SaveError


def _edits(i: int):
    """The i-th edit of a session (varied: characters, encounters, sessions, names)."""
    kind = i % 5
    if kind == 0:
        return PutCharacter(Character(id=f"c{i}", name=f"Fighter {i}", role=Role.BAND))
    if kind == 1:
        return PutEncounter(Planned(id=f"e{i}", title=f"Fight {i}", file=f"e{i}.afenc"))
    if kind == 2:
        return StartSession()
    if kind == 3:
        return RenameCampaign(f"The river, part {i}")
    return RemoveCharacter(f"c{i - 4}")


class Session:
    """A campaign whose file saves all fail (a full disk, say): every change is only in
    the journal. ``states[k]`` is the campaign after the journal's first k lines."""

    def __init__(self, folder, changes: int = 10, markers: bool = True):
        self.folder = folder
        camp = Campaign(name="The river")
        digest = store.save_campaign(folder, camp)
        self.history = CampaignHistory(camp)
        self.journal = cj.CampaignJournal.start(folder, camp, digest)
        self.journal.follow(self.history)
        self.states = [camp]
        for i in range(changes):
            if i % 4 == 3:
                self.history.undo()
            elif i % 4 == 0 and self.history.can_redo():
                self.history.redo()
            else:
                self.history.push(_edits(i))
            self.states.append(self.history.campaign)
            if markers and i % 3 == 1:  # a save that then failed: its marker stays
                assert self.journal.saving("0" * 64)
                self.states.append(self.history.campaign)
        self.journal.close(clean=False)  # afdesk dies: the lock goes with it
        self.data = cj.journal_path(folder).read_bytes()

    @property
    def final(self) -> Campaign:
        return self.states[-1]

    def with_journal(self, data: bytes):
        cj.journal_path(self.folder).write_bytes(data)
        return cj.recover(self.folder)


def test_a_whole_journal_recovers_every_change_without_a_word(tmp_path):
    s = Session(tmp_path)
    got = cj.recover(tmp_path)
    assert got is not None and got.campaign == s.final and got.dropped == ""
    assert got.changes == 10


# ------------------------------------------------------------------- damage of every kind


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")[:-1]


def _join(lines: list[bytes]) -> bytes:
    return b"".join(line + b"\n" for line in lines)


def _check(s: Session, data: bytes, intact: int, tally: dict[str, int], *, silent_ok=False):
    """Recovery of damaged ``data`` whose first ``intact`` lines after the header are
    whole: that prefix exactly, and words for what was left out (unless the damage
    cannot show, ``silent_ok``); the header damaged: refused, naming the journal."""
    tally["damages"] += 1
    try:
        got = s.with_journal(data)
    except LoadError as exc:
        assert intact < 0, f"refused although the header is whole: {exc}"
        assert str(exc).startswith(".campaign.afcamp-journal: line 1")
        tally["refused"] += 1
        return
    assert intact >= 0, "a damaged header was used"
    campaign = s.states[0] if got is None else got.campaign
    if campaign != s.states[intact]:
        tally["wrong"] += 1
        pytest.fail(f"a wrong campaign after keeping {intact} lines")
    if intact < len(s.states) - 1 and not silent_ok:
        assert got is not None and got.dropped, "changes left out without a word"
        tally["told"] += 1


@pytest.fixture
def tally():
    counts = {"damages": 0, "wrong": 0, "refused": 0, "told": 0}
    yield counts
    assert counts["wrong"] == 0


def test_every_removed_swapped_and_duplicated_line(tmp_path, tally):
    s = Session(tmp_path)
    head, *body = _lines(s.data)
    n = len(body)
    for i in range(n):
        # removed: the lines before it are whole; the last one removed cannot show
        _check(s, _join([head, *body[:i], *body[i + 1 :]]), i, tally, silent_ok=i == n - 1)
        # duplicated: everything up to and with it
        _check(s, _join([head, *body[: i + 1], body[i], *body[i + 1 :]]), i + 1, tally)
        if i + 1 < n:
            swapped = [*body[:i], body[i + 1], body[i], *body[i + 2 :]]
            _check(s, _join([head, *swapped]), i, tally)
    assert tally["told"] == 3 * n - 3


def test_every_cut(tmp_path, tally):
    s = Session(tmp_path, changes=6)
    ends = [k + 1 for k, b in enumerate(s.data) if b == ord("\n")]
    for cut in range(len(s.data)):
        whole = sum(1 for e in ends if e <= cut) - 1  # complete lines after the header
        if cut < ends[0]:
            whole = -1  # the header is cut
        _check(s, s.data[:cut], whole, tally, silent_ok=cut in ends)
    assert tally["damages"] == len(s.data)


def test_byte_flips(tmp_path, tally):
    s = Session(tmp_path)
    rng = random.Random(320)
    ends = [k for k, b in enumerate(s.data) if b == ord("\n")]
    spots = rng.sample(range(len(s.data)), 320) + list(range(ends[0] + 1))  # all the header
    for spot in spots:
        data = bytearray(s.data)
        data[spot] ^= rng.randrange(1, 256)
        line = sum(1 for e in ends if e < spot)  # 0: the header
        _check(s, bytes(data), line - 1, tally)
    assert tally["refused"] >= ends[0] + 1


def test_a_line_that_does_not_replay_leaves_the_prefix_and_says_so(tmp_path):
    s = Session(tmp_path, changes=3, markers=False)
    from afdesk.storage.journal_file import encoder, seal

    bad = seal(encoder.encode(cj.Line(4, do=(RemoveCharacter("nobody"),)))) + b"\n"
    got = s.with_journal(s.data + bad)
    assert got is not None and got.campaign == s.final
    assert got.dropped.startswith("line 5 of 5 could not be replayed")


# ------------------------------------------------------------------- a full disk


def test_a_failed_write_is_cut_back_and_the_next_change_restarts_the_journal(tmp_path, monkeypatch):
    """Full disk mid-line: the half line is cut off, record says False and ``problem``
    why; once the disk takes bytes again the journal is rewritten from the whole campaign,
    so nothing after the failure hides behind a torn line."""
    camp = Campaign(name="The river")
    digest = store.save_campaign(tmp_path, camp)
    h = CampaignHistory(camp)
    journal = cj.CampaignJournal.start(tmp_path, camp, digest)
    journal.follow(h, subscribe=False)
    h.subscribe(lambda ev: results.append(journal.record(ev)))
    results: list[bool] = []
    h.push(_edits(0))
    good = journal.path.read_bytes()
    real = atomic.write_all

    def half_then_full(fd, data):
        real(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic, "write_all", half_then_full)
    h.push(_edits(1))
    assert results == [True, False]
    assert journal.problem.startswith("the disk is full")
    assert journal.path.read_bytes() == good, "no torn line left behind"
    monkeypatch.setattr(atomic, "write_all", real)
    h.push(_edits(2))
    h.push(_edits(3))
    assert results[2:] == [True, True] and journal.problem == ""
    journal.close(clean=False)
    got = cj.recover(tmp_path)
    assert got is not None and got.campaign == h.campaign and got.dropped == ""


def test_a_failed_fsync_is_cut_back_too(tmp_path, monkeypatch):
    camp = Campaign(name="The river")
    digest = store.save_campaign(tmp_path, camp)
    h = CampaignHistory(camp)
    journal = cj.CampaignJournal.start(tmp_path, camp, digest)
    journal.follow(h)
    before = journal.path.read_bytes()

    def eio(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", eio)
    h.push(_edits(0))
    assert journal.problem and journal.path.read_bytes() == before
    journal.close(clean=False)


# ------------------------------------------------------------ never overwritten unread


def test_a_journal_is_never_overwritten_by_a_new_one(tmp_path):
    s = Session(tmp_path, changes=4)
    with pytest.raises(JournalError, match="is already there"):
        cj.CampaignJournal.start(tmp_path, s.states[0], "")
    assert cj.journal_path(tmp_path).read_bytes() == s.data


def test_set_aside_keeps_the_bytes_under_a_new_name_never_over_another(tmp_path):
    s = Session(tmp_path, changes=4)
    first = cj.set_aside(tmp_path)
    assert first.read_bytes() == s.data and not cj.journal_path(tmp_path).exists()
    assert first.name.startswith(cj.KEPT_PREFIX)
    cj.journal_path(tmp_path).write_bytes(b"second")
    second = cj.set_aside(tmp_path)
    assert second != first and second.read_bytes() == b"second"
    assert first.read_bytes() == s.data


def test_a_journal_of_a_replaced_file_is_refused_not_replayed(tmp_path):
    s = Session(tmp_path, changes=4)
    store.save_campaign(tmp_path, Campaign(name="Replaced"))
    with pytest.raises(LoadError, match="was changed after the journal began"):
        cj.recover(tmp_path)
    assert cj.journal_path(tmp_path).read_bytes() == s.data


def test_a_journal_of_another_campaign_file_version_is_refused(tmp_path):
    from afdesk.storage.journal_file import encoder, seal

    s = Session(tmp_path, changes=2)
    head, *body = _lines(s.data)
    header = cj._header_decoder.decode(cj.unseal(head))
    newer = seal(encoder.encode(msgspec.structs.replace(header, schema_version=99)))
    with pytest.raises(LoadError, match="campaign file version 99"):
        s.with_journal(_join([newer, *body]))


# ------------------------------------------------------------------ the save marker


def test_a_kill_between_the_save_and_the_restart_is_no_false_alarm(tmp_path):
    """The marker says which bytes the save wrote: the file holds them, so there is
    nothing to recover (and nothing refused as 'changed since')."""
    camp = Campaign(name="The river")
    digest = store.save_campaign(tmp_path, camp)
    h = CampaignHistory(camp)
    journal = cj.CampaignJournal.start(tmp_path, camp, digest)
    journal.follow(h)
    h.push(_edits(0))
    store.save_campaign(tmp_path, h.campaign, expected_digest=digest, marking=journal.saving)
    journal.close(clean=False)  # killed before rebase
    assert cj.recover(tmp_path) is None


def test_changes_after_a_marker_replay_onto_the_saved_file(tmp_path):
    camp = Campaign(name="The river")
    digest = store.save_campaign(tmp_path, camp)
    h = CampaignHistory(camp)
    journal = cj.CampaignJournal.start(tmp_path, camp, digest)
    journal.follow(h)
    h.push(_edits(0))
    store.save_campaign(tmp_path, h.campaign, marking=journal.saving)
    h.push(_edits(1))  # its save never happened
    journal.close(clean=False)
    got = cj.recover(tmp_path)
    assert got is not None and got.campaign == h.campaign and got.changes == 1


# --------------------------------------------------------- a file changed on disk


def test_a_campaign_file_changed_on_disk_is_not_overwritten(tmp_path):
    digest = store.save_campaign(tmp_path, Campaign(name="Mine"))
    theirs = store.save_campaign(tmp_path, Campaign(name="Theirs"))
    before = store.campaign_file(tmp_path).read_bytes()
    with pytest.raises(FileChangedError, match="changed on disk"):
        store.save_campaign(tmp_path, Campaign(name="Stale"), expected_digest=digest)
    assert store.campaign_file(tmp_path).read_bytes() == before
    assert store.save_campaign(tmp_path, Campaign(name="Next"), expected_digest=theirs)
    store.campaign_file(tmp_path).unlink()
    with pytest.raises(FileChangedError, match="deleted or moved"):
        store.save_campaign(tmp_path, Campaign(name="Stale"), expected_digest=theirs)


def test_a_read_only_campaign_file_is_not_replaced(tmp_path):
    digest = store.save_campaign(tmp_path, Campaign(name="Mine"))
    file = store.campaign_file(tmp_path)
    before = file.read_bytes()
    file.chmod(0o444)
    try:
        with pytest.raises(SaveError, match="read-only"):
            store.save_campaign(tmp_path, Campaign(name="New"), expected_digest=digest)
        assert file.read_bytes() == before
    finally:
        file.chmod(0o644)


# ------------------------------------------------------------- stale temporary files


def test_killed_campaign_saves_leave_no_temporary_file_after_the_next_save(tmp_path):
    """Saves killed mid-write (a child process writes the temporary file and is
    SIGKILLed) leave temporaries; the next save removes them and nothing else."""
    store.save_campaign(tmp_path, Campaign(name="The river"))
    script = (
        "import os, sys, signal\n"
        "from pathlib import Path\n"
        "from afdesk.storage import atomic\n"
        "t = atomic.temp_path(Path(sys.argv[1]))\n"
        "fd = os.open(t, os.O_WRONLY | os.O_CREAT | os.O_EXCL)\n"
        "os.write(fd, b'{half a campaign')\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    for _ in range(3):
        subprocess.run([sys.executable, "-c", script, str(store.campaign_file(tmp_path))])
    others = [".campaign.afcamp.notes", "campaign.afcamp.bak", ".other.1.2.afdesk-tmp"]
    for name in others:
        (tmp_path / name).write_text("not afdesk's temporary")
    temps = [p for p in tmp_path.iterdir() if p.name.endswith(atomic.TEMP_SUFFIX)]
    assert len(temps) == 4
    store.save_campaign(tmp_path, Campaign(name="The river, again"))
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(["campaign.afcamp", *others])
