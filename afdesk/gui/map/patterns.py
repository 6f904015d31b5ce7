"""Tile artwork: the pattern of each tile kind and the textures of segment properties,
drawn in scene units and kept as images per zoom band, so that zooming rescales instead of
redrawing hundreds of strokes. The textures of a set of properties over one area are drawn
once per size and stamped on every area that has them (the sample's first frame drew 186
areas one by one)."""

from __future__ import annotations

import math
import random
from collections import OrderedDict

from PySide6.QtCore import QLineF, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPen, QPolygonF

from afdesk.encounter.zone import TILE, Tile
from afdesk.gui import mapgeom

AREA = mapgeom.AREA
TILE_SIZE = TILE * AREA


def _shade(colour: QColor, factor: int, alpha: int) -> QColor:
    c = colour.darker(factor) if factor >= 100 else colour.lighter(200 - factor)
    c.setAlpha(alpha)
    return c


ZOOM_BANDS = (0.25, 0.5, 1.0, 2.0, 4.0)


def zoom_band(scale: float) -> float:
    """The artwork resolution for a device scale: the next band up (crisp), at most 4."""
    for band in ZOOM_BANDS:
        if scale <= band * 1.05:
            return band
    return ZOOM_BANDS[-1]


_ARTWORK: OrderedDict[tuple, QImage] = OrderedDict()
_ARTWORK_BYTES = 160 * 1024 * 1024

LOOKS_PER_PLACE = 4
"""The looks of one tile's place (column, row) kept at each alpha and zoom band: the one
shown and the last few it had, so an undo or redo of a zone edit finds its artwork drawn.
Every edit of a tile (placed, turned, replaced, a segment painted, renamed or given other
properties) is a new look: without this bound a session of zone edits filled the cache up to
its bytes (160 MB, more than the whole window uses in its first minute)."""


def tile_artwork(tile: Tile, alpha: int, scale: float) -> QImage:
    """A tile's base colour, pattern and segment textures as an image of ``scale`` pixels
    per scene unit, drawn once and kept (least recently used go first)."""
    key = (tile, alpha, scale)
    image = _ARTWORK.get(key)
    if image is not None:
        _ARTWORK.move_to_end(key)
        return image
    side = max(1, round(TILE_SIZE * scale))
    image = QImage(side, side, QImage.Format.Format_ARGB32_Premultiplied)
    base = QColor(tile.colour)
    image.fill(base)
    painter = QPainter(image)
    painter.scale(side / TILE_SIZE, side / TILE_SIZE)
    draw_pattern(painter, tile.pattern, base, alpha, tile)
    pixels = AREA * side / TILE_SIZE  # an area's side in pixels
    if pixels == int(pixels):  # every zoom band: each area's textures are one image
        painter.resetTransform()
        step = int(pixels)
        for seg in tile.segments:
            texture = area_texture(seg.props, step)
            if texture is not None:
                for c, r in seg.areas:
                    painter.drawImage(QPoint(c * step, r * step), texture)
    else:
        for seg in tile.segments:
            for c, r in seg.areas:
                rect = QRectF(c * AREA, r * AREA, AREA, AREA)
                painter.save()
                painter.setClipRect(rect)
                _fill_area(painter, rect, seg.props)
                painter.restore()
    painter.end()
    _ARTWORK[key] = image
    _forget_old_looks(tile, alpha, scale)
    used = sum(i.sizeInBytes() for i in _ARTWORK.values())
    while used > _ARTWORK_BYTES and len(_ARTWORK) > 1:
        _, old = _ARTWORK.popitem(last=False)
        used -= old.sizeInBytes()
    return image


def _forget_old_looks(tile: Tile, alpha: int, scale: float) -> None:
    """Keep the :data:`LOOKS_PER_PLACE` looks of ``tile``'s place used last (at this
    alpha and scale), ``tile``'s own the newest; run once per drawing, so its pass over
    the cache costs little beside the drawing."""
    place = [
        k
        for k in _ARTWORK
        if k[1] == alpha and k[2] == scale and (k[0].col, k[0].row) == (tile.col, tile.row)
    ]
    for old in place[: max(0, len(place) - LOOKS_PER_PLACE)]:
        del _ARTWORK[old]


