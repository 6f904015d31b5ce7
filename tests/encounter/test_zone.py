"""The zone carries the tile kinds it draws from (item 5): extending it and
replacing a tile need no installed tile set, only the zone itself (E9)."""

from __future__ import annotations

import random

import msgspec
import pytest

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.zone import ExtendZone, ReplaceTile, draw_extension
from afdesk.encounter.zone import Edge, Segment, SegmentProps, TileKind, TileSet, Zone, grid_zone

CAVES = TileSet(
    id="caves",
    name="Caves",
    kinds=(
        TileKind("tunnel", "Tunnel", "#555555", "rock"),
        TileKind(
            "pool",
            "Pool",
            "#335577",
            "water",
            segments=(Segment("Pool", ((2, 2),), SegmentProps(water=True)),),
        ),
    ),
)
"""A tile set made in code: nothing here reads a file."""


def _caves(cols: int = 3, rows: int = 3) -> Encounter:
    return Encounter(zone=grid_zone(CAVES, [["tunnel"] * cols] * rows))


def test_a_new_zone_copies_its_tile_sets_kinds():
    zone = _caves().zone
    assert zone.tileset == "caves"
    assert zone.kinds == CAVES.kinds
    assert zone.kind("pool").name == "Pool"


def test_extending_draws_from_the_zones_own_kinds():
    enc = _caves()
    op = draw_extension(enc, Edge.EAST, random.Random(7))
    assert len(op.kinds) == 3 and set(op.kinds) <= {"tunnel", "pool"}
    enc.apply(op)
    assert enc.zone.size() == (4, 3)
    new = [enc.zone.tile_at(3, r) for r in range(3)]
    assert [t.kind for t in new if t] == list(op.kinds)


def test_replaying_an_extension_needs_only_the_zone():
    """The Op holds kind ids, the zone their looks: a replay reads no tile set."""
    enc = _caves()
    op = ExtendZone(Edge.SOUTH, ("pool", "tunnel", "pool"))
    again = Encounter.from_state(enc.state())
    enc.apply(op)
    again.apply(msgspec.json.decode(msgspec.json.encode(op), type=ExtendZone))
    assert again.state() == enc.state()
    pool = enc.zone.tile_at(0, 3)
    assert pool is not None and pool.segments[0].props.water
    assert "Pool, Tunnel, Pool" in op.describe(enc)


def test_replacing_a_tile_uses_the_zones_kinds():
    enc = _caves()
    enc.apply(ReplaceTile(1, 1, "pool"))
    tile = enc.zone.tile_at(1, 1)
    assert tile is not None and (tile.kind, tile.name) == ("pool", "Pool")
    with pytest.raises(IllegalOp, match="caves has no tile kind 'forest'"):
        enc.apply(ReplaceTile(1, 1, "forest"))


def test_a_zone_without_kinds_cannot_grow():
    """A zone that names no tile set (made by hand, or a version-1 file whose tile set is
    not installed) refuses to draw, in words."""
    enc = Encounter(zone=Zone(tileset="", tiles=_caves().zone.tiles))
    with pytest.raises(IllegalOp, match="no tile set to draw new tiles from"):
        draw_extension(enc, Edge.NORTH, random.Random(1))
    with pytest.raises(IllegalOp, match="no tile kind 'tunnel'"):
        enc.apply(ExtendZone(Edge.NORTH, ("tunnel",) * 3))
