"""Areas, facing and flank, distance and lines (E11-E13).

Areas are ``(column, row)`` integer pairs; row grows down the map. Facing is in compass
degrees: 0 faces up the map (row decreasing), 90 faces right (column increasing).

>>> in_front((5, 5), 0, (5, 4)), in_front((5, 5), 0, (5, 6)), in_front((5, 5), 0, (6, 5))
(True, False, True)
>>> distance((0, 0), (3, 1))
3
>>> line_crosses((0, 0), (2, 2), {(1, 1)}), line_crosses((0, 0), (2, 0), {(1, 1)})
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator

Area = tuple[int, int]

NEIGHBOURS: tuple[Area, ...] = (
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
)

DIRECTIONS = {
    "N": 0.0,
    "NE": 45.0,
    "E": 90.0,
    "SE": 135.0,
    "S": 180.0,
    "SW": 225.0,
    "W": 270.0,
    "NW": 315.0,
}

_ON_LINE = 1e-9


def normalise_facing(facing: float) -> float:
    """Facing folded into [0, 360)."""
    f = math.fmod(float(facing), 360.0)
    if f < 0:
        f += 360.0  # a tiny negative angle rounds up to exactly 360.0 here
    return 0.0 if f >= 360.0 else f


def facing_vector(facing: float) -> tuple[float, float]:
    """Unit vector of a facing in (column, row) coordinates."""
    rad = math.radians(facing)
    return math.sin(rad), -math.cos(rad)


def in_front(observer: Area, facing: float, other: Area) -> bool:
    """Whether ``other`` is in front of the flank of a character in ``observer`` (E11).

    The flank line passes through the centre of the observer's area, perpendicular to the
    facing; a point P is in front when (P - C) . facing >= 0, so on the line counts as in
    front, and the same area is always in front (wiki).
    """
    dc = other[0] - observer[0]
    dr = other[1] - observer[1]
    if dc == 0 and dr == 0:
        return True
    fx, fy = facing_vector(facing)
    dot = dc * fx + dr * fy
    return dot >= -_ON_LINE * math.hypot(dc, dr)


def distance(a: Area, b: Area) -> int:
    """Chebyshev distance: diagonal steps count 1 (E12)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def adjacent(a: Area, b: Area) -> bool:
    return a != b and distance(a, b) == 1


def neighbours(area: Area) -> Iterator[Area]:
    c, r = area
    for dc, dr in NEIGHBOURS:
        yield c + dc, r + dr


def line_crosses(a: Area, b: Area, areas: Iterable[Area]) -> bool:
    """Whether the segment between the centres of ``a`` and ``b`` passes through the
    interior of any area in ``areas`` other than ``a`` and ``b`` (E13).

    Touching only a corner or running along an edge is not crossing. The test is exact:
    coordinates are doubled so every centre and corner is an integer.
    """
    return any(_crosses(a, b, area) for area in areas if area != a and area != b)


def crossed_areas(a: Area, b: Area, areas: Iterable[Area]) -> list[Area]:
    """The areas of ``areas`` (not ``a`` or ``b``) whose interior the line a-b passes."""
    return [area for area in areas if area != a and area != b and _crosses(a, b, area)]


def _crosses(a: Area, b: Area, area: Area) -> bool:
    # Doubled coordinates: centres at odd integers, area ``area`` spans [2c, 2c+2].
    p0 = (2 * a[0] + 1, 2 * a[1] + 1)
    p1 = (2 * b[0] + 1, 2 * b[1] + 1)
    # Parameter interval, as fractions num/den with den > 0, where the point is strictly
    # inside the square on both axes; compare fractions by cross-multiplication.
    lo_n, lo_d = 0, 1
    hi_n, hi_d = 1, 1
    for axis in (0, 1):
        start = p0[axis]
        delta = p1[axis] - start
        low = 2 * area[axis]
        high = low + 2
        if delta == 0:
            if not low < start < high:
                return False
            continue
        if delta > 0:
            t1_n, t2_n = low - start, high - start
        else:
            t1_n, t2_n, delta = start - high, start - low, -delta
        if t1_n * lo_d > lo_n * delta:
            lo_n, lo_d = t1_n, delta
        if t2_n * hi_d < hi_n * delta:
            hi_n, hi_d = t2_n, delta
    return lo_n * hi_d < hi_n * lo_d


