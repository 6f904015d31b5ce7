"""A campaign as safe as an encounter, through the window: a full disk says whether the
changes are protected (and the Campaign dock says so until they are), a journal afdesk
cannot use is kept aside with a dialog saying where (never overwritten), a damaged one
gives its intact prefix with words for the rest, a kill between a save and the journal's
restart is no false alarm, and a campaign file changed on disk is never saved over."""

from __future__ import annotations

import errno
import os
import random

import pytest
from PySide6.QtCore import QSettings

from afdesk.encounter.campaign.edits import PutCharacter, RenameCampaign
from afdesk.encounter.campaign.roster import Character, Role
from afdesk.encounter.campaign.state import Campaign
from afdesk.gui.main_window import MainWindow
from afdesk.storage import atomic
from afdesk.storage import campaign as store
from afdesk.storage import campaign_journal as cj
from afdesk.storage.campaign_journal import CampaignJournal
from afdesk.storage.errors import SaveError


@pytest.fixture
def window(qtbot, monkeypatch):
    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    w.rng = random.Random(7)
    qtbot.addWidget(w)
    w.show()
    w.failures = []  # (title, text) of every warning box, in order
    w.asked = []
    monkeypatch.setattr(
        w.reporter, "failed", lambda title, err, **kw: w.failures.append((title, str(err)))
    )
    return w


def answer(window, yes: bool) -> None:
    window.campaign.ask = lambda title, text: window.asked.append(text) or yes


def character(i: int) -> PutCharacter:
    return PutCharacter(Character(id=f"c{i}", name=f"Fighter {i}", role=Role.BAND))


def kill(window) -> None:
    """afdesk dies: the journal stays as it is on disk, its lock goes with the process."""
    doc = window.campaign.doc
    if doc.journal is not None:
        os.close(doc.journal._fd)
        doc.journal = None
    window.campaign.doc = None


def file_campaign(folder) -> Campaign:
    return store.load_campaign(folder).campaign


def test_edits_on_a_full_disk_with_the_journal_writing_are_all_recovered(window, tmp_path):
    """The campaign file cannot be saved but the journal can: 'nothing is lost' is true,
    and after a kill every one of the 60 edits comes back."""
    folder = tmp_path / "c"
    assert window.campaign.create(folder, "C")
    real = atomic.replace

    def full(target, data):
        raise SaveError(target.name, "the disk is full; the file on disk is unchanged")

    atomic.replace = full
    try:
        for i in range(60):
            assert window.campaign.doc.push(character(i)) == ""
    finally:
        atomic.replace = real
    assert len(window.failures) == 1, "told once"
    assert "Nothing is lost" in window.failures[0][1]
    assert window.campaign.dock.windowTitle() == "Campaign"
    final = window.campaign.doc.campaign
    kill(window)
    answer(window, True)
    assert window.open_campaign(folder)
    assert "60 change(s)" in window.asked[0]
    assert window.campaign.doc.campaign == final
    assert file_campaign(folder) == final, "saved after the recovery"


def test_a_full_disk_for_the_journal_too_says_the_changes_are_not_protected(window, tmp_path):
    folder = tmp_path / "c"
    assert window.campaign.create(folder, "C")
    doc = window.campaign.doc
    real = atomic.write_all

    def full(fd, data):
        real(fd, data[:5])  # a torn line, which the journal cuts back
        raise OSError(errno.ENOSPC, "No space left on device")

    atomic.write_all = full
    try:
        for i in range(5):
            assert doc.push(character(i)) == ""
    finally:
        atomic.write_all = real
    ((title, text),) = window.failures
    assert title == "The campaign was not saved"
    assert "NOT protected" in text and "Nothing is lost" not in text
    assert "the disk is full" in text
    assert doc.unprotected and window.campaign.dock.windowTitle().endswith("NOT protected")
    assert window.campaign.doc.journal.path.read_bytes().endswith(b"\n"), "no torn line"
    # The disk has room again: the next change saves everything, the dock says so.
    assert doc.push(character(5)) == ""
    assert doc.unprotected == "" and window.campaign.dock.windowTitle() == "Campaign"
    assert "every change is safe" in window.statusBar().currentMessage()
    assert len(file_campaign(folder).characters) == 6


def _crashed_with_changes(window, folder, n=10):
    """A campaign whose file could not be saved for ``n`` edits, then a kill."""
    assert window.campaign.create(folder, "C")
    real = atomic.replace

    def full(target, data):
        raise SaveError(target.name, "the disk is full; the file on disk is unchanged")

    atomic.replace = full
    try:
        for i in range(n):
            assert window.campaign.doc.push(character(i)) == ""
    finally:
        atomic.replace = real
    final = window.campaign.doc.campaign
    kill(window)
    window.failures.clear()
    return final


@pytest.mark.parametrize("damage", ["header byte", "file replaced"])
def test_a_journal_afdesk_cannot_use_is_kept_aside_and_a_dialog_says_where(
    window, tmp_path, damage
):
    folder = tmp_path / "c"
    _crashed_with_changes(window, folder)
    path = cj.journal_path(folder)
    if damage == "header byte":
        data = bytearray(path.read_bytes())
        data[20] ^= 0x04
        path.write_bytes(bytes(data))
    else:
        store.save_campaign(folder, Campaign(name="Copied over after the crash"))
    before = path.read_bytes()
    answer(window, True)
    assert window.open_campaign(folder)
    assert window.asked == [], "nothing offered from a journal that cannot be used"
    ((title, text),) = window.failures
    assert title == "The campaign's crash journal was not used"
    (kept,) = [p for p in folder.iterdir() if p.name.startswith(cj.KEPT_PREFIX)]
    assert kept.name in text and str(folder) in text
    assert kept.read_bytes() == before, "kept whole, never overwritten"
    assert path.read_bytes() != before, "a fresh journal for the open campaign"


