"""Properties of movement, geometry, the zone and reflex (E2, E9, E11-E14, E17), and the
model bugs the state machine (test_state_machine.py) found, each as a plain test: fixed
ones stay as regression tests."""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from afdesk.encounter import movement, persevere
from afdesk.encounter.combatant import (
    Combatant,
    Economy,
    Side,
    Speeds,
    State,
    StateKind,
    bleeding_hits,
    opposed,
)
from afdesk.encounter.contest.flow import leave_overlap_flow
from afdesk.encounter.economy import ActionKind, SnapKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import (
    NEIGHBOURS,
    Area,
    distance,
    in_front,
    line_crosses,
    normalise_facing,
)
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.economy import Screen, TakeAction, UseSnap
from afdesk.encounter.ops.flow import ActHesitated, EndEncounter, NextTurn
from afdesk.encounter.ops.reflex import DealHands, deal_hands, play_cards
from afdesk.encounter.ops.roster import (
    AddCombatant,
    AddState,
    ExitCombatant,
    PlaceCombatant,
    RemoveCombatant,
    TickBleeding,
)
from afdesk.encounter.reflex import FULL_DECK, HAND_SIZE, deal, hand_specs, round_order
from afdesk.encounter.state import Phase
from afdesk.encounter.zone import START_TILES, Edge, grid_zone
from afdesk.rules.dice import RandomSource, ScriptedSource
from afdesk.storage import samples as sample
from afdesk.storage.tilesets import tileset

# ------------------------------------------------------------------------- strategies

FACINGS = st.floats(-720.0, 720.0, allow_nan=False, allow_infinity=False)
AREAS = st.tuples(st.integers(-12, 12), st.integers(-12, 12))


@st.composite
def zones(draw, max_tiles: int = 3):
    ts = tileset(draw(st.sampled_from(["wilderness", "town", "ruins"])))
    kinds = [k.id for k in ts.kinds]
    cols = draw(st.integers(1, max_tiles))
    rows = draw(st.integers(1, max_tiles))
    layout = [[draw(st.sampled_from(kinds)) for _ in range(cols)] for _ in range(rows)]
    return grid_zone(ts, layout)


@st.composite
def crowded_encounters(draw):
    """A zone with a mover ``c0`` and up to 8 others of any side, some hidden; the mover
    has won any leave-overlap check (E14) so that its whole reach is open."""
    zone = draw(zones())
    areas = sorted(a for t in zone.tiles for a in t.areas())
    enc = Encounter(zone=zone)
    n = draw(st.integers(1, 9))
    for i in range(n):
        flying = draw(st.booleans()) if i == 0 else False
        speeds = Speeds(
            run=draw(st.integers(0, 4)),
            climb=draw(st.integers(0, 2)),
            swim=draw(st.integers(0, 2)),
            fly=draw(st.integers(1, 3)) if flying else 0,
        )
        states = ()
        if flying:
            states = (State(StateKind.FLYING),)
        elif i and draw(st.booleans()):
            states = (State(StateKind.HIDDEN),)
        c = Combatant(
            f"c{i}",
            f"Character {i}",
            draw(st.sampled_from(list(Side))),
            area=draw(st.sampled_from(areas)),
            speeds=speeds,
            states=states,
            economy=Economy(exit_free=True),
        )
        enc.apply(AddCombatant(c))
    return enc


