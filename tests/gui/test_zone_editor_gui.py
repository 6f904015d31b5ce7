"""The zone editor in the window: palette thumbnails, keys on a selected tile, the
dock's buttons, refusals where the GM looks, the edit mode switch."""

from __future__ import annotations

import random

from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest

from afdesk.encounter.model import Encounter
from afdesk.encounter.zone import EMPTY, Edge, empty_zone, turn_local
from afdesk.gui.document import EncounterDocument
from afdesk.gui.editor.palette import ENCOUNTER, KIND_ROLE
from afdesk.gui.editor.thumbs import THUMB, thumbnail
from afdesk.gui.main_window import MainWindow
from afdesk.gui.map.mime import kind_from_mime, kind_mime
from afdesk.storage.tilesets import tileset
from tests.gui.test_prepare_encounter import click, shown, slot_centre


def editor_window(qtbot) -> MainWindow:
    w = shown(qtbot, MainWindow(QSettings()))
    w.rng = random.Random(7)
    doc = EncounterDocument(
        Encounter(zone=empty_zone(tileset("wilderness"))), journal_factory=lambda d: None
    )
    w.set_document(doc)
    w.zone_editor.action.setChecked(True)
    return w


def test_thumbnails_are_drawn_by_the_map_code_and_drag_carries_the_kind(qtbot):
    ford = tileset("wilderness").kind("ford")
    pix = thumbnail(ford)
    assert (pix.width(), pix.height()) == (THUMB, THUMB)
    image = pix.toImage()
    colours = {image.pixel(x, y) for x in range(4, THUMB - 4, 6) for y in range(4, THUMB - 4, 6)}
    assert len(colours) > 3  # a pattern and the ford's water, not a flat square
    assert kind_from_mime(kind_mime(ford)) == ford


def test_the_palette_shows_the_encounters_tiles_and_the_installed_sets(qtbot):
    w = editor_window(qtbot)
    palette = w.zone_editor.palette
    assert palette.source.currentData() == ENCOUNTER
    names = [palette.tiles.item(i).text() for i in range(palette.tiles.count())]
    assert names[0] == "Empty slot" and "Ford" in names and "River" in names
    assert palette.source.count() >= 2
    palette.choose(palette.source.itemData(1))
    assert palette.tiles.item(1).data(KIND_ROLE).id != EMPTY
    assert "Your tile sets:" in palette.folder.text()


def test_keys_turn_mirror_and_empty_the_selected_tile(qtbot):
    w = editor_window(qtbot)
    doc, view = w.doc, w.map
    ford = tileset("wilderness").kind("ford")
    assert view.tool("edit").place((1, 1), ford)
    click(view, slot_centre((1, 1)))
    QTest.keyClick(view, Qt.Key.Key_M)
    seg = doc.encounter.zone.tile_at(1, 1).segments[0]
    assert seg.areas == tuple(turn_local(a, 0, True) for a in ford.segments[0].areas)
    assert doc.encounter.log[-1].text == "Zone: the Ford tile at (1, 1) is mirrored"
    QTest.keyClick(view, Qt.Key.Key_Delete)
    assert doc.encounter.zone.tile_at(1, 1).kind == EMPTY
    assert w.zone_editor.panel.tile_label.text().startswith("Empty slot at (1, 1)")


def test_arrows_move_the_selected_slot_in_tiles_mode(qtbot):
    from afdesk.gui.map import selection

    w = editor_window(qtbot)
    view = w.map
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_Right)
    assert view.selection() == selection.Tile((0, 0))
    QTest.keyClick(view, Qt.Key.Key_Right)
    QTest.keyClick(view, Qt.Key.Key_Down)
    assert view.selection() == selection.Tile((1, 1))
    for _ in range(3):
        QTest.keyClick(view, Qt.Key.Key_Right)
    assert view.selection() == selection.Tile((2, 1))  # stops at the zone's edge


def test_the_docks_buttons_fill_and_grow_the_zone(qtbot):
    w = editor_window(qtbot)
    doc, panel = w.doc, w.zone_editor.panel
    ford = tileset("wilderness").kind("ford")
    w.map.tool("edit").place((0, 0), ford)
    qtbot.mouseClick(panel.fill_empty_button, Qt.MouseButton.LeftButton)
    kinds = [t.kind for t in doc.encounter.zone.tiles]
    assert EMPTY not in kinds and kinds[0] == "ford"
    panel.line_edge.setCurrentIndex(panel.line_edge.findData(Edge.EAST))
    qtbot.mouseClick(panel.add_line_button, Qt.MouseButton.LeftButton)
    assert doc.encounter.zone.size() == (4, 3)
    assert [t.kind for t in doc.encounter.zone.tiles if t.col == 3] == [EMPTY] * 3
    qtbot.mouseClick(panel.fill_all_button, Qt.MouseButton.LeftButton)
    assert EMPTY not in {t.kind for t in doc.encounter.zone.tiles}
    qtbot.mouseClick(panel.remove_line_button, Qt.MouseButton.LeftButton)
    assert doc.encounter.zone.size() == (3, 3)
    qtbot.mouseClick(panel.fill_empty_button, Qt.MouseButton.LeftButton)
    assert panel.reason.text() == "every slot already holds a tile"


