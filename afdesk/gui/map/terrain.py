"""Zone items: tiles with their terrain pattern, segments with their properties, the area
grid and the zone's edges (E9, E10). All static between zone changes, so all cached."""

from __future__ import annotations

import math

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QImage, QPainter, QPainterPath, QPen

from afdesk.encounter.zone import TILE, EdgeRule, Segment, Tile, Zone
from afdesk.gui import mapgeom
from afdesk.gui.map.base import MapItem
from afdesk.gui.map.patterns import TILE_SIZE, tile_artwork, zoom_band
from afdesk.gui.map.theme import MapTheme, font, glyphs_of, segment_colour

AREA = mapgeom.AREA

Z_TILE, Z_SEGMENT, Z_GRID, Z_EDGE = 0.0, 1.0, 2.0, 3.0


def artwork_for(painter: QPainter, tile: Tile, theme: MapTheme) -> QImage:
    """``tile``'s artwork at the zoom ``painter`` draws at (smoothly scaled from there)."""
    t = painter.worldTransform()
    scale = math.hypot(t.m11(), t.m12()) * painter.device().devicePixelRatioF()
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    return tile_artwork(tile, theme.pattern_alpha, zoom_band(scale))


class TileItem(MapItem):
    """One tile: its colour, the pattern of its kind (grass, water, rock, ...) and the
    textures of its segments' properties, so a table can tell water from rough ground at
    a glance. The artwork is drawn once per zoom band (:func:`tile_artwork`); zooming
    within a band only rescales it."""

    def __init__(self, tile: Tile, theme: MapTheme) -> None:
        super().__init__()
        self.theme = theme
        self.tile = tile
        self.setZValue(Z_TILE)
        self.setPos(tile.col * TILE_SIZE, tile.row * TILE_SIZE)
        self.set_bounds(QRectF(0, 0, TILE_SIZE, TILE_SIZE))
        self.setToolTip(f"{tile.name} ({tile.col}, {tile.row})")

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.drawImage(self.boundingRect(), artwork_for(painter, self.tile, self.theme))


# ---------------------------------------------------------------------------- segments


class SegmentItem(MapItem):
    """One segment of a placed tile: its outline and a tag of property glyphs (the legend
    explains them; the GM's tooltip has the words). The textures of its properties
    (water, rough, cover, ...) are part of the tile's artwork."""

    def __init__(self, tile: Tile, index: int, theme: MapTheme, slot: int = 0) -> None:
        super().__init__()
        self.theme = theme
        self.tile = tile
        self.index = index
        self.segment: Segment = tile.segments[index]
        self.areas = [tuple(a) for a in tile.global_areas(self.segment)]
        self.slot = slot
        """How many earlier segments are tagged in the same area (tags stack down)."""
        self.setZValue(Z_SEGMENT)
        xs = [a[0] for a in self.areas]
        ys = [a[1] for a in self.areas]
        self.set_bounds(
            QRectF(
                min(xs) * AREA - 4,
                min(ys) * AREA - 4,
                (max(xs) - min(xs) + 1) * AREA + 8,
                (max(ys) - min(ys) + 1) * AREA + 8,
            )
        )
        labels = self.segment.props.labels()
        tip = f"{self.segment.name}: {', '.join(labels) or 'no properties'}"
        for prop in self.segment.props.custom:
            if prop.text:
                tip += f"\n{prop.name}: {prop.text}"
        self.setToolTip(tip)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        props = self.segment.props
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        colour = segment_colour(props)
        pen = QPen(colour, self.theme.segment_width)
        if props.ledge:
            pen.setWidthF(self.theme.segment_width * 2)
        pen.setCapStyle(Qt.PenCapStyle.SquareCap)
        painter.setPen(pen)
        path = QPainterPath()
        for (x0, y0), (x1, y1) in mapgeom.outline(self.areas):
            path.moveTo(x0, y0)
            path.lineTo(x1, y1)
        painter.drawPath(path)
        self._paint_tag(painter)

    def _paint_tag(self, painter: QPainter) -> None:
        marks = glyphs_of(self.segment.props)
        if not marks:
            return
        c, r = mapgeom.anchor(self.areas)
        size = 17.0 * self.theme.badge_scale
        x = c * AREA + 3
        y = r * AREA + 3 + self.slot * (size + 2)
        painter.setFont(font(size * 0.62, bold=True))
        for glyph, mark in marks:
            w = max(size, size * 0.42 * len(mark) + 6)
            rect = QRectF(x, y, w, size)
            painter.setPen(QPen(QColor("#ffffff"), 1.2))
            painter.setBrush(glyph.colour)
            painter.drawRoundedRect(rect, size / 2, size / 2)
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, mark)
            x += w + 2


