"""Facing, flank, distance and cover lines (E11-E13), as tables."""

from __future__ import annotations

import pytest

from afdesk.encounter.geometry import (
    beyond_band,
    clear_line,
    direction_name,
    distance,
    edge_areas,
    facing_towards,
    in_front,
    line_crosses,
    nearest,
    normalise_facing,
    straight_path,
)

C = (5, 5)
RING = {
    "N": (5, 4),
    "NE": (6, 4),
    "E": (6, 5),
    "SE": (6, 6),
    "S": (5, 6),
    "SW": (4, 6),
    "W": (4, 5),
    "NW": (4, 4),
}
FRONT = {
    # facing: the neighbours in front (on the flank line counts as in front, E11)
    0: {"N", "NE", "NW", "E", "W"},
    45: {"N", "NE", "E", "NW", "SE"},
    90: {"NE", "E", "SE", "N", "S"},
    135: {"E", "SE", "S", "NE", "SW"},
    180: {"SE", "S", "SW", "E", "W"},
    225: {"S", "SW", "W", "SE", "NW"},
    270: {"SW", "W", "NW", "N", "S"},
    315: {"W", "NW", "N", "SW", "NE"},
}


@pytest.mark.parametrize("facing", sorted(FRONT))
def test_flank_in_all_eight_directions(facing):
    front = {name for name, area in RING.items() if in_front(C, facing, area)}
    assert front == FRONT[facing]


@pytest.mark.parametrize(
    ("facing", "other", "expected"),
    [
        (10, (6, 5), True),  # slightly north of east-west: E is just in front
        (10, (4, 5), False),  # W is just behind
        (350, (4, 5), True),
        (350, (6, 5), False),
        (30, (5, 9), False),
        (30, (9, 4), True),
        (100, (5, 1), False),  # facing a little south of east: far north is behind
        (80, (5, 1), True),
        (359.9, (6, 5), False),
        (0.1, (4, 5), False),
        (-90, (4, 5), True),  # -90 is 270: west
        (450, (6, 5), True),  # 450 is 90: east
    ],
)
def test_flank_at_odd_angles(facing, other, expected):
    assert in_front(C, facing, other) is expected


@pytest.mark.parametrize("facing", [0, 45, 90, 137.5, 180, 270, 359])
def test_same_area_is_always_in_front(facing):
    assert in_front(C, facing, C)


@pytest.mark.parametrize(
    ("facing", "other"),
    [(0, (9, 5)), (0, (1, 5)), (90, (5, 0)), (90, (5, 12)), (45, (7, 7)), (45, (3, 3))],
)
def test_on_the_flank_line_counts_as_in_front(facing, other):
    assert in_front(C, facing, other)


def test_distance_is_chebyshev():
    assert distance((0, 0), (0, 0)) == 0
    assert distance((0, 0), (1, 1)) == 1
    assert distance((0, 0), (3, 1)) == 3
    assert distance((-2, 4), (2, -1)) == 5


@pytest.mark.parametrize(
    ("a", "b", "areas", "expected"),
    [
        ((0, 0), (2, 0), {(1, 0)}, True),  # straight through
        ((0, 0), (2, 0), {(1, 1)}, False),  # beside the line
        ((0, 0), (2, 2), {(1, 1)}, True),  # diagonal through the middle
        ((0, 0), (1, 1), {(1, 0)}, False),  # a diagonal step touches only a corner
        ((0, 0), (1, 1), {(0, 1)}, False),
        ((0, 0), (2, 2), {(1, 0), (0, 1)}, False),  # corners only
        ((0, 0), (2, 1), {(1, 0)}, True),  # through (1, 0)'s interior
        ((0, 0), (2, 1), {(1, 1)}, True),
        ((0, 0), (4, 2), {(2, 1)}, True),  # exactly through the centre
        ((0, 0), (4, 2), {(1, 1)}, True),  # clips the corner of (1, 1)
        ((0, 0), (4, 2), {(0, 1)}, False),  # below the line
        ((0, 0), (3, 0), {(0, 0), (3, 0)}, False),  # the ends do not count
        ((0, 0), (0, 3), {(0, 1), (0, 2)}, True),
        ((3, 3), (0, 0), {(1, 1)}, True),  # direction does not matter
    ],
)
def test_line_crosses(a, b, areas, expected):
    assert line_crosses(a, b, areas) is expected
    assert line_crosses(b, a, areas) is expected


