"""After a crash recovery the recovered changes stay undo steps: the GM can undo back to
the encounter as saved, and redo them (the journal's replay goes through a History, whose
steps the recovered document's undo stack receives)."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from afdesk.encounter.ops.roster import AdjustCounter, SetFacing
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.storage import samples as sample
from afdesk.storage.journal import pending_journals
from tests.gui.test_table import no_prompt, shown


def crashed_session(qtbot, tmp_path):
    """A saved encounter, three changes after the save (one undone), then a crash: what
    the file holds and what the screen showed."""
    w = no_prompt(shown(qtbot, MainWindow(QSettings())))
    path = tmp_path / "ford.afenc"
    w.set_document(EncounterDocument(sample.build()))
    assert w._save_to(path)
    saved = w.doc.encounter.state()
    doc = w.doc
    assert doc.push(AdjustCounter("huang", "hits", 2)) == ""
    assert doc.push(SetFacing("huang", 90.0)) == ""
    assert doc.push(AdjustCounter("huang", "hits", 1)) == ""
    doc.undo()
    crashed = doc.encounter.state()
    doc._journal = None  # the crash: nothing closes the journal
    w.doc = None
    w.hide()  # out of the way (qtbot closes it at the end, its document already gone)
    return path, saved, crashed


def test_recovered_steps_undo_back_to_the_saved_file_and_redo(qtbot, tmp_path, monkeypatch):
    from afdesk.gui import app
    from afdesk.gui.dialogs import recovery

    path, saved, crashed = crashed_session(qtbot, tmp_path)
    monkeypatch.setattr(recovery, "ask", lambda p, parent=None: recovery.RecoveryChoice.RECOVER)
    fresh = no_prompt(shown(qtbot, MainWindow(QSettings())))
    app.start(fresh)
    doc = fresh.doc
    assert doc.path == path and doc.encounter.state() == crashed
    stack = doc.undo_stack
    assert stack.count() == 2, "the two changes the journal kept, not an empty 'Opened'"
    assert fresh.act_undo.isEnabled() and fresh.act_undo.text().startswith("&Undo ")
    assert doc.is_modified() and fresh.isWindowModified()
    while stack.canUndo():
        stack.undo()
    assert doc.encounter.state() == saved, "undone back to the file as saved"
    # back at the saved state: clean, as any saved file undone to its save is
    assert stack.isClean() and not doc.is_modified() and not fresh.isWindowModified()
    while stack.canRedo():
        stack.redo()
    assert doc.encounter.state() == crashed, "redone to where the crash left it"
    assert doc.is_modified() and fresh.isWindowModified()


def test_undoing_a_recovered_step_is_journaled_for_the_next_crash(qtbot, tmp_path, monkeypatch):
    """An undo of a recovered step (made before the new journal began) is recovered too."""
    from afdesk.gui import app
    from afdesk.gui.dialogs import recovery
    from afdesk.storage.journal import recover

    _path, saved, _crashed = crashed_session(qtbot, tmp_path)
    monkeypatch.setattr(recovery, "ask", lambda p, parent=None: recovery.RecoveryChoice.RECOVER)
    fresh = no_prompt(shown(qtbot, MainWindow(QSettings())))
    app.start(fresh)
    fresh.doc.undo()
    fresh.doc.undo()
    assert fresh.doc.encounter.state() == saved
    fresh.doc._journal.close(clean=False)  # as if afdesk died here
    fresh.doc._journal = None
    (pending,) = pending_journals()
    assert recover(pending) == saved
