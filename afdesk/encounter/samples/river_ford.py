"""The bundled sample encounter: a band of four against bandits at a river ford.

It is built through Ops, so it is always a valid encounter. The model reads no files: the
storage layer passes in the wilderness tile set (:func:`afdesk.storage.samples.build`) and
writes the result to ``resources/encounters/river-ford.afenc``
(``python -m afdesk.storage.samples``).
"""

from __future__ import annotations

from afdesk.encounter.combatant import Combatant, Side, Speeds, facets_with
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.meta import Rename, SetNotes
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.encounter.ops.zone import SetEdgeRule
from afdesk.encounter.weapons import Attack
from afdesk.encounter.zone import Edge, EdgeRule, TileSet, grid_zone

LAYOUT = (
    ("forest", "meadow", "hills"),
    ("river", "ford", "river"),
    ("rocky", "meadow", "forest"),
)


BAND = (
    Combatant(
        "huang",
        "Green-Jade Huang",
        Side.BAND,
        area=(7, 11),
        facing=0.0,
        facets=facets_with(fight=3, move=4, agility=3, balance=3),
        speeds=Speeds(run=3),
        grit=4,
        grit_max=4,
        notes="Owes the ferryman a favour.",
        attacks=(Attack("jian", damage=2),),
    ),
    Combatant(
        "chen",
        "Tenacious Chen",
        Side.BAND,
        area=(8, 11),
        facing=0.0,
        facets=facets_with(fight=3, move=2, strength=4),
        grit=5,
        grit_max=5,
        attacks=(Attack("fists", damage=1),),
    ),
    Combatant(
        "lan",
        "Silent Lan",
        Side.BAND,
        area=(5, 12),
        facing=20.0,
        facets=facets_with(agility=4, sneak=3, study=3),
        weapon_range=6,
        notes="Her bow: range 6 areas.",
        attacks=(Attack("bow", damage=2, range=6), Attack("knife", damage=1)),
    ),
    Combatant(
        "bao",
        "Brother Bao",
        Side.BAND,
        area=(9, 12),
        facing=340.0,
        facets=facets_with(influence=4, perform=3, fight=2),
        reach=2,
        notes="Staff: reach 2.",
        attacks=(Attack("staff", damage=1, reach=2),),
    ),
)

BANDITS = (
    Combatant(
        "gao",
        "Bandit Chief Gao",
        Side.OPPONENT,
        group="Bandits",
        area=(8, 3),
        facing=180.0,
        facets=facets_with(fight=4, move=3, strength=3),
        grit=5,
        grit_max=5,
        notes="Wants the toll box. If he goes down, the bandits flee north.",
        attacks=(Attack("dao", damage=2),),
    ),
    Combatant(
        "bandit-1",
        "Bandit 1",
        Side.OPPONENT,
        group="Bandits",
        area=(7, 4),
        facing=180.0,
        facets=facets_with(fight=2),
        grit=2,
        grit_max=2,
        attacks=(Attack("club", damage=1),),
    ),
    Combatant(
        "bandit-2",
        "Bandit 2",
        Side.OPPONENT,
        group="Bandits",
        area=(9, 4),
        facing=200.0,
        facets=facets_with(fight=2),
        grit=2,
        grit_max=2,
        attacks=(Attack("club", damage=1),),
    ),
    Combatant(
        "archer",
        "Bandit Archer",
        Side.OPPONENT,
        group="Archers",
        area=(12, 0),
        facing=210.0,
        facets=facets_with(agility=3, sneak=3),
        weapon_range=5,
        grit=2,
        grit_max=2,
        notes="Hides in the hills' crest at the first sign of trouble.",
        attacks=(Attack("bow", damage=1, range=5),),
    ),
)


def build(wilderness: TileSet) -> Encounter:
    """The sample encounter, freshly built through Ops on tiles of ``wilderness`` (the
    bundled tile set of that id; :class:`IllegalOp` if it lacks a kind of :data:`LAYOUT`)."""
    zone = grid_zone(wilderness, LAYOUT)
    enc = Encounter(zone=zone)
    enc.apply(Rename("Ambush at the river ford"))
    enc.apply(
        SetNotes(
            "Gao's bandits hold the north bank and demand a toll. Reinforcements: two more "
            "bandits arrive from the north edge at the end of exchange 2.",
            description="The ford is knee-deep and slippery; the river either side is deep.",
        )
    )
    for rule in (
        EdgeRule(Edge.NORTH, True, "the road to the bandits' camp"),
        EdgeRule(Edge.SOUTH, True, "back to the village: the band has fled"),
        EdgeRule(Edge.EAST, False, "the river bank goes on"),
        EdgeRule(Edge.WEST, False, "the river bank goes on"),
    ):
        enc.apply(SetEdgeRule(rule))
    for c in (*BAND, *BANDITS):
        enc.apply(AddCombatant(c))
    return enc