COVER_CASES = [
    # attacker, target, cover areas, penalty? (E13: the attacker's and the target's own
    # areas never count)
    ((0, 5), (4, 5), {(3, 5)}, True),  # cover in front of the target
    ((0, 5), (4, 5), {(5, 5)}, False),  # cover behind the target
    ((0, 5), (4, 5), {(4, 4), (4, 6)}, False),  # cover beside the target
    ((0, 5), (4, 5), {(4, 5)}, False),  # cover under the target
    ((0, 5), (4, 5), {(0, 5)}, False),  # cover under the attacker
    ((0, 5), (4, 5), {(2, 4)}, False),  # beside the line
]


@pytest.mark.parametrize(("attacker", "target", "cover", "expected"), COVER_CASES)
def test_cover_lines(attacker, target, cover, expected):
    assert line_crosses(attacker, target, cover) is expected


def test_facing_helpers():
    assert facing_towards((5, 5), (5, 0)) == 0
    assert facing_towards((5, 5), (9, 5)) == 90
    assert facing_towards((5, 5), (5, 9)) == 180
    assert facing_towards((5, 5), (1, 5)) == 270
    assert facing_towards((5, 5), (6, 6)) == pytest.approx(135)
    assert normalise_facing(-45) == 315 and normalise_facing(720) == 0
    assert direction_name(100) == "E" and direction_name(200) == "S"


@pytest.mark.parametrize(
    ("a", "b", "path"),
    [((0, 0), (3, 1), [(0, 0), (1, 0), (2, 1), (3, 1)]), ((2, 2), (2, 2), [(2, 2)])],
)
def test_straight_path(a, b, path):
    assert straight_path(a, b) == path


def test_beyond_band_edge_areas_and_nearest():
    bounds = (0, 0, 14, 14)
    assert beyond_band(bounds, "north", (3, -9)) == (3, -5)
    assert beyond_band(bounds, "east", (16, 20)) == (16, 14)
    assert edge_areas(bounds, "west")[:2] == [(0, 0), (0, 1)]
    assert nearest([(0, 0), (5, 5)], (4, 4)) == (5, 5)
    assert nearest([], (4, 4)) is None


def test_facing_towards_points_of_a_frame():
    """Scene points (rows grow down) give the same compass facing as areas."""
    assert facing_towards((10.5, 10.5), (10.5, 0.0)) == 0
    assert facing_towards((0.0, 0.0), (3.0, 0.0)) == 90
    assert facing_towards((0.0, 0.0), (0.0, 0.0)) == 0


# --------------------------------------------------------------- clear_line (N4a)


def test_n4a_clear_line_in_front_and_open() -> None:
    assert clear_line((2, 2), 90.0, (6, 2))
    assert clear_line((2, 2), 0.0, (2, 0))


def test_n4a_clear_line_behind_the_flank_is_not_clear() -> None:
    assert not clear_line((2, 2), 270.0, (6, 2))
    assert not clear_line((2, 2), 0.0, (2, 5))


def test_n4a_e11_on_the_flank_line_counts_as_in_front() -> None:
    # facing north: (6, 2) lies on the flank line through (2, 2)
    assert clear_line((2, 2), 0.0, (6, 2))
    assert clear_line((2, 2), 180.0, (0, 2))


def test_n4a_e13_cover_crossed_blocks_but_own_areas_never_do() -> None:
    assert not clear_line((2, 2), 90.0, (6, 2), cover=[(4, 2)])
    # cover in the observer's and the target's own areas does not block (E13)
    assert clear_line((2, 2), 90.0, (6, 2), cover=[(2, 2), (6, 2)])
    # a corner touched is not crossed
    assert clear_line((0, 0), 135.0, (2, 2), cover=[(1, 0), (0, 1)])
    assert not clear_line((0, 0), 135.0, (2, 2), cover=[(1, 1)])


def test_n4a_obscured_areas_block_like_cover() -> None:
    assert not clear_line((2, 2), 90.0, (6, 2), obscured=[(3, 2)])
    assert clear_line((2, 2), 90.0, (6, 2), obscured=[(6, 2), (3, 5)])


def test_n4a_same_area_is_always_clear() -> None:
    assert clear_line((3, 3), 0.0, (3, 3), cover=[(3, 3)], obscured=[(3, 3)])
    assert clear_line((3, 3), 180.0, (3, 3))
