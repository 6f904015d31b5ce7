"""A GM prepares an encounter like the bundled river ford from
nothing, through the window with mouse and keyboard (File > New encounter, the zone editor's
palette, area brush and edges, the character dialog, the Reserves dock), saves it, reopens
it and runs it; undoing the whole preparation returns the empty zone."""

from __future__ import annotations

import random

from PySide6.QtCore import QMimeData, QPoint, QPointF, QSettings, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from afdesk.encounter.combatant import Side
from afdesk.encounter.ops.editor import PaintSegment, SwapTiles, TurnTile
from afdesk.encounter.ops.reserve import reserve_groups
from afdesk.encounter.state import Phase
from afdesk.encounter.visibility import player_visible
from afdesk.encounter.zone import EMPTY, TILE, Edge, segment_areas
from afdesk.gui import commands as cmd
from afdesk.gui import mapgeom
from afdesk.gui.dialogs.cards import PlayCardsDialog
from afdesk.gui.dialogs.character import CharacterDialog
from afdesk.gui.editor.new_encounter import PrepareEncounterDialog
from afdesk.gui.editor.palette import KIND_ROLE
from afdesk.gui.main_window import MainWindow
from tests.gui.conftest import wait_exposed

LEFT = Qt.MouseButton.LeftButton
NO = Qt.KeyboardModifier.NoModifier
LAYOUT = (
    ("forest", "meadow", "hills"),
    ("river", "ford", "river"),
    ("rocky", "meadow", "forest"),
)
BAND = (("Huang", (5, 12)), ("Chen", (6, 12)), ("Lan", (8, 13)), ("Bao", (9, 12)))
OPPONENTS = (
    ("Chief Gao", (7, 3), ""),
    ("Bandit 1", (6, 3), ""),
    ("Bandit 2", (8, 3), ""),
    ("Archer 1", (1, 1), "the archers on the ridge"),
    ("Archer 2", (2, 1), "the archers on the ridge"),
    ("Archer 3", (13, 1), "the archers on the ridge"),
)
RESERVE = "the archers on the ridge"


def shown(qtbot, w: MainWindow) -> MainWindow:
    w.maybe_save = lambda: True
    qtbot.addWidget(w)
    w.resize(1600, 1000)
    w.show()
    wait_exposed(qtbot, w)
    w.activateWindow()
    return w


def at(view, area) -> QPoint:
    return view.mapFromScene(QPointF(*mapgeom.area_centre(area)))


def slot_centre(slot) -> tuple[int, int]:
    return slot[0] * TILE + 2, slot[1] * TILE + 2


def click(view, area, modifier=NO) -> None:
    QTest.mouseClick(view.viewport(), LEFT, modifier, at(view, area))


def drag(view, start, end, via=()) -> None:
    vp = view.viewport()
    QTest.mousePress(vp, LEFT, NO, at(view, start))
    for a in (*via, end):
        QTest.mouseMove(vp, at(view, a))
    QTest.mouseRelease(vp, LEFT, NO, at(view, end))


def palette_item(window, kind_id):
    tiles = window.zone_editor.palette.tiles
    for i in range(tiles.count()):
        if tiles.item(i).data(KIND_ROLE).id == kind_id:
            return tiles.item(i)
    raise AssertionError(kind_id)


def drop_tile(window, kind_id, slot) -> None:
    """A tile dragged from the palette and dropped on ``slot`` (the drop event the map
    receives at the end of the drag)."""
    palette = window.zone_editor.palette
    mime: QMimeData = palette.tiles.mimeData([palette_item(window, kind_id)])
    vp = window.map.viewport()
    point = QPointF(at(window.map, slot_centre(slot)))
    for kind in (QDropEvent.Type.DragEnter, QDropEvent.Type.Drop):
        if kind == QDropEvent.Type.DragEnter:
            from PySide6.QtGui import QDragEnterEvent

            event = QDragEnterEvent(point.toPoint(), Qt.DropAction.CopyAction, mime, LEFT, NO)
        else:
            event = QDropEvent(point, Qt.DropAction.CopyAction, mime, LEFT, NO)
        QApplication.sendEvent(vp, event)
        assert event.isAccepted()


def pick_tile(window, kind_id, slot, *, keyboard: bool) -> None:
    """Click the slot, then double-click the tile in the palette (or choose it there with
    the keyboard and press Enter)."""
    click(window.map, slot_centre(slot))
    tiles = window.zone_editor.palette.tiles
    item = palette_item(window, kind_id)
    if keyboard:
        tiles.setFocus()
        tiles.setCurrentItem(item)
        QTest.keyClick(tiles, Qt.Key.Key_Return)
    else:
        centre = tiles.visualItemRect(item).center()
        QTest.mouseClick(tiles.viewport(), LEFT, NO, centre)
        QTest.mouseDClick(tiles.viewport(), LEFT, NO, centre)


