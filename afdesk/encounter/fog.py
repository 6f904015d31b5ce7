"""Fog of war for the table's screen: what the players may not see yet.

The fog is a set of areas. The GM hides and reveals it by *region*: a whole tile, one named
segment of a tile, or (the free brush) single areas; a region is only a name for a set of
areas, so hiding a tile and then revealing its ford leaves the rest of the tile fogged.
Areas outside the zone (a trimmed edge) are kept but never fogged: if the zone grows back
over them they are fogged again, as the GM left them.

Pure data and functions; the Op is :class:`afdesk.encounter.ops.fog.SetFog`.
"""

from collections.abc import Iterable
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.geometry import Area
from afdesk.encounter.zone import TILE, Zone, tile_of

if TYPE_CHECKING:
    from afdesk.encounter.zone import Tile


class Fog(msgspec.Struct, frozen=True, omit_defaults=True):
    """The fogged areas, sorted (the encounter's ``fog`` part; nothing fogged by default)."""

    areas: tuple[Area, ...] = ()

    def covers(self, area: Area) -> bool:
        return tuple(area) in self.area_set()

    def area_set(self) -> frozenset[Area]:
        """The fogged areas as a set, made once for this fog (it never changes): the
        players' views ask :meth:`covers` of every character at each change."""
        kept = _AREA_SETS.get(id(self))
        if kept is not None and kept[0] is self:
            return kept[1]
        made: frozenset[Area] = frozenset((a[0], a[1]) for a in self.areas)
        if len(_AREA_SETS) >= _AREA_SETS_KEPT:
            _AREA_SETS.clear()
        _AREA_SETS[id(self)] = (self, made)
        return made

    def with_areas(self, areas: Iterable[Area], hidden: bool) -> "Fog":
        """The fog with ``areas`` hidden (or revealed)."""
        now = set(self.area_set())
        given = {(int(a[0]), int(a[1])) for a in areas}
        now = now | given if hidden else now - given
        return Fog(areas=tuple(sorted(now)))


_AREA_SETS: dict[int, tuple[Fog, frozenset[Area]]] = {}
"""The sets of the fogs asked last, by identity (each holds its fog: an id is not reused
while kept). A frozen record cannot hold the set itself."""
_AREA_SETS_KEPT = 4
"""Fogs kept: the encounter's, and those of a comparison (before and after a change)."""


class Region(msgspec.Struct, frozen=True):
    """A named set of areas the GM fogs or reveals at once."""

    kind: str
    """"tile", "segment" or "areas" (the brush)."""
    name: str
    """How the log names it: "the Ford", "the Forest tile (0, 0)", "area (3, 4)"."""
    areas: tuple[Area, ...]


def fogged(zone: Zone, fog: Fog) -> frozenset[Area]:
    """The areas of ``zone`` under ``fog``."""
    return frozenset(a for a in fog.area_set() if zone.contains(a))


def is_fogged(zone: Zone, fog: Fog, area: Area | None) -> bool:
    """Whether ``area`` (None: off the map, never fogged) lies under the fog."""
    # no fog (most encounters), nothing under it: the zone is not searched (the players'
    # views ask it for every character at each change)
    return area is not None and bool(fog.areas) and zone.contains(area) and fog.covers(area)


def tile_region(tile: "Tile") -> Region:
    return Region("tile", f"the {tile.name} tile ({tile.col}, {tile.row})", tuple(tile.areas()))


def segment_region(tile: "Tile", index: int) -> Region:
    seg = tile.segments[index]
    return Region("segment", f"the {seg.name}", tuple(tile.global_areas(seg)))


def area_region(areas: Iterable[Area]) -> Region:
    cells = tuple(sorted({(int(a[0]), int(a[1])) for a in areas}))
    if len(cells) == 1:
        name = f"area ({cells[0][0]}, {cells[0][1]})"
    else:
        name = f"{len(cells)} areas"
    return Region("areas", name, cells)


def region_at(zone: Zone, area: Area, *, whole_tile: bool = False) -> Region | None:
    """The region a click on ``area`` means: the segment holding it (the smallest, if
    segments overlap), else (or with ``whole_tile``) its tile; None outside the zone."""
    tile = zone.tile_at(*tile_of(area))
    if tile is None:
        return None
    if not whole_tile:
        local = (area[0] - tile.col * TILE, area[1] - tile.row * TILE)
        holding = [i for i, s in enumerate(tile.segments) if local in {tuple(a) for a in s.areas}]
        if holding:
            best = min(holding, key=lambda i: len(tile.segments[i].areas))
            return segment_region(tile, best)
    return tile_region(tile)


def all_regions(zone: Zone) -> list[Region]:
    """Every tile and named segment of the zone, tile first, for lists and menus."""
    out: list[Region] = []
    for tile in zone.tiles:
        out.append(tile_region(tile))
        out.extend(segment_region(tile, i) for i in range(len(tile.segments)))
    return out


def region_state(zone: Zone, fog: Fog, region: Region) -> str:
    """ "hidden" (every area fogged), "shown" (none) or "partly"."""
    under = fogged(zone, fog)
    inside = [a for a in region.areas if zone.contains(a)]
    count = sum(1 for a in inside if a in under)
    if inside and count == len(inside):
        return "hidden"
    return "partly" if count else "shown"


__all__ = [
    "Fog",
    "Region",
    "all_regions",
    "area_region",
    "fogged",
    "is_fogged",
    "region_at",
    "region_state",
    "segment_region",
    "tile_region",
]
