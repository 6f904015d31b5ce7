"""The zone editor's Ops (E9, E10): place, turn, mirror, swap, fill, add and
remove slots, paint named segments, set their properties; each one undo step."""

from __future__ import annotations

import random

import pytest

from afdesk.encounter.combatant import Combatant, Side
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.editor import (
    AddTileLine,
    FillTiles,
    PaintSegment,
    PlaceTile,
    RemoveTileLine,
    RenameSegment,
    SetNamedSegmentProps,
    SwapTiles,
    TurnTile,
    draw_fill,
)
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.encounter.zone import (
    EMPTY,
    Edge,
    Segment,
    SegmentProps,
    TileKind,
    empty_zone,
    flood,
    segment_areas,
    segment_names,
    turn_local,
)
from afdesk.storage.tilesets import tileset


def blank() -> Encounter:
    return Encounter(zone=empty_zone(tileset("wilderness")))


def kind(kind_id: str) -> TileKind:
    return tileset("wilderness").kind(kind_id)


def test_an_empty_zone_is_three_by_three_empty_slots_drawing_from_its_set():
    enc = blank()
    assert enc.zone.size() == (3, 3)
    assert {t.kind for t in enc.zone.tiles} == {EMPTY}
    assert enc.zone.kinds[:-1] == tileset("wilderness").kinds
    assert enc.zone.kinds[-1].id == EMPTY
    # Extending it in play never draws an empty slot (E9).
    from afdesk.encounter.ops.zone import draw_extension

    op = draw_extension(enc, Edge.NORTH, random.Random(0))
    assert EMPTY not in op.kinds


def test_place_a_tile_logs_zone_and_undoes():
    enc = blank()
    before = enc.state()
    undo = enc.apply(PlaceTile(1, 1, kind("ford")))
    t = enc.zone.tile_at(1, 1)
    assert t is not None and t.kind == "ford" and t.segments == kind("ford").segments
    assert enc.log[-1].text == "Zone: tile (1, 1) becomes Ford"
    enc.apply(undo)
    assert enc.state() == before


def test_a_kind_from_another_set_is_kept_in_the_zone():
    enc = blank()
    own = TileKind("my-bridge", "My bridge", "#8d6e63", "floor")
    enc.apply(PlaceTile(0, 0, own))
    assert enc.zone.kind("my-bridge") == own


@pytest.mark.parametrize(
    ("quarters", "mirror", "area", "to"),
    [
        (1, False, (0, 0), (4, 0)),
        (1, False, (4, 0), (4, 4)),
        (2, False, (1, 0), (3, 4)),
        (3, False, (0, 0), (0, 4)),
        (0, True, (0, 2), (4, 2)),
        (1, True, (0, 0), (4, 4)),
    ],
)
def test_turning_moves_local_areas(quarters, mirror, area, to):
    assert turn_local(area, quarters, mirror) == to


def test_turn_and_mirror_move_the_segments_with_the_tile():
    enc = blank()
    enc.apply(PlaceTile(0, 0, kind("ford")))
    seg = enc.zone.tile_at(0, 0).segments[0]
    enc.apply(TurnTile(0, 0, quarters=1))
    turned = enc.zone.tile_at(0, 0).segments[0]
    assert set(turned.areas) == {turn_local(a, 1, False) for a in seg.areas}
    assert turned.props == seg.props
    assert enc.log[-1].text == "Zone: the Ford tile at (0, 0) turns 90°"
    enc.apply(TurnTile(0, 0, quarters=3, mirror=True))
    assert "is mirrored and turns 270°" in enc.log[-1].text
    with pytest.raises(IllegalOp, match="90, 180 or 270"):
        enc.apply(TurnTile(0, 0, quarters=4))


def test_swap_and_fill():
    enc = blank()
    enc.apply(PlaceTile(0, 0, kind("ford")))
    enc.apply(SwapTiles((0, 0), (2, 2)))
    assert enc.zone.tile_at(2, 2).kind == "ford" and enc.zone.tile_at(0, 0).kind == EMPTY
    op = draw_fill(enc, tileset("wilderness").kinds, only_empty=True, rng=random.Random(5))
    assert len(op.slots) == 8 and (2, 2) not in op.slots
    enc.apply(op)
    assert EMPTY not in {t.kind for t in enc.zone.tiles}
    assert enc.zone.tile_at(2, 2).kind == "ford"
    assert enc.log[-1].text.startswith("Zone: 8 tiles drawn at random: ")
    with pytest.raises(IllegalOp, match="every slot already holds a tile"):
        draw_fill(enc, tileset("wilderness").kinds, only_empty=True)
    with pytest.raises(IllegalOp, match="3 slots need 3 tiles"):
        enc.apply(FillTiles(((0, 0), (1, 0), (2, 0)), (kind("ford"),)))


def test_add_and_remove_rows_and_columns():
    enc = blank()
    enc.apply(AddTileLine(Edge.EAST))
    assert enc.zone.size() == (4, 3)
    assert enc.log[-1].text == "Zone: a column of empty slots added at the east edge"
    enc.apply(AddTileLine(Edge.NORTH))
    assert enc.zone.size() == (4, 4) and enc.zone.tile_bounds()[1] == -1
    enc.apply(RemoveTileLine(Edge.WEST))
    assert enc.zone.size() == (3, 4)
    enc.apply(AddCombatant(Combatant("x", "Xu", Side.BAND, area=(14, 14))))
    with pytest.raises(IllegalOp, match="Xu stands in the south tiles"):
        enc.apply(RemoveTileLine(Edge.SOUTH))


