"""The dialogs a GM found broken, and the contest dialog's guard rails."""

from __future__ import annotations

import pytest

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.roster import PlaceCombatant
from afdesk.gui.dialogs.character import AddStateDialog, MomentumDialog
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.document import EncounterDocument
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource


@pytest.fixture
def duel(playing_doc):
    doc = playing_doc
    enc = doc.encounter
    enc.apply(PlaceCombatant("gao", (7, 10), 180))
    while enc.actor != "huang":
        enc.apply(NextTurn())
    return EncounterDocument(enc, journal_factory=lambda d: None)


def test_add_state_dialog_adds_the_state(duel, qtbot):
    dlg = AddStateDialog(duel, "bao")
    qtbot.addWidget(dlg)
    dlg.kind.setCurrentIndex(dlg.kind.findText("Bleeding"))
    dlg.markers.setValue(2)
    dlg.buttons.accepted.emit()
    st = duel.encounter.combatants["bao"].state(StateKind.BLEEDING)
    assert st is not None and st.markers == 2
    assert dlg.result() == dlg.DialogCode.Accepted
    assert duel.undo_stack.undoText() == "Bleeding on Brother Bao"


def test_momentum_dialog_adds_a_marker(duel, qtbot):
    dlg = MomentumDialog(duel, "chen")
    qtbot.addWidget(dlg)
    dlg.value.setCurrentIndex(1)
    dlg.buttons.accepted.emit()
    assert duel.encounter.combatants["chen"].momentum[0].dice == -2


def test_spending_momentum_on_both_sides_then_apply(duel, qtbot):
    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    dlg.defense.choose("dodge")
    dlg.source = ScriptedSource([5, 4, 4, 2])  # 5 with two 4s: 1 Momentum
    dlg.dice.roll_check()
    dlg.source = ScriptedSource([5, 5, 2])  # Gao's dodge: 5x2 with nothing else: 0
    dlg.dice.roll_opposition()
    assert "Momentum left: attacker 1, defender 0" in dlg.momentum.summary()
    dlg.momentum.spend(Role.ATTACKER, 2)  # +1 damage
    assert "attacker 0" in dlg.momentum.summary() and "+1 damage" in dlg.momentum.summary()
    assert not dlg.momentum.can_spend()  # nothing left to spend
    dlg.apply_button.click()
    assert dlg.result() == dlg.DialogCode.Accepted


def test_the_dialog_refuses_before_rolling_what_apply_would_refuse(duel, qtbot):
    dlg = ContestDialog(duel, "gao", CheckKind.HACK, "huang")  # not Gao's turn
    qtbot.addWidget(dlg)
    assert not dlg.dice.roll_attack.isEnabled()
    assert "Huang's turn" in dlg.reason.text()
    dlg.action_box.setCurrentIndex(dlg.action_box.findData("check"))
    assert dlg.dice.roll_attack.isEnabled()  # a plain check is anyone's


def test_venture_limit_in_the_dialog_follows_the_rules(duel, qtbot):
    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    assert dlg.options.ventures.maximum() == 3
    dlg.options.set_ventures(3)
    assert "6</b> Interference" in dlg.options.pool_text()


def test_an_error_does_not_leave_the_old_plan_on_screen(duel, qtbot):
    dlg = ContestDialog(duel, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    dlg.action_box.setCurrentIndex(dlg.action_box.findData("look"))  # nobody is hidden
    assert dlg.plan is None and dlg.flow is None
    assert dlg.modifiers.rows() == ["None apply."]


def test_hustle_from_the_dialog(duel, qtbot):
    dlg = ContestDialog(duel, "huang", CheckKind.HUSTLE)
    qtbot.addWidget(dlg)
    dlg.source = ScriptedSource([5, 1, 1, 1])
    dlg.dice.roll_check()
    dlg.apply_button.click()
    assert duel.encounter.combatants["huang"].economy.movement > 0


def test_the_docks_attack_button_follows_the_model(duel, qtbot):
    from afdesk.encounter.economy import ActionKind
    from afdesk.encounter.ops.economy import TakeAction
    from afdesk.gui.docks.combatant import CombatantPanel

    panel = CombatantPanel()
    qtbot.addWidget(panel)
    panel.set_document(duel)
    duel.select("huang")  # her turn, action ready
    assert panel.attack_button.isEnabled()
    duel.select("gao")
    assert not panel.attack_button.isEnabled()
    assert "Huang's turn" in panel.attack_button.toolTip()
    duel.select("huang")
    duel.push(TakeAction("huang", ActionKind.DEFEND))
    assert not panel.attack_button.isEnabled()
    assert "already used the action" in panel.attack_button.toolTip()