_TEXTURES: dict[tuple, QImage | None] = {}
"""By (what is drawn, side in pixels): 32 sets of properties at most, a size per zoom band."""


def texture_key(props) -> tuple[bool, ...]:
    """What :func:`_fill_area` draws depends on these properties alone."""
    return (
        bool(props.water),
        bool(props.slippery),
        bool(props.rough),
        bool(props.cover),
        bool(props.steep),
    )


def area_texture(props, side: int) -> QImage | None:
    """The textures of a segment's properties over one area, as an image ``side`` pixels
    square (None where they draw nothing): drawn once per set of properties and size,
    then stamped on every area of every tile that has them. An area is drawn alone, clipped
    to itself, at whole pixels, so stamping gives the same picture as drawing in place."""
    key = (texture_key(props), side)
    if key in _TEXTURES:
        return _TEXTURES[key]
    image = None
    if any(key[0]):
        image = QImage(side, side, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(QColor(0, 0, 0, 0))
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.scale(side / AREA, side / AREA)
        _fill_area(painter, QRectF(0, 0, AREA, AREA), props)
        painter.end()
    _TEXTURES[key] = image
    return image


def draw_pattern(painter: QPainter, pattern: str, base: QColor, alpha: int, tile: Tile) -> None:
    """The texture of a tile kind, the same every time for the same tile."""
    rng = random.Random(f"{tile.col},{tile.row},{tile.kind}")
    dark = _shade(base, 170, alpha + 40)
    light = _shade(base, 40, alpha)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    drawer = _PATTERNS.get(pattern, _dots)
    drawer(painter, rng, dark, light)


def _pen(colour: QColor, width: float) -> QPen:
    pen = QPen(colour, width)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    return pen


# The patterns draw hundreds of strokes a tile, and the Python around each stroke cost more
# than drawing it: values are drawn as ``rng.uniform(a, b)`` draws them (``a + (b - a) *
# rng.random()``, the same numbers) without its call, and a run of lines goes to Qt in one
# ``drawLines``: the same pixels up to a zoom band of 0.5; above it Qt strokes a few lines
# as one path, and where a grass blade's two strokes meet the tip is blended once instead
# of twice (1% of a tile's pixels, by at most 15 of 255).


def _grass(p: QPainter, rng: random.Random, dark: QColor, light: QColor) -> None:
    p.setPen(_pen(dark, 1.6))
    rnd = rng.random
    lines = []
    for _ in range(140):
        x = 0 + TILE_SIZE * rnd()
        y = 0 + TILE_SIZE * rnd()
        lines.append(QLineF(x - 3, y - 5, x, y))
        lines.append(QLineF(x + 3, y - 5, x, y))
    p.drawLines(lines)


def _forest(p: QPainter, rng: random.Random, dark: QColor, light: QColor) -> None:
    for _ in range(38):
        x, y, r = rng.uniform(0, TILE_SIZE), rng.uniform(0, TILE_SIZE), rng.uniform(10, 17)
        p.setPen(_pen(dark, 2.0))
        p.setBrush(dark)
        p.drawEllipse(QPointF(x + 2, y + 3), r, r)
        p.setBrush(light)
        p.setPen(Qt.PenStyle.NoPen)
        p.drawEllipse(QPointF(x - r * 0.25, y - r * 0.25), r * 0.55, r * 0.55)


def _water(p: QPainter, rng: random.Random, dark: QColor, light: QColor) -> None:
    white = QColor(255, 255, 255, min(255, light.alpha() + 70))
    p.setPen(_pen(white, 2.2))
    p.setBrush(Qt.BrushStyle.NoBrush)
    for row in range(14):
        y = 12 + row * 23.0
        x0 = (row % 2) * 22.0 - 30
        path = QPainterPath(QPointF(x0, y))
        x = x0
        while x < TILE_SIZE + 30:
            path.quadTo(QPointF(x + 11, y - 7), QPointF(x + 22, y))
            path.quadTo(QPointF(x + 33, y + 7), QPointF(x + 44, y))
            x += 44
        p.drawPath(path)


def _rock(p: QPainter, rng: random.Random, dark: QColor, light: QColor) -> None:
    p.setPen(_pen(dark, 2.0))
    for _ in range(26):
        x, y, r = rng.uniform(0, TILE_SIZE), rng.uniform(0, TILE_SIZE), rng.uniform(6, 14)
        pts = [
            QPointF(x + r * math.cos(a) * rng.uniform(0.7, 1.1), y + r * math.sin(a) * 0.8)
            for a in (i * math.pi / 3 for i in range(6))
        ]
        p.setBrush(light)
        p.drawPolygon(QPolygonF(pts))
    rnd = rng.random
    lines = []
    for _ in range(16):
        x = 0 + TILE_SIZE * rnd()
        y = 0 + TILE_SIZE * rnd()
        dx = -14 + 28 * rnd()
        lines.append(QLineF(x, y, x + dx, y + (6 + 10 * rnd())))
    p.drawLines(lines)


def _mud(p: QPainter, rng: random.Random, dark: QColor, light: QColor) -> None:
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(dark)
    for _ in range(40):
        x, y = rng.uniform(0, TILE_SIZE), rng.uniform(0, TILE_SIZE)
        p.drawEllipse(QPointF(x, y), rng.uniform(5, 12), rng.uniform(2, 5))


def _cobbles(p: QPainter, rng: random.Random, dark: QColor, light: QColor) -> None:
    p.setPen(_pen(dark, 1.5))
    p.setBrush(light)
    step = 16.0
    for row in range(int(TILE_SIZE / step) + 1):
        off = (row % 2) * step / 2
        for col in range(-1, int(TILE_SIZE / step) + 1):
            rect = QRectF(col * step + off + 1, row * step + 1, step - 2, step - 2)
            p.drawRoundedRect(rect, 4, 4)


def _floor(p: QPainter, rng: random.Random, dark: QColor, light: QColor) -> None:
    p.setPen(_pen(dark, 1.5))
    step = 16.0
    rnd = rng.random
    lines = []
    for row in range(int(TILE_SIZE / step) + 1):
        y = row * step
        lines.append(QLineF(0, y, TILE_SIZE, y))
        x = 0 + 80 * rnd()
        while x < TILE_SIZE:
            lines.append(QLineF(x, y, x, y + step))
            x += 60 + 50 * rnd()
    p.drawLines(lines)


def _tiles(p: QPainter, rng: random.Random, dark: QColor, light: QColor) -> None:
    p.setPen(_pen(dark, 1.8))
    p.setBrush(Qt.BrushStyle.NoBrush)
    step = 14.0
    for row in range(int(TILE_SIZE / step) + 1):
        off = (row % 2) * step / 2
        for col in range(-1, int(TILE_SIZE / step) + 1):
            x, y = col * step + off, row * step
            p.drawArc(QRectF(x, y - step / 2, step, step), 180 * 16, 180 * 16)


def _dirt(p: QPainter, rng: random.Random, dark: QColor, light: QColor) -> None:
    p.setPen(Qt.PenStyle.NoPen)
    rnd = rng.random
    brush, ellipse = p.setBrush, p.drawEllipse
    for _ in range(220):
        brush(dark if rnd() < 0.6 else light)
        r = 1.2 + (2.8 - 1.2) * rnd()
        x = 0 + TILE_SIZE * rnd()
        ellipse(QPointF(x, 0 + TILE_SIZE * rnd()), r, r)


def _stone(p: QPainter, rng: random.Random, dark: QColor, light: QColor) -> None:
    p.setPen(_pen(dark, 2.0))
    p.setBrush(Qt.BrushStyle.NoBrush)
    step = 40.0
    for row in range(int(TILE_SIZE / step) + 1):
        off = (row % 2) * step / 2
        for col in range(-1, int(TILE_SIZE / step) + 1):
            p.drawRect(QRectF(col * step + off, row * step, step, step))


def _rubble(p: QPainter, rng: random.Random, dark: QColor, light: QColor) -> None:
    p.setPen(_pen(dark, 1.5))
    for _ in range(70):
        x, y, r = rng.uniform(0, TILE_SIZE), rng.uniform(0, TILE_SIZE), rng.uniform(3, 8)
        pts = [
            QPointF(x + r * math.cos(a + rng.uniform(-0.4, 0.4)), y + r * math.sin(a))
            for a in (i * 2 * math.pi / 5 for i in range(5))
        ]
        p.setBrush(light if rng.random() < 0.5 else dark)
        p.drawPolygon(QPolygonF(pts))


def _dots(p: QPainter, rng: random.Random, dark: QColor, light: QColor) -> None:
    _dirt(p, rng, dark, light)


def _empty(p: QPainter, rng: random.Random, dark: QColor, light: QColor) -> None:
    """An empty slot of the zone editor: a plain cross, no texture."""
    p.setPen(_pen(dark, 3.0))
    p.drawLine(
        QPointF(TILE_SIZE * 0.42, TILE_SIZE * 0.5), QPointF(TILE_SIZE * 0.58, TILE_SIZE * 0.5)
    )
    p.drawLine(
        QPointF(TILE_SIZE * 0.5, TILE_SIZE * 0.42), QPointF(TILE_SIZE * 0.5, TILE_SIZE * 0.58)
    )


_PATTERNS = {
    "empty": _empty,
    "grass": _grass,
    "forest": _forest,
    "water": _water,
    "rock": _rock,
    "mud": _mud,
    "cobbles": _cobbles,
    "floor": _floor,
    "tiles": _tiles,
    "dirt": _dirt,
    "stone": _stone,
    "rubble": _rubble,
}


def _fill_area(p: QPainter, rect: QRectF, props) -> None:
    """Property textures inside one area, drawn in scene units so they scale with zoom."""
    x, y, h = rect.x(), rect.y(), rect.height()
    if props.water:
        # Opaque: water must read as water whatever the tile underneath (a river's bank
        # is land, its bed is not).
        p.fillRect(rect, QColor(46, 112, 196))
        p.setPen(_pen(QColor(255, 255, 255, 150), 1.6))
        for i in range(3):
            yy = y + 14 + i * 18
            path = QPainterPath(QPointF(x + 6, yy))
            path.quadTo(QPointF(x + 18, yy - 6), QPointF(x + 30, yy))
            path.quadTo(QPointF(x + 42, yy + 6), QPointF(x + 58, yy))
            p.drawPath(path)
    if props.slippery:
        p.fillRect(rect, QColor(180, 240, 255, 60))
        p.setPen(_pen(QColor(230, 250, 255, 200), 1.8))
        for i in range(3):
            yy = y + 12 + i * 20
            p.drawLine(QPointF(x + 30 + (i % 2) * 8, yy), QPointF(x + 44 + (i % 2) * 8, yy - 5))
    if props.rough:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(70, 40, 10, 170))
        for i in range(5):
            for j in range(5):
                if (i + j) % 2 == 0:
                    p.drawEllipse(QPointF(x + 8 + i * 12, y + 8 + j * 12), 2.2, 2.2)
    if props.cover:
        p.setPen(_pen(QColor(20, 30, 15, 130), 2.0))
        for k in range(-4, 5):
            p.drawLine(QPointF(x + k * 16, y + h), QPointF(x + k * 16 + h, y))
    if props.steep:
        p.setPen(_pen(QColor(90, 45, 0, 170), 2.2))
        for i in range(2):
            yy = y + 40 + i * 14
            p.drawPolyline(
                QPolygonF([QPointF(x + 20, yy), QPointF(x + 32, yy - 10), QPointF(x + 44, yy)])
            )
