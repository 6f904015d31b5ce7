"""After an unexpected error the handler judges whether going on is
safe. An error in the middle of an Op, or an encounter that no longer matches its crash
journal (changed behind the undo history), is not: the journal is left alone and the GM
is offered a restart from it; a refused or rolled-back change is safe and the session
goes on."""

from __future__ import annotations

import msgspec
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QAction

from afdesk.encounter.ops.meta import Rename
from afdesk.gui.crash import install, unsafe_because
from afdesk.gui.main_window import MainWindow
from afdesk.storage.journal import pending_journals, recover
from tests.gui.test_table import fresh_doc, no_prompt


class Boom(RuntimeError):
    pass


def _window(qtbot) -> MainWindow:
    window = no_prompt(MainWindow(QSettings()))
    qtbot.addWidget(window)
    window.show()
    window.set_document(fresh_doc())
    window.act_deal.trigger()  # a change, journaled
    return window


def _raise_in_slot(window, bug) -> None:
    action = QAction("bug", window)
    action.triggered.connect(bug)
    action.trigger()


def _button(box, words: str):
    return next(b for b in box.buttons() if words in b.text().replace("&", ""))


@pytest.mark.qt_no_exception_capture
def test_a_change_behind_the_history_is_not_trusted_and_the_journal_restores_it(qtbot):
    window = _window(qtbot)
    journaled = window.doc.encounter.state()
    old_journal = window.doc._journal.path
    handler = install(window)
    try:

        def bug():
            enc = window.doc.encounter
            huang = enc.combatants["huang"]
            enc.combatants["huang"] = msgspec.structs.replace(huang, hits=huang.hits + 4)
            raise Boom("a widget wrote to the encounter directly")

        _raise_in_slot(window, bug)
        text = handler.reports[0].read_text("utf-8")
        why = "it no longer matches the changes the crash journal recorded"
        assert f"Safe to continue: no, {why}" in text
        assert "Crash journal: kept as it was" in text
        box = handler.box
        assert "may be wrong" in box.text() and "Restart from the crash journal" in box.text()
        assert window.doc.encounter.state() != journaled
        _button(box, "Restart from the journal").click()
        assert window.doc.encounter.state() == journaled  # the stray change is gone
        assert window.doc.is_modified()
        assert not old_journal.exists()  # replaced by the new document's journal
        journal = window.doc._journal
        journal.close(clean=False)  # as if afdesk died now
        window.doc._journal = None
        (p,) = pending_journals()
        assert recover(p) == journaled
    finally:
        handler.uninstall()


@pytest.mark.qt_no_exception_capture
def test_an_error_in_the_middle_of_an_op_offers_a_restart(qtbot, monkeypatch):
    window = _window(qtbot)
    handler = install(window)
    run = Rename.execute
    judged = []

    def execute(self, enc):
        run(self, enc)
        if enc is window.doc.encounter:  # not in the journal's replay
            judged.append(unsafe_because(window.doc))
            _raise_in_slot(window, lambda: (_ for _ in ()).throw(Boom("a slot ran mid-change")))

    monkeypatch.setattr(Rename, "execute", execute)
    try:
        assert window.doc.push(Rename("Renamed mid-error")) == ""
        assert judged == ["the error came in the middle of a change to the encounter"]
        text = handler.reports[0].read_text("utf-8")
        assert "Safe to continue: no, the error came in the middle of a change" in text
        box = handler.box
        _button(box, "Continue anyway").click()  # the GM's choice: go on
        assert window.doc.encounter.meta.name == "Renamed mid-error"
        assert unsafe_because(window.doc) == ""  # the Op finished; all is in step again
    finally:
        handler.uninstall()


@pytest.mark.qt_no_exception_capture
def test_a_rolled_back_error_is_safe_and_the_session_goes_on(qtbot, monkeypatch):
    window = _window(qtbot)
    state = window.doc.encounter.state()
    handler = install(window)
    run = Rename.execute

    def execute(self, enc):
        run(self, enc)
        raise Boom("half way through")

    monkeypatch.setattr(Rename, "execute", execute)
    try:
        _raise_in_slot(window, lambda: window.doc.encounter.apply(Rename("never")))
        assert window.doc.encounter.state() == state  # rolled back
        text = handler.reports[0].read_text("utf-8")
        assert "Safe to continue: yes" in text and "Crash journal: written" in text
        box = handler.box
        assert not any("Restart" in b.text() for b in box.buttons())
        assert unsafe_because(window.doc) == ""
    finally:
        handler.uninstall()


def test_an_encounter_breaking_the_format_is_not_trusted(qtbot):
    window = _window(qtbot)
    enc = window.doc.encounter
    enc.combatants["huang"] = msgspec.structs.replace(enc.combatants["huang"], grit=10**9)
    why = unsafe_because(window.doc)
    assert why.startswith("it breaks the rules of the file format (combatants[0].grit: count")
