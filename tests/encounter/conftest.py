"""Small encounters for tests: a zone, characters, and a round started in a chosen order."""

from __future__ import annotations

import random

import pytest

from afdesk.encounter.combatant import Combatant, Side
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.reflex import Play, PlayCards, deal_hands
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.encounter.reflex import Card, Suit, hand_specs
from afdesk.encounter.zone import grid_zone
from afdesk.storage.tilesets import tileset

MEADOWS = (("meadow",) * 3,) * 3


def make(*combatants: Combatant, layout=MEADOWS, tiles: str = "wilderness") -> Encounter:
    """An encounter in setup with these characters, added through Ops."""
    enc = Encounter(zone=grid_zone(tileset(tiles), layout))
    for c in combatants:
        enc.apply(AddCombatant(c))
    return enc


def band(cid: str, area, facing: float = 0.0, **kw) -> Combatant:
    return Combatant(
        cid, kw.pop("name", cid.capitalize()), Side.BAND, area=area, facing=facing, **kw
    )


def foe(cid: str, area, facing: float = 180.0, group: str = "Foes", **kw) -> Combatant:
    return Combatant(
        cid,
        kw.pop("name", cid.capitalize()),
        Side.OPPONENT,
        group=group,
        area=area,
        facing=facing,
        **kw,
    )


CARDS = [Card(r, Suit.SPADES) for r in range(14, 1, -1)] + [
    Card(r, Suit.HEARTS) for r in range(14, 1, -1)
]


def start_round(enc: Encounter, order: list[str] | None = None, *, deal: bool = True) -> None:
    """Deal (physical hands, so the cards can be typed) and play cards so that the hands act
    in ``order`` (hand ids: a band member's id, or "opponent:<group>")."""
    specs = hand_specs(enc.roster())
    if deal:
        enc.apply(deal_hands(enc, random.Random(0), physical=tuple(s.id for s in specs)))
    order = order or [s.id for s in specs]
    used = {c for h in enc.reflex.hands for c in h.played}
    free = [c for c in CARDS if c not in used]
    enc.apply(PlayCards(tuple(Play(h, free[i]) for i, h in enumerate(order))))


def turn_of(enc: Encounter, cid: str) -> None:
    """Advance turns until it is ``cid``'s."""
    for _ in range(50):
        if enc.actor == cid:
            return
        enc.apply(NextTurn())
    raise AssertionError(f"{cid} never got a turn")


@pytest.fixture
def rng():
    return random.Random(1234)
