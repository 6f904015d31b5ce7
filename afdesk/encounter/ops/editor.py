"""Ops of the zone editor: place, turn, mirror, swap and fill tiles, add and remove
rows and columns of slots (E9), paint named segments and set their properties (E10).

Every edit is one Op, so one undo step per drop or stroke, journaled, in the log as
"Zone: ...". A placed tile is a copy of its kind (:class:`~afdesk.encounter.zone.Tile`) and
a kind placed from another tile set is copied into the zone's ``kinds``: the encounter file
holds every tile it uses, so it opens where that tile set is not installed.
"""

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import Area
from afdesk.encounter.op import Op
from afdesk.encounter.state import Phase
from afdesk.encounter.zone import (
    EMPTY,
    EMPTY_KIND,
    TILE,
    Edge,
    Segment,
    SegmentProps,
    Tile,
    TileKind,
    Zone,
    drawable,
    segment_props,
    tile_of,
    turned_tile,
)

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter

Slot = tuple[int, int]


def _slot(zone: Zone, slot: Slot) -> Tile:
    tile = zone.tile_at(*slot)
    if tile is None:
        raise IllegalOp(f"the zone has no slot at tile ({slot[0]}, {slot[1]})")
    return tile


def _with_tiles(zone: Zone, new: Sequence[Tile]) -> Zone:
    by_slot = {(t.col, t.row): t for t in new}
    tiles = tuple(by_slot.get((t.col, t.row), t) for t in zone.tiles)
    return msgspec.structs.replace(zone, tiles=tiles)


def _check_kind(kind: TileKind) -> None:
    """A kind carried by an Op (from a palette, a file) is sound: segments inside its tile."""
    if not kind.id.strip():
        raise IllegalOp(f"the tile kind {kind.name!r} has no id")
    for seg in kind.segments:
        if not seg.areas:
            raise IllegalOp(f"segment {seg.name!r} of {kind.name} covers no area")
        for c, r in seg.areas:
            if not (0 <= c < TILE and 0 <= r < TILE):
                raise IllegalOp(
                    f"segment {seg.name!r} of {kind.name} has area ({c}, {r}) outside the "
                    "tile's 5 x 5 areas"
                )


def _with_kind(zone: Zone, kind: TileKind) -> Zone:
    """The zone, keeping a copy of ``kind`` (every placed tile's kind is among the zone's:
    the file says so; the empty slot is never drawn, see ``drawable``)."""
    if any(k.id == kind.id for k in zone.kinds):
        return zone
    return zone.with_kinds((*zone.kinds, kind))


def _where(slot: Slot) -> str:
    return f"({slot[0]}, {slot[1]})"


def _logged(enc: "Encounter", text: str) -> str:
    """The log line of an edit: while preparing as it is; in play marked as the GM's
    override (the rules' own changes to the zone, E9's extensions and trims, are other Ops)."""
    if enc.turn.phase is Phase.SETUP:
        return text
    return f"{text} (GM override during play)"


class PlaceTile(Op, frozen=True):
    """Put a tile of ``kind`` in a slot (a drop from the palette, or a pick)."""

    col: int
    row: int
    kind: TileKind
    label = "Place tile"

    def execute(self, enc: "Encounter") -> None:
        _slot(enc.zone, (self.col, self.row))
        _check_kind(self.kind)
        zone = _with_kind(enc.zone, self.kind)
        enc.set_zone(_with_tiles(zone, [Tile.place(self.kind, self.col, self.row)]))

    def describe(self, enc: "Encounter") -> str:
        return _logged(enc, f"Zone: tile {_where((self.col, self.row))} becomes {self.kind.name}")

    def title(self, enc: "Encounter") -> str:
        return f"Place {self.kind.name} at {_where((self.col, self.row))}"


class TurnTile(Op, frozen=True):
    """Turn a placed tile by quarter turns clockwise and/or mirror it left to right; its
    segments and their properties turn with it."""

    col: int
    row: int
    quarters: int = 0
    mirror: bool = False
    label = "Turn tile"

    def execute(self, enc: "Encounter") -> None:
        if self.quarters % 4 == 0 and not self.mirror:
            raise IllegalOp("turn the tile by 90, 180 or 270 degrees, or mirror it")
        tile = _slot(enc.zone, (self.col, self.row))
        enc.set_zone(_with_tiles(enc.zone, [turned_tile(tile, self.quarters, self.mirror)]))

    def describe(self, enc: "Encounter") -> str:
        tile = enc.zone.tile_at(self.col, self.row)
        what = []
        if self.mirror:
            what.append("is mirrored")
        if self.quarters % 4:
            what.append(f"turns {90 * (self.quarters % 4)}°")
        name = tile.name if tile else "tile"
        return _logged(
            enc, f"Zone: the {name} tile at {_where((self.col, self.row))} " + " and ".join(what)
        )

    def title(self, enc: "Encounter") -> str:
        tile = enc.zone.tile_at(self.col, self.row)
        name = f"{tile.name} " if tile else ""
        what = []
        if self.mirror:
            what.append("Mirror")
        if self.quarters % 4:
            what.append(f"turn {90 * (self.quarters % 4)}°")
        doing = " and ".join(what).capitalize() or "Turn"
        return f"{doing} {name}at {_where((self.col, self.row))}"


