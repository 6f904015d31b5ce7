"""The zone editor's map tool, a GM-only edit mode of the map.

Two modes. **Tiles**: click a slot to select it; drag from one slot to another to swap them;
R turns the selected tile 90° clockwise (Shift+R back), M mirrors it, Delete empties the
slot. A tile dragged from the palette and dropped on a slot is placed there (in any mode).
The arrows move the selected slot. **Brush**: paint areas into the named segment (drag
over areas), or draw a rectangle, or flood fill the areas of the clicked tile joined to the
clicked one that lie in the same segments (E10: a segment is on one tile); with "remove"
the areas are taken out of the segment instead; Alt+click picks the segment under the pointer.
One stroke, drop or key is one Op, so one undo step, and the log says "Zone: ...".
"""

from __future__ import annotations

import msgspec
from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QMouseEvent, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem

from afdesk.encounter.geometry import Area
from afdesk.encounter.ops.editor import (
    PaintSegment,
    PlaceTile,
    SetNamedSegmentProps,
    SwapTiles,
    TurnTile,
    flood_on_tile,
)
from afdesk.encounter.zone import EMPTY_KIND, SegmentProps, segment_areas, segment_props, tile_of
from afdesk.gui import mapgeom
from afdesk.gui.map import selection
from afdesk.gui.map.mime import TILE_KIND, kind_from_mime
from afdesk.gui.map.tools.base import MapTool

TILES, BRUSH = "tiles", "brush"
SLOT_KEYS = {
    Qt.Key.Key_Left: (-1, 0),
    Qt.Key.Key_Right: (1, 0),
    Qt.Key.Key_Up: (0, -1),
    Qt.Key.Key_Down: (0, 1),
}
"""In tiles mode the arrows move the slot selection (then R, M, Delete, or a pick)."""
PAINT, RECT, FLOOD = "paint", "rect", "flood"


class Brush(msgspec.Struct):
    """What a brush stroke does (the editor's dock sets it). A Struct, not a dataclass:
    importing ``dataclasses`` cost the start about a millisecond."""

    segment: str = ""
    remove: bool = False
    shape: str = PAINT
    props: SegmentProps = msgspec.field(default_factory=SegmentProps)
    """The properties the editor's dock shows: a stroke paints the segment with them (a new
    segment starts with them; an existing one is given them in the same undo step)."""


def rect_areas(a: Area, b: Area) -> list[Area]:
    """Every area of the rectangle with corners ``a`` and ``b``."""
    c0, c1 = sorted((a[0], b[0]))
    r0, r1 = sorted((a[1], b[1]))
    return [(c, r) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]


def _path(areas) -> QPainterPath:
    path = QPainterPath()
    for a in areas:
        path.addRect(*mapgeom.area_rect(a))
    return path.simplified()


