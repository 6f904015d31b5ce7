"""Who stands where is worked out once and kept across Ops that move nobody, refused ones
and dry runs included; an Op that moves someone and is then refused leaves the
right answer behind, and so does a dry run (its inverse is put back unchecked)."""

from __future__ import annotations

import random

import msgspec
import pytest

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.op import Op
from afdesk.encounter.ops.flow import EndExchangeEarly, NextTurn
from afdesk.encounter.ops.meta import Rename
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import PlaceCombatant
from afdesk.storage.samples import build


class MoveThenRefuse(Op, frozen=True):
    """Moves a character, then is refused (an Op that finds its problem late)."""

    id: str
    area: tuple[int, int]

    def execute(self, enc) -> None:
        c = enc.combatant(self.id)
        enc.put(msgspec.structs.replace(c, area=self.area))
        raise IllegalOp("refused after the move")

    def describe(self, enc) -> str:
        return "move, then refuse"


def fresh_occupancy(enc: Encounter) -> dict:
    return Encounter.from_state(enc.state()).occupancy


def test_the_occupancy_is_kept_across_ops_that_move_nobody():
    enc = build()
    occupancy = enc.occupancy
    enc.apply(Rename("Ford"))
    assert enc.occupancy is occupancy
    assert enc.refusal(NextTurn())  # refused (no turns yet): rolled back
    assert enc.occupancy is occupancy
    assert enc.refusal(EndExchangeEarly())  # refused for the phase
    assert enc.occupancy is occupancy


def test_a_move_rolled_back_or_dried_run_leaves_the_right_occupancy():
    enc = build()
    gao = enc.combatants["gao"]
    free = next(
        (c, r)
        for c in range(12)
        for r in range(12)
        if enc.zone.contains((c, r)) and (c, r) not in enc.occupancy
    )
    assert enc.occupancy  # worked out before the moves
    with pytest.raises(IllegalOp, match="refused after the move"):
        enc.apply(MoveThenRefuse("gao", free))
    assert enc.combatants["gao"] == gao
    assert enc.occupancy == fresh_occupancy(enc)
    assert enc.refusal(PlaceCombatant("gao", free)) == ""  # a dry run: moved and back
    assert enc.combatants["gao"] == gao
    assert enc.occupancy == fresh_occupancy(enc)
    enc.apply(PlaceCombatant("gao", free))
    assert enc.occupancy == fresh_occupancy(enc)
    assert "gao" in enc.occupancy[free]


def test_dry_runs_change_nothing_through_a_round():
    enc = build()
    rng = random.Random(4)
    enc.apply(deal_hands(enc, rng))
    enc.apply(play_cards(enc, rng=rng))
    for _ in range(6):
        before = enc.state()
        for op in (NextTurn(), EndExchangeEarly(), deal_hands(enc, None)):
            enc.refusal(op)
            assert enc.state() == before
            assert enc.occupancy == fresh_occupancy(enc)
        enc.apply(NextTurn())
