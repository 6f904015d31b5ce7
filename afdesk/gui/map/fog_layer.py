"""The fog on the map: translucent with its outline for the GM, opaque for the
table, where nothing under it exists at all.

One :class:`FogItem` per fogged area, so revealing a region removes exactly its items and
the view repaints exactly that region. In the players' scene (:class:`FogLayer` with
``player``) a fogged area has no tile artwork (tiles are clipped, or have no item when
wholly fogged), no segment outline or glyph, no token, no decoy and no overlap mark: the
scene asks :meth:`FogLayer.hides` before it draws anything there.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPen

from afdesk.encounter.fog import fogged
from afdesk.encounter.geometry import Area
from afdesk.encounter.zone import TILE, Tile, tile_of
from afdesk.gui import mapgeom
from afdesk.gui.map.base import MapItem
from afdesk.gui.map.patterns import TILE_SIZE
from afdesk.gui.map.terrain import Z_TILE, artwork_for

AREA = mapgeom.AREA

Z_FOG_GM = 4.5
"""Above the terrain, below the characters: the GM still sees who stands in the fog."""
Z_FOG_PLAYER = 12.0
"""Above everything of the map but the legend."""

PLAYER_FOG = QColor("#15181d")
PLAYER_FOG_LINE = QColor("#262b33")
GM_FOG = QColor(90, 100, 125, 120)
GM_FOG_LINE = QColor("#dfe6f2")

_NEIGHBOURS = ((0, -1), (1, 0), (0, 1), (-1, 0))


class FogItem(MapItem):
    """One fogged area. The GM's has a dashed outline on the sides that border clear
    ground; the players' is opaque, filled exactly to its area without antialiasing (two
    fogged neighbours meet with no seam) and depends on nothing around it, so revealing an
    area never repaints its neighbours."""

    def __init__(self, area: Area, player: bool) -> None:
        super().__init__()
        self.area = area
        self.player = player
        self.setZValue(Z_FOG_PLAYER if player else Z_FOG_GM)
        x, y, w, h = mapgeom.area_rect(area)
        pad = 0 if player else 2
        self.set_bounds(QRectF(x - pad, y - pad, w + 2 * pad, h + 2 * pad))
        self._open: tuple[bool, ...] = (False,) * 4
        if not player:
            self.setToolTip("Fogged: the players see nothing here (Fog tool: click to reveal)")

    def set_neighbours(self, under: frozenset[Area]) -> bool:
        """Which sides border clear ground; True if that changed (repainted)."""
        c, r = self.area
        sides = tuple((c + dc, r + dr) not in under for dc, dr in _NEIGHBOURS)
        if sides == self._open:
            return False
        self._open = sides
        self.update()
        return True

    def paint(self, painter: QPainter, option, widget=None) -> None:
        x, y, w, h = mapgeom.area_rect(self.area)
        rect = QRectF(x, y, w, h)
        painter.setPen(Qt.PenStyle.NoPen)
        if self.player:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
            painter.setBrush(PLAYER_FOG)
            painter.drawRect(rect)
            painter.setBrush(QBrush(PLAYER_FOG_LINE, Qt.BrushStyle.BDiagPattern))
            painter.drawRect(rect)
            return
        painter.setBrush(GM_FOG)
        painter.drawRect(rect)
        painter.setBrush(QBrush(QColor(255, 255, 255, 40), Qt.BrushStyle.Dense6Pattern))
        painter.drawRect(rect)
        pen = QPen(GM_FOG_LINE, 2.5, Qt.PenStyle.DashLine)
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        painter.setPen(pen)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        top, right, bottom, left = self._open
        if top:
            painter.drawLine(rect.topLeft(), rect.topRight())
        if right:
            painter.drawLine(rect.topRight(), rect.bottomRight())
        if bottom:
            painter.drawLine(rect.bottomLeft(), rect.bottomRight())
        if left:
            painter.drawLine(rect.topLeft(), rect.bottomLeft())


class FogLayer:
    """The fog items of one map scene, and the question the scene asks before drawing."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self.player: bool = scene.player
        self.items: dict[Area, FogItem] = {}
        self.under: frozenset[Area] = frozenset()
        self.pieced: dict[tuple[int, int], dict[Area, TilePiece]] = {}
        self.drawn: dict[tuple[int, int], Tile] = {}
        """The tiles drawn in pieces (players' scene), by place."""

    def hides(self, area: Area | None) -> bool:
        """Whether this scene must draw nothing at ``area`` (the players' scene only)."""
        return self.player and area is not None and tuple(area) in self.under

    def sync(self) -> set[Area]:
        """Follow the encounter's fog: returns the areas that were fogged or revealed."""
        enc = self.scene.enc
        new = fogged(enc.zone, enc.fog)
        changed = set(new ^ self.under)
        if not changed:
            return changed
        self.under = new
        for area in changed:
            if area in new:
                self.items[area] = item = FogItem(area, self.player)
                self.scene.addItem(item)
            else:
                self.scene.removeItem(self.items.pop(area))
        touched = set(changed)
        for c, r in changed:
            touched.update((c + dc, r + dr) for dc, dr in _NEIGHBOURS)
        for area in touched if not self.player else ():
            item = self.items.get(area)
            if item is not None:
                item.set_neighbours(new)
        return changed

    # ------------------------------------------------------------- the players' tiles

    def tile_hidden(self, key: tuple[int, int]) -> frozenset[Area]:
        """The fogged areas of the tile at ``key`` (always empty for the GM)."""
        if not self.player or not self.under:
            return frozenset()
        col, row = key
        cells = ((col * TILE + c, row * TILE + r) for r in range(TILE) for c in range(TILE))
        return frozenset(a for a in cells if a in self.under)

    def takes_tile(self, tile: Tile, hidden: frozenset[Area]) -> bool:
        """In the players' scene a tile with fog (or once fogged) is drawn in pieces, one
        per clear area, so revealing a region adds exactly its pieces; True if this layer
        draws ``tile`` (its missing pieces are added now)."""
        key = (tile.col, tile.row)
        if not self.player or not (hidden or key in self.pieced):
            return False
        pieces = self.pieced.setdefault(key, {})
        self.drawn[key] = tile
        for area in tile.areas():
            if area not in hidden and area not in pieces:
                pieces[area] = item = TilePiece(tile, area, self.scene.theme)
                self.scene.addItem(item)
        return True

    def cover(self, areas) -> None:
        """Drop the pieces of newly fogged areas."""
        for area in areas:
            pieces = self.pieced.get(tile_of(area))
            if pieces and area in pieces:
                self.scene.removeItem(pieces.pop(area))

    @staticmethod
    def tiles_of(areas) -> set[tuple[int, int]]:
        return {tile_of(a) for a in areas}

    def drop_tile(self, key: tuple[int, int]) -> None:
        self.drawn.pop(key, None)
        for item in self.pieced.pop(key, {}).values():
            self.scene.removeItem(item)


class TilePiece(MapItem):
    """One clear area of a players' tile that has (or had) fog: the tile's artwork cut to
    that area (:class:`~afdesk.gui.map.terrain.TileItem` draws a whole tile)."""

    def __init__(self, tile: Tile, area: Area, theme) -> None:
        super().__init__()
        self.tile = tile
        self.area = area
        self.theme = theme
        self.setZValue(Z_TILE)
        self.setPos(tile.col * TILE_SIZE, tile.row * TILE_SIZE)
        x, y, w, h = mapgeom.area_rect(area)
        self._cut = QRectF(x - self.pos().x(), y - self.pos().y(), w, h)
        self.set_bounds(self._cut)
        self.setToolTip(f"{tile.name} ({tile.col}, {tile.row})")

    def paint(self, painter: QPainter, option, widget=None) -> None:
        image = artwork_for(painter, self.tile, self.theme)
        # Only this area's part of the tile's image (not the whole image, clipped).
        k = image.width() / TILE_SIZE
        cut = self._cut
        source = QRectF(cut.x() * k, cut.y() * k, cut.width() * k, cut.height() * k)
        painter.drawImage(cut, image, source)


__all__ = ["FogItem", "FogLayer", "TilePiece"]
