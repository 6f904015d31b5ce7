"""Placing prepared characters (afdesk.encounter.placing): who waits off the map, where a
dropped group spreads, which way it faces (E9, E11)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from afdesk.encounter.combatant import Combatant, Side
from afdesk.encounter.ops.roster import AddCombatant, PlaceCombatant
from afdesk.encounter.placing import (
    drop_placement,
    facing_the_other_side,
    spread,
    tile_areas,
    unplaced,
    zone_edge_areas,
)
from tests.encounter.conftest import band, foe, make


def prepared():
    enc = make(band("huang", (5, 5)), foe("gao", (7, 5)))
    for i in range(3):
        enc.apply(AddCombatant(Combatant(f"b{i}", f"Bandit {i + 1}", Side.OPPONENT, group="B")))
    return enc


def test_unplaced_lists_who_waits_off_the_map():
    enc = prepared()
    assert [c.id for c in unplaced(enc)] == ["b0", "b1", "b2"]
    enc.apply(PlaceCombatant("b1", (1, 1)))
    assert [c.id for c in unplaced(enc)] == ["b0", "b2"]


def test_a_group_dropped_on_a_tile_spreads_over_its_free_areas_nearest_first():
    enc = prepared()
    areas = spread(enc, 3, (5, 5), tile_areas((5, 5)))
    assert len(set(areas)) == 3 and (5, 5) not in areas  # Huang stands there
    assert all(5 <= c < 10 and 5 <= r < 10 for c, r in areas)  # the tile (1, 1)
    assert areas[0] == (6, 5)  # the nearest ring first, in reading order
    assert all(max(abs(c - 5), abs(r - 5)) == 1 for c, r in areas)


def test_a_group_dropped_on_an_edge_takes_the_edges_areas():
    enc = prepared()
    edge = zone_edge_areas(enc, "north")
    areas = spread(enc, 3, (7, 0), edge)
    assert areas == [(7, 0), (6, 0), (8, 0)]  # the drop point, then its neighbours
    with pytest.raises(ValueError, match="no edge 'up'"):
        zone_edge_areas(enc, "up")


def test_a_full_tile_overflows_to_the_nearest_free_areas():
    enc = prepared()
    tile = tile_areas((0, 0))
    areas = spread(enc, 30, (2, 2), tile)
    assert areas[:25] == sorted(
        areas[:25], key=lambda a: (max(abs(a[0] - 2), abs(a[1] - 2)), a[1], a[0])
    )
    assert set(areas[:25]) == set(tile) and len(set(areas)) == 30


@given(st.integers(0, 300), st.integers(0, 14), st.integers(0, 14))
def test_spread_never_stacks_nor_takes_an_occupied_area(n, col, row):
    enc = prepared()
    areas = spread(enc, n, (col, row), tile_areas((col, row)))
    assert len(areas) == min(n, 15 * 15 - 2)
    assert len(set(areas)) == len(areas)
    assert not {(5, 5), (7, 5)} & set(areas)
    assert all(enc.zone.contains(a) for a in areas)


def test_placed_characters_face_the_other_side():
    enc = prepared()
    bandit = enc.combatants["b0"]
    assert facing_the_other_side(enc, bandit, (5, 0)) == 180.0  # Huang is due south
    hero = enc.combatants["huang"]
    assert facing_the_other_side(enc, hero, (2, 5)) == 90.0  # Gao is due east
    lone = make(band("huang", (5, 5)))
    assert facing_the_other_side(lone, lone.combatants["huang"], (0, 7)) == 90.0  # the middle


def test_one_dropped_character_takes_the_drop_area_facing_the_other_side():
    enc = prepared()
    assert drop_placement(enc, ["b0"], (5, 8)) == [("b0", (5, 8), 0.0)]  # Huang is north
    [(cid, area, _)] = drop_placement(enc, ["b0"], (5, 5))  # Huang stands there
    assert cid == "b0" and area != (5, 5) and max(abs(area[0] - 5), abs(area[1] - 5)) == 1


def test_a_group_dropped_on_the_zones_edge_lines_up_along_it():
    enc = prepared()
    placed = drop_placement(enc, ["b0", "b1", "b2"], (14, 6))  # the east edge
    assert [a for _, a, _ in placed] == [(14, 6), (14, 5), (14, 7)]
    facing = {a: f for _, a, f in placed}
    assert facing[(14, 5)] == 270.0  # Huang is due west of (14, 5)
    assert all(225 < f < 315 for f in facing.values())  # westwards, towards the band
    inner = drop_placement(enc, ["b0", "b1"], (12, 12))
    assert all(10 <= c < 15 and 10 <= r < 15 for _, (c, r), _ in inner)  # the tile (2, 2)
    assert drop_placement(enc, ["b0"], (40, 40)) == []  # off the zone: nothing
