"""The second bundled sample: "The mill on the Jade river", prepared with the
zone editor's Ops from an empty 3 x 3 zone, to show what the editor does: chosen, turned and
mirrored tiles, a mill race painted across three tiles, the mill itself with cover, altitude
and a property of the GM's own, edges with consequences, and smugglers held in reserve.

Built through Ops (the same ones the editor pushes), so it is always a valid encounter; the
storage layer passes in the wilderness tile set and writes
``resources/encounters/jade-river-mill.afenc`` (``python -m afdesk.storage.samples``).
"""

from __future__ import annotations

from afdesk.encounter.combatant import Combatant, Side, facets_with
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.editor import (
    PaintSegment,
    PlaceTile,
    SetNamedSegmentProps,
    TurnTile,
)
from afdesk.encounter.ops.meta import Rename, SetNotes
from afdesk.encounter.ops.reserve import HoldInReserve
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.encounter.ops.zone import SetEdgeRule
from afdesk.encounter.zone import Edge, EdgeRule, Property, SegmentProps, TileSet, empty_zone

LAYOUT = (
    ("hills", "meadow", "forest"),
    ("marsh", "ford", "river"),
    ("forest", "meadow", "rocky"),
)
TURNS = {(0, 0): (1, False), (2, 0): (0, True), (2, 2): (2, False)}
"""Slot: (quarter turns, mirrored)."""

RESERVE = "the smugglers' boat"


def _people() -> list[Combatant]:
    band = [
        ("mei", "Swift Mei", (6, 12), 0.0, facets_with(move=4, agility=3)),
        ("tao", "Old Tao", (7, 13), 0.0, facets_with(study=4, influence=3)),
        ("jun", "Iron Jun", (8, 12), 0.0, facets_with(fight=4, strength=3)),
        ("lin", "Quiet Lin", (9, 13), 20.0, facets_with(sneak=4, wilderness=3)),
    ]
    out = [Combatant(cid, n, Side.BAND, area=a, facing=f, facets=fs) for cid, n, a, f, fs in band]
    foes = [
        ("miller", "The Miller", (7, 2), "Mill hands", 3),
        ("hand-1", "Mill hand 1", (6, 3), "Mill hands", 2),
        ("hand-2", "Mill hand 2", (8, 3), "Mill hands", 2),
        ("smuggler-1", "Smuggler 1", (13, 6), "", 2),
        ("smuggler-2", "Smuggler 2", (13, 8), "", 2),
        ("smuggler-3", "Smuggler 3", (14, 7), "", 2),
    ]
    out += [
        Combatant(cid, n, Side.OPPONENT, group=g, area=a, facing=180.0, grit=grit, grit_max=grit)
        for cid, n, a, g, grit in foes
    ]
    return out


def build(wilderness: TileSet) -> Encounter:
    """The sample, prepared through the zone editor's Ops on tiles of ``wilderness``."""
    enc = Encounter(zone=empty_zone(wilderness))
    enc.apply(Rename("The mill on the Jade river"))
    enc.apply(
        SetNotes(
            "The miller hides smuggled salt. Reinforcements: the smugglers' boat comes in "
            "from the east when the miller first loses grit.",
            description="Prepared with the zone editor: a mill race, the mill, a landing.",
        )
    )
    for r, row in enumerate(LAYOUT):
        for c, kind in enumerate(row):
            enc.apply(PlaceTile(c, r, wilderness.kind(kind)))
    for (c, r), (quarters, mirror) in TURNS.items():
        enc.apply(TurnTile(c, r, quarters, mirror))
    race = tuple((c, 4) for c in range(2, 15))
    enc.apply(PaintSegment("the mill race", race, props=SegmentProps(water=True)))
    enc.apply(SetNamedSegmentProps("the mill race", SegmentProps(water=True, slippery=True)))
    mill = tuple((c, r) for r in range(1, 4) for c in range(6, 9))
    millstones = Property("Millstones", "a strength check rolls one along the floor")
    enc.apply(PaintSegment("the mill", mill))
    enc.apply(
        SetNamedSegmentProps("the mill", SegmentProps(cover=True, altitude=1, custom=(millstones,)))
    )
    landing = ((13, 6), (14, 6), (13, 7), (14, 7), (13, 8), (14, 8))
    enc.apply(PaintSegment("the landing", landing, props=SegmentProps(slippery=True)))
    for rule in (
        EdgeRule(Edge.NORTH, True, "the mill road to the salt market"),
        EdgeRule(Edge.SOUTH, True, "back to the village"),
        EdgeRule(Edge.EAST, False, "the river runs on"),
        EdgeRule(Edge.WEST, True, "the marsh swallows whoever goes on"),
    ):
        enc.apply(SetEdgeRule(rule))
    for person in _people():
        enc.apply(AddCombatant(person))
    enc.apply(HoldInReserve(("smuggler-1", "smuggler-2", "smuggler-3"), RESERVE))
    return enc
