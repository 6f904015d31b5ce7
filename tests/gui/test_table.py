"""Running the table through the main window: a scripted exchange, undo of every
step, save/close/reopen, crash recovery, a failed save."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.roster import PlaceCombatant
from afdesk.encounter.state import Phase
from afdesk.gui.dialogs.cards import PlayCardsDialog
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.rules.dice import ScriptedSource
from afdesk.storage import samples as sample
from tests.gui.conftest import wait_exposed


def no_prompt(w: MainWindow) -> MainWindow:
    """Closing at teardown never waits on an "unsaved changes" question."""
    w.maybe_save = lambda: True
    return w


def shown(qtbot, w: MainWindow) -> MainWindow:
    """Shortcuts (Space, Ctrl+D) only reach a shown, active window."""
    qtbot.addWidget(w)
    w.show()
    wait_exposed(qtbot, w)
    w.activateWindow()
    return w


def space_until(qtbot, window, done, limit: int = 60) -> None:
    """Press Space (next turn) until ``done()``; fail instead of hanging."""
    for _ in range(limit):
        if done():
            return
        qtbot.keyClick(window, Qt.Key.Key_Space)
    raise AssertionError("Space did not get there")


@pytest.fixture
def window(qtbot):
    # pytest-qt closes added widgets before fixture teardown: no prompt from the start.
    w = no_prompt(shown(qtbot, MainWindow(QSettings())))
    w.rng = random.Random(11)
    return w


def fresh_doc(**kw) -> EncounterDocument:
    return EncounterDocument(sample.build(), **kw)


def play_round(window, qtbot, rng_seed: int) -> None:
    dlg = PlayCardsDialog(window.doc, window, rng=random.Random(rng_seed))
    qtbot.addWidget(dlg)
    dlg.reveal()
    assert dlg.result() == dlg.DialogCode.Accepted


def close_next_message_box(button=QMessageBox.StandardButton.Cancel) -> list[str]:
    """Answer the next modal message box with ``button``; returns the texts seen."""
    seen: list[str] = []

    def answer():
        box = QApplication.activeModalWidget()
        if isinstance(box, QMessageBox):
            seen.append(box.text())
            target = box.button(button) or box.buttons()[-1]
            target.click()
        else:
            QTimer.singleShot(20, answer)

    QTimer.singleShot(20, answer)
    return seen


def test_a_scripted_exchange_through_the_window(window, qtbot):
    doc = fresh_doc()
    window.set_document(doc)
    start = doc.encounter.state()
    enc = doc.encounter

    # Setup: the GM moves Gao right up to the band (a placement, one undo step).
    doc.push(PlaceCombatant("gao", (7, 10), 0))

    # Deal (Ctrl+D), play cards (the dialog), next turn (Space).
    window.act_deal.trigger()
    assert enc.turn.phase is Phase.CARDS and len(enc.reflex.hands) == 6
    play_round(window, qtbot, 1)
    assert enc.turn.phase is Phase.TURNS and enc.actor
    assert window.reflex_panel.order.count() == len(enc.turn.order)
    assert doc.selected == enc.actor  # the actor is selected for the GM
    space_until(qtbot, window, lambda: enc.actor == "huang")
    assert "Green-Jade Huang's turn" in window.turn_label.text()

    # A move: Huang steps from (7, 11) to (6, 11)... through the document the map uses.
    from afdesk.encounter.ops.move import MoveCombatant

    assert "Maneuver" in doc.push(MoveCombatant("huang", ((7, 11), (6, 10)), 45, maneuver=False))
    # (no movement yet: the drag would start a Maneuver; say so explicitly)
    assert doc.push(MoveCombatant("huang", ((7, 11), (6, 11)), 45, maneuver=True)) == ""

    # Gao screens as Huang comes at him: the Character dock's Screen toggle.
    doc.select("gao")
    window.combatant_panel.screen_toggle.click()
    assert enc.combatants["gao"].has(StateKind.SCREENING)
    doc.select("huang")

    # Huang attacks Gao from behind his flank (he faces north, she is south): his dodge
    # is at -2 and he cannot parry. She has no action left (the Maneuver), so first the
    # refusal, then next round she attacks.
    dlg = ContestDialog(doc, "huang", CheckKind.HACK, "gao", window)
    qtbot.addWidget(dlg)
    dlg.source = ScriptedSource([5, 4, 1])
    dlg.dice.roll_attack.click()
    dlg.apply_button.click()
    assert "already used the action" in dlg.reason.text()
    dlg.reject()

    space_until(qtbot, window, lambda: enc.turn.phase is not Phase.TURNS)
    play_round(window, qtbot, 2)
    space_until(qtbot, window, lambda: enc.actor == "huang")
    dlg = ContestDialog(doc, "huang", CheckKind.HACK, "gao", window)
    qtbot.addWidget(dlg)
    assert dlg.plan.behind
    assert "-2 Behind the flank (E8)" in dlg.defense.button("dodge", "defense").text()
    parry = [b for b, o in dlg.defense.options() if o is not None and o.kind.value == "parry"]
    assert parry and not any(b.isEnabled() for b in parry)
    dlg.defense.choose("dodge", "defense")
    dlg.source = ScriptedSource([5, 4, 1])
    dlg.dice.roll_attack.click()
    # Gao: move 3 dice, 2 Interference for the flank: 5, 2, 1 and 1, 1 -> 5 against 5.
    dlg.source = ScriptedSource([5, 2, 1, 1, 1])
    dlg.dice.roll_defense.click()
    assert "stands" in dlg.dice.verdict_text()
    # The referee spends a Shift for Gao: +2 dice, 5 and 4 -> 5x2 stops her.
    if dlg.flow.shift_exchange.turn.value == "attacker":
        dlg.shifts.pass_button.click()
    dlg.source = ScriptedSource([5, 4])
    dlg.shifts.button_for("add").click()
    assert "stopped" in dlg.dice.verdict_text()
    # Huang answers with her own Shift: +2 dice, 6 and 5.
    dlg.source = ScriptedSource([6, 1, 5])
    dlg.shifts.pass_button.click()
    dlg.shifts.button_for("add").click()
    assert "stands" in dlg.dice.verdict_text()
    dlg.momentum.hits.setValue(1)  # her damage: a landed attack for 0 hits asks first
    dlg.apply_button.click()
    assert dlg.result() == dlg.DialogCode.Accepted
    assert "Bandit Chief Gao dodges (defense)" in enc.log[-1].text
    assert "takes 1 hit" in enc.log[-1].text
    assert window.log_panel.view.model().rowCount() == len(enc.log)

    # To the end of the exchange.
    for seed in (3, 4, 5):
        space_until(qtbot, window, lambda: enc.turn.phase is not Phase.TURNS)
        play_round(window, qtbot, seed)
    space_until(qtbot, window, lambda: enc.turn.phase is not Phase.TURNS)
    assert enc.turn.phase is Phase.EXCHANGE_END
    assert window.reflex_panel.end_box.isVisible()

    # Undo of every step returns the exact start.
    while doc.undo_stack.canUndo():
        window.act_undo.trigger()
    assert enc.state() == start
    assert not doc.is_modified()


def test_save_close_reopen_gives_the_same_state(window, qtbot, tmp_path):
    doc = fresh_doc()
    window.set_document(doc)
    window.act_deal.trigger()
    play_round(window, qtbot, 7)
    qtbot.keyClick(window, Qt.Key.Key_Space)
    path = tmp_path / "ford.afenc"
    assert window._save_to(path)
    assert not doc.is_modified() and not window.isWindowModified()
    state = doc.encounter.state()
    window.close()
    again = no_prompt(shown(qtbot, MainWindow(QSettings())))
    assert again.open_path(path)
    assert again.doc.encounter.state() == state
    assert str(path.resolve()) in again.recent_files()


def test_a_crash_is_recovered_at_the_next_start(qtbot, tmp_path, monkeypatch):
    from afdesk.gui import app
    from afdesk.gui.dialogs import recovery

    w = no_prompt(shown(qtbot, MainWindow(QSettings())))
    w.rng = random.Random(5)
    w.set_document(fresh_doc())  # never saved: journaled with its base inside
    w.act_deal.trigger()
    play_round(w, qtbot, 9)
    qtbot.keyClick(w, Qt.Key.Key_Space)
    crashed = w.doc.encounter.state()
    # The crash: the window is dropped without saving or closing the document.
    w.doc._journal = None
    w.doc = None
    w.hide()  # out of the way (qtbot closes it at the end, its document already gone)

    asked = []
    monkeypatch.setattr(recovery, "ask", lambda p, parent=None: asked.append(p) or "recover")
    fresh = no_prompt(shown(qtbot, MainWindow(QSettings())))
    app.start(fresh)
    assert asked and asked[0].name == "Ambush at the river ford"
    assert fresh.doc.encounter.state() == crashed
    assert fresh.doc.is_modified() and fresh.isWindowModified()


def test_a_kill_between_save_and_journal_restart_opens_the_saved_file(qtbot, tmp_path, monkeypatch):
    """killed after the file was written but before the journal restarted, the
    next start opens the saved file (which holds every change), not the sample."""
    from afdesk.gui import app
    from afdesk.gui.dialogs import recovery
    from afdesk.storage import save

    w = no_prompt(shown(qtbot, MainWindow(QSettings())))
    path = tmp_path / "ford.afenc"
    w.set_document(fresh_doc())
    assert w._save_to(path)
    w.act_deal.trigger()
    saved = w.doc.encounter.state()
    w.doc.about_to_save(path)
    save(path, saved)  # ... and the process dies before mark_saved restarts the journal
    w.doc._journal = None
    w.doc = None
    w.hide()  # out of the way (qtbot closes it at the end, its document already gone)

    monkeypatch.setattr(recovery, "ask", lambda p, parent=None: pytest.fail("asked"))
    fresh = no_prompt(shown(qtbot, MainWindow(QSettings())))
    app.start(fresh)
    assert fresh.doc.path == path
    assert fresh.doc.encounter.state() == saved
    assert not fresh.doc.is_modified()


def test_a_failed_save_keeps_the_modified_mark(window, qtbot, tmp_path, monkeypatch):
    import os

    doc = fresh_doc()
    window.set_document(doc)
    window.act_deal.trigger()
    assert doc.is_modified()
    target = tmp_path / "readonly" / "ford.afenc"
    target.parent.mkdir()

    def refuse(*_a, **_k):
        raise PermissionError(13, "Permission denied", str(target))

    monkeypatch.setattr(os, "replace", refuse)
    seen = close_next_message_box()
    assert not window._save_to(target)
    assert seen and "Nothing was lost" in seen[0]
    assert doc.is_modified() and window.isWindowModified()
    assert not target.exists()
    assert list(target.parent.iterdir()) == []


def test_opening_a_broken_file_says_what_is_wrong_and_keeps_the_encounter(window, tmp_path):
    doc = fresh_doc()
    window.set_document(doc)
    bad = tmp_path / "bad.afenc"
    bad.write_text('{"format": "afdesk-encounter", "schema_version": 1, "meta": 3}')
    seen = close_next_message_box(QMessageBox.StandardButton.Ok)
    assert not window.open_path(bad)
    assert window.doc is doc
    assert seen and "bad.afenc" in seen[0]


def test_keyboard_only_turn(window, qtbot):
    """Deal, cards, a Defend from the Character menu and next turn, keys only."""
    window.set_document(fresh_doc())
    enc = window.doc.encounter
    qtbot.keyClick(window, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert enc.turn.phase is Phase.CARDS
    qtbot.keyClick(window, Qt.Key.Key_Space)  # Space in the cards phase opens the cards
    dlg = window.dialog
    assert isinstance(dlg, PlayCardsDialog) and dlg.isVisible()
    qtbot.keyClick(dlg, Qt.Key.Key_Return)  # Reveal is the default button
    assert enc.turn.phase is Phase.TURNS
    actor = enc.actor
    window.perform(actor, "action:defend")
    assert enc.combatants[actor].has(StateKind.DEFENDING)
    qtbot.keyClick(window, Qt.Key.Key_Space)
    assert enc.actor != actor


def test_drag_and_drop_a_file_opens_it(window, tmp_path):
    from PySide6.QtCore import QMimeData, QPoint, QUrl
    from PySide6.QtGui import QDropEvent

    from afdesk.storage import save

    path = tmp_path / "dropped.afenc"
    enc = Encounter.from_state(sample.build().state())
    save(path, enc.state())
    window.set_document(fresh_doc())
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(
        QPoint(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)
    assert window.doc.path == path


def test_an_old_document_no_longer_drives_the_panels(window, qtbot):
    first = fresh_doc(journal_factory=lambda d: None)
    window.set_document(first)
    second = fresh_doc(journal_factory=lambda d: None)
    window.set_document(second)
    rows = window.log_panel.view.model().rowCount()
    title = window.windowTitle()
    first.encounter.apply(PlaceCombatant("gao", (1, 1)))  # the old one changes, directly
    first.push(PlaceCombatant("huang", (2, 2)))
    assert window.log_panel.view.model().rowCount() == rows
    assert window.windowTitle() == title and not window.isWindowModified()
    second.push(PlaceCombatant("huang", (2, 2)))
    assert window.log_panel.view.model().rowCount() == rows + 1


@pytest.mark.parametrize("choice", ["overwrite", "reload", ""])
def test_a_file_changed_on_disk_lets_the_gm_choose(window, tmp_path, monkeypatch, choice):
    from afdesk.encounter.ops.meta import Rename
    from afdesk.gui.dialogs import file_changed
    from afdesk.storage import load, save

    path = tmp_path / "ford.afenc"
    save(path, fresh_doc().encounter.state())
    assert window.open_path(path)
    window.act_deal.trigger()
    ours = window.doc.encounter.state()
    other = fresh_doc().encounter
    other.apply(Rename("Edited elsewhere"))
    save(path, other.state())
    asked = []
    monkeypatch.setattr(
        file_changed, "ask_file_changed", lambda w, p, detail: asked.append(detail) or choice
    )
    saved = window.save()
    assert asked and "changed on disk" in asked[0]
    if choice == "overwrite":
        assert saved and load(path).state == ours and not window.doc.is_modified()
        window.act_deal.trigger()  # saving again: the digest of our own save is expected
        assert window.save() and len(asked) == 1
    elif choice == "reload":
        assert saved and window.doc.encounter.state() == other.state()
        assert not window.doc.is_modified()
    else:
        assert not saved and load(path).state == other.state()
        assert window.doc.is_modified() and window.doc.encounter.state() == ours
