"""The seed examples (kick, alley, door) played through the check dialog as a GM would, to
their printed outcomes, in both dice-pool rulesets (R4, R8, R9, C2, C3)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from afdesk.encounter.contest.assembly import CheckKind
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.document import EncounterDocument
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource
from tests.encounter import seeds


def _doc(enc):
    return EncounterDocument(enc, journal_factory=lambda d: None)


def _roll(qtbot, dlg, attack, defense=None):
    dlg.source = ScriptedSource(attack)
    qtbot.mouseClick(dlg.dice.roll_attack, Qt.MouseButton.LeftButton)
    if defense is not None:
        assert dlg.dice.roll_defense.isEnabled()
        dlg.source = ScriptedSource(defense)
        qtbot.mouseClick(dlg.dice.roll_defense, Qt.MouseButton.LeftButton)


@pytest.mark.parametrize("ruleset", seeds.DICE_RULESETS)
def test_R9_C2_the_kick_in_the_dialog(ruleset, qtbot):
    doc = _doc(seeds.kick(ruleset))
    dlg = ContestDialog(doc, "huang", CheckKind.HACK, "chen")
    qtbot.addWidget(dlg)
    dlg.defense.choose("dodge")
    dlg.momentum.hits.setValue(2)
    _roll(qtbot, dlg, seeds.KICK_ATTACK, seeds.KICK_DODGE)
    text = dlg.dice.verdict_text()
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    chen = doc.encounter.combatants["chen"]
    if ruleset == "af-2.5.4":
        assert "6 beats 5, stopped" in text and chen.hits == 0
    else:
        assert "lands" in text or "stands" in text
        assert chen.hits == 2


@pytest.mark.parametrize("ruleset", seeds.DICE_RULESETS)
def test_R8_R4_the_alley_in_the_dialog_a_venture_on_the_guard(ruleset, qtbot):
    doc = _doc(seeds.alley(ruleset))
    dlg = ContestDialog(doc, "thug", CheckKind.HACK, "huang")
    qtbot.addWidget(dlg)
    dlg.defense.choose("dodge")
    assert dlg.defense_options.ventures.isEnabled()
    dlg.defense_options.set_ventures(1)
    assert dlg.flow.defense_ventures == 1
    per = 2 if ruleset == "af-2.5.4" else 1
    assert f"<b>{per}</b> Interference" in dlg.defense_options.pool_text()
    _roll(qtbot, dlg, seeds.ALLEY_PUNCH, seeds.ALLEY_GUARD[ruleset])
    assert "stopped" in dlg.dice.verdict_text()
    assert not dlg.defense_options.ventures.isEnabled()  # the defense is rolled
    assert dlg.flow.momentum_left(Role.DEFENDER) == 1
    if ruleset == "af-2.5.4":
        dlg.momentum.spend(Role.DEFENDER, 0, "huang")  # +2 on her next check
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    huang = doc.encounter.combatants["huang"]
    assert huang.hits == 0
    if ruleset == "af-2.5.4":
        assert [m.dice for m in huang.momentum] == [2]


@pytest.mark.parametrize("ruleset", seeds.DICE_RULESETS)
def test_R4_C1_the_door_in_the_dialog(ruleset, qtbot):
    doc = _doc(seeds.door(ruleset))
    dlg = ContestDialog(doc, "huang", CheckKind.CHECK)
    qtbot.addWidget(dlg)
    dlg.facet_box.setCurrentIndex(dlg.facet_box.findData("move"))
    dlg.modifiers.add_gm("The door falls fast", -1)
    assert dlg.flow.attack_pools() == (3, 1)
    _roll(qtbot, dlg, seeds.DOOR)
    assert "5, succeeds" in dlg.dice.verdict_text()
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    assert "succeeds" in doc.encounter.log[-1].text


def test_R1_a_gm_modifier_and_advantage_on_the_defense_in_the_dialog(qtbot):
    doc = _doc(seeds.alley("af-2.5.4"))
    dlg = ContestDialog(doc, "thug", CheckKind.HACK, "huang")
    qtbot.addWidget(dlg)
    dlg.defense.choose("dodge")
    dlg.defense_options.add_gm("Wet cobbles", -1)
    dlg.defense_options.advantage.setChecked(True)
    assert dlg.flow.defense_pools() == (4, 1) and dlg.flow.defense_advantage
    assert "Wet cobbles" in " ".join(
        b.text() for b in dlg.defense.mod_box.findChildren(type(dlg.defense_options.advantage))
    )
    _roll(qtbot, dlg, seeds.ALLEY_PUNCH, [1, 2, 4, 5, 6, 1, 2])
    assert dlg.flow.defense_roll.advantage
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    assert any(m.gm for m in doc.encounter.log[-1].op.record.defenses[0].modifiers)