class EditTool(MapTool):
    """See the module."""

    name = "edit"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, view) -> None:
        super().__init__(view)
        self.mode = TILES
        self.brush = Brush()
        self._press_slot: tuple[int, int] | None = None
        self._stroke: list[Area] = []
        self._start: Area | None = None
        self._preview: QGraphicsPathItem | None = None
        self._highlight: QGraphicsPathItem | None = None
        self.on_pick = None
        """Told the segment an Alt+click picked (the editor's dock shows it)."""
        self._drops = _DropFilter(self)
        view.viewport().installEventFilter(self._drops)
        view.viewport().setAcceptDrops(True)

    # --------------------------------------------------------------------- state

    def set_mode(self, mode: str) -> None:
        self.cancel()
        self.mode = mode

    def stroke(self) -> list[Area]:
        """The areas of the stroke under way (tests read it)."""
        return list(self._stroke)

    def _item(self, which: str) -> QGraphicsPathItem:
        item = getattr(self, which)
        if item is None or item.scene() is not self.scene:
            item = QGraphicsPathItem()
            item.setZValue(50 if which == "_preview" else 40)
            if which == "_preview":
                item.setPen(QPen(QColor("#0d47a1"), 3))
                item.setBrush(QBrush(QColor(33, 150, 243, 90)))
            else:
                pen = QPen(QColor("#ffd600"), 4, Qt.PenStyle.DashLine)
                item.setPen(pen)
                item.setBrush(QBrush(QColor(255, 214, 0, 45)))
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.scene.addItem(item)
            setattr(self, which, item)
        return item

    def highlight(self, name: str) -> None:
        """Outline every area of the segment called ``name`` (none: clear)."""
        areas = segment_areas(self.doc.encounter.zone, name) if name else set()
        item = self._item("_highlight")
        item.setPath(_path(areas))
        item.setVisible(bool(areas) and self.view.active_tool() is self)

    def highlighted(self) -> set[Area]:
        """The areas outlined now (tests read it)."""
        item = self._highlight
        if item is None or not item.isVisible():
            return set()
        return segment_areas(self.doc.encounter.zone, self.brush.segment)

    def activate(self) -> None:
        super().activate()
        self.highlight(self.brush.segment)

    def deactivate(self) -> None:
        super().deactivate()
        if self._highlight is not None and self._highlight.scene() is self.scene:
            self._highlight.setVisible(False)

    # --------------------------------------------------------------------- mouse

    def _slot_at(self, pos: QPointF) -> tuple[int, int] | None:
        area = mapgeom.area_at(pos.x(), pos.y())
        slot = tile_of(area)
        return slot if self.doc.encounter.zone.tile_at(*slot) is not None else None

    def mouse_pressed(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        area = mapgeom.area_at(pos.x(), pos.y())
        if self.mode == TILES:
            slot = self._slot_at(pos)
            if slot is None:
                return False
            self._press_slot = slot
            self.view.select(selection.Tile(slot))
            return True
        if not self.doc.encounter.zone.contains(area):
            return False
        if event.modifiers() & Qt.KeyboardModifier.AltModifier:
            return self.pick_segment(area)
        self._start = area
        if self.brush.shape == FLOOD:
            self._stroke = sorted(flood_on_tile(self.doc.encounter.zone, area))
        else:
            self._stroke = [area]
        self._show_stroke()
        return True

    def mouse_moved(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self.mode != BRUSH or self._start is None:
            return self._press_slot is not None
        area = mapgeom.area_at(pos.x(), pos.y())
        zone = self.doc.encounter.zone
        if self.brush.shape == RECT:
            self._stroke = [a for a in rect_areas(self._start, area) if zone.contains(a)]
        elif self.brush.shape == PAINT and zone.contains(area) and area not in self._stroke:
            self._stroke.append(area)
        self._show_stroke()
        return True

    def mouse_released(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self.mode == TILES:
            start, self._press_slot = self._press_slot, None
            end = self._slot_at(pos)
            swap = start is not None and end is not None and end != start
            if swap and self.view.push([SwapTiles(start, end)]):
                self.view.select(selection.Tile(end))
            return start is not None
        if self._start is None:
            return False
        areas = tuple(self._stroke)
        self.cancel()
        self.paint(areas)
        return True

    def pick_segment(self, area: Area) -> bool:
        """Alt+click with the brush: take the segment under the pointer (the last one
        drawn there) as the brush's segment, as an eyedropper would."""
        names = self.doc.encounter.terrain_at(area).segments
        if not names:
            self.view.refuse(f"No segment covers ({area[0]}, {area[1]}).")
            return False
        self.brush.segment = names[-1]
        if self.on_pick is not None:
            self.on_pick(names[-1])
        self.highlight(names[-1])
        return False

    def paint(self, areas) -> bool:
        """One brush stroke over ``areas`` with the current brush: one undo step."""
        b = self.brush
        if not b.segment.strip():
            self.view.refuse("Name the segment to paint first (in the zone editor's dock).")
            return False
        name = b.segment.strip()
        ops: list = [PaintSegment(name, tuple(areas), b.remove, b.props)]
        had = segment_props(self.doc.encounter.zone, name)
        if not b.remove and had is not None and had != b.props:
            # What the dock shows is what gets painted (E10): one step, one undo.
            ops.append(SetNamedSegmentProps(name, b.props))
        enc = self.doc.encounter
        text = "; ".join(op.title(enc) for op in ops)
        done = self.view.push(ops, text)
        if done:
            self.highlight(b.segment.strip())
        return done

    def _show_stroke(self) -> None:
        item = self._item("_preview")
        item.setPath(_path(self._stroke))
        item.setVisible(True)

    def cancel(self) -> bool:
        had = self._start is not None or self._press_slot is not None
        self._start = None
        self._press_slot = None
        self._stroke = []
        if self._preview is not None and self._preview.scene() is self.scene:
            self._preview.setVisible(False)
        return had

    # ---------------------------------------------------------------------- keys

    def selected_slot(self) -> tuple[int, int] | None:
        sel = self.view.selection()
        return sel.tile if isinstance(sel, selection.Tile) else None

    def key_pressed(self, event: QKeyEvent) -> bool:
        slot = self.selected_slot()
        key = event.key()
        step = SLOT_KEYS.get(Qt.Key(key)) if self.mode == TILES else None
        if step is not None:
            return self._step_slot(slot, step)
        if slot is None:
            return False
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if key == Qt.Key.Key_R:
            self.turn(slot, 3 if shift else 1)
        elif key == Qt.Key.Key_M:
            self.turn(slot, 0, mirror=True)
        elif key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.place(slot, EMPTY_KIND)
        else:
            return False
        return True

    def _step_slot(self, slot: tuple[int, int] | None, step: tuple[int, int]) -> bool:
        """Arrows move the selected slot (the first slot if none is selected)."""
        zone = self.doc.encounter.zone
        if not zone.tiles:
            return False
        if slot is None:
            first = zone.tiles[0]
            self.view.select(selection.Tile((first.col, first.row)))
            return True
        nxt = (slot[0] + step[0], slot[1] + step[1])
        if zone.tile_at(*nxt) is not None:
            self.view.select(selection.Tile(nxt))
        return True

    def turn(self, slot: tuple[int, int], quarters: int, mirror: bool = False) -> bool:
        return self.view.push([TurnTile(slot[0], slot[1], quarters, mirror)])

    def place(self, slot: tuple[int, int], kind) -> bool:
        done = self.view.push([PlaceTile(slot[0], slot[1], kind)])
        if done:
            self.view.select(selection.Tile(slot))
        return done

    def drop(self, pos: QPointF, kind) -> bool:
        """A tile kind dropped at scene point ``pos``: placed in the slot there."""
        slot = self._slot_at(pos)
        if slot is None:
            self.view.refuse("Drop the tile on a slot of the zone (add a row or column first).")
            return False
        return self.place(slot, kind)


class _DropFilter(QObject):
    """Tiles dragged from the palette onto the map's viewport."""

    def __init__(self, tool: EditTool) -> None:
        super().__init__()
        self.tool = tool

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            if event.mimeData().hasFormat(TILE_KIND):
                event.acceptProposedAction()
                return True
            return False
        if kind == QEvent.Type.Drop:
            tile = kind_from_mime(event.mimeData())
            if tile is None:
                return False
            view = self.tool.view
            pos = view.mapToScene(event.position().toPoint())
            self.tool.drop(pos, tile)
            event.acceptProposedAction()
            return True
        return False
