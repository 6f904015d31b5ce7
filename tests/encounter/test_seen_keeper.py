"""Who the players see, kept from change to change (afdesk.encounter.visibility.SeenKeeper):
after every change of a long seeded session (moves, fog, hidden characters, the fallen,
undos and redos, characters held back, brought in, removed and added) it answers what the
rule asks of every character (visibility.player_visible), and asks the rule again only of the
characters whose record changed."""

from __future__ import annotations

import random
from types import SimpleNamespace

import msgspec

from afdesk.encounter import visibility
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.fog import Fog
from afdesk.encounter.history import History
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.reserve import BringIn, HoldInReserve
from afdesk.encounter.ops.roster import AddCombatant, RemoveCombatant, new_id
from afdesk.encounter.ticker import seen_by_players
from afdesk.encounter.visibility import SeenKeeper, player_visible
from afdesk.storage import samples
from tests.benchmarks import long_session


def _roster_change(enc, rng: random.Random):
    """A change of who is in the encounter or in play (the long session's mix has none)."""
    ids = list(enc.combatants)
    pick = rng.randrange(4)
    if pick == 0:
        return [RemoveCombatant(rng.choice(ids))]
    if pick == 1:
        model = enc.combatants[rng.choice(ids)]
        return [AddCombatant(msgspec.structs.replace(model, id=new_id(enc, model.name)))]
    if pick == 2:
        return [HoldInReserve(tuple(rng.sample(ids, min(2, len(ids)))), "later")]
    return [BringIn("later")]


def test_the_kept_set_is_the_rules_after_every_change():
    enc = samples.build()
    enc.apply(deal_hands(enc, random.Random(1)))
    enc.apply(play_cards(enc, rng=random.Random(2)))
    history = History(enc, limit=60)
    keeper = SeenKeeper()
    rng = random.Random(5)
    kinds = set()
    fogged = hidden = zones = 0
    zone = enc.zone
    for _ in range(600):
        if rng.random() < 0.1:
            kind, ops = "roster", _roster_change(enc, rng)
        else:
            kind, ops = long_session.change(enc, rng, rng.choice(("wide", "editing")))
        try:
            if kind == "undo" and history.can_undo():
                history.undo()
            elif kind == "redo" and history.can_redo():
                history.redo()
            elif ops:
                history.push(ops)
            else:
                continue
        except IllegalOp:
            continue
        kinds.add(kind)
        fogged += bool(enc.fog.areas)
        hidden += any(c.hidden for c in enc.combatants.values())
        zones += enc.zone is not zone
        zone = enc.zone
        rule = frozenset(cid for cid in enc.combatants if player_visible(enc, cid))
        assert keeper.seen(enc) == rule == seen_by_players(enc)
    assert {"roster", "undo", "redo"} <= kinds
    assert fogged and hidden and zones  # the session met the fog, hidden characters, edits


def test_only_the_changed_records_are_asked_again(monkeypatch):
    enc = samples.build()
    keeper = SeenKeeper()
    asked: list[str] = []
    rule = visibility.shown_to_players

    def counting(c):
        asked.append(c.id)
        return rule(c)

    monkeypatch.setattr(visibility, "shown_to_players", counting)
    first = keeper.seen(enc)
    assert sorted(asked) == sorted(enc.combatants)  # everyone, the first time
    asked.clear()
    assert keeper.seen(enc) is first and asked == []  # nothing changed: nobody
    cid = next(iter(enc.combatants))
    enc.combatants[cid] = msgspec.structs.replace(enc.combatants[cid], facing=90.0)  # new
    keeper.seen(enc)
    assert asked == [cid]


def test_another_zone_asks_everyone_again():
    """Under the fog means inside the zone too (fog.is_fogged): the same fog over another
    zone is asked again. (A session's zone edits never move anyone out of the zone: a
    trim keeps the lines people stand in, E9; here the zone is changed by hand.)"""
    enc = samples.build()
    c = next(c for c in enc.combatants.values() if visibility.shown_to_players(c))
    area = (c.area[0], c.area[1])
    tile = next(t for t in enc.zone.tiles if area in {tuple(a) for a in t.areas()})
    view = SimpleNamespace(zone=enc.zone, fog=Fog(areas=(area,)), combatants=enc.combatants)
    keeper = SeenKeeper()
    assert c.id not in keeper.seen(view)  # under the fog
    others = tuple(t for t in enc.zone.tiles if t is not tile)
    view.zone = msgspec.structs.replace(enc.zone, tiles=others)
    assert c.id in keeper.seen(view)  # its tile gone from the zone: no fog there
