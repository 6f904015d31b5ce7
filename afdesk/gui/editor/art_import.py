"""Importing map art: read a picture (PNG, JPEG, WebP) or a Universal VTT map, cut it into
the zone's tiles along the GM's alignment, scale each tile's part down to at most
``ART_SIDE`` pixels a side and encode it (JPEG, or PNG where it has transparency). The
pictures are decoded and encoded here with Qt; the model only ever sees bytes
(afdesk.encounter.art).

A file too large, too many pixels or unreadable is refused with a :class:`LoadError`
naming the file and what is wrong; nothing changes. What to push is a list of Ops
(:func:`import_ops`): the pictures (``SetMapArt``) and, for a ``.uvtt`` map when the GM
asks, its walls and doors as segments (``PaintSegment``, E10), one undo step.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
from PySide6.QtGui import QImage, QImageReader, QPainter

from afdesk.encounter.art import (
    ART_SIDE,
    ART_TILE_BYTES,
    Alignment,
    TileArt,
    tiles_covered,
)
from afdesk.encounter.op import Op
from afdesk.encounter.ops.art import SetMapArt
from afdesk.encounter.ops.editor import PaintSegment
from afdesk.encounter.zone import TILE, Zone, segment_areas
from afdesk.storage import uvtt
from afdesk.storage.errors import LoadError

MAX_PICTURE_BYTES = 48 * 1024 * 1024
"""A picture file larger than this is refused before it is read."""

MAX_PICTURE_SIDE = 16384
"""A picture wider or higher than this many pixels is refused before it is decoded."""

FORMATS = {"png": "image/png", "jpeg": "image/jpeg", "jpg": "image/jpeg", "webp": "image/webp"}
"""The picture formats afdesk imports (Qt's format names)."""

JPEG_QUALITY = 88

Slot = tuple[int, int]


def _source(path: Path) -> str:
    return path.name or str(path)


def read_file(path: str | Path) -> tuple[QImage, uvtt.UvttMap | None]:
    """The picture of a file, and the Universal VTT map it came from (``.uvtt``,
    ``.dd2vtt``, or any file that is JSON); :class:`LoadError` naming the file."""
    path = Path(path)
    source = _source(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise LoadError(source, f"it cannot be read: {exc.strerror or exc}") from None
    limit = MAX_PICTURE_BYTES
    if size > limit:
        raise LoadError(
            source,
            f"it is {size / 2**20:.1f} MiB; afdesk imports pictures and maps of at most "
            f"{limit // 2**20} MiB (nothing changed)",
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise LoadError(source, f"it cannot be read: {exc.strerror or exc}") from None
    if path.suffix.lower() in (".uvtt", ".dd2vtt") or data.lstrip()[:1] == b"{":
        m = uvtt.parse(data, source)
        return picture_from_bytes(m.image, source), m
    return picture_from_bytes(data, source), None


def picture_from_bytes(data: bytes, source: str) -> QImage:
    """Decode a PNG, JPEG or WebP; :class:`LoadError` naming ``source`` if it is none of
    them, too large, or broken."""
    if len(data) > MAX_PICTURE_BYTES:
        raise LoadError(
            source,
            f"the picture takes more than {MAX_PICTURE_BYTES // 2**20} MiB (nothing changed)",
        )
    array = QByteArray(data)
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    kind = bytes(reader.format().data()).decode("ascii", "replace").lower()
    if kind not in FORMATS:
        what = f"a {kind.upper()} picture" if kind else "no picture afdesk can read"
        raise LoadError(
            source, f"this is {what}; afdesk imports PNG, JPEG and WebP pictures (nothing changed)"
        )
    size = reader.size()
    if size.width() > MAX_PICTURE_SIDE or size.height() > MAX_PICTURE_SIDE:
        raise LoadError(
            source,
            f"the picture is {size.width()} x {size.height()} pixels; afdesk imports pictures "
            f"of at most {MAX_PICTURE_SIDE} pixels a side (nothing changed)",
        )
    reader.setAllocationLimit(1024)  # MB: 16384 x 16384 x 4 bytes fits
    image = reader.read()
    if image.isNull():
        raise LoadError(
            source, f"the picture cannot be read: {reader.errorString()} (nothing changed)"
        )
    return image


def default_alignment(image: QImage, cols: int, rows: int) -> Alignment:
    """The picture stretched over ``cols`` x ``rows`` tiles (the cell size that fits it
    whole, the picture centred on the other axis)."""
    cell = max(1.0, min(image.width() / (cols * TILE), image.height() / (rows * TILE)))
    x = (image.width() - cell * cols * TILE) / 2
    y = (image.height() - cell * rows * TILE) / 2
    return Alignment(cell=round(cell, 2), x=round(x, 1), y=round(y, 1))


def _encode(image: QImage, fmt: str, quality: int = -1) -> bytes:
    """The picture written as ``fmt`` (b"" if Qt cannot write that format here)."""
    array = QByteArray()
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, fmt, quality):
        return b""
    buffer.close()
    return bytes(array.data())


def tile_picture(image: QImage, align: Alignment, dc: int, dr: int) -> TileArt | None:
    """The part of ``image`` under the tile ``(dc, dr)`` tiles from the alignment's first
    one, scaled to at most ``ART_SIDE`` pixels a side and encoded (None if the tile lies
    beyond the picture). Its ``col`` and ``row`` are ``dc``, ``dr``: the caller places it."""
    x, y, w, h = align.tile_rect(dc, dr)
    if not (x < image.width() and y < image.height() and x + w > 0 and y + h > 0):
        return None
    side = max(1, min(ART_SIDE, math.ceil(w)))
    covered = x >= 0 and y >= 0 and x + w <= image.width() and y + h <= image.height()
    clear = image.hasAlphaChannel() or not covered
    while True:
        out = QImage(side, side, QImage.Format.Format_ARGB32_Premultiplied)
        out.fill(Qt.GlobalColor.transparent)
        painter = QPainter(out)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        k = side / w
        painter.drawImage(QRectF(-x * k, -y * k, image.width() * k, image.height() * k), image)
        painter.end()
        data, mime = b"", "image/png"
        if not clear:
            flat = out.convertToFormat(QImage.Format.Format_RGB32)
            data, mime = _encode(flat, "JPEG", JPEG_QUALITY), "image/jpeg"
        if not data:  # transparent, or no JPEG writer in this Qt: PNG
            data, mime = _encode(out, "PNG"), "image/png"
        if not data:
            raise ValueError("Qt could not write the picture as PNG or JPEG")
        if len(data) <= ART_TILE_BYTES or side <= 64:
            return TileArt(dc, dr, mime, side, side, data)
        side = max(64, int(side * 0.75))  # too many bytes for one tile: fewer pixels


def cut(image: QImage, align: Alignment, slots: Sequence[Slot], first: Slot) -> list[TileArt]:
    """The pictures of the tiles of ``slots`` the picture covers (``first`` is the tile at
    the alignment's corner)."""
    out = []
    for col, row in tiles_covered(align, image.width(), image.height(), slots, first):
        art = tile_picture(image, align, col - first[0], row - first[1])
        if art is not None:
            out.append(TileArt(col, row, art.mime, art.width, art.height, art.data))
    return out


def zone_slots(zone: Zone) -> tuple[list[Slot], Slot]:
    """Every tile place of the zone and its top-left tile."""
    c0, r0, _c1, _r1 = zone.tile_bounds()
    return [(t.col, t.row) for t in zone.tiles], (c0, r0)


def import_ops(
    zone: Zone,
    image: QImage,
    align: Alignment,
    *,
    tile: Slot | None = None,
    uvtt_map: uvtt.UvttMap | None = None,
    walls: bool = False,
) -> list[Op]:
    """The Ops of one import: the pictures for the whole zone (or the one ``tile``), and
    with ``walls`` the ``.uvtt`` map's walls and doors as segments (E10)."""
    why = align.problem()
    if why:
        raise ValueError(why)
    if tile is not None:
        slots, first = [tile], tile
    else:
        slots, first = zone_slots(zone)
    pictures = cut(image, align, slots, first)
    if not pictures:
        raise ValueError("the picture covers no tile with this alignment: change the offset")
    ops: list[Op] = [SetMapArt(put=tuple(pictures))]
    if walls and uvtt_map is not None:
        inside = {a for t in zone.tiles if (t.col, t.row) in slots for a in t.areas()}
        corner = (first[0] * TILE, first[1] * TILE)
        wall, doors, closed = uvtt.wall_areas(uvtt_map, align, corner, inside)
        for name, areas, props in (
            (uvtt.WALLS, wall, uvtt.WALL_PROPS),
            (uvtt.DOORS, doors, uvtt.door_props(closed)),
        ):
            new = sorted(areas - segment_areas(zone, name))
            if new:
                ops.append(PaintSegment(name, tuple(new), props=props))
    return ops


__all__ = [
    "MAX_PICTURE_BYTES",
    "MAX_PICTURE_SIDE",
    "cut",
    "default_alignment",
    "import_ops",
    "picture_from_bytes",
    "read_file",
    "tile_picture",
]
