"""Tile artwork (afdesk.gui.map.patterns): the textures of segment properties are drawn once
per set of properties and size and stamped on every area that has them; the picture is the
one drawing each area in place gives, and a tile whose properties change gets new artwork."""

from __future__ import annotations

import msgspec
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from afdesk.encounter.zone import Segment, SegmentProps, Tile
from afdesk.gui.map import patterns
from afdesk.gui.map.patterns import AREA, TILE_SIZE, ZOOM_BANDS, area_texture, tile_artwork
from afdesk.gui.map.theme import GM, PLAYER
from afdesk.storage import samples


def drawn_in_place(tile: Tile, alpha: int, scale: float) -> QImage:
    """The artwork as it was drawn before the textures were stamped: every area's textures
    drawn in place, clipped to the area, after the tile's pattern."""
    side = max(1, round(TILE_SIZE * scale))
    image = QImage(side, side, QImage.Format.Format_ARGB32_Premultiplied)
    base = QColor(tile.colour)
    image.fill(base)
    painter = QPainter(image)
    painter.scale(side / TILE_SIZE, side / TILE_SIZE)
    patterns.draw_pattern(painter, tile.pattern, base, alpha, tile)
    for seg in tile.segments:
        for c, r in seg.areas:
            rect = QRectF(c * AREA, r * AREA, AREA, AREA)
            painter.save()
            painter.setClipRect(rect)
            patterns._fill_area(painter, rect, seg.props)
            painter.restore()
    painter.end()
    return image


def largest_difference(a: QImage, b: QImage) -> int:
    """The largest difference of one channel of one pixel (0: the same picture)."""
    assert (a.width(), a.height()) == (b.width(), b.height())
    a, b = (i.convertToFormat(QImage.Format.Format_ARGB32) for i in (a, b))  # kept alive
    x, y = bytes(a.constBits()), bytes(b.constBits())
    if x == y:
        return 0
    return max(abs(p - q) for p, q in zip(x, y, strict=True))


def fresh_artwork(tile: Tile, alpha: int, scale: float) -> QImage:
    patterns._ARTWORK.pop((tile, alpha, scale), None)
    return tile_artwork(tile, alpha, scale)


@pytest.mark.parametrize("scale", ZOOM_BANDS)
def test_stamped_textures_give_the_picture_of_drawing_each_area_in_place(qapp, scale):
    tiles = samples.build().zone.tiles
    assert sum(len(s.areas) for t in tiles for s in t.segments) > 100  # water, cover, ...
    for tile in tiles:
        for theme in (GM, PLAYER):
            stamped = fresh_artwork(tile, theme.pattern_alpha, scale)
            in_place = drawn_in_place(tile, theme.pattern_alpha, scale)
            # Compositing a texture drawn apart rounds to 8 bits once more: at most 2/255.
            assert largest_difference(stamped, in_place) <= 2


def test_a_scale_between_bands_draws_in_place(qapp):
    tile = samples.build().zone.tiles[3]  # the river: water and slippery segments
    odd = 0.3  # an area is 19.2 pixels: no texture of whole pixels to stamp
    assert fresh_artwork(tile, GM.pattern_alpha, odd) == drawn_in_place(tile, GM.pattern_alpha, odd)


def test_one_texture_per_set_of_properties_and_size(qapp):
    water = SegmentProps(water=True, altitude=2)
    assert area_texture(water, 64) is area_texture(SegmentProps(water=True), 64)
    assert area_texture(water, 64) is not area_texture(water, 128)
    assert area_texture(water, 128).width() == 128
    assert area_texture(SegmentProps(altitude=3, ledge=True), 64) is None  # nothing to draw
    kinds = [
        SegmentProps(water=True),
        SegmentProps(slippery=True),
        SegmentProps(rough=True),
        SegmentProps(cover=True),
        SegmentProps(steep=True),
        SegmentProps(rough=True, cover=True),
    ]
    images = [area_texture(p, 64) for p in kinds]
    assert len({bytes(i.constBits()) for i in images}) == len(kinds)  # each its own picture


def test_a_tile_whose_properties_change_gets_its_new_textures(qapp):
    tile = Tile(0, 0, "meadow", "Meadow", "#7fb24a", "grass", (Segment("a", ((1, 1), (2, 1))),))
    plain = tile_artwork(tile, GM.pattern_alpha, 1.0)
    for props in (SegmentProps(water=True), SegmentProps(cover=True), SegmentProps()):
        seg = msgspec.structs.replace(tile.segments[0], props=props)
        changed = msgspec.structs.replace(tile, segments=(seg,))
        art = tile_artwork(changed, GM.pattern_alpha, 1.0)
        assert largest_difference(art, drawn_in_place(changed, GM.pattern_alpha, 1.0)) <= 2
        assert (art == plain) is (props == SegmentProps())


def test_a_place_keeps_the_looks_it_showed_last_only(qapp):
    """A session of zone edits (E10) does not fill the artwork cache: each tile's place
    keeps the LOOKS_PER_PLACE looks used last at each alpha and zoom band, whichever was
    used again among them, and the other places keep theirs."""
    tiles = samples.build().zone.tiles
    other = tiles[4]
    kept = tile_artwork(other, GM.pattern_alpha, 1.0)
    base = tiles[0]
    looks = []
    for i in range(3 * patterns.LOOKS_PER_PLACE):
        seg = Segment("Painted", ((i % 5, i // 5),), SegmentProps(water=bool(i % 2)))
        looks.append(msgspec.structs.replace(base, segments=(*base.segments, seg)))
    shown = looks[0]
    for look in looks:
        for theme in (GM, PLAYER):
            tile_artwork(look, theme.pattern_alpha, 1.0)
        tile_artwork(shown, GM.pattern_alpha, 1.0)  # shown again between the edits

    def at_place(alpha: int) -> list[Tile]:
        return [
            k[0]
            for k in patterns._ARTWORK
            if k[1:] == (alpha, 1.0) and (k[0].col, k[0].row) == (base.col, base.row)
        ]

    n = patterns.LOOKS_PER_PLACE
    assert at_place(GM.pattern_alpha) == [*looks[-(n - 1) :], shown]
    assert at_place(PLAYER.pattern_alpha) == looks[-n:]
    assert tile_artwork(other, GM.pattern_alpha, 1.0) is kept
