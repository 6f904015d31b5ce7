"""The zone's terrain by area is worked out once and kept across Ops that leave the zone
alone, refused ones and dry runs included; a zone change, and its undo, drop it."""

from __future__ import annotations

import msgspec

from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import Rename
from afdesk.encounter.ops.reflex import deal_hands
from afdesk.encounter.ops.zone import SetSegmentProps
from afdesk.storage.samples import build


def test_the_terrain_is_kept_across_ops_that_leave_the_zone_alone():
    enc = build()
    terrain = enc.terrain
    enc.apply(Rename("Ford"))
    assert enc.terrain is terrain
    assert enc.refusal(NextTurn())  # refused (no turns yet): rolled back
    assert enc.terrain is terrain
    assert enc.refusal(deal_hands(enc, None)) == ""  # a dry run, undone
    assert enc.terrain is terrain


def test_a_zone_change_and_its_undo_work_the_terrain_out_again():
    enc = build()
    before = dict(enc.terrain)
    tile = enc.zone.tiles[0]
    props = msgspec.structs.replace(tile.segments[0].props, water=not tile.segments[0].props.water)
    inverse = enc.apply(SetSegmentProps(tile.col, tile.row, 0, props))
    assert enc.terrain == enc.zone.terrain() != before  # worked out for the new zone
    enc.apply(inverse)
    assert enc.terrain == before
    # a dry run of a zone change leaves the right terrain behind too
    assert enc.refusal(SetSegmentProps(tile.col, tile.row, 0, props)) == ""
    assert enc.terrain == before
