"""Ops on the zone: extend, trim, edit segments and edges (E9, E10)."""

import random
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.op import Op
from afdesk.encounter.zone import Edge, EdgeRule, SegmentProps, Tile, drawable

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class ExtendZone(Op, frozen=True):
    """Add a row or column of tiles beyond an edge, drawn from the zone's tile kinds (E9).

    The drawn kinds are part of the Op and their looks come from the zone's own copy of
    its tile set, so replaying it draws nothing and reads no installed tile set.
    """

    edge: Edge
    kinds: tuple[str, ...]
    label = "Extend zone"

    def execute(self, enc: "Encounter") -> None:
        rule = enc.zone.edge_rule(self.edge)
        if rule.blocked:
            note = f" ({rule.note})" if rule.note else ""
            raise IllegalOp(
                f"the {self.edge.value} edge is blocked{note}: the zone does not grow there; "
                "change the edge's rule first"
            )
        kinds = [enc.zone.kind(k) for k in self.kinds]
        enc.set_zone(enc.zone.extended(self.edge, kinds))

    def describe(self, enc: "Encounter") -> str:
        try:
            names = ", ".join(enc.zone.kind(k).name for k in self.kinds)
        except IllegalOp:
            names = ", ".join(self.kinds)
        return f"The zone grows {self.edge.value}wards: {names}"

    def title(self, enc: "Encounter") -> str:
        return f"Extend zone {self.edge.value}"


def draw_extension(enc: "Encounter", edge: Edge, rng: random.Random | None = None) -> ExtendZone:
    """Draw the tiles for a new row or column from the zone's tile kinds (E9)."""
    kinds = drawable(enc.zone.kinds)  # never an empty slot
    if not kinds:
        raise IllegalOp("this zone has no tile set to draw new tiles from")
    cols, rows = enc.zone.size()
    count = cols if edge in (Edge.NORTH, Edge.SOUTH) else rows
    rng = rng or random.SystemRandom()
    return ExtendZone(edge, tuple(rng.choice(kinds).id for _ in range(count)))


class TrimZone(Op, frozen=True):
    """Remove the outermost row or column of tiles at an edge (E9: at the end of an
    exchange, back to 3 x 3). Nobody may stand there."""

    edge: Edge
    label = "Trim zone"

    def execute(self, enc: "Encounter") -> None:
        gone = enc.zone.line_areas(self.edge)
        for c in enc.roster():
            if c.on_map and c.area in gone:
                raise IllegalOp(
                    f"{c.name} stands in the {self.edge.value} tiles: move {c.name} or let "
                    "them exit before removing those tiles"
                )
            if any(d in gone for d in c.decoys):
                raise IllegalOp(f"a decoy of {c.name} is in the {self.edge.value} tiles")
        enc.set_zone(enc.zone.trimmed(self.edge))

    def describe(self, enc: "Encounter") -> str:
        return f"The {self.edge.value} tiles are removed"

    def title(self, enc: "Encounter") -> str:
        return f"Trim zone {self.edge.value}"


class SetSegmentProps(Op, frozen=True):
    """Give a segment of a placed tile new properties (E10; the tile set is untouched)."""

    col: int
    row: int
    segment: int
    props: SegmentProps
    label = "Segment properties"

    def execute(self, enc: "Encounter") -> None:
        tile = enc.zone.tile_at(self.col, self.row)
        if tile is None:
            raise IllegalOp(f"there is no tile at ({self.col}, {self.row})")
        if not 0 <= self.segment < len(tile.segments):
            raise IllegalOp(f"the {tile.name} tile has no segment number {self.segment + 1}")
        segs = list(tile.segments)
        segs[self.segment] = msgspec.structs.replace(segs[self.segment], props=self.props)
        new = msgspec.structs.replace(tile, segments=tuple(segs))
        tiles = tuple(new if t is tile else t for t in enc.zone.tiles)
        enc.set_zone(msgspec.structs.replace(enc.zone, tiles=tiles))

    def describe(self, enc: "Encounter") -> str:
        tile = enc.zone.tile_at(self.col, self.row)
        seg = (
            tile.segments[self.segment].name
            if tile and 0 <= self.segment < len(tile.segments)
            else "?"
        )
        props = ", ".join(self.props.labels()) or "no properties"
        return f"Segment {seg}: {props}"

    def title(self, enc: "Encounter") -> str:
        tile = enc.zone.tile_at(self.col, self.row)
        seg = (
            tile.segments[self.segment].name
            if tile and 0 <= self.segment < len(tile.segments)
            else f"segment {self.segment + 1}"
        )
        props = ", ".join(self.props.labels()) or "no properties"
        return f"{seg} at ({self.col}, {self.row}): {props}"


class ReplaceTile(Op, frozen=True):
    """Put another of the zone's tile kinds in a tile's place."""

    col: int
    row: int
    kind: str
    label = "Replace tile"

    def execute(self, enc: "Encounter") -> None:
        old = enc.zone.tile_at(self.col, self.row)
        if old is None:
            raise IllegalOp(f"there is no tile at ({self.col}, {self.row})")
        kind = enc.zone.kind(self.kind)
        new = Tile.place(kind, self.col, self.row)
        tiles = tuple(new if t is old else t for t in enc.zone.tiles)
        enc.set_zone(msgspec.structs.replace(enc.zone, tiles=tiles))

    def describe(self, enc: "Encounter") -> str:
        return f"Tile ({self.col}, {self.row}) becomes {self.kind}"

    def title(self, enc: "Encounter") -> str:
        try:
            name = enc.zone.kind(self.kind).name
        except IllegalOp:
            name = self.kind
        return f"Tile ({self.col}, {self.row}) becomes {name}"


class SetEdgeRule(Op, frozen=True):
    """What leaving over an edge means, and the GM's note of its consequences (E9)."""

    rule: EdgeRule
    label = "Edge"

    def execute(self, enc: "Encounter") -> None:
        edges = tuple(e for e in enc.zone.edges if e.edge is not self.rule.edge)
        edges = tuple(sorted((*edges, self.rule), key=lambda e: list(Edge).index(e.edge)))
        enc.set_zone(msgspec.structs.replace(enc.zone, edges=edges))

    def describe(self, enc: "Encounter") -> str:
        r = self.rule
        what = "exits the encounter" if r.exits else "extends the zone"
        if r.blocked:
            what = "is blocked: nobody leaves that way"
        note = f" ({r.note})" if r.note else ""
        return f"The {r.edge.value} edge {what}{note}"

    def title(self, enc: "Encounter") -> str:
        r = self.rule
        what = "blocked" if r.blocked else "exits" if r.exits else "extends"
        note = f" ({r.note})" if r.note else ""
        return f"{r.edge.value.capitalize()} edge: {what}{note}"