def oracle_reach(enc: Encounter, c: Combatant, budget: int) -> dict[Area, int]:
    """Cheapest cost to every area within ``budget``, by relaxing every edge until nothing
    changes (E14): 8 neighbours, terrain costs, and a move ends in an area holding a
    visible opponent."""
    unit = movement.tick_unit(c)
    areas = [a for t in enc.zone.tiles for a in t.areas()]

    def foe_in(area):
        return any(
            opposed(o.side, c.side) and not o.hidden and o.id != c.id for o in enc.occupants(area)
        )

    best = {c.area: 0}
    changed = True
    while changed:
        changed = False
        for a in areas:
            if a not in best or (a != c.area and foe_in(a)):
                continue
            for dc, dr in NEIGHBOURS:
                b = (a[0] + dc, a[1] + dr)
                if not enc.zone.contains(b):
                    continue
                step = movement.step_cost(c, enc.terrain_at(b), unit)
                if step is None:
                    continue
                cost = best[a] + step
                if cost <= budget and cost < best.get(b, budget + 1):
                    best[b] = cost
                    changed = True
    return best


# --------------------------------------------------------------------------- movement


@settings(max_examples=150)
@given(enc=crowded_encounters(), budget=st.integers(0, 24))
def test_reachable_offers_legal_cheapest_paths(enc, budget):
    """E14: every offered area is in the zone, its path passes path_cost at exactly the
    reported cost, never moves on out of a visible opponent's area, and is the cheapest."""
    c = enc.combatant("c0")
    steps = movement.reachable(enc, "c0", budget)
    assert steps[c.area].cost == 0
    for area, step in steps.items():
        assert enc.zone.contains(area)
        assert 0 <= step.cost <= budget
        path = movement.path_to(steps, area)
        assert path[0] == c.area and path[-1] == area
        assert all(distance(a, b) == 1 for a, b in itertools.pairwise(path))
        assert movement.path_cost(enc, c, path) == step.cost
        for middle in path[1:-1]:
            assert not enc.opponents_in(middle, c), f"the path moves on out of {middle}"
        assert step.stops == (area != c.area and bool(enc.opponents_in(area, c)))
    assert {a: s.cost for a, s in steps.items()} == oracle_reach(enc, c, budget)


@settings(max_examples=60)
@given(enc=crowded_encounters(), budget=st.integers(0, 12))
def test_more_movement_reaches_at_least_as_far(enc, budget):
    less = movement.reachable(enc, "c0", budget)
    more = movement.reachable(enc, "c0", budget + 1)
    assert all(more[a].cost == s.cost for a, s in less.items())


