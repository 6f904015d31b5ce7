"""Encounter model speed.

Targets: reachable areas for a speed-6 mover on a 25 x 25 zone with 200 combatants at most
2 ms; applying and undoing one Op at most 50 microseconds.
"""

from __future__ import annotations

import random

from afdesk.encounter import movement
from afdesk.encounter.combatant import Combatant, Side, Speeds
from afdesk.encounter.economy import ActionKind
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.economy import TakeAction
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import AddCombatant, SetFacing
from afdesk.encounter.zone import grid_zone
from afdesk.storage.tilesets import tileset


def big_encounter() -> Encounter:
    ts = tileset("wilderness")
    rng = random.Random(5)
    layout = [[rng.choice(ts.kinds).id for _ in range(5)] for _ in range(5)]
    enc = Encounter(zone=grid_zone(ts, layout))
    mover = Combatant("mover", "Mover", Side.BAND, area=(12, 12), speeds=Speeds(run=6))
    enc.apply(AddCombatant(mover))
    taken = {(12, 12)}
    for i in range(199):
        while (area := (rng.randrange(25), rng.randrange(25))) in taken:
            pass
        taken.add(area)
        side = Side.OPPONENT if i % 2 else Side.FOLLOWER
        enc.apply(AddCombatant(Combatant(f"c{i}", f"C {i}", side, group=f"g{i % 4}", area=area)))
    enc.apply(deal_hands(enc, random.Random(1)))
    enc.apply(play_cards(enc, rng=random.Random(2)))
    return enc


def test_reachable_speed_6_on_25x25_with_200(benchmark):
    enc = big_encounter()
    ticks = movement.maneuver_ticks(enc.combatants["mover"])
    result = benchmark(movement.reachable, enc, "mover", ticks)
    assert len(result) > 20
    assert benchmark.stats.stats.median < 0.002


def test_apply_and_undo_one_op(benchmark):
    enc = big_encounter()
    actor = enc.actor
    facing = [0.0]

    def apply_and_undo():
        facing[0] = (facing[0] + 15.0) % 360.0
        inverse = enc.apply(SetFacing(actor, facing[0]))
        enc.apply(inverse)

    benchmark(apply_and_undo)
    assert benchmark.stats.stats.median < 50e-6


def test_apply_and_undo_an_action(benchmark):
    enc = big_encounter()
    actor = enc.actor

    def apply_and_undo():
        enc.apply(enc.apply(TakeAction(actor, ActionKind.DEFEND)))

    benchmark(apply_and_undo)
    assert benchmark.stats.stats.median < 50e-6
