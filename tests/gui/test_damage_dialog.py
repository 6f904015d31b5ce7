"""In the check dialog: the attacker chooses an attack from its sheet, its reach
and range feed the checks (E12), its damage and Momentum's make the hits (E6, R12), and a
0-hit landing asks first."""

from __future__ import annotations

import msgspec
import pytest
from PySide6.QtCore import Qt

from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.roster import EditCombatant, PlaceCombatant
from afdesk.encounter.weapons import Attack
from afdesk.gui.dialogs.character import CharacterDialog
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.document import EncounterDocument
from afdesk.rules.contest import Role
from afdesk.rules.dice import ScriptedSource

ATTACKS = (Attack("knife", damage=1), Attack("spear", damage=2, reach=2))


@pytest.fixture
def armed(playing_doc):
    """Huang's turn with a knife and a spear; Gao two areas north of her, facing south."""
    enc = playing_doc.encounter
    huang = enc.combatant("huang")
    enc.apply(EditCombatant(msgspec.structs.replace(huang, attacks=ATTACKS)))
    area = huang.area
    enc.apply(PlaceCombatant("gao", (area[0], area[1] - 2), 180))
    enc.apply(PlaceCombatant("huang", area, 0))
    while enc.actor != "huang":
        enc.apply(NextTurn())
    return EncounterDocument(enc, journal_factory=lambda d: None)