def add_character(window, name, side: Side, area, group="") -> None:
    assert window.ctx.run(cmd.ADD_CHARACTER)
    dlg = window.dialog
    assert isinstance(dlg, CharacterDialog)
    dlg.name.setText(name)
    dlg.side.setCurrentIndex(dlg.side.findData(side))
    dlg.group.setText(group)
    dlg.area.setText(f"{area[0]}, {area[1]}")
    dlg.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert not dlg.error.text(), dlg.error.text()


def test_prepare_from_nothing_save_reopen_run_and_undo_it_all(qtbot, tmp_path):
    w = shown(qtbot, MainWindow(QSettings()))
    w.rng = random.Random(16)

    # File > New encounter: name, ruleset, tile set, empty zone -> the editor opens.
    w.act_new.trigger()
    dlg = w.dialog
    assert isinstance(dlg, PrepareEncounterDialog)
    dlg.choose(name="The ford at dusk", ruleset="af-2.5.4", tileset="wilderness", empty=True)
    dlg.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    doc = w.doc
    enc = doc.encounter
    assert enc.meta.name == "The ford at dusk"
    assert w.map.active_tool().name == "edit" and w.zone_editor.palette_dock.isVisible()
    empty = enc.state()
    assert {t.kind for t in enc.zone.tiles} == {EMPTY} and enc.zone.size() == (3, 3)
    view, panel = w.map, w.zone_editor.panel

    # Nine chosen tiles: the top row dropped from the palette, the rest clicked and picked.
    for c, kind in enumerate(LAYOUT[0]):
        drop_tile(w, kind, (c, 0))
    for r in (1, 2):
        for c, kind in enumerate(LAYOUT[r]):
            pick_tile(w, kind, (c, r), keyboard=r == 2)
    assert [[enc.zone.tile_at(c, r).kind for c in range(3)] for r in range(3)] == [
        list(row) for row in LAYOUT
    ]
    # Turn the ford (R), back (Shift+R); swap two tiles by a drag and swap them back.
    click(view, slot_centre((1, 1)))
    ford = enc.zone.tile_at(1, 1)
    QTest.keyClick(view, Qt.Key.Key_R)
    assert isinstance(doc.undo_stack.command(doc.undo_stack.count() - 1).ops[0], TurnTile)
    QTest.keyClick(view, Qt.Key.Key_R, Qt.KeyboardModifier.ShiftModifier)
    assert enc.zone.tile_at(1, 1) == ford
    drag(view, slot_centre((0, 0)), slot_centre((2, 2)))
    assert enc.zone.tile_at(2, 2).kind == "forest" and enc.zone.tile_at(0, 0).kind == "forest"
    assert isinstance(doc.undo_stack.command(doc.undo_stack.count() - 1).ops[0], SwapTiles)
    assert enc.log[-1].text == "Zone: tiles (0, 0) and (2, 2) swap places"

    # The area brush: a river of Water (a rectangle), a ford Rough and Slippery, cover.
    panel.brush_mode.setChecked(True)
    panel.choose_segment("the river")
    panel.shape_buttons["rect"].setChecked(True)
    panel.flag_boxes["water"].setChecked(True)
    steps = doc.undo_stack.count()
    drag(view, (0, 7), (14, 7), via=[(7, 7)])
    assert doc.undo_stack.count() == steps + 1  # one stroke, one undo step
    assert segment_areas(enc.zone, "the river") == {(c, 7) for c in range(15)}
    assert enc.log[-1].text == "Zone: new segment the river (15 areas; Water)"
    assert w.zone_editor.panel.tool.highlighted() == {(c, 7) for c in range(15)}
    panel.choose_segment("the ford")
    panel.flag_boxes["water"].setChecked(False)
    panel.shape_buttons["paint"].setChecked(True)
    drag(view, (7, 6), (7, 8), via=[(7, 7)])
    panel.flag_boxes["rough"].setChecked(True)
    panel.flag_boxes["slippery"].setChecked(True)
    qtbot.mouseClick(panel.apply_props_button, LEFT)
    ford_terrain = enc.terrain_at((7, 7))
    assert ford_terrain.rough and ford_terrain.slippery and ford_terrain.water
    assert enc.log[-1].text == "Zone: the ford is Rough, Slippery"
    panel.choose_segment("the boulders")
    for name in ("rough", "slippery"):
        panel.flag_boxes[name].setChecked(False)
    panel.flag_boxes["cover"].setChecked(True)
    plain = [(c, r) for r in range(10, 15) for c in range(15) if (c, r) not in enc.terrain]
    rock, boulder = plain[0], next(a for a in plain if abs(a[0] - plain[0][0]) > 2)
    click(view, rock)
    click(view, boulder)
    assert enc.terrain_at(rock).cover and enc.terrain_at(boulder).cover
    # Flood fill, removing: the areas joined to the boulder in the same segments
    # (that boulder alone) leave the segment.
    panel.shape_buttons["flood"].setChecked(True)
    panel.remove_radio.setChecked(True)
    click(view, boulder)
    assert not enc.terrain_at(boulder).cover and enc.terrain_at(rock).cover
    assert isinstance(doc.undo_stack.command(doc.undo_stack.count() - 1).ops[0], PaintSegment)

    # Edges: the north road exits, east and west extend the bank, with consequences.
    notes = panel.edge_notes
    notes[Edge.NORTH].setFocus()
    QTest.keyClicks(notes[Edge.NORTH], "the road to the bandits' camp")
    QTest.keyClick(notes[Edge.NORTH], Qt.Key.Key_Return)
    for e in (Edge.EAST, Edge.WEST):
        box = panel.edge_rules[e]
        box.setCurrentIndex(1)
        box.activated.emit(1)
    assert enc.zone.edge_rule(Edge.NORTH).note == "the road to the bandits' camp"
    assert not enc.zone.edge_rule(Edge.EAST).exits and not enc.zone.edge_rule(Edge.WEST).exits

    # Out of the editor (Ctrl+Shift+E); four band members, six opponents.
    w.activateWindow()  # the closed dialog left no window active: shortcuts need one
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)
    QTest.keyClick(
        w, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert w.map.active_tool().name == "move"
    for name, area in BAND:
        add_character(w, name, Side.BAND, area)
    for name, area, reserve in OPPONENTS:
        add_character(w, name, Side.OPPONENT, area, group="" if reserve else "Bandits")
    assert len(enc.combatants) == 10
    # Three of them held back in reserve, through the Reserves dock.
    reserves = w.reserves_panel
    for name, _, group in OPPONENTS:
        if group:
            cid = next(c.id for c in enc.roster() if c.name == name)
            doc.select(cid)
            reserves.group_box.setEditText(group)
            qtbot.mouseClick(reserves.hold_button, LEFT)
    assert reserves.groups() == {RESERVE: ["Archer 1", "Archer 2", "Archer 3"]}
    assert [c.name for c in enc.roster() if not player_visible(enc, c.id)] == [
        "Archer 1",
        "Archer 2",
        "Archer 3",
    ]
    prepared = enc.state()

    # Save, reopen in a fresh window: the same encounter.
    path = tmp_path / "ford-at-dusk.afenc"
    assert w._save_to(path)
    again = shown(qtbot, MainWindow(QSettings()))
    assert again.open_path(path)
    reopened = again.doc.encounter
    assert reopened.zone == enc.zone
    assert reopened.state().combatants == prepared.combatants
    assert again.reserves_panel.groups() == {RESERVE: ["Archer 1", "Archer 2", "Archer 3"]}

    # Run it: deal (Ctrl+D) -- no hand for the reserve --, play a round, bring them in.
    again.act_deal.trigger()
    assert reopened.turn.phase is Phase.CARDS
    dealt = {m for h in reopened.reflex.hands for m in h.members}
    assert len(dealt) == 7 and not any(reopened.combatant(m).in_reserve for m in dealt)
    cards = PlayCardsDialog(again.doc, again, rng=random.Random(3))
    qtbot.addWidget(cards)
    cards.reveal()
    assert reopened.turn.phase is Phase.TURNS and reopened.actor
    order = [
        again.reflex_panel.order.item(i).text() for i in range(again.reflex_panel.order.count())
    ]
    assert sum(f"(in reserve: {RESERVE})" in text for text in order) == 3
    again.reserves_panel.tree.setCurrentItem(again.reserves_panel.tree.topLevelItem(0))
    qtbot.mouseClick(again.reserves_panel.bring_button, LEFT)
    assert reserve_groups(reopened) == {}
    assert "GM override" in reopened.log[-1].text
    assert all(player_visible(reopened, c.id) for c in reopened.roster())
    # They are dealt a hand of their own at the next deal (E2).
    again.ctx.confirm = lambda title, question: True  # "End the exchange now?" Yes.
    assert again.ctx.run(cmd.END_EXCHANGE)
    again.act_deal.trigger()
    hands = {h.label: len(h.members) for h in reopened.reflex.hands}
    assert hands[RESERVE] == 3 and hands["Bandits"] == 3

    # Undo the whole preparation in the first window: the empty zone again.
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert enc.state().zone == empty.zone
    assert enc.combatants == {}
    assert enc.state() == empty