def centre(area: Area) -> tuple[float, float]:
    return area[0] + 0.5, area[1] + 0.5


Point = tuple[float, float]
"""A point in (column, row) coordinates, or in any frame whose rows grow down the map
(the GUI's scene units)."""


def facing_towards(a: Area | Point, b: Area | Point) -> float:
    """The facing from ``a`` towards ``b`` (0 if the same): from the centre of one area to
    another's, or between two points of one frame (a pointer dragged round a token)."""
    dc, dr = b[0] - a[0], b[1] - a[1]
    if dc == 0 and dr == 0:
        return 0.0
    return normalise_facing(math.degrees(math.atan2(dc, -dr)))


def snap_facing(facing: float, step: float = 45.0) -> float:
    """Facing rounded to the nearest multiple of ``step`` degrees."""
    return normalise_facing(round(facing / step) * step)


def direction_name(facing: float) -> str:
    """The nearest of the eight compass directions."""
    f = snap_facing(facing)
    return next(name for name, deg in DIRECTIONS.items() if deg == f)


def straight_path(a: Area, b: Area) -> list[Area]:
    """Areas from ``a`` to ``b`` in single steps along the straight line (start included).
    Used only to ask the model why a move out of reach is refused."""
    steps = max(abs(b[0] - a[0]), abs(b[1] - a[1]))
    if steps == 0:
        return [(a[0], a[1])]
    return [
        (round(a[0] + (b[0] - a[0]) * i / steps), round(a[1] + (b[1] - a[1]) * i / steps))
        for i in range(steps + 1)
    ]


def nearest(areas: Iterable[Area], target: Area) -> Area | None:
    """The area of ``areas`` closest to ``target`` (straight-line distance; ties: first)."""
    best: Area | None = None
    best_d: int | None = None
    for a in areas:
        d = (a[0] - target[0]) ** 2 + (a[1] - target[1]) ** 2
        if best_d is None or d < best_d:
            best, best_d = (a[0], a[1]), d
    return best


Bounds = tuple[int, int, int, int]
"""Inclusive area bounds: (min column, min row, max column, max row)."""


def edge_areas(bounds: Bounds, edge: str) -> list[Area]:
    """The areas along one edge ("north", "east", "south", "west") of ``bounds``."""
    c0, r0, c1, r1 = bounds
    if edge == "north":
        return [(c, r0) for c in range(c0, c1 + 1)]
    if edge == "south":
        return [(c, r1) for c in range(c0, c1 + 1)]
    if edge == "west":
        return [(c0, r) for r in range(r0, r1 + 1)]
    return [(c1, r) for r in range(r0, r1 + 1)]


def beyond_band(bounds: Bounds, edge: str, area: Area, depth: int = 5) -> Area:
    """An area dropped beyond ``edge`` of ``bounds``, brought into the ``depth`` areas a
    new row or column of tiles would add there (E9)."""
    c0, r0, c1, r1 = bounds
    c = min(max(area[0], c0), c1)
    r = min(max(area[1], r0), r1)
    if edge == "north":
        return c, max(area[1], r0 - depth)
    if edge == "south":
        return c, min(area[1], r1 + depth)
    if edge == "west":
        return max(area[0], c0 - depth), r
    return min(area[0], c1 + depth), r


def clear_line(
    observer: Area,
    facing: float,
    target: Area,
    cover: Iterable[Area] = (),
    obscured: Iterable[Area] = (),
) -> bool:
    """Whether a character in ``observer`` facing ``facing`` has a clear line to ``target``
    (N4a): the line from centre to centre crosses no Cover area (E13) and no area the GM
    marked as obscured (a visibility penalty), and ``target`` is not behind the observer's
    flank (E11: on the flank line counts as in front, the same area is always in front).
    The observer's and the target's own areas never block (E13).

    >>> clear_line((0, 0), 90, (4, 0)), clear_line((0, 0), 270, (4, 0))
    (True, False)
    >>> clear_line((0, 0), 90, (4, 0), cover=[(2, 0)]), clear_line((0, 0), 0, (4, 0))
    (False, True)
    """
    if not in_front(observer, facing, target):
        return False
    return not line_crosses(observer, target, cover) and not line_crosses(
        observer, target, obscured
    )
