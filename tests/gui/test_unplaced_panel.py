"""The Unplaced panel: prepared characters wait off the map and are dragged onto it; a
group spreads over the tile or edge it is dropped on, as one undo step (E9, E11)."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent

from afdesk.encounter.combatant import Combatant, Side
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.gui import mapgeom
from afdesk.gui.main_window import MainWindow
from afdesk.gui.map.mime import CHARACTERS, characters_mime
from afdesk.gui.map.view import MapView


@pytest.fixture
def window(qtbot, doc):
    for i in range(3):
        bandit = Combatant(f"new{i}", f"Bandit {i + 10}", Side.OPPONENT, group="Bandits")
        assert doc.push(AddCombatant(bandit)) == ""
    w = MainWindow(QSettings())
    w.maybe_save = lambda: True
    w.rng = random.Random(7)
    qtbot.addWidget(w)
    w.resize(1280, 720)
    w.show()
    w.set_document(doc)
    return w


def drop(window, ids, area):
    return drop_on(window.map, ids, area)


def drop_on(view, ids, area):
    mime = characters_mime(ids)
    x, y = mapgeom.area_centre(area)
    pos = QPointF(view.mapFromScene(QPointF(x, y)))
    event = QDropEvent(
        pos, Qt.DropAction.MoveAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier(0)
    )
    view.dropEvent(event)
    return event


def test_prepared_characters_wait_in_the_panel_and_are_dragged_onto_the_map(window):
    doc = window.doc
    panel = window.unplaced
    assert panel.parentWidget().isVisible()
    names = [panel.list.item(i).text() for i in range(panel.list.count())]
    assert names == ["Bandit 10 (opponent)", "Bandit 11 (opponent)", "Bandit 12 (opponent)"]
    panel.list.item(0).setSelected(True)
    panel.list.item(1).setSelected(True)
    mime = panel.list.mimeData(panel.list.selectedItems())
    assert bytes(mime.data(CHARACTERS).data()).decode() == "new0\nnew1"
    steps = doc.undo_stack.count()
    tile_area = (7, 7)
    drop(window, ["new0", "new1"], tile_area)
    enc = doc.encounter
    placed = [enc.combatants[c].area for c in ("new0", "new1")]
    assert all(a is not None and a[0] // 5 == 1 and a[1] // 5 == 1 for a in placed)
    assert len(set(placed)) == 2 and doc.undo_stack.count() == steps + 1  # one undo step
    assert [panel.list.item(i).text() for i in range(panel.list.count())] == [
        "Bandit 12 (opponent)"
    ]
    drop(window, ["new2"], (0, 0))
    assert doc.encounter.combatants["new2"].area is not None
    assert not panel.parentWidget().isVisible()  # nobody waits: the dock goes
    doc.undo()
    assert panel.parentWidget().isVisible() and panel.list.count() == 1


def test_a_drop_outside_the_zone_places_nobody_and_says_why(window):
    doc = window.doc
    before = doc.encounter.state()
    drop(window, ["new0"], (99, 99))
    assert doc.encounter.state() == before
    assert "outside the zone" in window.map.refusal_text()


def test_a_map_no_panel_offers_characters_to_takes_no_drag_of_them(qtbot, doc):
    """The drop is the Unplaced panel's to handle (it sets ``drop_characters``): a view
    without it, or the players' view, does not take the drag; with it, the GM's does."""
    mime = characters_mime(["new0"])  # held: the events do not own it

    def place(ids, area):
        raise AssertionError("a drag that is only entered and moved places nobody")

    for player, handler in ((False, None), (True, None), (True, place), (False, place)):
        view = MapView(doc, player=player)
        qtbot.addWidget(view)
        view.drop_characters = handler
        args = (QPoint(10, 10), Qt.DropAction.MoveAction, mime, Qt.MouseButton.LeftButton)
        view.dragEnterEvent(QDragEnterEvent(*args, Qt.KeyboardModifier(0)))
        move = QDragMoveEvent(*args, Qt.KeyboardModifier(0))
        view.dragMoveEvent(move)
        assert move.isAccepted() == (handler is not None and not player), (player, handler)
