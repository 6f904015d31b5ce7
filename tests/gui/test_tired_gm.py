"""Small things a tired GM trips on: a greyed Persevere says why (E15); a character added
to an encounter faces the other side by default (E11)."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QSettings

from afdesk.encounter.combatant import Combatant, Side
from afdesk.encounter.facing import default_facing
from afdesk.encounter.geometry import facing_towards
from afdesk.encounter.ops.flow import EndEncounter
from afdesk.encounter.ops.reflex import deal_hands
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.gui.dialogs.persevere import PersevereDialog
from afdesk.gui.document import EncounterDocument
from afdesk.storage import samples
from tests.encounter.conftest import band, foe, make


def test_E15_a_greyed_persevere_says_why_in_its_tooltip(qtbot):
    doc = EncounterDocument(samples.build(), journal_factory=lambda d: None)
    dlg = PersevereDialog(doc)
    qtbot.addWidget(dlg)
    assert not dlg.roll_button.isEnabled()
    assert dlg.roll_button.toolTip() == "Persevere comes when the encounter is over (E15)."
    assert not dlg.apply_button.isEnabled() and "Roll" in dlg.apply_button.toolTip()
    assert not doc.push(deal_hands(doc.encounter, random.Random(1)))
    assert not doc.push(EndEncounter())  # over in its first exchange
    dlg2 = PersevereDialog(doc)
    qtbot.addWidget(dlg2)
    tip = dlg2.roll_button.toolTip()
    assert not dlg2.roll_button.isEnabled()
    assert tip.startswith("The encounter lasted") and "(E15)." in tip


def test_E11_an_added_character_faces_the_centre_of_the_other_side():
    enc = make(band("a", (2, 2)), foe("x", (8, 2)), foe("y", (8, 6)))
    newcomer = Combatant("b", name="B", side=Side.BAND, area=(2, 4))
    enc.apply(AddCombatant(newcomer, face_others=True))
    # the opponents' centre is (8.5, 4.5) from (2.5, 4.5): due east
    assert enc.combatants["b"].facing == pytest.approx(90.0)
    raider = Combatant("z", name="Z", side=Side.OPPONENT, area=(8, 4))
    enc.apply(AddCombatant(raider, face_others=True))
    assert enc.combatants["z"].facing == pytest.approx(
        facing_towards((8.5, 4.5), (2.5, 3.5))  # the band's centre: a and b
    )
    # an Op from an older file (no face_others) keeps the character's own facing
    old = Combatant("c", name="C", side=Side.BAND, area=(3, 3), facing=180.0)
    enc.apply(AddCombatant(old))
    assert enc.combatants["c"].facing == 180.0


def test_E11_with_nobody_opposite_it_faces_the_zone_centre():
    enc = make(band("a", (0, 0)))
    c0, r0, c1, r1 = enc.zone.area_bounds()
    mid = ((c0 + c1 + 1) / 2, (r0 + r1 + 1) / 2)
    newcomer = Combatant("b", name="B", side=Side.BAND, area=(1, 1))
    assert default_facing(enc, newcomer) == pytest.approx(facing_towards((1.5, 1.5), mid))
    off_map = Combatant("d", name="D", side=Side.BAND, facing=45.0)
    assert default_facing(enc, off_map) == 45.0


def test_E11_the_add_character_dialog_faces_the_other_side(qtbot):
    from afdesk.gui.dialogs.character import CharacterDialog
    from afdesk.gui.main_window import MainWindow

    doc = EncounterDocument(samples.build(), journal_factory=lambda d: None)
    w = MainWindow(QSettings())
    qtbot.addWidget(w)
    w.maybe_save = lambda: True
    w.set_document(doc)
    doc.select("huang")
    dlg = CharacterDialog(doc, None, w)
    dlg.name.setText("Lookout")
    dlg.buttons.button(dlg.buttons.StandardButton.Ok).click()
    enc = doc.encounter
    added = next(c for c in enc.roster() if c.name == "Lookout")
    assert added.side is Side.BAND and added.area is not None
    assert added.facing == pytest.approx(default_facing(enc, added.replace(facing=0.0)))
    foes = [c.area for c in enc.roster() if c.side is Side.OPPONENT and c.on_map]
    centre = (
        sum(a[0] + 0.5 for a in foes) / len(foes),
        sum(a[1] + 0.5 for a in foes) / len(foes),
    )
    here = (added.area[0] + 0.5, added.area[1] + 0.5)
    assert added.facing == pytest.approx(facing_towards(here, centre))
