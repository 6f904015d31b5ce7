"""Movement (E14): reach, costs by terrain, overlaps, paths, refusals."""

from __future__ import annotations

import msgspec
import pytest

from afdesk.encounter import movement
from afdesk.encounter.combatant import Speeds, StateKind
from afdesk.encounter.economy import ActionKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.economy import TakeAction
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.roster import AddState, PlaceCombatant
from afdesk.encounter.zone import (
    Edge,
    Segment,
    SegmentProps,
    Tile,
    Zone,
)
from tests.encounter.conftest import band, foe, start_round


def custom_zone(props_by_area: dict) -> Zone:
    """A 3 x 3 zone of plain tiles with single-area segments where asked."""
    tiles = []
    for tr in range(3):
        for tc in range(3):
            segs = tuple(
                Segment(f"s{c}-{r}", ((c - 5 * tc, r - 5 * tr),), props)
                for (c, r), props in props_by_area.items()
                if c // 5 == tc and r // 5 == tr
            )
            tiles.append(Tile(tc, tr, "plain", "Plain", "#999999", "grass", segs))
    return Zone(tileset="wilderness", tiles=tuple(tiles))


def enc_with(props_by_area=None, *others, mover=None):
    from afdesk.encounter.model import Encounter
    from afdesk.encounter.ops.roster import AddCombatant

    enc = Encounter(zone=custom_zone(props_by_area or {}))
    for c in (mover or band("huang", (7, 7)), *others):
        enc.apply(AddCombatant(c))
    return enc


def maneuver(enc, cid="huang"):
    start_round(enc)
    while enc.actor != cid:
        from afdesk.encounter.ops.flow import NextTurn

        enc.apply(NextTurn())
    enc.apply(TakeAction(cid, ActionKind.MANEUVER))


def test_run_speed_two_reaches_the_5x5_square():
    enc = enc_with()
    maneuver(enc)
    reach = movement.reachable(enc, "huang")
    assert set(reach) == {(c, r) for c in range(5, 10) for r in range(5, 10)}
    assert movement.as_areas(enc.combatants["huang"], reach[(9, 9)].cost) == 2


def test_rough_costs_two():
    rough = SegmentProps(rough=True)
    enc = enc_with({(8, 7): rough})
    maneuver(enc)
    reach = movement.reachable(enc, "huang")
    assert movement.as_areas(enc.combatants["huang"], reach[(8, 7)].cost) == 2
    assert (9, 7) in reach  # around the rough area, diagonally
    assert movement.path_to(reach, (9, 7)) != [(7, 7), (8, 7), (9, 7)]


def test_water_needs_swim_and_steep_needs_climb():
    enc = enc_with(
        {(8, 7): SegmentProps(water=True), (6, 7): SegmentProps(steep=True)},
        mover=band("huang", (7, 7), speeds=Speeds(run=2, climb=1, swim=0)),
    )
    maneuver(enc)
    reach = movement.reachable(enc, "huang")
    assert (8, 7) not in reach  # no swim speed
    assert movement.as_areas(enc.combatants["huang"], reach[(6, 7)].cost) == 2  # climb 1
    assert (5, 7) not in reach or reach[(5, 7)].prev != (6, 7)


def test_entering_an_opponents_overlap_ends_the_move():
    enc = enc_with({}, foe("gao", (8, 7)))
    maneuver(enc)
    reach = movement.reachable(enc, "huang")
    assert reach[(8, 7)].stops
    assert all(step.prev != (8, 7) for step in reach.values())
    with pytest.raises(IllegalOp, match="overlap ends the move"):
        enc.apply(MoveCombatant("huang", ((7, 7), (8, 7), (9, 7)), 90))


def test_moving_through_friends_is_fine():
    enc = enc_with({}, band("chen", (8, 7)))
    maneuver(enc)
    enc.apply(MoveCombatant("huang", ((7, 7), (8, 7), (9, 7)), 90))
    assert enc.combatants["huang"].area == (9, 7)


def test_leaving_an_overlap_needs_a_move_check():
    enc = enc_with({}, foe("gao", (7, 7)))
    maneuver(enc)
    with pytest.raises(IllegalOp, match="needs a move check"):
        movement.reachable(enc, "huang")
    before = enc.state()
    with pytest.raises(IllegalOp, match="move check"):
        enc.apply(MoveCombatant("huang", ((7, 7), (7, 8)), 180))
    assert enc.state() == before


