"""Map art on the map: the GM's pictures (``Encounter.art``) drawn under the tiles, with the
terrain's artwork over them made see-through so segments, the grid and the tile's pattern
stay readable (E9, E10).

The model holds each picture's bytes; they are decoded here once per picture (kept by
their bytes object, least recently used dropped) and drawn scaled to the tile's square. A
picture Qt cannot decode is left out (the tile is drawn as without art). In the players'
scene a picture is drawn only over clear areas: nothing of it exists under fog.

An encounter without art makes no item and changes no tile: it draws as it always did.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from afdesk.encounter.art import TileArt
from afdesk.encounter.zone import TILE
from afdesk.gui import mapgeom
from afdesk.gui.map.base import MapItem
from afdesk.gui.map.patterns import TILE_SIZE
from afdesk.gui.map.terrain import Z_TILE

Z_ART = Z_TILE - 0.5
"""Under the tiles (whose artwork is see-through over art)."""

TERRAIN_OVER_ART = 0.35
"""The opacity of a tile's own artwork over its map art."""

gm_shows_art = True
"""View > Show map art: whether the GM's map draws the art (the players' screen always
does). Read by every GM scene when it syncs."""

_DECODED: OrderedDict[bytes, QImage] = OrderedDict()
_DECODED_MAX = 48
"""Pictures kept decoded (a 3 x 3 zone holds 9; a few zones' worth)."""


def decoded(art: TileArt) -> QImage | None:
    """The picture of ``art`` as an image (None if Qt cannot read it)."""
    image = _DECODED.get(art.data)
    if image is not None:
        _DECODED.move_to_end(art.data)
        return image
    image = QImage()
    if not image.loadFromData(art.data) or image.isNull():
        return None
    _DECODED[art.data] = image
    while len(_DECODED) > _DECODED_MAX:
        _DECODED.popitem(last=False)
    return image


class ArtItem(MapItem):
    """One tile place's picture, scaled to the tile's square; in the players' scene only
    its clear areas."""

    def __init__(self, art: TileArt, scene) -> None:
        super().__init__()
        self.art = art
        self._scene = scene
        self.setZValue(Z_ART)
        self.setPos(art.col * TILE_SIZE, art.row * TILE_SIZE)
        self.set_bounds(QRectF(0, 0, TILE_SIZE, TILE_SIZE))

    def paint(self, painter: QPainter, option, widget=None) -> None:
        image = decoded(self.art)
        if image is None:
            return
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        fog = self._scene.fog
        hidden = fog.tile_hidden((self.art.col, self.art.row)) if fog.player else frozenset()
        if not hidden:
            painter.drawImage(self.boundingRect(), image)
            return
        kx, ky = image.width() / TILE_SIZE, image.height() / TILE_SIZE
        for r in range(TILE):
            for c in range(TILE):
                area = (self.art.col * TILE + c, self.art.row * TILE + r)
                if area in hidden:
                    continue
                x, y, w, h = mapgeom.area_rect(area)
                cut = QRectF(x - self.pos().x(), y - self.pos().y(), w, h)
                source = QRectF(cut.x() * kx, cut.y() * ky, cut.width() * kx, cut.height() * ky)
                painter.drawImage(cut, image, source)


class ArtLayer:
    """The art items of one map scene, kept in step with the encounter's art, its tiles
    and (players' scene) its fog."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self.items: dict[tuple[int, int], ArtItem] = {}

    def shown(self) -> bool:
        return self.scene.player or gm_shows_art

    def sync(self) -> None:
        """Items for the pictures under existing tiles (none while hidden), and the
        tiles' own artwork see-through over them."""
        scene = self.scene
        art = scene.enc.art
        if not art.tiles and not self.items:
            return  # no art, none drawn: nothing to do (a file without art pays nothing)
        want = {}
        if self.shown():
            tiles = {(t.col, t.row) for t in scene.enc.zone.tiles}
            want = {a.slot: a for a in art.tiles if a.slot in tiles}
        for key in [k for k, item in self.items.items() if want.get(k) is not item.art]:
            scene.removeItem(self.items.pop(key))
        for key, tile_art in want.items():
            if key not in self.items:
                self.items[key] = item = ArtItem(tile_art, scene)
                scene.addItem(item)
        self.refog()
        for key, item in scene.tiles.items():
            item.setOpacity(TERRAIN_OVER_ART if key in self.items else 1.0)
        for key, pieces in scene.fog.pieced.items():
            for piece in pieces.values():
                piece.setOpacity(TERRAIN_OVER_ART if key in self.items else 1.0)

    def refog(self) -> None:
        """The fog changed: repaint the pictures (the players' scene draws clear areas)."""
        if self.scene.player:
            for item in self.items.values():
                item.update()


__all__ = ["TERRAIN_OVER_ART", "ArtItem", "ArtLayer", "decoded"]
