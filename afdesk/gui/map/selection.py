"""What the GM has selected on the map: a character, an area, a segment, a tile or an edge
of the zone, or nothing. Small frozen values with no Qt, so tools, docks and tests compare
them plainly (``sel == Character("gao")``: by kind and value). Frozen msgspec Structs, as
the model's records are: about thirty times cheaper to define than dataclasses, which
counts at the start.

The character selection is also the document's (``doc.selected``), which the character
dock follows; the other kinds live in the map view (the zone editor's tools will use them).
"""

from __future__ import annotations

import msgspec

from afdesk.encounter import geometry
from afdesk.encounter import zone as zones


class Nothing(msgspec.Struct, frozen=True):
    """No selection."""


class Character(msgspec.Struct, frozen=True):
    id: str


class Area(msgspec.Struct, frozen=True):
    area: geometry.Area


class Tile(msgspec.Struct, frozen=True):
    tile: tuple[int, int]
    """(column, row) of the tile in tiles."""


class Segment(msgspec.Struct, frozen=True):
    tile: tuple[int, int]
    index: int
    """The segment's place in its tile's ``segments``."""


class Edge(msgspec.Struct, frozen=True):
    edge: zones.Edge


Selection = Nothing | Character | Area | Tile | Segment | Edge
NOTHING = Nothing()
KINDS: tuple[type[Selection], ...] = (Character, Segment, Tile, Area, Edge)


def character_id(sel: Selection) -> str:
    """The selected character's id, or "" (what ``doc.selected`` holds)."""
    return sel.id if isinstance(sel, Character) else ""


def of_character(cid: str) -> Selection:
    """The selection of the document's selected character ("" is nothing)."""
    return Character(cid) if cid else NOTHING


def at(zone: zones.Zone, area: geometry.Area, character: str, kind: type[Selection]) -> Selection:
    """The thing of ``kind`` under a point in ``area`` where ``character`` (or "") is
    drawn; nothing if there is none of that kind there."""
    if kind is Character:
        return of_character(character)
    if kind is Edge:
        edge = zone.edge_beyond(area)
        return Edge(edge) if edge is not None else NOTHING
    tile = zone.tile_at(*zones.tile_of(area))
    if tile is None:
        return NOTHING
    if kind is Area:
        return Area(area)
    if kind is Tile:
        return Tile((tile.col, tile.row))
    if kind is Segment:
        for i, seg in enumerate(tile.segments):
            if area in tile.global_areas(seg):
                return Segment((tile.col, tile.row), i)
    return NOTHING
