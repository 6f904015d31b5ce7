"""The scans of the whole roster that the maps and the players' screen make at every
change, written for speed: each gives what the rule asked character by character gives
(out of the fight, seen by the players, under the fog, the labels' key)."""

from __future__ import annotations

import random

import pytest

from afdesk.encounter.combatant import State, StateKind
from afdesk.encounter.fallen import is_out, out_of
from afdesk.encounter.fog import Fog, fogged, is_fogged, tile_region
from afdesk.encounter.history import History
from afdesk.encounter.labels import ID_AND_NAME
from afdesk.encounter.ops.damage import OUT_NOTE
from afdesk.encounter.ops.fog import SetFog
from afdesk.encounter.ops.roster import AddCombatant, RemoveCombatant
from afdesk.encounter.visibility import all_player_visible, player_visible, shown_to_players
from afdesk.storage import samples as sample

_STANDINGS = (
    {},
    {"area": None, "exited": OUT_NOTE},
    {"area": None, "exited": "over the north edge (E9)"},
    {"area": None, "reserve": "the archers"},
    {"reserve": "the archers"},
)


_STATES = (
    (),
    (State(StateKind.HIDDEN),),
    (State(StateKind.PREPARED),),
    (State(StateKind.BLEEDING, 2),),
    (State(StateKind.BLEEDING, 1), State(StateKind.HIDDEN)),
)


def _varied(seed: int):
    """The sample and 40 more: out of the fight, gone over an edge, held back, hidden or
    not, with other states or none, on areas anywhere in the zone; fog over one tile or
    none; one character taken out of the roster and put back (its place in the order is
    no longer its place among the characters kept)."""
    rng = random.Random(seed)
    enc = sample.build()
    base = enc.combatants["huang"]
    c0, r0, c1, r1 = enc.zone.area_bounds()
    for i in range(40):
        area = (rng.randint(c0, c1), rng.randint(r0, r1))
        c = base.replace(id=f"v{i}", name=f"Extra {i}", area=area, states=rng.choice(_STATES))
        enc.apply(AddCombatant(c.replace(**rng.choice(_STANDINGS))))
    if rng.random() < 0.7:
        enc.apply(SetFog.of(tile_region(rng.choice(enc.zone.tiles)), True))
    history = History(enc)
    history.push(RemoveCombatant(rng.choice(enc.order[:-1])))
    history.undo()
    return enc


@pytest.mark.parametrize("seed", range(8))
def test_each_scan_gives_what_the_rule_gives_one_by_one(seed):
    enc = _varied(seed)
    roster = enc.roster()
    assert roster == [enc.combatants[cid] for cid in enc.order]
    assert roster != list(enc.combatants.values())  # the order is the roster's own
    assert out_of(roster) == [c for c in roster if is_out(c)]
    assert all_player_visible(enc) == frozenset(
        cid for cid in enc.combatants if player_visible(enc, cid)
    )
    under = fogged(enc.zone, enc.fog)
    for c in roster:
        assert is_fogged(enc.zone, enc.fog, c.area) == (c.area in under)
        assert ID_AND_NAME(c) == (c.id, c.name)
        for kind in (StateKind.HIDDEN, StateKind.PREPARED, StateKind.BLEEDING):
            assert c.has(kind) == any(s.kind == kind for s in c.states)
            assert c.has(str(kind)) == c.has(kind)


def test_the_scans_tell_apart_what_they_count():
    """The cases the scans pass by quickly are there and told apart (the test above
    would hold for scans that found nothing)."""
    enc = _varied(3)
    roster = enc.roster()
    assert any(is_out(c) for c in roster) and any(c.exited and not is_out(c) for c in roster)
    seen = all_player_visible(enc)
    assert seen and any(cid not in seen for cid in enc.combatants)
    assert not is_fogged(enc.zone, Fog(), roster[0].area)  # no fog: nothing under it
    outside = (enc.zone.area_bounds()[2] + 7, 0)  # fogged, but off the zone: not under it
    assert not enc.zone.contains(outside)
    assert not is_fogged(enc.zone, Fog(areas=(outside,)), outside)
    assert is_fogged(enc.zone, Fog(areas=(roster[0].area,)), roster[0].area)
    assert any(c.has(StateKind.BLEEDING) and not c.hidden for c in roster)
    hidden_by_fog = 0
    for seed in range(8):  # some seeds fog a tile that shown characters stand on
        enc = _varied(seed)
        under = fogged(enc.zone, enc.fog)
        seen = all_player_visible(enc)
        for c in enc.roster():
            if shown_to_players(c) and c.area in under:
                assert c.id not in seen
                hidden_by_fog += 1
    assert hidden_by_fog
