"""Shifts of the other opponents contesting a move check, in the check dialog's Shifts
panel (E14, R10)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.economy import ActionKind
from afdesk.encounter.ops.economy import TakeAction
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.document import EncounterDocument
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource
from tests.encounter.conftest import band, foe, make, start_round
from tests.gui.odds_wait import settled_odds


def test_R10_E14_the_shifts_panel_spends_on_another_opponents_roll(qtbot):
    """x's parry and y's dodge both fail to stop a's 5; the defender side picks y's roll
    in the Shifts panel, sees the odds of adding two dice, adds them (from the referee's
    pool): y's 6 stops the move check, and only a step in front of y stays open."""
    enc = make(
        band("a", (6, 5), facing=0.0),
        foe("x", (6, 5), facing=0.0),
        foe("y", (6, 5), facing=90.0),
    )
    start_round(enc, ["a", "opponent:Foes"])
    enc.apply(TakeAction("a", ActionKind.MANEUVER))
    shifts_before = enc.meta.referee_shifts
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    dlg = ContestDialog(doc, "a", CheckKind.LEAVE_OVERLAP, "x")
    qtbot.addWidget(dlg)
    dlg.defense.choose("parry")
    dlg.source = ScriptedSource([5, 2])
    qtbot.mouseClick(dlg.dice.roll_attack, Qt.MouseButton.LeftButton)
    dlg.source = ScriptedSource([4, 1, 1])
    qtbot.mouseClick(dlg.dice.roll_defense, Qt.MouseButton.LeftButton)
    assert dlg.shifts.roll_choice.isHidden()  # one defender roll: nothing to choose
    dlg.source = ScriptedSource([4, 1])
    dlg.overlap.contest("y", "dodge")
    panel = dlg.shifts
    assert dlg.flow.shift_exchange.turn is Role.DEFENDER
    assert not panel.roll_choice.isHidden()
    labels = [panel.roll_choice.itemText(i) for i in range(panel.roll_choice.count())]
    assert labels == ["X: Parry", "Y: Dodge"]
    panel.choose_roll("y")
    assert panel.chosen_defense() == 1
    assert "<b>Y</b>" in panel.turn.text() and "referee's pool" in panel.turn.text()
    settled_odds(qtbot, dlg)
    add = panel.button_for("add")
    assert add.isEnabled() and "stopped 33" in add.text(), add.text()  # 12/36
    dlg.source = ScriptedSource([6, 1])
    qtbot.mouseClick(add, Qt.MouseButton.LeftButton)
    assert dlg.flow.also[0].roll.check_faces.count(6) == 1
    assert dlg.flow.verdict_now().stopped
    assert dlg.flow.spends[-1].payer == "referee"
    settled_odds(qtbot, dlg)
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    assert doc.encounter.meta.referee_shifts == shifts_before - 1
    exits = set(doc.encounter.combatants["a"].economy.exit_to)
    assert exits == {(6, 4), (6, 6), (7, 4), (7, 5), (7, 6)}
