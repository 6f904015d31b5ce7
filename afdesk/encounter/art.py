"""Map art: the GM's own pictures under the zone's tiles (E9: 3 x 3 tiles of 5 x 5 areas).

A picture belongs to one tile place ``(col, row)`` and covers exactly that tile's square.
The model keeps the picture's bytes opaque (PNG, JPEG or WebP, with its mime type and
size in pixels): decoding, cutting and downscaling are the GUI's (QImage), so this layer
needs neither Qt nor files. What it checks is what can be told from the bytes and the
numbers: a known type whose bytes start as that type does, a size within
:data:`ART_SIDE`, and the byte limits (:data:`ART_TILE_BYTES` per tile,
:data:`ART_TOTAL_BYTES` for the encounter), so a file never grows past what afdesk opens.

:class:`Alignment` says where the areas lie on a picture (cell size in pixels and the
offset of the zone's top-left corner): the GUI cuts a picture into tiles with it, and the
``.uvtt`` walls (:mod:`afdesk.storage.uvtt`) land on the same areas.
"""

import math
from collections.abc import Iterable, Sequence

import msgspec

from afdesk.encounter.zone import TILE

ART_SIDE = 1024
"""A tile's picture is at most this many pixels wide and high (larger ones are scaled
down on import)."""

ART_TILE_BYTES = 3 * 1024 * 1024
"""A tile's picture, as stored (after re-encoding), takes at most 3 MiB."""

ART_TOTAL_BYTES = 24 * 1024 * 1024
"""All the map art of an encounter takes at most 24 MiB (encounter files open up to
64 MiB; the base64 of 24 MiB is 32 MiB)."""

SIGNATURES: dict[str, tuple[bytes, ...]] = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/webp": (b"RIFF",),
}
"""The picture types map art may hold, and how their bytes start."""

Slot = tuple[int, int]


class TileArt(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The picture under one tile place: encoded bytes, their type and size in pixels."""

    col: int
    row: int
    mime: str
    width: int
    height: int
    data: bytes

    @property
    def slot(self) -> Slot:
        return self.col, self.row


def picture_type(data: bytes) -> str:
    """The mime type the bytes start as ("" if none map art may hold)."""
    for mime, heads in SIGNATURES.items():
        for head in heads:
            if data.startswith(head) and (mime != "image/webp" or data[8:12] == b"WEBP"):
                return mime
    return ""


def art_problem(art: TileArt) -> str:
    """What is wrong with one tile's picture, in a GM's words ("" if nothing is)."""
    if art.mime not in SIGNATURES:
        return (
            f"the picture type {art.mime!r} is not one map art holds "
            f"({', '.join(sorted(SIGNATURES))})"
        )
    if not art.data:
        return "the picture holds no bytes"
    if picture_type(art.data) != art.mime:
        found = picture_type(art.data)
        said = f"its bytes are {found}" if found else "its bytes are no PNG, JPEG or WebP"
        return f"the picture says it is {art.mime} but {said}"
    if len(art.data) > ART_TILE_BYTES:
        return (
            f"the picture takes {_mib(len(art.data))}; a tile's picture takes at most "
            f"{_mib(ART_TILE_BYTES)}"
        )
    return ""


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"


class MapArt(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The map art of an encounter: at most one picture per tile place, in row order."""

    tiles: tuple[TileArt, ...] = ()

    def at(self, col: int, row: int) -> TileArt | None:
        for art in self.tiles:
            if art.col == col and art.row == row:
                return art
        return None

    def total_bytes(self) -> int:
        return sum(len(a.data) for a in self.tiles)

    def changed(self, put: Iterable[TileArt], clear: Iterable[Slot] = ()) -> "MapArt":
        """This art with the pictures of ``put`` in their places and ``clear``'s gone."""
        by_slot = {a.slot: a for a in self.tiles}
        for col, row in clear:
            by_slot.pop((col, row), None)
        for art in put:
            by_slot[art.slot] = art
        return MapArt(tuple(by_slot[s] for s in sorted(by_slot, key=lambda s: (s[1], s[0]))))


def map_art_problem(art: MapArt) -> tuple[str, str] | None:
    """The first thing wrong with the encounter's map art: (place, text), or None. The
    numbers (places, pixel sizes) are :mod:`afdesk.encounter.limits`' rows."""
    seen: dict[Slot, int] = {}
    for i, tile in enumerate(art.tiles):
        why = art_problem(tile)
        if why:
            return f"art.tiles[{i}]", why
        if tile.slot in seen:
            return (
                f"art.tiles[{i}]",
                f"a second picture for the tile at column {tile.col}, row {tile.row} "
                f"(art.tiles[{seen[tile.slot]}] is there already); a tile has one picture",
            )
        seen[tile.slot] = i
    total = art.total_bytes()
    if total > ART_TOTAL_BYTES:
        return (
            "art",
            f"the map art takes {_mib(total)}; an encounter's map art takes at most "
            f"{_mib(ART_TOTAL_BYTES)}",
        )
    return None


# ------------------------------------------------------------------------ alignment


class Alignment(msgspec.Struct, frozen=True):
    """Where the areas lie on a picture: one area is ``cell`` pixels wide, and the
    top-left corner of the first area (the zone's, or the tile's) is at pixel ``(x, y)``
    (negative: the areas begin left of or above the picture)."""

    cell: float
    x: float = 0.0
    y: float = 0.0

    def problem(self) -> str:
        if not (math.isfinite(self.cell) and self.cell >= 1):
            return f"the cell size must be at least 1 pixel (it is {self.cell:g})"
        if not (math.isfinite(self.x) and math.isfinite(self.y)):
            return "the offset must be a finite number of pixels"
        return ""

    def tile_rect(self, dc: int, dr: int) -> tuple[float, float, float, float]:
        """The picture's pixels under the tile ``dc`` tiles right of and ``dr`` below the
        first one: (x, y, width, height)."""
        side = self.cell * TILE
        return self.x + dc * side, self.y + dr * side, side, side

    def area_point(self, px: float, py: float) -> tuple[float, float]:
        """A picture pixel in areas from the first area's corner (fractions kept)."""
        return (px - self.x) / self.cell, (py - self.y) / self.cell


def tiles_covered(
    align: Alignment, width: int, height: int, slots: Sequence[Slot], first: Slot
) -> list[Slot]:
    """The tile places of ``slots`` whose square overlaps a ``width`` x ``height``
    picture aligned by ``align`` (``first`` is the tile at the alignment's corner)."""
    out = []
    for col, row in slots:
        x, y, w, h = align.tile_rect(col - first[0], row - first[1])
        if x < width and y < height and x + w > 0 and y + h > 0:
            out.append((col, row))
    return out


__all__ = [
    "ART_SIDE",
    "ART_TILE_BYTES",
    "ART_TOTAL_BYTES",
    "SIGNATURES",
    "Alignment",
    "MapArt",
    "TileArt",
    "art_problem",
    "map_art_problem",
    "picture_type",
    "tiles_covered",
]
