"""The players' view: read-only, live, and never showing what only the GM may see."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMainWindow

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import AddState, PlaceCombatant, RemoveState, SetDecoys
from afdesk.gui import mapgeom
from afdesk.gui.document import EncounterDocument
from afdesk.gui.map.scene import MapScene
from afdesk.gui.map.tokens import DecoyItem, TokenItem
from afdesk.gui.map.view import MapView
from afdesk.gui.player_view import PlayerWindow
from afdesk.gui.screens import screen_of
from afdesk.storage import samples as sample

TRUE_PLACE = (12, 0)
DECOYS = ((11, 0), (12, 1))


@pytest.fixture
def hidden_doc(qapp):
    """The sample with the archer hidden on the crest, two decoys beside him, in turns."""
    enc = sample.build()
    enc.apply(AddState("archer", StateKind.HIDDEN))
    enc.apply(SetDecoys("archer", DECOYS))
    enc.apply(deal_hands(enc, random.Random(1)))
    enc.apply(play_cards(enc, rng=random.Random(2)))
    return EncounterDocument(enc, journal_factory=lambda d: None)


def archer_items(scene):
    return [i for i in scene.items() if getattr(i, "cid", "") == "archer"]


def assert_no_true_place(scene):
    """No item stands for the archer's true place: only decoys, and none of them there."""
    items = archer_items(scene)
    assert items and all(isinstance(i, DecoyItem) for i in items)
    assert sorted(i.area for i in items) == sorted(DECOYS)
    assert "archer" not in scene.tokens
    centre = QPointF(*mapgeom.area_centre(TRUE_PLACE))
    assert not [i for i in scene.items(centre) if isinstance(i, (TokenItem, DecoyItem))]


def test_player_view_never_has_an_item_for_the_hidden_true_place(hidden_doc, qtbot):
    gm = MapView(hidden_doc)
    player = MapView(hidden_doc, player=True)
    qtbot.addWidget(gm)
    qtbot.addWidget(player)
    assert "archer" in gm.map_scene.tokens  # the GM sees the true place
    assert_no_true_place(player.map_scene)
    # It moves while hidden: still only decoys for the table.
    assert hidden_doc.push(PlaceCombatant("archer", (12, 2))) == ""
    assert hidden_doc.push(SetDecoys("archer", ((11, 1), (13, 3)))) == ""
    items = archer_items(player.map_scene)
    assert sorted(i.area for i in items) == [(11, 1), (13, 3)]
    assert all(isinstance(i, DecoyItem) for i in items)
    # Found: the token appears; hidden again: it goes.
    assert hidden_doc.push(RemoveState("archer", StateKind.HIDDEN)) == ""
    assert "archer" in player.map_scene.tokens
    assert not [i for i in archer_items(player.map_scene) if isinstance(i, DecoyItem)]
    assert hidden_doc.push(AddState("archer", StateKind.HIDDEN)) == ""
    assert "archer" not in player.map_scene.tokens


def test_hidden_character_leaves_no_gap_in_a_shared_area(hidden_doc):
    assert hidden_doc.push(PlaceCombatant("archer", (8, 11))) == ""  # beside Chen, still hidden
    scene = MapScene(hidden_doc, player=True)
    chen = scene.tokens["chen"]
    assert chen.pos() == QPointF(*mapgeom.area_centre((8, 11)))  # alone in its area
    assert not scene.overlaps  # and no overlap gives the archer away


def test_player_view_follows_the_gm_live(hidden_doc, qtbot):
    player = MapView(hidden_doc, player=True)
    qtbot.addWidget(player)
    assert hidden_doc.push(PlaceCombatant("huang", (6, 10))) == ""
    assert player.map_scene.tokens["huang"].pos() == QPointF(*mapgeom.area_centre((6, 10)))
    actor = hidden_doc.encounter.actor
    assert player.map_scene.tokens[actor].actor


def test_player_view_is_read_only(hidden_doc, qtbot):
    player = MapView(hidden_doc, player=True)
    qtbot.addWidget(player)
    player.resize(900, 600)
    with qtbot.waitExposed(player):
        player.show()
    before = hidden_doc.encounter.state()
    actor = hidden_doc.encounter.actor
    vp = player.viewport()
    start = player.mapFromScene(player.map_scene.tokens[actor].pos())
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    x, y = mapgeom.area_centre((8, 5))
    QTest.mouseMove(vp, player.mapFromScene(QPointF(x, y)))
    QTest.mouseRelease(
        vp,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.ShiftModifier,
        player.mapFromScene(QPointF(x, y)),
    )
    hidden_doc.select(actor)
    QTest.keyClick(player, Qt.Key.Key_E, Qt.KeyboardModifier.ShiftModifier)
    QTest.keyClick(player, Qt.Key.Key_Down)
    assert hidden_doc.encounter.state() == before
    assert hidden_doc.undo_stack.count() == 0
    assert player.map_scene.handle is None
    assert not any(t.selected and t.theme.show_selection for t in player.map_scene.tokens.values())


def test_player_view_has_no_gm_notes(hidden_doc):
    scene = MapScene(hidden_doc, player=True)
    notes = [c.notes for c in hidden_doc.encounter.roster() if c.notes]
    notes += [r.note for r in hidden_doc.encounter.zone.edges if r.note]
    assert notes
    for item in scene.items():
        tip = item.toolTip()
        text = item.text() if hasattr(item, "text") else ""
        for note in notes:
            assert note not in tip and note not in text
    gm = MapScene(hidden_doc)
    assert any(notes[0] in i.toolTip() for i in gm.items())  # the GM's tooltips have them


def test_closing_the_player_window_keeps_the_gm_window(hidden_doc, qtbot):
    gm = QMainWindow()
    qtbot.addWidget(gm)
    gm.show()
    window = PlayerWindow(hidden_doc)
    qtbot.addWidget(window)
    with qtbot.waitExposed(window):
        window.show()
    assert window.isWindow() and not window.testAttribute(Qt.WidgetAttribute.WA_QuitOnClose)
    window.close()
    assert gm.isVisible() and not window.isVisible()
    window.show()  # it can be opened again
    assert window.isVisible()


def test_player_window_full_screen_on_a_chosen_screen(hidden_doc, qtbot):
    window = PlayerWindow(hidden_doc)
    qtbot.addWidget(window)
    window.show()
    screen = QGuiApplication.screens()[-1]
    assert window.screen_box.count() == len(QGuiApplication.screens())
    window.show_fullscreen_on(screen)
    assert window.isFullScreen() and screen_of(window) is screen
    assert not window.bar.isVisible()
    window.leave_fullscreen()
    assert not window.isFullScreen() and window.bar.isVisible()


def test_player_window_follows_a_new_document(hidden_doc, qtbot):
    window = PlayerWindow(hidden_doc)
    qtbot.addWidget(window)
    other = EncounterDocument(sample.build(), journal_factory=lambda d: None)
    window.set_document(other)
    assert window.view.map_scene.doc is other and window.doc is other
    assert "archer" in window.view.map_scene.tokens  # not hidden in the new one