class SwapTiles(Op, frozen=True):
    """Swap the tiles of two slots."""

    a: Slot
    b: Slot
    label = "Swap tiles"

    def execute(self, enc: "Encounter") -> None:
        ta, tb = _slot(enc.zone, self.a), _slot(enc.zone, self.b)
        if self.a == self.b:
            raise IllegalOp("pick two different tiles to swap")
        new_a = msgspec.structs.replace(tb, col=ta.col, row=ta.row)
        new_b = msgspec.structs.replace(ta, col=tb.col, row=tb.row)
        enc.set_zone(_with_tiles(enc.zone, [new_a, new_b]))

    def describe(self, enc: "Encounter") -> str:
        return _logged(enc, f"Zone: tiles {_where(self.a)} and {_where(self.b)} swap places")

    def title(self, enc: "Encounter") -> str:
        return f"Swap tiles {_where(self.a)} and {_where(self.b)}"


class FillTiles(Op, frozen=True):
    """Fill slots with the drawn kinds, one per slot in order (the draw is in the Op, so a
    replay draws nothing)."""

    slots: tuple[Slot, ...]
    kinds: tuple[TileKind, ...]
    label = "Fill tiles"

    def execute(self, enc: "Encounter") -> None:
        if not self.slots:
            raise IllegalOp("there are no slots to fill")
        if len(self.slots) != len(self.kinds):
            raise IllegalOp(f"{len(self.slots)} slots need {len(self.slots)} tiles")
        zone = enc.zone
        for s in self.slots:
            _slot(zone, s)
        for k in self.kinds:
            _check_kind(k)
            zone = _with_kind(zone, k)
        placed = [Tile.place(k, c, r) for (c, r), k in zip(self.slots, self.kinds, strict=True)]
        enc.set_zone(_with_tiles(zone, placed))

    def _same(self) -> str:
        """The one kind's name if every slot gets the same kind (a fill with the palette's
        selected tile), else ''."""
        ids = {k.id for k in self.kinds}
        return self.kinds[0].name if len(ids) == 1 and len(self.kinds) > 1 else ""

    def describe(self, enc: "Encounter") -> str:
        n = len(self.slots)
        slots = ", ".join(_where(s) for s in self.slots)
        if n == 1 and self.kinds:
            return _logged(enc, f"Zone: tile {slots} becomes {self.kinds[0].name}")
        if self._same():
            return _logged(enc, f"Zone: {n} slots filled with {self._same()}: {slots}")
        names = ", ".join(
            f"{k.name} at {_where(s)}" for s, k in zip(self.slots, self.kinds, strict=False)
        )
        return _logged(enc, f"Zone: {n} tiles drawn at random: {names}")

    def title(self, enc: "Encounter") -> str:
        n = len(self.slots)
        if self._same():
            return f"Fill {n} slots with {self._same()}"
        if n == 1 and self.kinds:
            return f"Place {self.kinds[0].name} at {_where(self.slots[0])}"
        return f"Fill {n} slots at random"


def draw_fill(
    enc: "Encounter",
    kinds: Sequence[TileKind],
    *,
    only_empty: bool,
    rng: random.Random | None = None,
) -> FillTiles:
    """Draw a tile kind at random for every slot (or every empty one) of the zone."""
    choices = drawable(kinds)
    if not choices:
        raise IllegalOp("the tile set has no tiles to draw from")
    slots = tuple((t.col, t.row) for t in enc.zone.tiles if not only_empty or t.kind == EMPTY)
    if not slots:
        raise IllegalOp("every slot already holds a tile" if only_empty else "the zone is empty")
    rng = rng or random.SystemRandom()
    return FillTiles(slots, tuple(rng.choice(choices) for _ in slots))