def test_lost_leave_check_allows_one_step_in_front_of_the_winner():
    enc = enc_with({}, foe("gao", (7, 7), facing=0))
    maneuver(enc)
    front = movement.front_exits(enc, (7, 7), [enc.combatants["gao"]])
    assert set(front) == {(6, 6), (7, 6), (8, 6), (6, 7), (8, 7)}
    from afdesk.encounter.ops.economy import SetEconomy

    c = enc.combatants["huang"]
    enc.apply(SetEconomy("huang", msgspec.structs.replace(c.economy, exit_to=front)))
    reach = movement.reachable(enc, "huang")
    assert set(reach) - {(7, 7)} == set(front)
    assert all(s.stops for a, s in reach.items() if a != (7, 7))
    with pytest.raises(IllegalOp, match="in front of the winning opponent"):
        enc.apply(MoveCombatant("huang", ((7, 7), (7, 8)), 180))
    enc.apply(MoveCombatant("huang", ((7, 7), (7, 6)), 0))
    assert enc.combatants["huang"].economy.movement == 0


def test_path_too_long_is_refused_with_the_reason():
    enc = enc_with()
    maneuver(enc)
    before = enc.state()
    with pytest.raises(IllegalOp, match="can move 2 areas more; that path costs 3"):
        enc.apply(MoveCombatant("huang", ((7, 7), (8, 7), (9, 7), (10, 7)), 90))
    assert enc.state() == before


def test_path_must_be_adjacent_steps_inside_the_zone():
    enc = enc_with(mover=band("huang", (0, 0)))
    maneuver(enc)
    with pytest.raises(IllegalOp, match="adjacent"):
        enc.apply(MoveCombatant("huang", ((0, 0), (2, 0)), 90))
    with pytest.raises(IllegalOp, match="outside the zone"):
        enc.apply(MoveCombatant("huang", ((0, 0), (-1, 0)), 270))


def test_down_means_no_movement():
    enc = enc_with()
    enc.apply(AddState("huang", StateKind.DOWN))
    assert movement.maneuver_ticks(enc.combatants["huang"]) == 0


def test_hustle_is_half_speed_at_least_one_after_a_maneuver():
    c = band("x", (0, 0), speeds=Speeds(run=3))
    unit = movement.tick_unit(c)
    assert movement.hustle_ticks(c, False) == 1 * unit // 3
    slow = band("y", (0, 0), speeds=Speeds(run=1))
    assert movement.hustle_ticks(slow, False) == 0
    assert movement.hustle_ticks(slow, True) == movement.tick_unit(slow)


def test_flying_ignores_segments_without_altitude():
    enc = enc_with(
        {(8, 7): SegmentProps(water=True, rough=True)},
        mover=band("huang", (7, 7), speeds=Speeds(run=2, fly=2, swim=0)),
    )
    enc.apply(AddState("huang", StateKind.FLYING))
    maneuver(enc)
    reach = movement.reachable(enc, "huang")
    assert movement.as_areas(enc.combatants["huang"], reach[(8, 7)].cost) == 1


def test_move_out_of_turn_is_refused():
    enc = enc_with({}, band("chen", (1, 1)))
    start_round(enc, ["chen", "huang"])
    before = enc.state()
    with pytest.raises(IllegalOp, match="it is Chen's turn"):
        enc.apply(MoveCombatant("huang", ((7, 7), (8, 7)), 90, maneuver=True))
    assert enc.state() == before


def test_a_second_maneuver_is_a_second_action():
    enc = enc_with()
    maneuver(enc)
    enc.apply(MoveCombatant("huang", ((7, 7), (8, 7), (9, 7)), 90))
    with pytest.raises(IllegalOp, match="already used the action"):
        enc.apply(MoveCombatant("huang", ((9, 7), (10, 7)), 90, maneuver=True))


def test_reach_is_pathable_with_reported_costs():
    enc = enc_with({(8, 8): SegmentProps(rough=True)}, foe("gao", (9, 9)))
    maneuver(enc)
    c = enc.combatants["huang"]
    reach = movement.reachable(enc, "huang")
    for area, step in reach.items():
        path = movement.path_to(reach, area)
        assert movement.path_cost(enc, c, path) == step.cost


def test_place_is_a_gm_override_outside_movement_rules():
    enc = enc_with()
    enc.apply(PlaceCombatant("huang", (14, 14), 45))
    assert enc.combatants["huang"].area == (14, 14)
    with pytest.raises(IllegalOp, match="outside the zone"):
        enc.apply(PlaceCombatant("huang", (15, 3)))
    assert Edge.EAST is enc.zone.edge_beyond((15, 3))