def test_the_chosen_attack_decides_reach_and_damage(armed, qtbot):
    dlg = ContestDialog(armed, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    assert dlg.weapon_box.isEnabled() and dlg.weapon_box.weapon() == "knife"
    assert "reach" in dlg.reason.text() and "with the knife is 1 (E12)" in dlg.reason.text()
    assert dlg.flow is None
    dlg.weapon_box.choose("spear")
    assert dlg.flow is not None and dlg.flow.plan.weapon == "spear"
    assert dlg.momentum.hits.value() == 2  # the spear's damage, not 0
    assert "2 hits" in dlg.momentum.damage_text.text()
    dlg.source = ScriptedSource([5, 4, 4, 1, 1, 1])  # two Wins beside the 5: 1 Momentum (R7)
    dlg.dice.roll_check()
    assert not dlg.weapon_box.isEnabled()  # the attack is chosen before the roll
    dlg.momentum.spend(Role.ATTACKER, 2)  # +1 damage (R12)
    assert "3 hits" in dlg.momentum.damage_text.text() and "Momentum +1 (R12)" in (
        dlg.momentum.damage_text.text()
    )
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    enc = armed.encounter
    assert enc.combatant("gao").hits == 3
    assert "with the spear" in enc.log[-1].text and "takes 3 hits" in enc.log[-1].text


def test_a_landed_attack_for_zero_hits_asks_first(armed, qtbot):
    enc = armed.encounter
    dlg = ContestDialog(armed, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    dlg.weapon_box.choose("spear")
    dlg.momentum.hits.setValue(0)
    dlg.source = ScriptedSource([5, 1, 1])
    dlg.dice.roll_check()
    n = armed.undo_stack.count()
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    assert armed.undo_stack.count() == n  # asked, not applied
    assert "would take 0 hits" in dlg.reason.text()
    assert "0 hits" in dlg.apply_button.text()
    dlg.momentum.hits.setValue(1)  # the GM changes the damage: the question is gone
    assert "0 hits" not in dlg.apply_button.text()
    dlg.momentum.hits.setValue(0)
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    assert armed.undo_stack.count() == n
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)  # yes, with 0 hits
    assert armed.undo_stack.count() == n + 1
    assert enc.combatant("gao").hits == 0 and "takes 0 hits" in enc.log[-1].text


def test_physical_dice_are_typed_validated_and_logged(armed, qtbot):
    dlg = ContestDialog(armed, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    dlg.weapon_box.choose("spear")
    entry = dlg.dice.attack_faces
    entry.box.setChecked(True)  # the players' side rolls this check at the table
    assert entry.physical() and "players' side" in entry.box.text()
    assert not dlg.dice.defense_faces.physical()  # the opponents' side: afdesk rolls
    dice, intf = dlg.flow.attack_pools()
    faces = [6, 3] + [5] * (dice - 1) + [1] * intf  # the 6 explodes into a 3 (R2)
    entry.type_faces(" ".join(map(str, faces[:-1])))
    qtbot.mouseClick(dlg.dice.roll_attack, Qt.MouseButton.LeftButton)
    assert not dlg.flow.rolled
    assert "this roll needs more" in dlg.reason.text() and "6's extra die" in dlg.reason.text()
    entry.type_faces(" ".join(map(str, [*faces, 4])))
    qtbot.mouseClick(dlg.dice.roll_attack, Qt.MouseButton.LeftButton)
    assert not dlg.flow.rolled and "remove the 1 extra" in dlg.reason.text()
    entry.type_faces("6 three")
    qtbot.mouseClick(dlg.dice.roll_attack, Qt.MouseButton.LeftButton)
    assert not dlg.flow.rolled and "('three') is not a number" in dlg.reason.text()
    entry.type_faces(" ".join(map(str, faces)))
    qtbot.mouseClick(dlg.dice.roll_attack, Qt.MouseButton.LeftButton)
    assert dlg.flow.rolled and dlg.flow.attack.check_faces == tuple(faces[: dice + 1])
    qtbot.mouseClick(dlg.apply_button, Qt.MouseButton.LeftButton)
    assert "physical dice (attack)" in armed.encounter.log[-1].text


def test_R1_R2_the_physical_dice_tick_belongs_to_one_check(armed, qtbot):
    """A tick for the opponents' dice in one check does not carry into the next, unrelated
    check: it opens with afdesk rolling and rolls without typed faces."""
    dlg = ContestDialog(armed, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    dlg.weapon_box.choose("spear")
    assert "opponents' side" in dlg.dice.defense_faces.box.text()
    assert not dlg.dice.attack_faces.physical() and not dlg.dice.defense_faces.physical()
    dlg.dice.defense_faces.box.setChecked(True)  # the GM rolls the opponents' dice
    dlg.dice.attack_faces.box.setChecked(True)
    assert dlg.dice.attack_faces.faces_edit.isEnabled()
    dlg.weapon_box.choose("spear")  # a new plan within the same check keeps the ticks
    assert dlg.dice.defense_faces.physical() and dlg.dice.attack_faces.physical()
    dlg.reject()
    again = ContestDialog(armed, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(again)
    again.weapon_box.choose("spear")
    assert not again.dice.defense_faces.physical() and not again.dice.attack_faces.physical()
    assert not again.dice.attack_faces.faces_edit.isEnabled()
    qtbot.mouseClick(again.dice.roll_attack, Qt.MouseButton.LeftButton)
    assert again.flow.rolled and "faces typed" not in again.reason.text()


def test_a_refusal_of_typed_faces_goes_once_the_dice_are_right(armed, qtbot):
    dlg = ContestDialog(armed, "huang", CheckKind.HACK, "gao")
    qtbot.addWidget(dlg)
    dlg.weapon_box.choose("spear")
    dice, intf = dlg.flow.attack_pools()
    dlg.dice.attack_faces.type_faces("4")
    dlg.dice.roll_check()
    assert "needs more" in dlg.reason.text()
    dlg.dice.attack_faces.type_faces(" ".join(["4"] * (dice + intf)))
    dlg.dice.roll_check()
    assert dlg.flow.rolled and "needs more" not in dlg.reason.text()


def test_the_character_form_edits_attacks(armed, qtbot):
    dlg = CharacterDialog(armed, "huang")
    qtbot.addWidget(dlg)
    assert dlg.attacks.toPlainText() == "knife, 1, 1, 0\nspear, 2, 2, 0"
    dlg.attacks.setPlainText("knife, 1\nbow, two, 1, 5")
    dlg.buttons.accepted.emit()
    assert "Attack line 2: the damage 'two' is not a whole number." in dlg.error.text()
    assert armed.encounter.combatant("huang").attacks == ATTACKS  # nothing lost
    dlg.attacks.setPlainText("knife, 1\nbow, 2, 1, 5")
    dlg.buttons.accepted.emit()
    assert armed.encounter.combatant("huang").attacks == (
        Attack("knife", 1),
        Attack("bow", 2, range=5),
    )


def test_persevere_takes_physical_dice_too(qtbot):
    import random

    from afdesk.encounter import persevere
    from afdesk.encounter.ops.flow import EndEncounter, NextTurn
    from afdesk.encounter.ops.reflex import deal_hands, play_cards
    from afdesk.encounter.state import Phase
    from afdesk.gui.dialogs.persevere import PersevereDialog
    from afdesk.rules.dice import pool_sizes
    from afdesk.storage import samples

    enc = samples.build()
    rng = random.Random(5)
    for _ in range(2):
        enc.apply(deal_hands(enc, rng))
        while enc.turn.phase is not Phase.EXCHANGE_END:
            if enc.turn.phase is Phase.CARDS:
                enc.apply(play_cards(enc, rng=rng))
            else:
                enc.apply(NextTurn())
    enc.apply(EndEncounter())
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    dlg = PersevereDialog(doc)
    qtbot.addWidget(dlg)
    needed = 0
    for check in persevere.plan(enc):
        dice, intf = pool_sizes(
            enc.combatant(check.id).facet("strength"), [m.dice for m in check.modifiers]
        )
        needed += dice + intf
    dlg.faces.type_faces(" ".join(["5"] * (needed - 1)))
    dlg.roll()
    assert dlg.op is None and "needs more" in dlg.error.text()
    dlg.faces.type_faces(" ".join(["5"] * (needed + 1)))
    dlg.roll()
    assert dlg.op is None and "remove the 1 extra" in dlg.error.text()
    dlg.faces.type_faces(" ".join(["5"] * needed))
    dlg.roll()
    assert dlg.op is not None and dlg.op.physical
    dlg.apply()
    assert doc.encounter.log[-1].text.endswith("— physical dice")


def test_a_duplicate_keeps_the_attacks(armed, qtbot):
    dlg = CharacterDialog(armed, None, template=armed.encounter.combatant("huang"))
    qtbot.addWidget(dlg)
    dlg.buttons.accepted.emit()
    copy = next(c for c in armed.encounter.roster() if c.name.startswith("Green-Jade Huang "))
    assert copy.attacks == ATTACKS and copy.hits == 0 and copy.harm_call == 0
