"""The Reserves dock and the player view: a held-back group is listed by name,
absent from the players' map, and appears there when the GM brings it in."""

from __future__ import annotations

import random

from PySide6.QtCore import Qt

from afdesk.encounter.ops.reflex import deal_hands
from afdesk.gui.docks.reserves import ReservesPanel
from afdesk.gui.document import EncounterDocument
from afdesk.gui.map.scene import MapScene
from afdesk.storage import samples as sample
from tests.gui.conftest import wait_exposed

GROUP = "the archers on the ridge"


def make_doc() -> EncounterDocument:
    return EncounterDocument(sample.build(), journal_factory=lambda d: None)


def test_hold_back_and_bring_in_through_the_dock(qtbot):
    doc = make_doc()
    panel = ReservesPanel()
    qtbot.addWidget(panel)
    panel.set_document(doc)
    panel.show()
    wait_exposed(qtbot, panel)
    gm, table = MapScene(doc), MapScene(doc, player=True)
    assert "Nobody is held back" in panel.header.text()
    assert not panel.hold_button.isEnabled()  # nothing selected

    doc.select("huang")
    assert not panel.hold_button.isEnabled()
    assert "band member" in panel.hold_button.toolTip()

    for cid in ("archer", "bandit-2"):
        doc.select(cid)
        assert panel.hold_button.isEnabled()
        panel.group_box.setEditText(GROUP)
        qtbot.mouseClick(panel.hold_button, Qt.MouseButton.LeftButton)
    assert panel.groups() == {GROUP: ["Bandit 2", "Bandit Archer"]}
    assert panel.header.text() == "2 held back, unseen by the players:"
    # The GM still sees them where they wait; the table does not.
    assert {"archer", "bandit-2"} <= set(gm.tokens)
    assert "RESERVE" in gm.tokens["archer"].badge_texts()
    assert "archer" not in table.tokens and "bandit-2" not in table.tokens

    hands = deal_hands(doc.encounter, random.Random(1)).hands
    assert all("archer" not in h.members for h in hands)

    panel.tree.setCurrentItem(panel.tree.topLevelItem(0))
    assert panel.bring_button.text() == f"&Bring in {GROUP}"
    qtbot.mouseClick(panel.bring_button, Qt.MouseButton.LeftButton)
    assert panel.groups() == {}
    assert {"archer", "bandit-2"} <= set(table.tokens)
    assert "RESERVE" not in gm.tokens["archer"].badge_texts()
    assert doc.encounter.log[-1].text.startswith(f"Reinforcements: {GROUP} come in")

    doc.undo()
    assert panel.groups() == {GROUP: ["Bandit 2", "Bandit Archer"]}
    assert "archer" not in table.tokens
    gm.detach()
    table.detach()


def test_a_group_is_needed_and_refusals_show_beside_the_dock(qtbot):
    doc = make_doc()
    panel = ReservesPanel()
    qtbot.addWidget(panel)
    panel.set_document(doc)
    doc.select("archer")
    panel.group_box.setEditText("   ")
    assert not panel.hold_selected()
    assert "Name the reserve group" in panel.reason.text()
    assert not panel.bring_in_current()
    assert "Nobody is held back yet" in panel.reason.text()
    assert doc.encounter.log == [] or all("Reserve" not in e.text for e in doc.encounter.log)


def test_the_main_window_has_a_reserves_dock(qtbot):
    from PySide6.QtCore import QSettings

    from afdesk.gui.main_window import MainWindow

    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    doc = make_doc()
    w.set_document(doc)
    assert w.reserves_panel.doc is doc
    doc.select("gao")
    assert w.reserves_panel.hold_selected("the chief's guard")
    assert w.reserves_panel.groups() == {"the chief's guard": ["Bandit Chief Gao"]}


def test_the_dock_shows_the_gm_notes_that_name_the_group(qtbot):
    from afdesk.encounter.model import Encounter
    from afdesk.storage import load
    from afdesk.storage.samples import mill_encounter

    doc = EncounterDocument(
        Encounter.from_state(load(mill_encounter()).state), journal_factory=lambda d: None
    )
    panel = ReservesPanel()
    qtbot.addWidget(panel)
    panel.set_document(doc)
    assert not panel.notes.isVisibleTo(panel)
    panel.tree.setCurrentItem(panel.tree.topLevelItem(0))
    assert panel.notes.text() == (
        "GM notes: Reinforcements: the smugglers' boat comes in from the east when the "
        "miller first loses grit."
    )
    assert panel.notes.isVisibleTo(panel)


def test_bring_in_is_enabled_once_a_group_exists(qtbot):
    """E1, E2: holding one opponent back makes a group, and "Bring in" works at once
    (no need to click the group in the list first); greyed, it says why."""
    doc = make_doc()
    panel = ReservesPanel()
    qtbot.addWidget(panel)
    panel.set_document(doc)
    assert not panel.bring_button.isEnabled()
    assert "Nobody is held back yet" in panel.bring_button.toolTip()
    doc.select("archer")
    panel.group_box.setEditText(GROUP)
    assert panel.hold_selected()
    assert panel.tree.currentItem() is None
    assert panel.bring_button.isEnabled()
    assert panel.bring_button.text() == f"&Bring in {GROUP}"
    assert "Reinforcements" in panel.bring_button.toolTip()
    qtbot.mouseClick(panel.bring_button, Qt.MouseButton.LeftButton)
    assert panel.groups() == {}
    assert doc.encounter.log[-1].text.startswith(f"Reinforcements: {GROUP} come in")