def fill_with(enc: "Encounter", kind: TileKind | None, *, only_empty: bool) -> FillTiles:
    """Every slot (or every empty one) of the zone gets the tile ``kind`` (the palette's
    selected tile, E9)."""
    if kind is None or kind.id == EMPTY:
        raise IllegalOp("select a tile in the palette first (not the empty slot)")
    slots = tuple((t.col, t.row) for t in enc.zone.tiles if not only_empty or t.kind == EMPTY)
    if not slots:
        raise IllegalOp("every slot already holds a tile" if only_empty else "the zone is empty")
    return FillTiles(slots, (kind,) * len(slots))


def flood_on_tile(zone: Zone, start: Area) -> set[Area]:
    """The brush's flood fill: the areas of ``start``'s tile joined to it side by side that
    lie in exactly the same segments (E10: a segment is on one tile, so a flood never
    crosses into the next tile); empty if ``start`` is outside the zone."""
    if not zone.contains(start):
        return set()
    slot = tile_of(start)
    tile = _slot(zone, slot)
    names: dict[Area, frozenset[str]] = {}
    for seg in tile.segments:
        for a in tile.global_areas(seg):
            names[a] = names.get(a, frozenset()) | {seg.name}
    key = names.get(start, frozenset())
    seen = {start}
    todo = [start]
    while todo:
        c, r = todo.pop()
        for nxt in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
            if nxt in seen or tile_of(nxt) != slot:
                continue
            if names.get(nxt, frozenset()) == key:
                seen.add(nxt)
                todo.append(nxt)
    return seen


class AddTileLine(Op, frozen=True):
    """Add a row or column of empty slots beyond an edge (preparing; E9's extensions in play
    draw tiles instead)."""

    edge: Edge
    label = "Add slots"

    def execute(self, enc: "Encounter") -> None:
        zone = enc.zone
        if not zone.tiles:
            raise IllegalOp("the zone has no tiles to add a row or column to")
        cols, rows = zone.size()
        count = cols if self.edge in (Edge.NORTH, Edge.SOUTH) else rows
        zone = _with_kind(zone, EMPTY_KIND)
        enc.set_zone(zone.extended(self.edge, [EMPTY_KIND] * count))

    def describe(self, enc: "Encounter") -> str:
        line = "row" if self.edge in (Edge.NORTH, Edge.SOUTH) else "column"
        return _logged(enc, f"Zone: a {line} of empty slots added at the {self.edge.value} edge")

    def title(self, enc: "Encounter") -> str:
        line = "row" if self.edge in (Edge.NORTH, Edge.SOUTH) else "column"
        return f"Add a {line} of slots at the {self.edge.value} edge"


class RemoveTileLine(Op, frozen=True):
    """Remove the outermost row or column of slots at an edge; nobody may stand there."""

    edge: Edge
    label = "Remove slots"

    def execute(self, enc: "Encounter") -> None:
        gone = enc.zone.line_areas(self.edge)
        for c in enc.roster():
            if c.area in gone and not c.exited:
                raise IllegalOp(
                    f"{c.name} stands in the {self.edge.value} tiles: move {c.name} first"
                )
            if any(d in gone for d in c.decoys):
                raise IllegalOp(f"a decoy of {c.name} is in the {self.edge.value} tiles")
        enc.set_zone(enc.zone.trimmed(self.edge))

    def describe(self, enc: "Encounter") -> str:
        line = "row" if self.edge in (Edge.NORTH, Edge.SOUTH) else "column"
        return _logged(enc, f"Zone: the {self.edge.value} {line} of tiles removed")

    def title(self, enc: "Encounter") -> str:
        line = "row" if self.edge in (Edge.NORTH, Edge.SOUTH) else "column"
        return f"Remove the {self.edge.value} {line} of slots"


def _clean_name(name: str) -> str:
    if not name.strip():
        raise IllegalOp("a segment needs a name (e.g. the river)")
    if name != name.strip():
        raise IllegalOp("a segment's name cannot start or end with spaces")
    return name


