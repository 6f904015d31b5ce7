"""Universal VTT maps (``.uvtt``, Dungeondraft's ``.dd2vtt``): the picture, its grid and its
walls, read without Qt (the GUI decodes the picture).

A Universal VTT file is JSON: ``resolution`` (``map_origin`` and ``map_size`` in grid
squares, ``pixels_per_grid``), ``image`` (the picture, base64 PNG or WebP; JPEG too),
``line_of_sight`` and ``objects_line_of_sight`` (walls: polylines of ``{"x", "y"}`` points
in grid squares) and ``portals`` (doors: ``bounds``, two points, and ``closed``). Other
fields (lights, environment) are ignored.

One grid square is one area by default: :func:`alignment` gives the picture's cell size
and offset, which the GM may change before importing; the walls follow the same
alignment (:func:`wall_areas`).

What is approximated: afdesk's terrain is made of whole areas (segments, E10), and walls
are lines. A wall marks every area it passes through; a wall running exactly along the
border between two areas marks the area right of or below it (one side, so a corridor
one area wide keeps its floor on the other side). The areas marked get a segment
"Walls" with Cover (E13: attack lines through them take -2) and a GM property "Wall"
that says they block; afdesk itself does not stop a move through them (no rule of E10
blocks movement; the GM does). Doors (portals) become a segment "Doors" with a GM
property "Door" (closed or open), and are not walls.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import math
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import msgspec

from afdesk.encounter.art import Alignment, picture_type
from afdesk.encounter.geometry import Area
from afdesk.encounter.zone import Property, SegmentProps
from afdesk.storage import messages
from afdesk.storage.errors import LoadError

MAX_UVTT_BYTES = 48 * 1024 * 1024
"""A Universal VTT file larger than this is refused before it is read."""

MAX_POINTS = 200_000
"""The walls and doors of one file hold at most this many points."""

MAX_GRID = 1_000
"""``map_size`` is at most this many grid squares each way."""

WALLS = "Walls"
WALL_PROPS = SegmentProps(
    cover=True,
    custom=(
        Property(
            "Wall",
            "blocks movement and sight (walls of the imported map; afdesk does not stop a "
            "move through them: the GM does)",
        ),
    ),
)
DOORS = "Doors"

Point = tuple[float, float]


class Portal(msgspec.Struct, frozen=True):
    """A door: the line it closes (two points, grid squares) and whether it is closed."""

    a: Point
    b: Point
    closed: bool = True


class UvttMap(msgspec.Struct, frozen=True):
    """What afdesk takes from a Universal VTT file."""

    image: bytes
    mime: str
    columns: float
    rows: float
    pixels_per_grid: float
    origin: Point = (0.0, 0.0)
    walls: tuple[tuple[Point, ...], ...] = ()
    portals: tuple[Portal, ...] = ()

    def to_pixels(self, p: Point) -> Point:
        """A point in grid squares as a pixel of the picture."""
        ppg = self.pixels_per_grid
        return (p[0] - self.origin[0]) * ppg, (p[1] - self.origin[1]) * ppg


def read(path: str | Path) -> UvttMap:
    """Read a Universal VTT file; :class:`LoadError` naming the file and what is wrong."""
    path = Path(path)
    source = path.name or str(path)
    try:
        size = path.stat().st_size
        if size > MAX_UVTT_BYTES:
            raise LoadError(
                source,
                f"it is {size / 2**20:.1f} MiB; afdesk imports Universal VTT maps of at most "
                f"{MAX_UVTT_BYTES // 2**20} MiB (nothing changed)",
            )
        data = path.read_bytes()
    except OSError as exc:
        raise LoadError(source, f"it cannot be read: {exc.strerror or exc}") from None
    return parse(data, source)


def parse(data: bytes, source: str = "<memory>") -> UvttMap:
    """A Universal VTT document from its bytes; :class:`LoadError` naming ``source``, the
    place (``resolution.pixels_per_grid``) and the problem."""
    if len(data) > MAX_UVTT_BYTES:
        raise LoadError(source, f"it is larger than {MAX_UVTT_BYTES // 2**20} MiB")
    try:
        doc = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise LoadError(
            source, messages.syntax_text(str(exc), data, "a Universal VTT map")
        ) from None
    except UnicodeDecodeError:
        raise LoadError(source, "this is not a Universal VTT map (not UTF-8 JSON)") from None
    if not isinstance(doc, dict):
        raise LoadError(source, "this is not a Universal VTT map: expected a JSON object")
    try:
        return _read_doc(doc)
    except _Bad as bad:
        raise LoadError(source, f"{bad.place}: {bad.text}") from None


class _Bad(Exception):
    def __init__(self, place: str, text: str) -> None:
        super().__init__(place, text)
        self.place = place
        self.text = text


def _number(value: Any, place: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _Bad(place, f"expected a number, got {messages.value_text(value)}")
    if not (math.isfinite(value) and low <= value <= high):
        raise _Bad(place, f"{value!r} is not between {low:g} and {high:g}")
    return float(value)


def _field(obj: Any, key: str, place: str) -> Any:
    if not isinstance(obj, dict):
        raise _Bad(place, f"expected an object, got {messages.value_text(obj)}")
    if key not in obj:
        raise _Bad(f"{place}.{key}" if place else key, "the field is missing")
    return obj[key]


_REACH = 1e6
"""Coordinates (grid squares) lie within plus or minus this."""


def _point(value: Any, place: str) -> Point:
    x = _number(_field(value, "x", place), f"{place}.x", -_REACH, _REACH)
    y = _number(_field(value, "y", place), f"{place}.y", -_REACH, _REACH)
    return x, y


def _read_doc(doc: dict[str, Any]) -> UvttMap:
    res = _field(doc, "resolution", "")
    ppg = _number(
        _field(res, "pixels_per_grid", "resolution"), "resolution.pixels_per_grid", 1, 10_000
    )
    size = _field(res, "map_size", "resolution")
    columns = _number(
        _field(size, "x", "resolution.map_size"), "resolution.map_size.x", 1, MAX_GRID
    )
    rows = _number(_field(size, "y", "resolution.map_size"), "resolution.map_size.y", 1, MAX_GRID)
    origin = (0.0, 0.0)
    if isinstance(res, dict) and "map_origin" in res:
        origin = _point(res["map_origin"], "resolution.map_origin")
    image = _image(_field(doc, "image", ""))
    budget = [MAX_POINTS]
    walls: list[tuple[Point, ...]] = []
    for key in ("line_of_sight", "objects_line_of_sight"):
        walls += _lines(doc.get(key, []), key, budget)
    portals = tuple(_portals(doc.get("portals", []), budget))
    return UvttMap(
        image=image,
        mime=picture_type(image),
        columns=columns,
        rows=rows,
        pixels_per_grid=ppg,
        origin=origin,
        walls=tuple(walls),
        portals=portals,
    )


def _image(value: Any) -> bytes:
    if not isinstance(value, str) or not value:
        raise _Bad("image", "expected the picture as base64 text")
    try:
        data = base64.b64decode(value.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise _Bad("image", "the picture is not valid base64 text") from None
    if not picture_type(data):
        raise _Bad("image", "the picture is no PNG, JPEG or WebP")
    return data


def _list(value: Any, place: str) -> list[Any]:
    if not isinstance(value, list):
        raise _Bad(place, f"expected a list, got {messages.value_text(value)}")
    return value


def _lines(value: Any, key: str, budget: list[int]) -> Iterator[tuple[Point, ...]]:
    for i, line in enumerate(_list(value, key)):
        place = f"{key}[{i}]"
        points = _list(line, place)
        budget[0] -= len(points)
        if budget[0] < 0:
            raise _Bad(place, f"the walls and doors hold more than {MAX_POINTS:,} points")
        yield tuple(_point(p, f"{place}[{j}]") for j, p in enumerate(points))


def _portals(value: Any, budget: list[int]) -> Iterator[Portal]:
    for i, portal in enumerate(_list(value, "portals")):
        place = f"portals[{i}]"
        bounds = _list(_field(portal, "bounds", place), f"{place}.bounds")
        if len(bounds) != 2:
            raise _Bad(f"{place}.bounds", f"expected 2 points, got {len(bounds)}")
        budget[0] -= 2
        if budget[0] < 0:
            raise _Bad(place, f"the walls and doors hold more than {MAX_POINTS:,} points")
        closed = portal.get("closed", True)
        if not isinstance(closed, bool):
            raise _Bad(
                f"{place}.closed", f"expected true or false, got {messages.value_text(closed)}"
            )
        yield Portal(
            _point(bounds[0], f"{place}.bounds[0]"), _point(bounds[1], f"{place}.bounds[1]"), closed
        )


def alignment(m: UvttMap) -> Alignment:
    """The picture's grid as an alignment: one grid square is one area, the picture's
    top-left corner is the zone's."""
    return Alignment(cell=m.pixels_per_grid)


