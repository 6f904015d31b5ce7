"""The fog tool: the GM hides and reveals regions of the players' screen.

- Click: the segment under the pointer (a tile's ground outside any segment: the tile)
  is selected and flips, fogged <-> revealed. Shift+click: the whole tile.
- Ctrl+drag: the free brush, area by area (fogging if the first area was clear, revealing
  if it was fogged); the whole stroke is one undo step.
- H: flips the selected region (a segment, tile or area picked with this tool).

Every change is a :class:`~afdesk.encounter.ops.fog.SetFog` pushed through the view.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from afdesk.encounter.fog import (
    Region,
    area_region,
    region_at,
    region_state,
    segment_region,
    tile_region,
)
from afdesk.encounter.ops.fog import SetFog
from afdesk.gui import mapgeom
from afdesk.gui.map import selection
from afdesk.gui.map.tools.base import MapTool


def selected_region(zone, sel) -> Region | None:
    """The region a map selection names (a segment, a tile, an area), or None."""
    if isinstance(sel, selection.Segment):
        tile = zone.tile_at(*sel.tile)
        if tile is not None and 0 <= sel.index < len(tile.segments):
            return segment_region(tile, sel.index)
    elif isinstance(sel, selection.Tile):
        tile = zone.tile_at(*sel.tile)
        if tile is not None:
            return tile_region(tile)
    elif isinstance(sel, selection.Area) and zone.contains(sel.area):
        return area_region([sel.area])
    return None


def flip(view, region: Region) -> bool:
    """Fog ``region`` if any of it is clear, else reveal it (one undo step)."""
    enc = view.doc.encounter
    hide = region_state(enc.zone, enc.fog, region) != "hidden"
    return view.push([SetFog.of(region, hide)])


class FogTool(MapTool):
    """Click to flip a region's fog, Ctrl+drag to brush, H to flip the selected region."""

    name = "fog"
    cursor = Qt.CursorShape.PointingHandCursor

    def __init__(self, view) -> None:
        super().__init__(view)
        self._brush: bool | None = None
        """While brushing: True fogs, False reveals."""
        self._stroke: list[tuple[int, int]] = []

    def activate(self) -> None:
        super().activate()
        self.view.statusMessage.emit(
            "Fog: click a segment to hide or reveal it (Shift: the whole tile), "
            "Ctrl+drag to brush areas, H flips the selected region"
        )

    def mouse_pressed(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        zone = self.doc.encounter.zone
        area = mapgeom.area_at(pos.x(), pos.y())
        if not zone.contains(area):
            return False
        mods = event.modifiers()
        if mods & Qt.KeyboardModifier.ControlModifier:
            self._brush = not self.doc.encounter.fog.covers(area)
            self._stroke = []
            self._paint(area)
            self.view.select(selection.Area(area))
            return True
        whole = bool(mods & Qt.KeyboardModifier.ShiftModifier)
        region = region_at(zone, area, whole_tile=whole)
        if region is None:
            return False
        kind = selection.Tile if region.kind == "tile" else selection.Segment
        self.view.select(self.view.selection_at(pos, kind))
        flip(self.view, region)
        return True

    def _paint(self, area: tuple[int, int]) -> None:
        if self._brush is None or area in self._stroke:
            return
        enc = self.doc.encounter
        if not enc.zone.contains(area) or (
            enc.fog.covers(area) == self._brush and area not in self._stroke
        ):
            return
        self._stroke.append(area)
        # One undo step (and log line) for the stroke: each push replaces the one before
        # with the whole stroke so far.
        key = f"fog-brush-{id(self)}-{self._stroke[0]}"
        self.view.push([SetFog.of(area_region(self._stroke), self._brush)], merge_key=key)

    def mouse_moved(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._brush is None:
            return False
        self._paint(mapgeom.area_at(pos.x(), pos.y()))
        return True

    def mouse_released(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._brush is None:
            return False
        self._brush = None
        self._stroke = []
        return True

    def key_pressed(self, event: QKeyEvent) -> bool:
        if event.key() != Qt.Key.Key_H:
            return False
        region = selected_region(self.doc.encounter.zone, self.view.selection())
        if region is None:
            self.view.refuse("nothing to hide or reveal", "Click a segment or a tile first.")
            return True
        flip(self.view, region)
        return True

    def cancel(self) -> bool:
        was = self._brush is not None
        self._brush = None
        self._stroke = []
        return was


class PingTool(MapTool):
    """Click an area: it pulses on the players' screen (the GM points something out)."""

    name = "ping"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, view, ping) -> None:
        super().__init__(view)
        self._ping = ping

    def activate(self) -> None:
        super().activate()
        self.view.statusMessage.emit("Ping: click an area to make it pulse on the players' screen")

    def mouse_pressed(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        area = mapgeom.area_at(pos.x(), pos.y())
        if not self.doc.encounter.zone.contains(area):
            return False
        self._ping(area)
        return True


__all__ = ["FogTool", "PingTool", "flip", "selected_region"]
