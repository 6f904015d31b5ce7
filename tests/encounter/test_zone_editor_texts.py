"""The zone editor's undo titles and log lines say what was done and where (E9, E10),
the flood fill stays on the clicked tile (E10: a segment is on one tile), and a fill with
the palette's selected tile places that tile, not random ones."""

from __future__ import annotations

import random

import pytest

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.history import History
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.editor import (
    AddTileLine,
    PaintSegment,
    PlaceTile,
    RemoveTileLine,
    RenameSegment,
    SetNamedSegmentProps,
    SwapTiles,
    TurnTile,
    draw_fill,
    fill_with,
    flood_on_tile,
)
from afdesk.encounter.ops.zone import SetEdgeRule
from afdesk.encounter.zone import EMPTY, EMPTY_KIND, Edge, EdgeRule, SegmentProps, empty_zone
from afdesk.storage.tilesets import tileset


def blank() -> Encounter:
    return Encounter(zone=empty_zone(tileset("wilderness")))


def ford():
    return tileset("wilderness").kind("ford")


def titles(ops) -> list[str]:
    """Each Op pushed as one undo step: the step's title (what the Edit menu shows)."""
    history = History(blank())
    return [history.push(op).text for op in ops]


def test_every_editor_title_names_its_tile_edge_or_segment_and_the_change():
    got = titles(
        [
            PlaceTile(1, 1, ford()),
            TurnTile(1, 1, quarters=1),
            TurnTile(1, 1, mirror=True),
            TurnTile(1, 1, quarters=2, mirror=True),
            SwapTiles((1, 1), (0, 0)),
            AddTileLine(Edge.EAST),
            RemoveTileLine(Edge.EAST),
            PaintSegment("the pool", ((0, 0), (1, 0)), props=SegmentProps(water=True)),
            PaintSegment("the pool", ((2, 0),)),
            PaintSegment("the pool", ((2, 0),), remove=True),
            SetNamedSegmentProps("the pool", SegmentProps(water=True, rough=True)),
            RenameSegment("the pool", "the pond"),
            SetEdgeRule(EdgeRule(Edge.NORTH, True, "the road to the camp")),
            SetEdgeRule(EdgeRule(Edge.SOUTH, False, "", blocked=True)),
            SetEdgeRule(EdgeRule(Edge.WEST, False, "")),
        ]
    )
    assert got == [
        "Place Ford at (1, 1)",
        "Turn 90° Ford at (1, 1)",
        "Mirror Ford at (1, 1)",
        "Mirror and turn 180° Ford at (1, 1)",
        "Swap tiles (1, 1) and (0, 0)",
        "Add a column of slots at the east edge",
        "Remove the east column of slots",
        "New segment the pool (2 areas)",
        "Paint 1 area into the pool",
        "Take 1 area out of the pool",
        "the pool: Rough, Water",
        "Rename segment the pool to the pond",
        "North edge: exits (the road to the camp)",
        "South edge: blocked",
        "West edge: extends",
    ]
    assert len(set(got)) == len(got)  # no two edits read alike ("Edge" three times)


def test_a_mirror_is_not_listed_as_a_turn():
    enc = blank()
    enc.apply(PlaceTile(0, 0, ford()))
    op = TurnTile(0, 0, mirror=True)
    assert op.title(enc) == "Mirror Ford at (0, 0)"
    assert "Turn" not in op.title(enc)


def test_flood_fill_stays_on_the_clicked_tile():
    zone = blank().zone  # nine empty tiles: every area is in no segment
    areas = flood_on_tile(zone, (6, 7))
    assert len(areas) == 25  # E10: the clicked tile's 5 x 5 areas, not all 225
    assert {(c // 5, r // 5) for c, r in areas} == {(1, 1)}
    assert flood_on_tile(zone, (99, 99)) == set()


def test_flood_fill_takes_the_connected_areas_in_the_same_segments():
    enc = blank()
    enc.apply(PlaceTile(0, 0, ford()))
    enc.apply(PaintSegment("the wall", tuple((2, r) for r in range(5))))  # splits the tile
    left = flood_on_tile(enc.zone, (0, 0))
    assert left and all(c < 2 for c, _ in left)
    assert (3, 0) not in left


def test_fill_empty_with_the_selected_tile_places_that_tile():
    enc = blank()
    enc.apply(PlaceTile(0, 0, tileset("wilderness").kind("river")))
    op = fill_with(enc, ford(), only_empty=True)
    enc.apply(op)
    kinds = {(t.col, t.row): t.kind for t in enc.zone.tiles}
    assert kinds.pop((0, 0)) == "river"
    assert set(kinds.values()) == {"ford"}
    assert enc.log[-1].text.startswith("Zone: 8 slots filled with Ford: (1, 0), ")
    assert History(blank()).push(fill_with(blank(), ford(), only_empty=True)).text == (
        "Fill 9 slots with Ford"
    )


def test_fill_refuses_without_a_selected_tile_and_says_random_when_random():
    enc = blank()
    for kind in (None, EMPTY_KIND):
        with pytest.raises(IllegalOp, match="select a tile in the palette first"):
            fill_with(enc, kind, only_empty=True)
    op = draw_fill(enc, tileset("wilderness").kinds, only_empty=True, rng=random.Random(3))
    assert op.title(enc) == "Fill 9 slots at random"
    enc.apply(op)
    assert enc.log[-1].text.startswith("Zone: 9 tiles drawn at random: ")
    assert EMPTY not in {t.kind for t in enc.zone.tiles}
    with pytest.raises(IllegalOp, match="every slot already holds a tile"):
        fill_with(enc, ford(), only_empty=True)
