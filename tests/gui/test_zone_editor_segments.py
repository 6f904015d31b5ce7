"""The zone editor as a new GM uses it: a typed segment name is never completed into an
existing segment, what the dock shows is what a stroke paints (E10), a new segment does not
inherit the previous one's properties, the flood fill stays on the clicked tile (E10), the
fill button says which tile it places (E9), and a 3 x 3 zone with two segments is built
through the dock and the map in a counted number of clicks and keys."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton

from afdesk.encounter.ops.editor import PaintSegment
from afdesk.encounter.zone import EMPTY, SegmentProps, segment_areas, segment_props
from afdesk.gui.map.tools.editor import FLOOD, RECT
from tests.gui.test_prepare_encounter import drag, palette_item
from tests.gui.test_zone_editor_gui import editor_window

LEFT = Qt.MouseButton.LeftButton


class Gestures:
    """Counts what the GM does: one click, one key, one drag each."""

    def __init__(self, qtbot) -> None:
        self.qtbot = qtbot
        self.count = 0

    def click(self, widget) -> None:
        """A click where the GM aims: a check box's or radio button's box, a button's
        middle."""
        if isinstance(widget, QAbstractButton) and widget.isCheckable():
            self.qtbot.mouseClick(widget, LEFT, pos=QPoint(8, widget.height() // 2))
        else:
            self.qtbot.mouseClick(widget, LEFT)
        self.count += 1

    def type(self, widget, text: str) -> None:
        widget.setFocus()
        QTest.keyClicks(widget, text)
        self.count += len(text)

    def retype(self, widget, text: str) -> None:
        """Select what the field holds (Ctrl+A), then type."""
        widget.setFocus()
        QTest.keyClick(widget, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        self.count += 1
        self.type(widget, text)

    def drag(self, view, start, end) -> None:
        drag(view, start, end)
        self.count += 1

    def pick(self, window, kind_id) -> None:
        window.zone_editor.palette.tiles.setCurrentItem(palette_item(window, kind_id))
        self.count += 1


def test_typing_a_name_loads_nothing_and_the_existing_list_chooses_on_purpose(qtbot):
    w = editor_window(qtbot)
    doc, panel = w.doc, w.zone_editor.panel
    doc.push(PaintSegment("the river", ((1, 1),), props=SegmentProps(water=True)))
    panel.brush_mode.setChecked(True)
    panel.flag_boxes["rough"].setChecked(True)
    panel.flag_boxes["cover"].setChecked(True)
    QTest.keyClicks(panel.segment_name, "the r")  # no completion to "the river"
    assert panel.segment_name.text() == "the r"
    assert panel.props() == SegmentProps(rough=True, cover=True)
    assert panel.tool.brush.props == SegmentProps(rough=True, cover=True)
    assert "new segment the r: Rough, Cover" in panel.segment_note.text()
    drag(w.map, (3, 3), (4, 3))
    assert segment_props(doc.encounter.zone, "the r") == SegmentProps(rough=True, cover=True)
    # The list: an explicit choice, which shows the segment's own properties.
    i = panel.existing.findData("the river")
    assert panel.existing.itemText(i) == "the river (Water)"
    panel.existing.setCurrentIndex(i)
    panel.existing.activated.emit(i)
    assert panel.segment_name.text() == "the river"
    assert panel.props() == SegmentProps(water=True)


def test_the_boxes_shown_are_what_a_stroke_paints_into_an_existing_segment(qtbot):
    w = editor_window(qtbot)
    doc, panel = w.doc, w.zone_editor.panel
    doc.push(PaintSegment("the pool", ((1, 1),), props=SegmentProps(water=True)))
    panel.brush_mode.setChecked(True)
    panel.segment_name.setFocus()
    QTest.keyClicks(panel.segment_name, "the pool")
    panel.flag_boxes["slippery"].setChecked(True)
    assert panel.segment_note.text() == (
        "the pool is Water now: a stroke paints more of it and makes it Slippery."
    )
    drag(w.map, (2, 1), (2, 1))
    assert segment_props(doc.encounter.zone, "the pool") == SegmentProps(slippery=True)
    assert segment_areas(doc.encounter.zone, "the pool") == {(1, 1), (2, 1)}
    assert doc.undo_stack.undoText() == "Paint 1 area into the pool; the pool: Slippery"
    doc.undo()  # one step: the areas and the properties come back together
    assert segment_props(doc.encounter.zone, "the pool") == SegmentProps(water=True)
    assert segment_areas(doc.encounter.zone, "the pool") == {(1, 1)}


def test_flood_fill_fills_the_clicked_tiles_connected_areas_only(qtbot):
    w = editor_window(qtbot)
    doc, panel = w.doc, w.zone_editor.panel
    panel.brush_mode.setChecked(True)
    panel.shape_buttons[FLOOD].setChecked(True)
    QTest.keyClicks(panel.segment_name, "the meadow")
    drag(w.map, (7, 6), (7, 6))
    areas = segment_areas(doc.encounter.zone, "the meadow")
    assert len(areas) == 25 and {(c // 5, r // 5) for c, r in areas} == {(1, 1)}
    assert doc.undo_stack.undoText() == "New segment the meadow (25 areas)"


def test_fill_empty_places_the_palettes_selected_tile_and_says_so(qtbot):
    w = editor_window(qtbot)
    doc, panel = w.doc, w.zone_editor.panel
    assert not panel.fill_with_button.isEnabled()
    w.zone_editor.palette.tiles.setCurrentItem(palette_item(w, "ford"))
    assert panel.fill_with_button.text() == "Fill empty with Ford"
    qtbot.mouseClick(panel.fill_with_button, LEFT)
    assert {t.kind for t in doc.encounter.zone.tiles} == {"ford"}
    assert doc.undo_stack.undoText() == "Fill 9 slots with Ford"
    assert panel.fill_empty_button.text() == "Fill empty at random"
    qtbot.mouseClick(panel.fill_with_button, LEFT)
    assert panel.reason.text() == "every slot already holds a tile"


def test_building_a_three_by_three_zone_with_two_segments(qtbot):
    """The count the task asks for: a GM's clicks, keys and drags, from the editor opened
    (Ctrl+Shift+E, one key) to a filled 3 x 3 zone with a river and a thicket."""
    w = editor_window(qtbot)
    doc, panel, view = w.doc, w.zone_editor.panel, w.map
    g = Gestures(qtbot)
    g.count += 1  # Ctrl+Shift+E opened the editor (editor_window)
    g.pick(w, "meadow")
    g.click(panel.fill_with_button)
    g.click(panel.brush_mode)
    g.click(panel.shape_buttons[RECT])
    g.type(panel.segment_name, "the river")
    g.click(panel.flag_boxes["water"])
    g.drag(view, (0, 7), (14, 7))
    g.retype(panel.segment_name, "the thicket")
    assert panel.props() == SegmentProps()  # not the river's Water
    g.click(panel.flag_boxes["rough"])
    g.click(panel.flag_boxes["cover"])
    g.drag(view, (10, 0), (13, 3))
    zone = doc.encounter.zone
    assert EMPTY not in {t.kind for t in zone.tiles} and zone.size() == (3, 3)
    assert segment_props(zone, "the river") == SegmentProps(water=True)
    assert len(segment_areas(zone, "the river")) == 15
    assert segment_props(zone, "the thicket") == SegmentProps(rough=True, cover=True)
    assert len(segment_areas(zone, "the thicket")) == 16
    titles = [doc.undo_stack.text(i) for i in range(doc.undo_stack.count())]
    assert titles[-3:] == [
        "Fill 9 slots with Meadow",
        "New segment the river (15 areas)",
        "New segment the thicket (16 areas)",
    ]
    print(f"\n3 x 3 zone with two segments: {g.count} gestures")
    assert g.count == 31  # 11 clicks, keys and drags + 20 letters of two names


def test_the_editors_dock_fits_a_1280_by_720_window(qtbot):
    """Nothing of the dock is cut off or needs sideways scrolling on a small screen."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QScrollArea

    from afdesk.gui.main_window import MainWindow
    from tests.gui.test_prepare_encounter import shown

    w = shown(qtbot, MainWindow(QSettings()))
    w.resize(1280, 720)
    w.zone_editor.action.setChecked(True)
    qtbot.waitUntil(lambda: w.zone_editor.panel_dock.isVisible())
    scroll = w.zone_editor.panel.findChild(QScrollArea)
    qtbot.waitUntil(lambda: scroll.viewport().width() > 0)
    assert (w.width(), w.height()) == (1280, 720)
    assert scroll.widget().minimumSizeHint().width() <= scroll.viewport().width()
    assert not scroll.horizontalScrollBar().isVisible()
