"""No message that promises what is not true: "nothing was lost" only while the crash
journal really holds the changes, a mark on the window for as long as nothing protects
them; a crash right after a save opens the GM's own file; campaigns with missing
encounters say so when they open; files nested 100,000 deep are refused with their
place by File > Open campaign and the roster's Import."""

from __future__ import annotations

import errno
import shutil

import pytest
from PySide6.QtCore import QSettings

from afdesk.encounter.campaign.state import Campaign, Planned
from afdesk.encounter.ops.roster import AdjustCounter
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.paths import sample_encounter
from afdesk.storage import atomic
from afdesk.storage import campaign as store
from afdesk.storage import samples as sample
from afdesk.storage.recovery import live_journal_state
from tests.gui.test_table import close_next_message_box, no_prompt, shown


@pytest.fixture
def window(qtbot):
    return no_prompt(shown(qtbot, MainWindow(QSettings())))


def _disk_full(fd, data):
    raise OSError(errno.ENOSPC, "No space left on device")


def _journal_holds(doc: EncounterDocument) -> bool:
    """Whether a crash now would give back the encounter on screen: the journal's bytes
    replayed (as the next start would)."""
    journal = doc._journal
    state = live_journal_state(journal.path, doc.encounter.meta.name).state
    return state == doc.encounter.state()


def test_nothing_is_lost_is_said_only_while_it_is_true(window, tmp_path, monkeypatch):
    """The disk fills: the journal warns, the window keeps a mark that the next status
    message does not replace, and a failed save says the changes are NOT protected (it
    used to say the journal kept them: 44 changes were lost that way). Once the journal
    can write again, the mark goes and "nothing was lost" is true again."""
    doc = EncounterDocument(sample.build())
    window.set_document(doc)
    path = tmp_path / "ford.afenc"
    assert window._save_to(path)
    label = window.protection_label
    assert not label.isVisible() and doc.unprotected() == ""

    real = atomic.write_all
    monkeypatch.setattr(atomic, "write_all", _disk_full)
    for n in range(5):
        assert doc.push(AdjustCounter("huang", "hits", 1)) == ""
        window.show_message(f"news {n}")  # the status bar's line is replaced ...
        assert label.isVisible(), "... the mark stays"
    assert "No space left" in doc.unprotected() or "disk is full" in doc.unprotected()
    assert "disk" in label.toolTip() or "space" in label.toolTip()

    seen = close_next_message_box()
    assert not window._save_to(path)  # the disk is full for the save too
    assert seen, "the GM is told"
    assert "Nothing was lost" not in seen[0] and "keeps them" not in seen[0]
    assert "NOT protected against a crash" in seen[0]
    assert label.isVisible() and doc.is_modified()

    monkeypatch.setattr(atomic, "write_all", real)  # room again
    assert doc.push(AdjustCounter("huang", "hits", -1)) == ""
    assert not label.isVisible() and doc.unprotected() == ""
    assert _journal_holds(doc)

    def refuse(*_a, **_k):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(atomic.os, "replace", refuse)
    seen = close_next_message_box()
    assert not window._save_to(path)
    assert seen and "Nothing was lost" in seen[0] and "crash journal keeps them" in seen[0]
    assert _journal_holds(doc), "and it is true"
    monkeypatch.undo()
    assert window._save_to(path)
    assert not label.isVisible()


def test_a_journal_that_cannot_start_shows_the_mark(window, qtbot):
    def no_journal(_doc):
        raise OSError(errno.EACCES, "Permission denied")

    doc = EncounterDocument(sample.build(), journal_factory=no_journal)
    window.set_document(doc)
    assert not window.protection_label.isVisible()
    assert doc.push(AdjustCounter("huang", "hits", 1)) == ""
    assert window.protection_label.isVisible()
    assert "Permission denied" in doc.check_protection()
    doc.undo()  # back to the file as it was: nothing to protect
    assert not window.protection_label.isVisible()


