"""What the GM has selected on the map: a character, an area, a segment, a tile or an edge
of the zone, or nothing. Small frozen values with no Qt, so tools, docks and tests compare
them plainly (``sel == Character("gao")``).

The character selection is also the document's (``doc.selected``), which the character
dock follows; the other kinds live in the map view (the zone editor's tools will use them).
"""

from __future__ import annotations

from dataclasses import dataclass

from afdesk.encounter import geometry
from afdesk.encounter import zone as zones


@dataclass(frozen=True, slots=True)
class Nothing:
    """No selection."""


@dataclass(frozen=True, slots=True)
class Character:
    id: str


@dataclass(frozen=True, slots=True)
class Area:
    area: geometry.Area


@dataclass(frozen=True, slots=True)
class Tile:
    tile: tuple[int, int]
    """(column, row) of the tile in tiles."""


@dataclass(frozen=True, slots=True)
class Segment:
    tile: tuple[int, int]
    index: int
    """The segment's place in its tile's ``segments``."""


@dataclass(frozen=True, slots=True)
class Edge:
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
