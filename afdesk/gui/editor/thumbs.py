"""Tile thumbnails for the palette, drawn by the map's own code (:func:`tile_artwork`), so
a thumbnail looks like the tile it will place."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap

from afdesk.encounter.zone import TILE, Tile, TileKind
from afdesk.gui.map.patterns import tile_artwork
from afdesk.gui.map.theme import GM

THUMB = 72
"""Pixels a side."""


def thumbnail(kind: TileKind, size: int = THUMB) -> QPixmap:
    """The tile of ``kind`` as the GM's map draws it, with its segments outlined."""
    tile = Tile.place(kind, 0, 0)
    image = tile_artwork(tile, GM.pattern_alpha, 0.25)
    pix = QPixmap(size, size)
    pix.fill(QColor("#000000"))
    painter = QPainter(pix)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
    painter.drawImage(QRectF(0, 0, size, size), image)
    cell = size / TILE
    painter.setPen(QPen(QColor(0, 0, 0, 150), 1.0, Qt.PenStyle.DotLine))
    for seg in kind.segments:
        for c, r in seg.areas:
            painter.drawRect(QRectF(c * cell, r * cell, cell, cell))
    painter.setPen(QPen(QColor("#202020"), 1.5))
    painter.drawRect(QRectF(0.5, 0.5, size - 1, size - 1))
    painter.end()
    return pix


def icon(kind: TileKind) -> QIcon:
    return QIcon(thumbnail(kind))