def test_paint_a_segment_across_tiles_then_props_then_remove():
    enc = blank()
    river = tuple((c, 7) for c in range(15))
    enc.apply(PaintSegment("the river", river, props=SegmentProps(water=True)))
    assert enc.log[-1].text == "Zone: new segment the river (15 areas; Water)"
    assert segment_areas(enc.zone, "the river") == set(river)
    assert all(enc.terrain_at(a).water for a in river)
    # The next stroke takes the props of the existing segment, whatever it carries.
    enc.apply(PaintSegment("the river", ((3, 8), (4, 8))))
    assert enc.terrain_at((3, 8)).water
    assert enc.log[-1].text == "Zone: 2 areas painted into the river"
    enc.apply(PaintSegment("the ford", ((7, 7), (7, 8))))
    enc.apply(SetNamedSegmentProps("the ford", SegmentProps(rough=True, slippery=True)))
    assert enc.log[-1].text == "Zone: the ford is Rough, Slippery"
    t = enc.terrain_at((7, 7))
    assert t.rough and t.slippery and t.water
    assert segment_names(enc.zone) == ["the river", "the ford"]
    enc.apply(PaintSegment("the river", ((3, 8), (4, 8)), remove=True))
    assert not enc.terrain_at((3, 8)).water
    enc.apply(PaintSegment("the ford", ((7, 7), (7, 8)), remove=True))
    assert "the ford" not in segment_names(enc.zone)
    enc.apply(RenameSegment("the river", "the Jade river"))
    assert segment_names(enc.zone) == ["the Jade river"]


@pytest.mark.parametrize(
    ("op", "words"),
    [
        (PaintSegment("", ((0, 0),)), "needs a name"),
        (PaintSegment(" x", ((0, 0),)), "spaces"),
        (PaintSegment("x", ()), "covers no area"),
        (PaintSegment("x", ((20, 0),)), r"\(20, 0\) is outside"),
        (PaintSegment("x", ((0, 0),), remove=True), "none of those areas is in x"),
        (SetNamedSegmentProps("x", SegmentProps()), "no segment called x"),
        (PlaceTile(5, 5, TileKind("a", "A", "#000000", "grass")), r"no slot at tile \(5, 5\)"),
        (SwapTiles((0, 0), (0, 0)), "two different"),
        (RenameSegment("x", "y"), "no segment called x"),
        (
            PlaceTile(0, 0, TileKind("b", "Bad", "#000000", "grass", (Segment("s", ((7, 0),)),))),
            r"area \(7, 0\) outside the tile",
        ),
        (FillTiles(((0, 0),), (TileKind(" ", "Nameless", "#000000", "grass"),)), "no id"),
    ],
)
def test_refusals_say_what_and_change_nothing(op, words):
    enc = blank()
    before = enc.state()
    with pytest.raises(IllegalOp, match=words):
        enc.apply(op)
    assert enc.state() == before


def test_flood_fills_areas_in_the_same_segments():
    enc = blank()
    enc.apply(PaintSegment("pool", ((1, 1), (2, 1), (1, 2))))
    assert flood(enc.zone, (1, 1)) == {(1, 1), (2, 1), (1, 2)}
    outside = flood(enc.zone, (0, 0))
    assert len(outside) == 15 * 15 - 3 and (1, 1) not in outside
    assert flood(enc.zone, (99, 99)) == set()


def test_a_tile_kind_segment_survives_the_file():
    from afdesk.storage.codec import decode, encode

    enc = blank()
    enc.apply(PlaceTile(0, 0, TileKind("k", "K", "#123456", "grass", (Segment("s", ((0, 0),)),))))
    enc.apply(PaintSegment("the river", ((0, 1),), props=SegmentProps(water=True)))
    again = Encounter.from_state(decode(encode(enc.state())))
    assert again.zone == enc.zone


def test_an_edit_during_play_is_logged_as_the_gms_override():
    from afdesk.encounter.ops.reflex import deal_hands

    enc = blank()
    enc.apply(AddCombatant(Combatant("x", "Xu", Side.BAND, area=(1, 1))))
    enc.apply(PlaceTile(1, 1, kind("ford")))
    assert enc.log[-1].text == "Zone: tile (1, 1) becomes Ford"
    enc.apply(deal_hands(enc, random.Random(0)))
    enc.apply(TurnTile(1, 1, quarters=2))
    assert enc.log[-1].text == (
        "Zone: the Ford tile at (1, 1) turns 180° (GM override during play)"
    )


def test_a_blocked_edge_neither_exits_nor_grows():
    from afdesk.encounter import drag
    from afdesk.encounter.ops.roster import ExitCombatant
    from afdesk.encounter.ops.zone import SetEdgeRule, draw_extension
    from afdesk.encounter.zone import EdgeRule

    enc = blank()
    enc.apply(AddCombatant(Combatant("x", "Xu", Side.BAND, area=(7, 0))))
    enc.apply(SetEdgeRule(EdgeRule(Edge.NORTH, False, "a sheer cliff", blocked=True)))
    assert enc.log[-1].text == "The north edge is blocked: nobody leaves that way (a sheer cliff)"
    with pytest.raises(IllegalOp, match=r"north edge is blocked \(a sheer cliff\)"):
        enc.apply(draw_extension(enc, Edge.NORTH, random.Random(0)))
    with pytest.raises(IllegalOp, match="north edge is blocked"):
        enc.apply(ExitCombatant("x", Edge.NORTH, override=True))
    out = drag.drop(enc, drag.plan_drag(enc, "x", override=True), (7, -1))
    assert out.reason == "The north edge is blocked (a sheer cliff): nobody leaves that way."
    assert not out.ops
    # Preparing, the GM may still add slots there (the editor's own Op).
    enc.apply(AddTileLine(Edge.NORTH))
    assert enc.zone.size() == (3, 4)