def test_a_stroke_without_a_segment_name_is_refused_on_the_map(qtbot):
    w = editor_window(qtbot)
    panel, view = w.zone_editor.panel, w.map
    panel.brush_mode.setChecked(True)
    steps = w.doc.undo_stack.count()
    click(view, (3, 3))
    assert w.doc.undo_stack.count() == steps
    assert "Name the segment" in view.refusal_text()


def test_the_edit_mode_leaves_the_move_tool_working(qtbot):
    w = editor_window(qtbot)
    assert w.map.active_tool().name == "edit"
    w.zone_editor.action.setChecked(False)
    assert w.map.active_tool().name == "move"
    assert not w.zone_editor.panel.edit_box.isChecked()
    w.zone_editor.panel.edit_box.setChecked(True)
    assert w.map.active_tool().name == "edit" and w.zone_editor.action.isChecked()


def test_own_tile_sets_from_the_palette(qtbot, tmp_path):
    from afdesk.encounter.ops.editor import PaintSegment
    from afdesk.encounter.zone import SegmentProps
    from afdesk.storage import tilesets

    w = editor_window(qtbot)
    palette, doc = w.zone_editor.palette, w.doc
    assert palette.new_set("Jade city streets")
    assert palette.source.currentData() == "jade-city-streets"
    assert palette.message.text() == "Made Jade city streets."
    assert not palette.save_stamp("Nothing selected")
    assert "Select a tile on the map" in palette.message.text()
    w.map.tool("edit").place((0, 0), tilesets.tileset("wilderness").kind("meadow"))
    doc.push(PaintSegment("well", ((2, 2),), props=SegmentProps(water=True)))
    assert palette.save_stamp("Meadow with a well")
    names = [palette.tiles.item(i).text() for i in range(palette.tiles.count())]
    assert names == ["Empty slot", "Open ground", "Meadow with a well"]
    assert palette.rename_set("Jade city")
    assert palette.source.currentText() == "Tile set: Jade city"
    palette.choose("wilderness")
    assert not palette.rename_set("Mine")
    assert "bundled with afdesk" in palette.message.text()
    assert palette.duplicate_set("My wilderness")
    assert palette.source.currentData() == "my-wilderness"
    tilesets.reload()


def test_edges_exit_extend_or_block_from_the_dock(qtbot):
    w = editor_window(qtbot)
    panel, doc = w.zone_editor.panel, w.doc
    box = panel.edge_rules[Edge.SOUTH]
    box.setCurrentIndex(box.findData("blocked"))
    box.activated.emit(box.currentIndex())
    rule = doc.encounter.zone.edge_rule(Edge.SOUTH)
    assert rule.blocked and not rule.exits
    assert w.map.map_scene.edges[Edge.SOUTH].text() == "BLOCKED"
    panel.edge_notes[Edge.SOUTH].setText("the gorge")
    panel.edge_notes[Edge.SOUTH].editingFinished.emit()
    assert doc.encounter.zone.edge_rule(Edge.SOUTH).note == "the gorge"
    steps = doc.undo_stack.count()
    panel.edge_notes[Edge.SOUTH].editingFinished.emit()  # nothing changed: no step
    assert doc.undo_stack.count() == steps
    doc.undo()
    doc.undo()
    assert not doc.encounter.zone.edge_rule(Edge.SOUTH).blocked
    assert panel.edge_rules[Edge.SOUTH].currentData() == "exits"


def test_alt_click_picks_the_segment_under_the_pointer(qtbot):
    from afdesk.encounter.ops.editor import PaintSegment
    from afdesk.encounter.zone import SegmentProps

    w = editor_window(qtbot)
    panel, doc, view = w.zone_editor.panel, w.doc, w.map
    doc.push(PaintSegment("the pool", ((3, 3), (4, 3)), props=SegmentProps(water=True)))
    panel.brush_mode.setChecked(True)
    steps = doc.undo_stack.count()
    click(view, (4, 3), Qt.KeyboardModifier.AltModifier)
    assert panel.segment_name.text() == "the pool"
    assert panel.flag_boxes["water"].isChecked()
    assert panel.tool.highlighted() == {(3, 3), (4, 3)}
    assert doc.undo_stack.count() == steps  # picking changes nothing
    click(view, (9, 9), Qt.KeyboardModifier.AltModifier)
    assert "No segment covers (9, 9)" in view.refusal_text()


def test_the_palette_and_the_editor_dock_show_only_while_editing(qtbot):
    """At 1280x720 the right column has no room for a palette during play."""
    w = shown(qtbot, MainWindow(QSettings()))
    w.resize(1280, 720)
    ed = w.zone_editor
    assert not ed.palette_dock.isVisible() and not ed.panel_dock.isVisible()
    ed.action.setChecked(True)
    assert ed.palette_dock.isVisible() and ed.panel_dock.isVisible()
    ed.action.setChecked(False)
    assert not ed.palette_dock.isVisible() and not ed.panel_dock.isVisible()
