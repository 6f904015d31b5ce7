"""Pixel <-> area conversion for the map, in one place (no Qt: plain numbers).

Scene coordinates: an area is ``AREA`` units square; area (c, r) spans
``[c * AREA, (c + 1) * AREA) x [r * AREA, (r + 1) * AREA)``, so a tile is ``5 * AREA``.
"""

from __future__ import annotations

import math

from afdesk.encounter.geometry import Area, facing_vector

AREA = 64.0


def area_at(x: float, y: float) -> Area:
    """The area holding the scene point (x, y)."""
    return math.floor(x / AREA), math.floor(y / AREA)


def area_rect(area: Area) -> tuple[float, float, float, float]:
    """(x, y, width, height) of an area in scene units."""
    return area[0] * AREA, area[1] * AREA, AREA, AREA


def area_centre(area: Area) -> tuple[float, float]:
    return (area[0] + 0.5) * AREA, (area[1] + 0.5) * AREA


def bounds_rect(bounds: tuple[int, int, int, int]) -> tuple[float, float, float, float]:
    """(x, y, w, h) of inclusive area bounds (min col, min row, max col, max row)."""
    c0, r0, c1, r1 = bounds
    return c0 * AREA, r0 * AREA, (c1 - c0 + 1) * AREA, (r1 - r0 + 1) * AREA


def slots(n: int) -> tuple[list[tuple[float, float]], float]:
    """Where ``n`` tokens sharing an area sit, side by side and never on top of each other:
    centre offsets in area units, and the token radius in area units."""
    if n <= 1:
        return [(0.0, 0.0)], 0.36
    if n == 2:
        # A gap between the discs leaves room for the actor's ring and the badges; one
        # above the other, so that their labels (wider than tall, never under reading
        # size: gui/map/tokens.py) do not run into each other at a small zoom.
        return [(0.0, -0.26), (0.0, 0.26)], 0.21
    if n == 3:
        return [(-0.25, -0.22), (0.25, -0.22), (0.0, 0.24)], 0.21
    if n == 4:
        return [(-0.25, -0.25), (0.25, -0.25), (-0.25, 0.25), (0.25, 0.25)], 0.21
    side = math.ceil(math.sqrt(n))
    step = 1.0 / side
    out = []
    for i in range(n):
        r, c = divmod(i, side)
        out.append((-0.5 + step * (c + 0.5), -0.5 + step * (r + 0.5)))
    return out, step * 0.42


# ------------------------------------------------------------------ outlines and lines


def outline(areas) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The boundary of a set of areas as scene-unit line pieces ((x0, y0), (x1, y1)): the
    sides of each area that do not touch another area of the set."""
    cells = {tuple(a) for a in areas}
    out = []
    for c, r in cells:
        x0, y0, x1, y1 = c * AREA, r * AREA, (c + 1) * AREA, (r + 1) * AREA
        if (c, r - 1) not in cells:
            out.append(((x0, y0), (x1, y0)))
        if (c + 1, r) not in cells:
            out.append(((x1, y0), (x1, y1)))
        if (c, r + 1) not in cells:
            out.append(((x0, y1), (x1, y1)))
        if (c - 1, r) not in cells:
            out.append(((x0, y0), (x0, y1)))
    return sorted(out)


def anchor(areas) -> Area:
    """Where a group of areas is labelled: its top-most, then left-most area."""
    return min((tuple(a) for a in areas), key=lambda a: (a[1], a[0]))


def half_plane(
    centre: tuple[float, float], facing: float, rect: tuple[float, float, float, float]
) -> list[tuple[float, float]]:
    """The part of ``rect`` (x, y, w, h) behind the flank line through ``centre``: the
    points P with (P - C) . facing < 0 (E11), as a polygon (empty if none)."""
    fx, fy = facing_vector(facing)
    cx, cy = centre
    x, y, w, h = rect
    poly = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]

    def side(p):
        return (p[0] - cx) * fx + (p[1] - cy) * fy

    out = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        sp, sq = side(p), side(q)
        if sp < 0:
            out.append(p)
        if (sp < 0) != (sq < 0) and sp != sq:
            t = sp / (sp - sq)
            out.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
    return out


def half_disc(
    centre: tuple[float, float], facing: float, radius: float, n: int = 24
) -> list[tuple[float, float]]:
    """The half disc of ``radius`` behind the flank line through ``centre``, as a polygon."""
    fx, fy = facing_vector(facing)
    # The flank direction (facing turned 90 degrees clockwise), then sweep behind.
    start = math.atan2(fx, -fy)
    cx, cy = centre
    pts = [
        (
            cx + radius * math.cos(start + math.pi * i / n),
            cy + radius * math.sin(start + math.pi * i / n),
        )
        for i in range(n + 1)
    ]
    return pts


def flank_line(
    centre: tuple[float, float], facing: float, half_length: float
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two ends of the flank line: through ``centre``, perpendicular to the facing."""
    fx, fy = facing_vector(facing)
    px, py = -fy, fx
    cx, cy = centre
    return (cx - px * half_length, cy - py * half_length), (
        cx + px * half_length,
        cy + py * half_length,
    )