def test_a_damaged_journal_offers_its_intact_prefix_and_says_what_was_left_out(window, tmp_path):
    folder = tmp_path / "c"
    _crashed_with_changes(window, folder)
    path = cj.journal_path(folder)
    head, *lines = path.read_bytes().split(b"\n")[:-1]
    lines[4], lines[5] = lines[5], lines[4]  # two lines swapped
    before = b"".join(line + b"\n" for line in [head, *lines])
    path.write_bytes(before)
    answer(window, True)
    assert window.open_campaign(folder)
    (text,) = window.asked
    assert "The journal is damaged: line 6 of 21 is out of place" in text
    (kept,) = [p for p in folder.iterdir() if p.name.startswith(cj.KEPT_PREFIX)]
    assert kept.name in text and kept.read_bytes() == before
    names = [c.name for c in window.campaign.doc.campaign.characters]
    assert names == ["Fighter 0", "Fighter 1"], "the prefix, never a wrong campaign"


def test_a_journal_damaged_at_its_first_change_is_not_dropped_without_a_word(window, tmp_path):
    folder = tmp_path / "c"
    _crashed_with_changes(window, folder)
    path = cj.journal_path(folder)
    data = bytearray(path.read_bytes())
    data[data.index(b"\n") + 5] ^= 0x01
    path.write_bytes(bytes(data))
    answer(window, True)
    assert window.open_campaign(folder)
    ((title, text),) = window.failures
    assert title == "The campaign's crash journal was not used"
    assert "line 2 of 21 is damaged" in text and "the 19 after it are left out" in text
    (kept,) = [p for p in folder.iterdir() if p.name.startswith(cj.KEPT_PREFIX)]
    assert kept.read_bytes() == bytes(data)


def test_a_kill_between_a_save_and_the_journal_restart_raises_no_false_alarm(
    window, tmp_path, monkeypatch
):
    folder = tmp_path / "c"
    assert window.campaign.create(folder, "C")
    monkeypatch.setattr(CampaignJournal, "rebase", lambda self, camp, digest: True)
    assert window.campaign.doc.push(character(0)) == ""  # saved; the restart never came
    final = window.campaign.doc.campaign
    kill(window)
    monkeypatch.undo()
    answer(window, True)
    assert window.open_campaign(folder)
    assert window.failures == [] and window.asked == []
    assert "not used" not in window.statusBar().currentMessage()
    assert window.campaign.doc.campaign == final


def test_a_failed_open_leaves_the_open_campaign_unable_to_save_over_a_changed_file(
    window, tmp_path
):
    """The open campaign stays open after a failed Open campaign, but its stale copy is
    never written over its file, which another program changed meanwhile."""
    a = tmp_path / "a"
    assert window.campaign.create(a, "A")
    theirs = Campaign(name="A, as another program saved it")
    store.save_campaign(a, theirs)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "campaign.afcamp").write_text("not json")
    assert not window.open_campaign(bad)
    assert window.campaign.doc.folder == a
    window.failures.clear()
    assert window.campaign.doc.push(RenameCampaign("A, stale")) == ""
    ((title, text),) = window.failures
    assert "changed on disk" in text and "Nothing is lost" in text
    assert file_campaign(a) == theirs, "not overwritten"
    # Reopened: the file as it is now, the journal of the stale edits kept aside.
    answer(window, True)
    window.failures.clear()
    assert window.open_campaign(a)
    assert window.campaign.doc.campaign == theirs
    ((title, text),) = window.failures
    assert title == "The campaign's crash journal was not used"
    assert "was changed after the journal began" in text
    assert [p for p in a.iterdir() if p.name.startswith(cj.KEPT_PREFIX)]


def test_opening_a_campaign_removes_temporaries_of_killed_saves(window, tmp_path):
    folder = tmp_path / "c"
    assert window.campaign.create(folder, "C")
    window.campaign.close()
    dead = folder / ".campaign.afcamp.999999999.0badf00d.afdesk-tmp"
    dead.write_text("half a campaign")
    other = folder / "notes.txt"
    other.write_text("the GM's notes")
    assert window.open_campaign(folder)
    assert not dead.exists() and other.exists()


def test_a_journal_that_cannot_be_kept_aside_is_not_overwritten(window, tmp_path, monkeypatch):
    """A read-only folder, say: the unusable journal can be neither moved nor replaced,
    so the campaign is not opened, and the journal is as it was."""
    folder = tmp_path / "c"
    _crashed_with_changes(window, folder)
    path = cj.journal_path(folder)
    data = bytearray(path.read_bytes())
    data[3] ^= 0x01
    path.write_bytes(bytes(data))

    def refused(folder):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(cj, "set_aside", refused)
    assert not window.open_campaign(folder)
    ((title, text),) = window.failures
    assert title == "Cannot open the campaign" and "not overwritten" in text
    assert window.campaign.doc is None
    assert path.read_bytes() == bytes(data)


def test_a_read_only_campaign_file_keeps_its_changes_in_the_journal(window, tmp_path):
    folder = tmp_path / "c"
    assert window.campaign.create(folder, "C")
    file = folder / store.FILE_NAME
    file.chmod(0o444)
    try:
        for i in range(3):
            assert window.campaign.doc.push(character(i)) == ""
        ((title, text),) = window.failures
        assert title == "The campaign was not saved"
        assert "read-only" in text and "Nothing is lost" in text
        final = window.campaign.doc.campaign
        kill(window)
    finally:
        file.chmod(0o644)
    answer(window, True)
    assert window.open_campaign(folder)
    assert window.campaign.doc.campaign == final