# -------------------------------------------------------------------------- grid, edges


class GridItem(MapItem):
    """The 5 x 5 area grid of every tile, with tile borders heavier than area lines."""

    def __init__(self, zone: Zone, theme: MapTheme) -> None:
        super().__init__()
        self.theme = theme
        self.zone = zone
        self.setZValue(Z_GRID)
        x, y, w, h = mapgeom.bounds_rect(zone.area_bounds()) if zone.tiles else (0, 0, 0, 0)
        pad = theme.tile_width
        self.set_bounds(QRectF(x - pad, y - pad, w + 2 * pad, h + 2 * pad))

    def paint(self, painter: QPainter, option, widget=None) -> None:
        thin = QPainterPath()
        thick = QPainterPath()
        for t in self.zone.tiles:
            x0, y0 = t.col * TILE_SIZE, t.row * TILE_SIZE
            for i in range(1, TILE):
                thin.moveTo(x0 + i * AREA, y0)
                thin.lineTo(x0 + i * AREA, y0 + TILE_SIZE)
                thin.moveTo(x0, y0 + i * AREA)
                thin.lineTo(x0 + TILE_SIZE, y0 + i * AREA)
            thick.addRect(QRectF(x0, y0, TILE_SIZE, TILE_SIZE))
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painter.setPen(QPen(self.theme.grid, self.theme.grid_width))
        painter.drawPath(thin)
        painter.setPen(QPen(self.theme.tile_border, self.theme.tile_width))
        painter.drawPath(thick)


EDGE_DEPTH = 0.42 * AREA


class EdgeItem(MapItem):
    """A band outside one edge of the zone: red with EXIT where leaving ends the encounter
    for that character, grey where the zone grows instead (E9)."""

    def __init__(self, zone: Zone, rule: EdgeRule, theme: MapTheme) -> None:
        super().__init__()
        self.theme = theme
        self.rule = rule
        self.setZValue(Z_EDGE)
        x, y, w, h = mapgeom.bounds_rect(zone.area_bounds())
        d = EDGE_DEPTH
        gap = theme.tile_width / 2 + 1
        edge = rule.edge.value
        self._vertical = edge in ("east", "west")
        if edge == "north":
            self.set_bounds(QRectF(x, y - d - gap, w, d))
        elif edge == "south":
            self.set_bounds(QRectF(x, y + h + gap, w, d))
        elif edge == "west":
            self.set_bounds(QRectF(x - d - gap, y, d, h))
        else:
            self.set_bounds(QRectF(x + w + gap, y, d, h))
        what = "Exit: leaving here ends the encounter" if rule.exits else "The zone goes on"
        if rule.blocked:
            what = "Blocked: nobody leaves this way"
        tip = f"{rule.edge.label} edge. {what}."
        if rule.note and theme.show_gm_notes:
            tip += f"\n{rule.note}"
        self.setToolTip(tip)

    def text(self) -> str:
        """The words in the band (the GM sees the edge's note, the players do not)."""
        arrow = {"north": "▲", "south": "▼", "west": "◀", "east": "▶"}[self.rule.edge.value]
        head = f"{arrow} EXIT {arrow}" if self.rule.exits else f"{arrow} zone goes on {arrow}"
        if self.rule.blocked:
            head = "BLOCKED"
        if self.rule.note and self.theme.show_gm_notes:
            return f"{head}   {self.rule.note}"
        return head

    def paint(self, painter: QPainter, option, widget=None) -> None:
        r = self.rect()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if self.rule.blocked:
            back, fore = QColor("#263238"), QColor("#eceff1")
        elif self.rule.exits:
            back, fore = QColor("#c62828"), QColor("#ffffff")
        else:
            back, fore = QColor("#55606b"), QColor("#e8e8e8")
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(back))
        painter.drawRoundedRect(r, 6, 6)
        if self.rule.exits and not self.rule.blocked:
            painter.setBrush(QBrush(QColor(0, 0, 0, 60), Qt.BrushStyle.BDiagPattern))
            painter.drawRoundedRect(r, 6, 6)
        painter.setPen(fore)
        painter.setFont(font(EDGE_DEPTH * 0.52 * self.theme.text_scale, bold=True))
        painter.save()
        if self._vertical:
            painter.translate(r.center())
            painter.rotate(-90 if self.rule.edge.value == "west" else 90)
            box = QRectF(-r.height() / 2, -r.width() / 2, r.height(), r.width())
        else:
            box = r
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self.text())
        painter.restore()
