"""The contested-check dialog driven like a GM would: modifiers, defense, odds, dice,
Shifts, Momentum, Apply."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.economy import SnapKind
from afdesk.encounter.ops.economy import UseSnap
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import SetRuleset
from afdesk.encounter.ops.roster import PlaceCombatant
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.document import EncounterDocument
from afdesk.rules.dice import ScriptedSource
from tests.gui.odds_wait import settled_odds


@pytest.fixture
def duel(playing_doc):
    """Huang's turn, Gao one area north of her, facing north: she is behind his flank."""
    doc = playing_doc
    enc = doc.encounter
    enc.apply(PlaceCombatant("gao", (7, 10), 0))
    while enc.actor != "huang":
        enc.apply(NextTurn())
    return EncounterDocument(enc, journal_factory=lambda d: None)


def test_dodge_from_behind_the_flank_and_no_parry(duel, qtbot):
    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    button = dlg.defense.button("dodge")
    assert button.isEnabled() and "-2 Behind the flank (E8)" in button.text()
    parry = dlg.defense.button("parry")
    assert not parry.isEnabled() and "no parry (E8)" in dlg.defense.why(parry)
    assert "behind" in dlg.reason.text()


def test_odds_update_on_every_change(duel, qtbot):
    duel.encounter.apply(UseSnap("huang", SnapKind.PREPARE))
    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    before = settled_odds(qtbot, dlg)
    assert "Succeeds" in before and "%" in before
    assert any("Prepared" in row for row in dlg.modifiers.rows())
    dlg.modifiers.box_for("Prepared").setChecked(False)
    assert settled_odds(qtbot, dlg) != before
    assert dlg.flow.attack_pools() == (3, 0)
    dlg.modifiers.add_gm("Mud", -1)
    assert dlg.flow.attack_pools() == (3, 1)
    assert "1</b> Interference" in dlg.options.pool_text()
    assert any("Mud" in row for row in dlg.modifiers.rows())


def test_roll_defend_shift_and_apply_is_one_op(duel, qtbot):
    doc = duel
    dlg = ContestDialog(doc, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    dlg.defense.choose("dodge")
    dlg.source = ScriptedSource([5, 4, 2])
    qtbot.mouseClick(dlg.dice.roll_attack, Qt.MouseButton.LeftButton)
    assert dlg.dice.attack_dice.roll() is not None and "5" in dlg.dice.attack_text.text()
    assert dlg.dice.roll_defense.isEnabled()
    # Gao: move 3 dice, 2 Interference (behind his flank): 6 (exploding into a 2), 1, 2 and
    # Interference 1, 3.
    dlg.source = ScriptedSource([6, 2, 1, 2, 1, 3])
    qtbot.mouseClick(dlg.dice.roll_defense, Qt.MouseButton.LeftButton)
    assert "stopped" in dlg.dice.verdict_text()
    add = dlg.shifts.button_for("add")
    settled_odds(qtbot, dlg)
    assert dlg.shifts.box.isEnabled() and "lands" in add.text()
    dlg.source = ScriptedSource([6, 6])
    qtbot.mouseClick(add, Qt.MouseButton.LeftButton)
    assert "stands" in dlg.dice.verdict_text()
    dlg.momentum.hits.setValue(2)  # the damage: a 0-hit landing would ask first
    n = doc.undo_stack.count()
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    assert doc.undo_stack.count() == n + 1
    enc = doc.encounter
    assert enc.combatants["huang"].shifts == 2
    assert enc.combatants["gao"].economy.guards == 0
    assert "Gao dodges" in enc.log[-1].text


def test_screen_offers_a_defense(duel, qtbot):
    from afdesk.encounter.ops.economy import Screen

    doc = duel
    doc.push(Screen("gao"))
    dlg = ContestDialog(doc, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    assert dlg.defense.button("dodge", "defense").isEnabled()


def test_apply_refused_keeps_the_dialog_open_with_the_reason(duel, qtbot):
    from afdesk.encounter.economy import ActionKind
    from afdesk.encounter.ops.economy import TakeAction

    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    dlg.source = ScriptedSource([5, 4, 2])
    dlg.dice.roll_check()
    dlg.momentum.hits.setValue(1)
    duel.push(TakeAction("huang", ActionKind.DEFEND))  # the action goes elsewhere meanwhile
    dlg.apply_button.click()
    assert "already used the action" in dlg.reason.text()
    assert dlg.result() == 0


def test_d20_shows_degree_and_riders(duel, qtbot):
    duel.encounter.apply(SetRuleset("d20-degrees"))
    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    odds = settled_odds(qtbot, dlg)
    assert "Success" in odds or "Triumph" in odds
    dlg.source = ScriptedSource([20])
    dlg.dice.roll_check()
    text = dlg.dice.attack_text.text()
    assert "Triumph" in text and "Rider" in text
    assert not dlg.shifts.box.isEnabled() and "TN and F" in dlg.defense.note()


def test_plain_check_without_opposition(duel, qtbot):
    dlg = ContestDialog(duel, "huang", CheckKind.CHECK)
    qtbot.addWidget(dlg)
    assert "No opposition" in dlg.defense.note()
    dlg.source = ScriptedSource([5, 5, 1])
    dlg.dice.roll_check()
    assert "succeeds" in dlg.dice.verdict_text()
    dlg.apply_button.click()
    assert "checks" in duel.encounter.log[-1].text


def test_hide_places_decoys(duel, qtbot):
    dlg = ContestDialog(duel, "huang", CheckKind.HIDE)
    qtbot.addWidget(dlg)
    assert len(dlg.extras.decoy_boxes) == 2
    dlg.extras.decoy_boxes[1].setCurrentIndex(3)
    dlg.source = ScriptedSource([5, 4, 1])
    dlg.dice.roll_check()
    dlg.apply_button.click()
    huang = duel.encounter.combatants["huang"]
    assert huang.has(StateKind.HIDDEN) and len(huang.decoys) == 2
