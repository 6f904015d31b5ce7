"""The Character dock's Guard toggle (afdesk/gui/docks/combatant.py, the ToggleGuard
command): a GM override of the guard (E4). A click takes one guard away, or gives one
back when none is left; every click is one undo step in the log, and the toggle shows
what the model holds (checked while a guard is left, the count when there are two)."""

from __future__ import annotations

import msgspec
from PySide6.QtCore import Qt

from afdesk.encounter.ops.economy import SetEconomy
from afdesk.gui.context import CommandContext
from afdesk.gui.docks.combatant import CombatantPanel


def _guards(doc, cid: str) -> int:
    return doc.encounter.combatants[cid].economy.guards


def _panel_on(doc, qtbot, cid: str) -> CombatantPanel:
    ctx = CommandContext()
    ctx.doc = doc  # as the window does for its docks
    panel = CombatantPanel(ctx)
    qtbot.addWidget(panel)
    panel.set_document(doc)
    doc.select(cid)
    return panel


def _click(qtbot, panel: CombatantPanel) -> None:
    qtbot.mouseClick(panel.guard, Qt.MouseButton.LeftButton)


def test_a_single_guard_is_used_and_given_back(doc, qtbot):
    cid = "huang"
    assert _guards(doc, cid) == 1  # the sample: one guard per turn cycle (E4)
    panel = _panel_on(doc, qtbot, cid)
    assert panel.guard.isEnabled() and panel.guard.isChecked()
    assert panel.guard.text() == "Guard"
    steps = doc.undo_stack.count()
    others = {k: c.economy for k, c in doc.encounter.combatants.items() if k != cid}

    _click(qtbot, panel)  # the one guard used
    assert _guards(doc, cid) == 0
    assert not panel.guard.isChecked() and panel.guard.text() == "Guard"
    assert panel.refusal.text() == ""
    assert doc.undo_stack.count() == steps + 1
    assert "turn economy: guards 0" in doc.encounter.log[-1].text

    _click(qtbot, panel)  # toggled back: the guard is there again
    assert _guards(doc, cid) == 1
    assert panel.guard.isChecked() and panel.guard.text() == "Guard"
    assert doc.undo_stack.count() == steps + 2
    assert "guards 1" in doc.encounter.log[-1].text
    # Only the guard changed, and only this character's.
    assert {k: c.economy for k, c in doc.encounter.combatants.items() if k != cid} == others

    doc.undo_stack.undo()  # undo gives the state after the first click
    assert _guards(doc, cid) == 0 and not panel.guard.isChecked()
    doc.undo_stack.undo()
    assert _guards(doc, cid) == 1 and panel.guard.isChecked()


def test_with_two_guards_a_click_takes_one_and_the_toggle_stays_on(doc, qtbot):
    cid = "gao"
    e = doc.encounter.combatants[cid].economy
    assert doc.push(SetEconomy(cid, msgspec.structs.replace(e, guards=2))) == ""
    panel = _panel_on(doc, qtbot, cid)
    assert panel.guard.isChecked() and panel.guard.text() == "Guard ×2"
    _click(qtbot, panel)
    assert _guards(doc, cid) == 1
    assert panel.guard.isChecked() and panel.guard.text() == "Guard"
    _click(qtbot, panel)
    assert _guards(doc, cid) == 0 and not panel.guard.isChecked()
    _click(qtbot, panel)
    assert _guards(doc, cid) == 1 and panel.guard.isChecked()  # one back, not the two


def test_the_toggle_follows_a_guard_used_elsewhere(doc, qtbot):
    cid = "chen"
    panel = _panel_on(doc, qtbot, cid)
    e = doc.encounter.combatants[cid].economy
    doc.push(SetEconomy(cid, msgspec.structs.replace(e, guards=0)))
    assert not panel.guard.isChecked()
    doc.undo_stack.undo()
    assert panel.guard.isChecked()
