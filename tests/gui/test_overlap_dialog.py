"""Leaving an overlap in the check dialog: the one move check, contested by each opponent
there (E14)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.economy import ActionKind
from afdesk.encounter.ops.economy import TakeAction
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.document import EncounterDocument
from afdesk.rules.dice import ScriptedSource
from tests.encounter.conftest import band, foe, make, start_round


def test_E14_each_opponent_in_the_overlap_contests_in_the_dialog(qtbot):
    enc = make(
        band("a", (6, 5), facing=0.0),
        foe("x", (6, 5), facing=0.0),
        foe("y", (6, 5), facing=90.0),
    )
    start_round(enc, ["a", "opponent:Foes"])
    enc.apply(TakeAction("a", ActionKind.MANEUVER))
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    dlg = ContestDialog(doc, "a", CheckKind.LEAVE_OVERLAP, "x")
    qtbot.addWidget(dlg)
    dlg.defense.choose("parry")
    assert not dlg.overlap.isHidden() and "y" in dlg.overlap.rows
    assert not dlg.overlap.rows["y"][1].isEnabled()  # the check is not rolled yet
    dlg.source = ScriptedSource([5, 2])
    qtbot.mouseClick(dlg.dice.roll_attack, Qt.MouseButton.LeftButton)
    dlg.source = ScriptedSource([6, 1, 2])
    qtbot.mouseClick(dlg.dice.roll_defense, Qt.MouseButton.LeftButton)
    dlg.source = ScriptedSource([6, 1, 2])
    dlg.overlap.contest("y", "parry")
    assert [d.defender for d in dlg.flow.also] == ["y"]
    assert "y" not in dlg.overlap.rows  # y contested once
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    assert set(doc.encounter.combatants["a"].economy.exit_to) == {(6, 4), (7, 4), (7, 5)}


def test_other_opponents_in_the_overlap_take_physical_dice(qtbot):
    """the other opponents' contests take typed faces with the same checks."""
    enc = make(
        band("a", (6, 5), facing=0.0),
        foe("x", (6, 5), facing=0.0),
        foe("y", (6, 5), facing=90.0),
    )
    start_round(enc, ["a", "opponent:Foes"])
    enc.apply(TakeAction("a", ActionKind.MANEUVER))
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    dlg = ContestDialog(doc, "a", CheckKind.LEAVE_OVERLAP, "x")
    qtbot.addWidget(dlg)
    dlg.defense.choose("parry")
    dlg.source = ScriptedSource([5, 2])
    dlg.dice.roll_check()
    dlg.source = ScriptedSource([2, 1])
    dlg.dice.roll_opposition()
    assert "opponents' side" in dlg.overlap.faces.box.text()
    dlg.overlap.faces.type_faces("6 1")  # Y's 6 explodes: its extra die is missing
    dlg.overlap.contest("y", "parry")
    assert dlg.flow.also == [] and "this roll needs more" in dlg.reason.text()
    dlg.overlap.faces.type_faces("6 1 2")
    dlg.overlap.contest("y", "parry")
    assert [d.defender for d in dlg.flow.also] == ["y"]
    assert dlg.flow.also[0].roll.check_faces == (6, 1, 2)
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    assert "physical dice (Y's contest)" in doc.encounter.log[-1].text