# ----------------------------------------------------------------- walls to areas


def line_areas(a: Point, b: Point) -> set[Area]:
    """The areas a line (in areas, fractions kept) passes through: sampled finely (eight
    samples per area crossed, at the middles of the pieces), each sample in the area whose
    square holds it (on a border: the area right of or below it)."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    n = max(1, math.ceil(length * 8))
    out = set()
    for i in range(n):
        t = (i + 0.5) / n
        x = a[0] + (b[0] - a[0]) * t
        y = a[1] + (b[1] - a[1]) * t
        out.add((math.floor(x), math.floor(y)))
    return out


def _polyline_areas(points: Iterable[Point], m: UvttMap, align: Alignment) -> set[Area]:
    pts = [align.area_point(*m.to_pixels(p)) for p in points]
    out: set[Area] = set()
    if len(pts) == 1:
        out.add((math.floor(pts[0][0]), math.floor(pts[0][1])))
    for p, q in itertools.pairwise(pts):
        out |= line_areas(p, q)
    return out


def wall_areas(
    m: UvttMap, align: Alignment, corner: Area, inside: Iterable[Area]
) -> tuple[set[Area], set[Area], bool]:
    """The zone's areas the walls and the doors mark, as ``(walls, doors, closed)``:
    ``corner`` is the zone's area at the alignment's corner, ``inside`` the zone's areas
    (what lies beyond is left out). ``closed``: whether every door is closed."""
    zone = set(inside)

    def shifted(areas: set[Area]) -> set[Area]:
        return {(c + corner[0], r + corner[1]) for c, r in areas} & zone

    walls: set[Area] = set()
    for line in m.walls:
        walls |= _polyline_areas(line, m, align)
    doors: set[Area] = set()
    for portal in m.portals:
        doors |= _polyline_areas((portal.a, portal.b), m, align)
    doors_in = shifted(doors)
    return shifted(walls) - doors_in, doors_in, all(p.closed for p in m.portals)


def door_props(closed: bool) -> SegmentProps:
    """The doors' segment: a GM property saying whether they were closed."""
    state = "closed" if closed else "open (some or all)"
    return SegmentProps(custom=(Property("Door", f"a door of the imported map, {state}"),))


__all__ = [
    "DOORS",
    "MAX_UVTT_BYTES",
    "WALLS",
    "WALL_PROPS",
    "Portal",
    "UvttMap",
    "alignment",
    "door_props",
    "line_areas",
    "parse",
    "read",
    "wall_areas",
]
