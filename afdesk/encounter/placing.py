"""Where a new character goes and what it is called: the defaults the GM's Add character,
Duplicate and the Unplaced panel offer (where a dropped group spreads, which way it faces),
never rules."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from afdesk.encounter.combatant import Combatant, opposed
from afdesk.encounter.geometry import Area, centre, edge_areas, facing_towards
from afdesk.encounter.zone import TILE, tile_of

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter

_NUMBERED = re.compile(r"^(.*?)\s*(\d+)$")


def next_name(enc: Encounter, name: str) -> str:
    """The next free numbered name after ``name``: "Bandit 3" from "Bandit 2", "Gao 2"
    from "Gao"."""
    m = _NUMBERED.match(name.strip())
    base, n = (m.group(1), int(m.group(2))) if m else (name.strip(), 1)
    taken = {c.name for c in enc.roster()}
    n += 1
    while f"{base} {n}" in taken:
        n += 1
    return f"{base} {n}"


def free_area(enc: Encounter, near: Area | None = None) -> Area | None:
    """The zone's area nearest ``near`` (the zone's middle if None) where nobody stands;
    None if every area is taken (or there is no zone)."""
    if not enc.zone.tiles:
        return None
    c0, r0, c1, r1 = enc.zone.area_bounds()
    if near is None:
        near = ((c0 + c1) // 2, (r0 + r1) // 2)
    best: tuple[tuple[int, int, int], Area] | None = None
    for col in range(c0, c1 + 1):
        for row in range(r0, r1 + 1):
            area = (col, row)
            if not enc.zone.contains(area) or enc.occupants(area):
                continue
            ring = max(abs(col - near[0]), abs(row - near[1]))
            key = (ring, row, col)
            if best is None or key < best[0]:
                best = (key, area)
    return best[1] if best else None


# ------------------------------------------------------------- placing prepared characters


def unplaced(enc: Encounter) -> list[Combatant]:
    """The characters in the encounter but not on the map (a campaign's Prepare adds the
    band, the villain and the bestiary copies unplaced), in roster order; those who left
    the encounter are not waiting to be placed."""
    return [c for c in enc.roster() if c.area is None and not c.exited]


def spread(
    enc: Encounter, count: int, near: Area, within: Iterable[Area] = (), taken: Iterable[Area] = ()
) -> list[Area]:
    """``count`` free areas (nobody stands there, none in ``taken``) for a group dropped at
    ``near``: first those of ``within`` (a tile's areas, an edge's), nearest ``near`` first,
    then the rest of the zone by ring around ``near``. Fewer if the zone has fewer free."""
    if count <= 0 or not enc.zone.tiles:
        return []
    blocked: set[Area] = {(a[0], a[1]) for a in taken}
    inside: list[Area] = [(a[0], a[1]) for a in within if enc.zone.contains((a[0], a[1]))]
    c0, r0, c1, r1 = enc.zone.area_bounds()
    everywhere: list[Area] = [(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)]

    def key(a: Area) -> tuple[int, int, int]:
        return (max(abs(a[0] - near[0]), abs(a[1] - near[1])), a[1], a[0])

    out: list[Area] = []
    for pool in (sorted(inside, key=key), sorted(everywhere, key=key)):
        for area in pool:
            if len(out) == count:
                return out
            if area in blocked or not enc.zone.contains(area) or enc.occupants(area):
                continue
            out.append(area)
            blocked.add(area)
    return out


def tile_areas(area: Area) -> list[Area]:
    """The areas of the tile holding ``area`` (E9)."""
    tc, tr = tile_of(area)
    return [(tc * TILE + c, tr * TILE + r) for r in range(TILE) for c in range(TILE)]


def zone_edge_areas(enc: Encounter, edge: str) -> list[Area]:
    """The zone's outer areas along ``edge`` ("north", "east", "south", "west")."""
    if edge not in ("north", "east", "south", "west"):
        raise ValueError(f"there is no edge {edge!r}: north, east, south or west (E9)")
    return edge_areas(enc.zone.area_bounds(), edge) if enc.zone.tiles else []


def facing_the_other_side(enc: Encounter, c: Combatant, area: Area) -> float:
    """The facing a newly placed character takes (E11): towards the middle of its
    opponents on the map; with none there, towards the middle of the zone."""
    foes = [o.area for o in enc.roster() if o.on_map and o.area and opposed(c.side, o.side)]
    if foes:
        target = (
            sum(a[0] + 0.5 for a in foes) / len(foes),
            sum(a[1] + 0.5 for a in foes) / len(foes),
        )
    elif enc.zone.tiles:
        c0, r0, c1, r1 = enc.zone.area_bounds()
        target = ((c0 + c1 + 1) / 2, (r0 + r1 + 1) / 2)
    else:
        return c.facing
    return facing_towards(centre(area), target)


def drop_placement(enc: Encounter, ids: Sequence[str], drop: Area) -> list[tuple[str, Area, float]]:
    """Where the characters ``ids`` dragged onto ``drop`` go, and their facing (E11):
    one alone takes ``drop`` (the nearest free area if someone stands there); a group
    spreads over the free areas of the edge when dropped on the zone's outermost row or
    column, else of the tile (E9), nearest the drop first. Each faces the other side."""
    people = [enc.combatant(cid) for cid in ids]
    if not people or not enc.zone.tiles or not enc.zone.contains(drop):
        return []
    within: list[Area] = []
    if len(people) > 1:
        c0, r0, c1, r1 = enc.zone.area_bounds()
        edge = {drop[1] == r0: "north", drop[1] == r1: "south"}.get(True) or {
            drop[0] == c0: "west",
            drop[0] == c1: "east",
        }.get(True)
        within = zone_edge_areas(enc, edge) if edge else tile_areas(drop)
    areas = spread(enc, len(people), drop, within)
    return [
        (c.id, a, facing_the_other_side(enc, c, a)) for c, a in zip(people, areas, strict=False)
    ]
