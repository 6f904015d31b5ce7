"""The zone: tiles of 5 x 5 areas, segments with properties, edges (E9, E10).

A tile at tile coordinates ``(tc, tr)`` covers areas ``(5 tc .. 5 tc + 4, 5 tr .. 5 tr + 4)``;
tile coordinates may go negative when the zone is extended up or left. Segments name
groups of a tile's areas (in the tile's local 0-4 coordinates) and carry properties.

The model reads no files: tile sets are loaded by :mod:`afdesk.storage.tilesets` and
passed in (:func:`grid_zone`); a zone keeps a copy of the tile kinds it draws new tiles
from (``Zone.kinds``), so extending it, replaying its Ops and opening its file never
depend on which tile sets are installed.
"""

import enum
from collections.abc import Iterable, Sequence

import msgspec

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import Area

TILE = 5
START_TILES = 3  # E9: 3 x 3 tiles at the start of each exchange


class Property(msgspec.Struct, frozen=True):
    """A GM-defined segment property: a name and free text (E10)."""

    name: str
    text: str = ""


class SegmentProps(msgspec.Struct, frozen=True, omit_defaults=True, forbid_unknown_fields=True):
    """What a segment does (E10)."""

    rough: bool = False
    """Entering costs 2 speed instead of 1."""
    slippery: bool = False
    """Balance check on entering or on your turn, or fall down."""
    cover: bool = False
    """Attack lines that cross it suffer -2 (E13)."""
    ledge: bool = False
    """Gain Interference there and you fall to the bottom of the segment."""
    steep: bool = False
    """Climb speed; Interference makes you fall."""
    water: bool = False
    """Swim speed; may drown."""
    altitude: int = 0
    """Height for flying and jumping."""
    custom: tuple[Property, ...] = ()

    def labels(self) -> list[str]:
        """The properties in words, for legends and tooltips."""
        out = [
            name.capitalize()
            for name in ("rough", "slippery", "cover", "ledge", "steep", "water")
            if getattr(self, name)
        ]
        if self.altitude:
            out.append(f"Altitude {self.altitude}")
        out += [p.name for p in self.custom]
        return out