@settings(max_examples=60)
@given(run=st.integers(1, 6), climb=st.integers(0, 3), swim=st.integers(0, 3))
def test_a_maneuver_runs_the_run_speed_and_rough_costs_double(run, climb, swim):
    """E14: moving into an adjacent area costs 1, Rough 2 (in areas of running)."""
    c = Combatant("x", "X", Side.BAND, area=(0, 0), speeds=Speeds(run, climb, swim))
    unit = movement.tick_unit(c)
    plain = movement.step_cost(c, movement.PLAIN, unit)
    rough = movement.step_cost(c, movement.AreaTerrain(rough=True), unit)
    assert movement.as_areas(c, plain) == 1 and movement.as_areas(c, rough) == 2
    assert movement.as_areas(c, movement.maneuver_ticks(c)) == run
    assert movement.as_areas(c, movement.hustle_ticks(c, False)) == run // 2
    assert movement.as_areas(c, movement.hustle_ticks(c, True)) == max(run // 2, 1)


# --------------------------------------------------------------------------- geometry


def rotate(a: Area) -> Area:
    """The area a quarter turn clockwise about the origin corner: the centre (c + 1/2,
    r + 1/2) goes to (-(r + 1/2), c + 1/2), the centre of (-r - 1, c)."""
    return (-a[1] - 1, a[0])


def mirror(a: Area) -> Area:
    """The area mirrored left to right about the origin corner."""
    return (-a[0] - 1, a[1])


@given(observer=AREAS, other=AREAS, facing=FACINGS, turns=st.integers(1, 3))
@example(observer=(5, 5), other=(9, 5), facing=0.0, turns=1)  # on the flank line
@example(observer=(5, 5), other=(7, 7), facing=45.0, turns=1)
def test_in_front_turns_with_the_map(observer, other, facing, turns):
    """E11: turning the whole map (areas and facing) a quarter turn changes nothing."""
    a, b = observer, other
    for _ in range(turns):
        a, b = rotate(a), rotate(b)
    assert in_front(a, facing + 90 * turns, b) == in_front(observer, facing, other)


@given(observer=AREAS, other=AREAS, facing=FACINGS)
def test_in_front_mirrors_with_the_map(observer, other, facing):
    assert in_front(mirror(observer), -facing, mirror(other)) == in_front(observer, facing, other)


@given(observer=AREAS, other=AREAS, facing=FACINGS)
def test_the_same_area_is_in_front_and_the_flank_splits_the_map(observer, other, facing):
    """E11: the own area is always in front; of two areas mirrored through the observer,
    at least one is in front (both when on the flank line)."""
    assert in_front(observer, facing, observer)
    opposite = (2 * observer[0] - other[0], 2 * observer[1] - other[1])
    assert in_front(observer, facing, other) or in_front(observer, facing, opposite)


@given(a=AREAS, b=AREAS, cover=st.sets(AREAS, max_size=12))
def test_line_crosses_is_symmetric(a, b, cover):
    """E13: an attack line is the same line both ways."""
    assert line_crosses(a, b, cover) == line_crosses(b, a, cover)


@given(a=AREAS, b=AREAS, cover=st.sets(AREAS, max_size=12), turns=st.integers(1, 3))
def test_line_crosses_turns_and_mirrors_with_the_map(a, b, cover, turns):
    expected = line_crosses(a, b, cover)
    ra, rb, rc = a, b, set(cover)
    for _ in range(turns):
        ra, rb, rc = rotate(ra), rotate(rb), {rotate(x) for x in rc}
    assert line_crosses(ra, rb, rc) == expected
    assert line_crosses(mirror(a), mirror(b), {mirror(x) for x in cover}) == expected


@given(a=AREAS, step=st.sampled_from(NEIGHBOURS), cover=st.sets(AREAS, max_size=12))
def test_a_line_to_a_neighbour_crosses_nothing(a, step, cover):
    """E13: next to each other, only the two own areas lie on the line (a diagonal only
    touches corners)."""
    b = (a[0] + step[0], a[1] + step[1])
    assert not line_crosses(a, b, cover)


@given(a=AREAS, b=AREAS)
def test_a_line_crosses_the_areas_between_in_a_row(a, b):
    """A straight horizontal or vertical line crosses every area strictly between."""
    b = (b[0], a[1])
    lo, hi = sorted((a[0], b[0]))
    between = {(x, a[1]) for x in range(lo + 1, hi)}
    assert line_crosses(a, b, between) == bool(between)


@given(
    facing=st.floats(-1e6, 1e6, allow_nan=False, allow_infinity=False)
    | st.floats(-1e-6, 1e-6, allow_nan=False)
)
@example(facing=-1e-92)
@example(facing=-1e-14)
def test_normalise_facing_lands_in_0_to_360(facing):
    """E11: facings are folded into [0, 360) (the docstring's promise).

    Regression (fixed in cfe47d4): ``normalise_facing(-1e-92)`` returned 360.0 (``fmod``
    gives the tiny negative angle back and adding 360.0 rounds up)."""
    f = normalise_facing(facing)
    assert 0.0 <= f < 360.0
    assert math.isclose(math.cos(math.radians(f)), math.cos(math.radians(facing)), abs_tol=1e-6)


# ------------------------------------------------------------------------------ zone


@settings(max_examples=60)
@given(zone=zones(), edge=st.sampled_from(list(Edge)), seed=st.integers(0, 2**32 - 1))
def test_trimming_what_was_added_gives_the_zone_back(zone, edge, seed):
    """E9: a new row or column of tiles beyond an edge, and away again."""
    ts = tileset(zone.tileset)
    cols, rows = zone.size()
    rng = random.Random(seed)
    kinds = [
        rng.choice(ts.kinds) for _ in range(cols if edge in (Edge.NORTH, Edge.SOUTH) else rows)
    ]
    grown = zone.extended(edge, kinds)
    assert set(zone.tiles) <= set(grown.tiles)
    assert len(grown.tiles) == len(zone.tiles) + len(kinds)
    assert grown.trimmed(edge) == zone
    assert grown.line_areas(edge).isdisjoint(a for t in zone.tiles for a in t.areas())


@settings(max_examples=60)
@given(zone=zones(max_tiles=3), grow=st.lists(st.sampled_from(list(Edge)), max_size=4))
def test_the_trim_proposal_gets_an_empty_zone_back_to_3_by_3(zone, grow):
    """E9: at the exchange's end tiles go until the zone is 3 x 3 again."""
    ts = tileset(zone.tileset)
    for edge in grow:
        cols, rows = zone.size()
        zone = zone.extended(
            edge, [ts.kinds[0]] * (cols if edge in (Edge.NORTH, Edge.SOUTH) else rows)
        )
    start = zone.size()
    for edge in zone.trim_proposal(()):
        zone = zone.trimmed(edge)
    assert zone.size() == (min(start[0], START_TILES), min(start[1], START_TILES))


# ----------------------------------------------------------------- reflex and states


@given(seed=st.integers(0, 2**32 - 1), physical=st.sets(st.sampled_from(["huang", "chen"])))
def test_a_deal_holds_every_card_once(seed, physical):
    """E2: 5 cards to every virtual hand, from one shuffled deck."""
    enc = sample.build()
    op = deal_hands(enc, random.Random(seed), tuple(physical))
    reflex = deal(op.deck, op.hands)
    cards = [*reflex.deck, *(c for h in reflex.hands for c in h.cards)]
    assert sorted(cards) == sorted(FULL_DECK)
    for h in reflex.hands:
        assert len(h.cards) == (0 if h.id in physical else HAND_SIZE)
    assert [h.id for h in reflex.hands] == [s.id for s in hand_specs(enc.roster(), physical)]


@given(seed=st.integers(0, 2**32 - 1), rounds=st.integers(1, 5))
def test_the_highest_card_acts_first(seed, rounds):
    enc = sample.build()
    enc.apply(deal_hands(enc, random.Random(seed)))
    for n in range(1, rounds + 1):
        enc.apply(play_cards(enc, rng=random.Random(seed + n)))
        order = round_order(enc.reflex, n)
        keys = [h.played[n - 1].key for h in order]
        assert keys == sorted(keys, reverse=True)
        while enc.turn.phase is Phase.TURNS:
            enc.apply(NextTurn())


@given(markers=st.integers(1, 12))
def test_bleeding_runs_out(markers):
    """E17: each tick suffers half the markers rounded up, then one marker goes."""
    enc = sample.build()
    enc.apply(AddState("chen", StateKind.BLEEDING, markers))
    ticks = 0
    while enc.combatant("chen").has(StateKind.BLEEDING):
        enc.apply(TickBleeding("chen"))
        ticks += 1
    assert ticks == markers
    assert enc.combatant("chen").hits == sum(bleeding_hits(m) for m in range(1, markers + 1))
    with pytest.raises(IllegalOp, match="not bleeding"):
        enc.apply(TickBleeding("chen"))


# ------------------------------------------------------- bugs the state machine found


def started(seed: int = 1) -> Encounter:
    """The sample encounter in round 1 of exchange 1 (order: gao, bandit-1, bandit-2,
    chen, lan, huang, archer, bao)."""
    enc = sample.build()
    enc.apply(deal_hands(enc, random.Random(seed)))
    enc.apply(play_cards(enc, rng=random.Random(seed + 1)))
    return enc


def refused(enc: Encounter, op) -> str:
    before = enc.state()
    with pytest.raises(IllegalOp) as info:
        enc.apply(op)
    assert enc.state() == before
    assert str(info.value).strip()
    return str(info.value)


def play_exchange(enc: Encounter, seed: int = 0) -> None:
    """Deal (if needed) and play every round of the current exchange."""
    if enc.turn.phase in (Phase.SETUP, Phase.EXCHANGE_END):
        enc.apply(deal_hands(enc, random.Random(seed)))
    while enc.turn.phase is not Phase.EXCHANGE_END:
        if enc.turn.phase is Phase.CARDS:
            enc.apply(play_cards(enc, rng=random.Random(seed + enc.turn.round)))
        else:
            enc.apply(NextTurn())


def test_no_exit_over_an_edge_that_extends_the_zone():
    """E9: moving off an edge either exits the encounter or adds tiles, as the edge's
    rule says. In the sample the east bank "goes on" (EdgeRule(EAST, exits=False)).

    Regression (fixed in cfe47d4): ``ExitCombatant`` ignored ``EdgeRule.exits``; now only
    a GM override leaves over such an edge."""
    enc = sample.build()
    enc.apply(PlaceCombatant("chen", (14, 7)))
    assert not enc.zone.edge_rule(Edge.EAST).exits
    refused(enc, ExitCombatant("chen", Edge.EAST))
    enc.apply(ExitCombatant("chen", Edge.EAST, override=True))
    assert enc.combatant("chen").exited and "GM override" in enc.log[-1].text
    enc.apply(PlaceCombatant("chen", (7, 0)))
    enc.apply(ExitCombatant("chen", Edge.NORTH))  # the north edge does exit
    assert enc.combatant("chen").exited


@pytest.mark.parametrize(
    ("hesitate", "op"),
    [
        (False, TakeAction("gao", ActionKind.DEFEND)),
        (False, UseSnap("gao", SnapKind.PREPARE)),
        (False, Screen("gao")),
        (False, Screen("archer")),
        (True, ActHesitated("gao")),
    ],
    ids=["defend", "snap", "screen", "screen out of turn", "hesitated action"],
)
def test_a_character_who_left_cannot_act(hesitate, op):
    """E9: a character who left over an edge is out of the encounter: no action, snap,
    screen, nor a hesitated action (E6).

    Regression (fixed in cfe47d4) for the first four: ``require_actor`` and ``Screen``
    did not check ``exited``. Open bug, "hesitated action": ``ActHesitated.execute``
    (ops/flow.py) does not check it either: Gao hesitates, leaves over the north edge during
    Bandit 1's turn, and then "takes the hesitated action", which ends Bandit 1's turn and
    makes the absent Gao the actor."""
    enc = started()
    assert enc.actor == "gao"
    if hesitate:
        enc.apply(TakeAction("gao", ActionKind.HESITATE))
        enc.apply(NextTurn())  # Bandit 1's turn
    enc.apply(PlaceCombatant("gao", (8, 0)))
    enc.apply(ExitCombatant("gao", Edge.NORTH))
    enc.apply(ExitCombatant("archer", Edge.NORTH))  # the archer stands at (12, 0)
    refused(enc, op)


def test_removing_the_interrupted_character_skips_nobody():
    """E1: every character gets one turn each round; E6: a hesitated action comes directly
    after another character's turn.

    Regression (fixed in cfe47d4): ``RemoveCombatant`` kept ``turn.index`` when the removed
    character sat at ``index`` (while another interjects), so the next turn skipped the
    character after it (bandit-2 here)."""
    enc = started()
    order = enc.turn.order
    assert order[:3] == ("gao", "bandit-1", "bandit-2")
    enc.apply(TakeAction("gao", ActionKind.HESITATE))
    enc.apply(NextTurn())  # bandit-1's turn
    enc.apply(ActHesitated("gao"))  # gao acts after bandit-1's turn
    enc.apply(RemoveCombatant("bandit-1"))  # bandit-1 falls; its turn is over anyway
    enc.apply(NextTurn())
    assert enc.actor == "bandit-2"


def test_a_gm_placement_forgets_the_lost_overlap_check():
    """E14: after a lost leave-overlap check the mover may only step to an adjacent area in
    front of the winner's flank.

    Regression (fixed in cfe47d4): ``PlaceCombatant`` kept ``economy.exit_to`` (areas next
    to the old overlap); placed into another overlap, ``reachable`` offered those far areas
    as one step while ``path_cost`` refused them."""
    enc = started()
    enc.apply(PlaceCombatant("chen", (8, 3)))  # Chen steps into Gao's area
    flow = leave_overlap_flow(enc, "gao", "chen")
    flow.roll_attack(ScriptedSource([1, 1, 1, 1]))  # Gao fails the move check
    enc.apply(flow.op())
    assert enc.combatant("gao").economy.exit_to
    enc.apply(PlaceCombatant("gao", (5, 12)))  # the GM drops Gao onto Lan
    gao = enc.combatant("gao")
    assert gao.economy.exit_to is None and not gao.economy.exit_free
    with pytest.raises(IllegalOp, match="move check"):  # a new overlap, a new check
        movement.reachable(enc, "gao", 2)
    enc.apply(PlaceCombatant("gao", (5, 5)))  # nobody there: free to go
    gao = enc.combatant("gao")
    steps = movement.reachable(enc, "gao", 1)
    assert len(steps) > 1
    for area in steps:
        assert distance(area, (5, 5)) <= 1
        assert movement.path_cost(enc, gao, movement.path_to(steps, area)) == steps[area].cost


def test_a_returning_character_does_not_stop_the_exchange():
    """E1, E2: each round every hand plays a card; play always goes on.

    Regression (fixed in cfe47d4): the archer (alone in the Archers' hand) leaves in round
    1 and comes back in round 2; ``PlayCards`` then refused every round ("missed a round's
    card: deal again") and ``DealHands`` refused mid-exchange: the encounter was stuck."""
    enc = started()
    enc.apply(ExitCombatant("archer", Edge.NORTH))
    while enc.turn.phase is Phase.TURNS:
        enc.apply(NextTurn())
    enc.apply(play_cards(enc, rng=random.Random(3)))  # round 2 without the archers
    enc.apply(PlaceCombatant("archer", (12, 1)))
    while enc.turn.phase is Phase.TURNS:
        enc.apply(NextTurn())
    ways_on = []
    for make in (
        lambda: play_cards(enc, rng=random.Random(4)),
        lambda: deal_hands(enc, random.Random(5)),
    ):
        try:
            enc.apply(make())
            ways_on.append(True)
        except IllegalOp:
            ways_on.append(False)
    assert any(ways_on), "neither the round's cards nor a new deal is accepted"


def test_persevere_happens_once():
    """E15: after the encounter every character makes one persevere check.

    Regression (fixed in cfe47d4): a second Persevere was accepted (exhausted characters
    lost grit again)."""
    enc = sample.build()
    play_exchange(enc, 0)
    play_exchange(enc, 100)
    enc.apply(EndEncounter())
    enc.apply(persevere.roll(enc, RandomSource(1)))
    refused(enc, persevere.roll(enc, RandomSource(2)))


def test_an_exchange_dealt_but_not_played_does_not_count():
    """E15: persevere follows an encounter longer than one exchange.

    Regression (fixed in cfe47d4): ``EndEncounter`` counted ``max(exchanges_played,
    exchange)``, so an encounter ended right after the second deal "lasted 2 exchanges"."""
    enc = sample.build()
    play_exchange(enc, 0)
    enc.apply(deal_hands(enc, random.Random(9)))  # exchange 2 is dealt, nothing played
    assert isinstance(enc.log[-1].op, DealHands)
    enc.apply(EndEncounter())
    assert enc.turn.exchanges_played == 1
    assert not persevere.due(enc)