def test_a_crash_right_after_a_save_opens_the_saved_file(qtbot, tmp_path, monkeypatch):
    """The journal had restarted empty for the saved file: the next start opened the
    bundled sample (14 of 270 kills); now it opens the GM's file, asking nothing."""
    from afdesk.gui import app
    from afdesk.gui.dialogs import recovery

    w = no_prompt(shown(qtbot, MainWindow(QSettings())))
    path = tmp_path / "ford.afenc"
    w.set_document(EncounterDocument(sample.build()))
    w.act_deal.trigger()
    assert w._save_to(path)  # saved, and the journal restarted for the file
    saved = w.doc.encounter.state()
    assert w.doc._journal is not None
    w.doc._journal = None  # the crash: nothing closes the journal
    w.doc = None
    w.hide()  # out of the way (qtbot closes it at the end, its document already gone)

    monkeypatch.setattr(recovery, "ask", lambda p, parent=None: pytest.fail("asked"))
    fresh = no_prompt(shown(qtbot, MainWindow(QSettings())))
    app.start(fresh)
    assert fresh.doc.path == path
    assert fresh.doc.encounter.state() == saved
    assert not fresh.doc.is_modified()


@pytest.fixture
def campaign_window(window, monkeypatch):
    failures: list[str] = []
    monkeypatch.setattr(
        window.reporter, "failed", lambda title, err, **kw: failures.append(str(err))
    )
    window.failures = failures
    window.complete()
    return window


def test_a_campaign_with_missing_encounters_says_which_when_it_opens(campaign_window, tmp_path):
    w = campaign_window
    store.save_campaign(
        tmp_path,
        Campaign(
            name="River",
            encounters=(
                Planned(id="ford", title="The ford", file="ford.afenc"),
                Planned(id="mill", title="The mill", file="mill.afenc"),
            ),
        ),
    )
    shutil.copyfile(sample_encounter(), tmp_path / "ford.afenc")
    assert w.open_campaign(tmp_path)
    assert len(w.failures) == 1
    assert (
        "encounters[1].file: mill.afenc (The mill) is not in the campaign folder" in (w.failures[0])
    )
    assert "ford.afenc" not in w.failures[0]
    shutil.copyfile(sample_encounter(), tmp_path / "mill.afenc")
    assert w.open_campaign(tmp_path)
    assert len(w.failures) == 1, "nothing to say"


DEEP = 100_000


def test_open_campaign_and_import_refuse_100000_deep_files(campaign_window, tmp_path):
    w = campaign_window
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "campaign.afcamp").write_bytes(
        b'{"format":"afdesk-campaign","schema_version":1,\n"characters":'
        + b"[" * DEEP
        + b"]" * DEEP
        + b"}"
    )
    assert not w.open_campaign(bad)
    assert w.failures[-1].startswith("campaign.afcamp: line 2: the data nests more than 64")

    assert w.campaign.create(tmp_path / "good", "Good")
    w.campaign.panel.buttons["roster"].click()
    dlg = w.campaign.dialog
    before = w.campaign.doc.campaign
    deep = tmp_path / "deep.afchars"
    deep.write_bytes(b'{"a":' * DEEP)
    problem = dlg.import_file(deep)
    assert problem.startswith("deep.afchars: ") and "nests more than 64 levels deep" in problem
    assert "deep.afchars" in dlg.error.text()
    assert w.campaign.doc.campaign == before, "nothing changed"


@pytest.mark.qt_no_exception_capture
def test_an_unexpected_error_says_safe_only_if_the_journal_holds_the_changes(window, monkeypatch):
    """The crash message said "your changes are safe in the crash journal" even when
    the journal could not be written."""
    from PySide6.QtGui import QAction

    from afdesk.gui.crash import install

    window.set_document(EncounterDocument(sample.build()))
    monkeypatch.setattr(atomic, "write_all", _disk_full)
    assert window.doc.push(AdjustCounter("huang", "hits", 1)) == ""
    handler = install(window)
    try:
        bad = QAction("bug", window)

        def slot():
            raise RuntimeError("a bug")

        bad.triggered.connect(slot)
        bad.trigger()
        text = handler.box.text()
        handler.box.close()
        assert "safe" not in text and "NOT protected against a crash" in text
        monkeypatch.undo()  # room again: the journal is rewritten, and then it is true
        bad.trigger()
        text = handler.box.text()
        handler.box.close()
        assert "safe in the crash journal" in text and _journal_holds(window.doc)
    finally:
        handler.uninstall()