class Segment(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A named group of a tile's areas (local 0-4 coordinates) with properties."""

    name: str
    areas: tuple[tuple[int, int], ...]
    props: SegmentProps = SegmentProps()


class TileKind(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One kind of tile in a tile set."""

    id: str
    name: str
    colour: str
    pattern: str
    segments: tuple[Segment, ...] = ()
    description: str = ""


class TileSet(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A thematic set of tile kinds; new tiles are drawn from the same set (E9)."""

    id: str
    name: str
    kinds: tuple[TileKind, ...]
    random_properties: tuple[str, ...] = ()

    def kind(self, kind_id: str) -> TileKind:
        """The tile kind with this id; :class:`IllegalOp` if the set has none."""
        for k in self.kinds:
            if k.id == kind_id:
                return k
        raise IllegalOp(f"tile set {self.name} has no tile kind {kind_id!r}")


class Tile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A tile placed in the zone: a copy of its kind, so an encounter may change its
    segments' properties without touching the tile set."""

    col: int
    row: int
    kind: str
    name: str
    colour: str
    pattern: str
    segments: tuple[Segment, ...] = ()

    @classmethod
    def place(cls, kind: TileKind, col: int, row: int) -> "Tile":
        return cls(col, row, kind.id, kind.name, kind.colour, kind.pattern, kind.segments)

    def areas(self) -> list[Area]:
        return [
            (self.col * TILE + c, self.row * TILE + r) for r in range(TILE) for c in range(TILE)
        ]

    def global_areas(self, segment: Segment) -> list[Area]:
        return [(self.col * TILE + c, self.row * TILE + r) for c, r in segment.areas]


class Edge(enum.StrEnum):
    NORTH = "north"
    EAST = "east"
    SOUTH = "south"
    WEST = "west"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class EdgeRule(msgspec.Struct, frozen=True, omit_defaults=True):
    """What leaving the zone over an edge means: whether it exits the encounter (or is
    blocked), and the GM's note of the consequences (E9)."""

    edge: Edge
    exits: bool = True
    note: str = ""
    blocked: bool = False
    """Nobody leaves over this edge and the zone does not grow there (a cliff, a wall).
    The GM may change the rule at any time (a logged Op)."""


def tile_of(area: Area) -> tuple[int, int]:
    """The tile holding an area (E9): floor division, so negative areas work."""
    return area[0] // TILE, area[1] // TILE


class AreaTerrain(msgspec.Struct, frozen=True):
    """The merged properties of every segment covering one area."""

    rough: bool = False
    slippery: bool = False
    cover: bool = False
    ledge: bool = False
    steep: bool = False
    water: bool = False
    altitude: int = 0
    segments: tuple[str, ...] = ()
    custom: tuple[Property, ...] = ()


PLAIN = AreaTerrain()


class Zone(msgspec.Struct, frozen=True):
    """The tiles of an encounter, its edge rules and the tile kinds new tiles are drawn
    from (E9)."""

    tileset: str
    """The id of the tile set the zone was made from (for the GM's eyes)."""
    tiles: tuple[Tile, ...]
    edges: tuple[EdgeRule, ...] = ()
    kinds: tuple[TileKind, ...] = ()
    """A copy of the tile set's kinds (file format version 2): extending the zone and
    replacing a tile draw from these, never from the installed tile sets."""

    def kind(self, kind_id: str) -> TileKind:
        """The zone's tile kind with this id; :class:`IllegalOp` if it has none."""
        for k in self.kinds:
            if k.id == kind_id:
                return k
        name = self.tileset or "this zone's tile set"
        raise IllegalOp(f"{name} has no tile kind {kind_id!r}")

    def with_kinds(self, kinds: Sequence[TileKind]) -> "Zone":
        """The same zone drawing new tiles from ``kinds``."""
        return msgspec.structs.replace(self, kinds=tuple(kinds))

    def tile_bounds(self) -> tuple[int, int, int, int]:
        """(min col, min row, max col, max row) in tiles."""
        if not self.tiles:
            return (0, 0, -1, -1)
        cols = [t.col for t in self.tiles]
        rows = [t.row for t in self.tiles]
        return min(cols), min(rows), max(cols), max(rows)

    def area_bounds(self) -> tuple[int, int, int, int]:
        """(min col, min row, max col, max row) in areas, inclusive."""
        c0, r0, c1, r1 = self.tile_bounds()
        return c0 * TILE, r0 * TILE, c1 * TILE + TILE - 1, r1 * TILE + TILE - 1

    def size(self) -> tuple[int, int]:
        """(columns, rows) of tiles."""
        c0, r0, c1, r1 = self.tile_bounds()
        return c1 - c0 + 1, r1 - r0 + 1

    def tile_at(self, col: int, row: int) -> Tile | None:
        for t in self.tiles:
            if t.col == col and t.row == row:
                return t
        return None

    def contains(self, area: Area) -> bool:
        return self.tile_at(*tile_of(area)) is not None

    def edge_rule(self, edge: Edge) -> EdgeRule:
        for rule in self.edges:
            if rule.edge is edge:
                return rule
        return EdgeRule(edge)

    def edge_beyond(self, area: Area) -> Edge | None:
        """Which edge an area just outside the zone lies beyond (None if inside or far)."""
        c0, r0, c1, r1 = self.area_bounds()
        c, r = area
        if r < r0:
            return Edge.NORTH
        if r > r1:
            return Edge.SOUTH
        if c < c0:
            return Edge.WEST
        if c > c1:
            return Edge.EAST
        return None

    def terrain(self) -> dict[Area, AreaTerrain]:
        """Merged segment properties by area; areas without a segment are absent."""
        parts: dict[Area, list[tuple[str, SegmentProps]]] = {}
        for tile in self.tiles:
            for seg in tile.segments:
                for area in tile.global_areas(seg):
                    parts.setdefault(area, []).append((seg.name, seg.props))
        out = {}
        for area, segs in parts.items():
            props = [p for _, p in segs]
            out[area] = AreaTerrain(
                rough=any(p.rough for p in props),
                slippery=any(p.slippery for p in props),
                cover=any(p.cover for p in props),
                ledge=any(p.ledge for p in props),
                steep=any(p.steep for p in props),
                water=any(p.water for p in props),
                altitude=max(p.altitude for p in props),
                segments=tuple(name for name, _ in segs),
                custom=tuple(c for p in props for c in p.custom),
            )
        return out

    def extended(self, edge: Edge, kinds: Sequence[TileKind]) -> "Zone":
        """A row or column of new tiles beyond ``edge`` (E9), one kind per tile in order
        (left to right, or top to bottom)."""
        c0, r0, c1, r1 = self.tile_bounds()
        if edge in (Edge.NORTH, Edge.SOUTH):
            slots = [(c, r0 - 1 if edge is Edge.NORTH else r1 + 1) for c in range(c0, c1 + 1)]
        else:
            slots = [(c0 - 1 if edge is Edge.WEST else c1 + 1, r) for r in range(r0, r1 + 1)]
        if len(kinds) != len(slots):
            raise IllegalOp(
                f"extending the zone {edge.value}wards needs {len(slots)} tiles, "
                f"{len(kinds)} were drawn"
            )
        new = [Tile.place(k, c, r) for k, (c, r) in zip(kinds, slots, strict=True)]
        return msgspec.structs.replace(self, tiles=_sorted((*self.tiles, *new)))

    def line_areas(self, edge: Edge) -> set[Area]:
        """The areas of the outermost row or column of tiles at ``edge``."""
        c0, r0, c1, r1 = self.tile_bounds()

        def on_line(t: Tile) -> bool:
            if edge in (Edge.NORTH, Edge.SOUTH):
                return t.row == (r0 if edge is Edge.NORTH else r1)
            return t.col == (c0 if edge is Edge.WEST else c1)

        return {a for t in self.tiles if on_line(t) for a in t.areas()}

    def trimmed(self, edge: Edge) -> "Zone":
        """Without the outermost row or column of tiles at ``edge``."""
        cols, rows = self.size()
        if (edge in (Edge.NORTH, Edge.SOUTH) and rows <= 1) or (
            edge in (Edge.EAST, Edge.WEST) and cols <= 1
        ):
            raise IllegalOp(f"the zone has only one {('row', 'column')[cols <= 1]} of tiles left")
        gone = self.line_areas(edge)
        keep = tuple(t for t in self.tiles if (t.col * TILE, t.row * TILE) not in gone)
        return msgspec.structs.replace(self, tiles=keep)

    def trim_proposal(self, occupied: Iterable[Area]) -> list[Edge]:
        """Edges to trim, one line at a time, to get back to 3 x 3 tiles (E9): the rows or
        columns holding nobody, outermost first. Lines holding somebody are left for the
        GM to decide."""
        occupied = set(occupied)
        zone = self
        out: list[Edge] = []
        while True:
            cols, rows = zone.size()
            options = []
            if cols > START_TILES:
                options += [Edge.WEST, Edge.EAST]
            if rows > START_TILES:
                options += [Edge.NORTH, Edge.SOUTH]
            for edge in options:
                if not zone.line_areas(edge) & occupied:
                    out.append(edge)
                    zone = zone.trimmed(edge)
                    break
            else:
                return out


def _sorted(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(tiles, key=lambda t: (t.row, t.col)))


def grid_zone(
    tileset: TileSet,
    kinds: Sequence[Sequence[str]],
    *,
    edges: Iterable[EdgeRule] | None = None,
) -> Zone:
    """A zone from rows of tile-kind ids, top-left tile at (0, 0), that draws new tiles
    from ``tileset`` (its kinds are copied into the zone). Every edge exits unless
    ``edges`` says otherwise."""
    if edges is None:
        edges = [EdgeRule(e) for e in Edge]
    tiles = [
        Tile.place(tileset.kind(k), c, r) for r, row in enumerate(kinds) for c, k in enumerate(row)
    ]
    return Zone(tileset=tileset.id, tiles=_sorted(tiles), edges=tuple(edges), kinds=tileset.kinds)


# ------------------------------------------------------------------ the zone editor

EMPTY = "empty"
"""The kind id of an empty slot: a tile waiting for the GM to pick one."""

EMPTY_KIND = TileKind(
    EMPTY,
    "Empty slot",
    "#c9c9c4",
    EMPTY,
    description="A slot of the zone waiting for a tile: drag one from the palette",
)
"""The look of an empty slot. A zone with empty slots keeps it among its ``kinds`` (every
tile's kind is one of them); extending the zone in play (E9) never draws it
(:func:`drawable`)."""


def drawable(kinds: Iterable[TileKind]) -> list[TileKind]:
    """The kinds new tiles may be drawn from: all but the empty slot."""
    return [k for k in kinds if k.id != EMPTY]


def turn_local(area: tuple[int, int], quarters: int, mirror: bool) -> tuple[int, int]:
    """A tile-local area after mirroring left to right (first, if asked) and turning
    ``quarters`` quarter turns clockwise (on screen: rows run down)."""
    c, r = area
    if mirror:
        c = TILE - 1 - c
    for _ in range(quarters % 4):
        c, r = TILE - 1 - r, c
    return c, r


def turned_tile(tile: Tile, quarters: int, mirror: bool) -> Tile:
    """The tile turned and/or mirrored: its segments' areas move with it."""
    segments = tuple(
        msgspec.structs.replace(
            seg, areas=tuple(turn_local(a, quarters, mirror) for a in seg.areas)
        )
        for seg in tile.segments
    )
    return msgspec.structs.replace(tile, segments=segments)


def empty_zone(tileset: TileSet, cols: int = START_TILES, rows: int = START_TILES) -> Zone:
    """A zone of empty slots that draws new tiles from ``tileset`` (File > New
    encounter opens the editor on it)."""
    kinds = (*drawable(tileset.kinds), EMPTY_KIND)
    return grid_zone(TileSet(tileset.id, tileset.name, kinds), [[EMPTY] * cols] * rows)


def segment_names(zone: Zone) -> list[str]:
    """Every segment name in the zone, in the order of first appearance (row by row)."""
    out: dict[str, None] = {}
    for tile in zone.tiles:
        for seg in tile.segments:
            out.setdefault(seg.name, None)
    return list(out)


def segment_props(zone: Zone, name: str) -> SegmentProps | None:
    """The properties of the first segment called ``name`` (None if there is none)."""
    for tile in zone.tiles:
        for seg in tile.segments:
            if seg.name == name:
                return seg.props
    return None


def segment_areas(zone: Zone, name: str) -> set[Area]:
    """The areas of every segment called ``name``, in global coordinates."""
    return {a for t in zone.tiles for s in t.segments if s.name == name for a in t.global_areas(s)}


def flood(zone: Zone, start: Area) -> set[Area]:
    """The areas joined to ``start`` side by side that lie in exactly the same segments
    (the brush's flood fill); empty if ``start`` is outside the zone."""
    if not zone.contains(start):
        return set()
    names: dict[Area, frozenset[str]] = {}
    for tile in zone.tiles:
        for seg in tile.segments:
            for a in tile.global_areas(seg):
                names[a] = names.get(a, frozenset()) | {seg.name}
    key = names.get(start, frozenset())
    seen = {start}
    todo = [start]
    while todo:
        c, r = todo.pop()
        for nxt in ((c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)):
            if nxt not in seen and zone.contains(nxt) and names.get(nxt, frozenset()) == key:
                seen.add(nxt)
                todo.append(nxt)
    return seen