class PaintSegment(Op, frozen=True):
    """One stroke of the area brush: add areas to the segment called ``name`` (made if the
    zone has none, with ``props``), or take them out of it (``remove``). A segment spanning
    several tiles is one segment of that name in each tile (E10)."""

    name: str
    areas: tuple[Area, ...]
    remove: bool = False
    props: SegmentProps = SegmentProps()
    label = "Paint segment"

    def execute(self, enc: "Encounter") -> None:
        name = _clean_name(self.name)
        zone = enc.zone
        if not self.areas:
            raise IllegalOp("the stroke covers no area")
        for a in self.areas:
            if not zone.contains(a):
                raise IllegalOp(f"area ({a[0]}, {a[1]}) is outside the zone")
        props = segment_props(zone, name) or self.props
        by_tile: dict[Slot, set[tuple[int, int]]] = {}
        for a in self.areas:
            tc, tr = tile_of(a)
            by_tile.setdefault((tc, tr), set()).add((a[0] - tc * TILE, a[1] - tr * TILE))
        changed = []
        for slot, local in by_tile.items():
            tile = _slot(zone, slot)
            segs = list(tile.segments)
            index = next((i for i, s in enumerate(segs) if s.name == name), None)
            have = set(segs[index].areas) if index is not None else set()
            now = have - local if self.remove else have | local
            if now == have:
                continue
            if index is None:
                segs.append(Segment(name, tuple(sorted(now)), props))
            elif now:
                segs[index] = msgspec.structs.replace(segs[index], areas=tuple(sorted(now)))
            else:
                del segs[index]
            changed.append(msgspec.structs.replace(tile, segments=tuple(segs)))
        if not changed:
            if self.remove:
                raise IllegalOp(f"none of those areas is in {name}")
            raise IllegalOp(f"those areas are already in {name}")
        enc.set_zone(_with_tiles(zone, changed))

    def describe(self, enc: "Encounter") -> str:
        n = len(set(self.areas))
        areas = f"{n} area" + ("" if n == 1 else "s")
        if self.remove:
            return _logged(enc, f"Zone: {areas} taken out of {self.name}")
        if segment_props(enc.zone, self.name) is None:
            what = ", ".join(self.props.labels()) or "no properties yet"
            return _logged(enc, f"Zone: new segment {self.name} ({areas}; {what})")
        return _logged(enc, f"Zone: {areas} painted into {self.name}")

    def title(self, enc: "Encounter") -> str:
        n = len(set(self.areas))
        areas = f"{n} area" + ("" if n == 1 else "s")
        if self.remove:
            return f"Take {areas} out of {self.name}"
        if segment_props(enc.zone, self.name) is None:
            return f"New segment {self.name} ({areas})"
        return f"Paint {areas} into {self.name}"


class SetNamedSegmentProps(Op, frozen=True):
    """Give every segment called ``name`` (in every tile) these properties (E10)."""

    name: str
    props: SegmentProps
    label = "Segment properties"

    def execute(self, enc: "Encounter") -> None:
        name = _clean_name(self.name)
        changed = []
        for tile in enc.zone.tiles:
            if any(s.name == name for s in tile.segments):
                segs = tuple(
                    msgspec.structs.replace(s, props=self.props) if s.name == name else s
                    for s in tile.segments
                )
                changed.append(msgspec.structs.replace(tile, segments=segs))
        if not changed:
            raise IllegalOp(f"there is no segment called {name}: paint it first")
        enc.set_zone(_with_tiles(enc.zone, changed))

    def describe(self, enc: "Encounter") -> str:
        props = ", ".join(self.props.labels()) or "no properties"
        return _logged(enc, f"Zone: {self.name} is {props}")

    def title(self, enc: "Encounter") -> str:
        props = ", ".join(self.props.labels()) or "no properties"
        return f"{self.name}: {props}"


class RenameSegment(Op, frozen=True):
    """Rename every segment called ``old`` (merging into ``new`` if the tile has one)."""

    old: str
    new: str
    label = "Rename segment"

    def execute(self, enc: "Encounter") -> None:
        new = _clean_name(self.new)
        if new == self.old:
            raise IllegalOp(f"the segment is already called {new}")
        changed = []
        for tile in enc.zone.tiles:
            if not any(s.name == self.old for s in tile.segments):
                continue
            segs = [s for s in tile.segments if s.name not in (self.old, new)]
            merged = {a for s in tile.segments if s.name in (self.old, new) for a in s.areas}
            props = next(s.props for s in tile.segments if s.name == self.old)
            segs.append(Segment(new, tuple(sorted(merged)), props))
            changed.append(msgspec.structs.replace(tile, segments=tuple(segs)))
        if not changed:
            raise IllegalOp(f"there is no segment called {self.old}")
        enc.set_zone(_with_tiles(enc.zone, changed))

    def describe(self, enc: "Encounter") -> str:
        return _logged(enc, f"Zone: segment {self.old} renamed {self.new}")

    def title(self, enc: "Encounter") -> str:
        return f"Rename segment {self.old} to {self.new}"


__all__ = [
    "AddTileLine",
    "FillTiles",
    "PaintSegment",
    "PlaceTile",
    "RemoveTileLine",
    "RenameSegment",
    "SetNamedSegmentProps",
    "SwapTiles",
    "TurnTile",
    "draw_fill",
    "fill_with",
    "flood_on_tile",
]
