"""What an encounter file means, checked after its types: the limits and references of
the format, declared here once, and the one function that enforces them.

The types (msgspec) say a tile's column is a whole number; this module says which whole
numbers a zone can hold, that every id a record names exists, and that no id is used
twice. Each limit is a row of :data:`LIMITS` (the published JSON Schema and the README's
file-format section are written from the same numbers), each reference a row of
:data:`REFERENCES`. A file that breaks one is refused with a :class:`LoadError` naming
the place (``zone.tiles[3].col``) and the problem in a GM's words.

Numbers. Every number in a file, the log's Ops included, is finite and lies within
:data:`MAX_MAGNITUDE` (a 64-bit whole number); beyond it a number overflows where it is
drawn or saved. That is checked on the bytes (a scan that finds no 19-digit run or
exponent in the usual file) and located in the parsed document only when the scan finds a
candidate. Coordinates, card ranks and counters have their own, tighter limits.

The log. Its entries are decoded to their Ops (the types check that). A version-2 file
holds no starting encounter and unlogged Ops (setup, the zone) leave no line, so the
log does not hold what a replay needs: the replay check does not apply to version-2
files, and the log is the GM's record of what happened, not the source of the state.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from afdesk.encounter.snapshot import EncounterState
from afdesk.encounter.zone import TILE, Segment
from afdesk.storage import messages
from afdesk.storage.errors import LoadError

MAX_MAGNITUDE = 2**63 - 1
"""No number in a file is larger than this (or smaller than its negative): a 64-bit
whole number (dice seeds use that range)."""

MAX_COUNT = 1_000_000
"""A character's and the encounter's counters (Grit, hits, Shifts, speeds, markers,
exchanges, turns, ...) lie within plus or minus this."""

ZONE_RADIUS = 64
"""Tiles lie within this many tiles of the origin, each way (E9: a zone grows a few
tiles per exchange; 129 x 129 tiles is far more than any encounter reaches)."""

AREA_LOW = -ZONE_RADIUS * TILE
AREA_HIGH = (ZONE_RADIUS + 1) * TILE - 1
"""The areas of those tiles: a character, a decoy or a step stands within them."""


@dataclass(frozen=True)
class Limit:
    """An inclusive range for the numbers at some places of the file."""

    low: float
    high: float
    what: str
    """The value in words (``column``), for the message."""
    why: str
    """The rule in a GM's words, for the message and the schema."""
    outside: str = "is out of range"
    """How the message says a value breaks it."""


_RADIUS_WHY = f"tiles must lie within {ZONE_RADIUS} tiles of the origin"
TILE_COL = Limit(-ZONE_RADIUS, ZONE_RADIUS, "column", _RADIUS_WHY, "is outside the zone")
TILE_ROW = Limit(-ZONE_RADIUS, ZONE_RADIUS, "row", _RADIUS_WHY, "is outside the zone")
LOCAL_AREA = Limit(0, TILE - 1, "area", f"a segment's areas lie inside its tile (0 to {TILE - 1})")
ZONE_AREA = Limit(
    AREA_LOW,
    AREA_HIGH,
    "area",
    f"areas must lie within the zone's reach ({AREA_LOW} to {AREA_HIGH}, "
    f"{ZONE_RADIUS} tiles from the origin)",
    "is outside the zone",
)
CARD_RANK = Limit(2, 14, "rank", "card ranks run from 2 to 14 (the Ace)")
ANY_NUMBER = Limit(
    -MAX_MAGNITUDE,
    MAX_MAGNITUDE,
    "number",
    "numbers in an encounter file are 64-bit (at most 19 digits)",
)
COUNTER = Limit(
    -MAX_COUNT, MAX_COUNT, "count", f"counters lie between -{MAX_COUNT:,} and {MAX_COUNT:,}"
)
FACING = Limit(-360_000, 360_000, "facing", "a facing is an angle in degrees")

_COMBATANT_COUNTERS = ("reach", "weapon_range", "grit", "grit_max", "hits", "shifts", "will")
_SPEEDS = ("run", "climb", "jump", "swim", "fly")
_ECONOMY_COUNTERS = ("turns", "guards", "snaps", "movement")
_TURN_COUNTERS = ("exchange", "round", "exchanges_played")

LIMITS: dict[str, Limit] = {
    "zone.tiles[].col": TILE_COL,
    "zone.tiles[].row": TILE_ROW,
    "zone.tiles[].segments[].areas[][]": LOCAL_AREA,
    "zone.kinds[].segments[].areas[][]": LOCAL_AREA,
    "combatants[].area[]": ZONE_AREA,
    "combatants[].decoys[][]": ZONE_AREA,
    "combatants[].economy.exit_to[][]": ZONE_AREA,
    "reflex.deck[][]": CARD_RANK,
    "reflex.hands[].cards[][]": CARD_RANK,
    "reflex.hands[].played[][]": CARD_RANK,
    "combatants[].facing": FACING,
    **{f"combatants[].{name}": COUNTER for name in _COMBATANT_COUNTERS},
    **{f"combatants[].speeds.{name}": COUNTER for name in _SPEEDS},
    **{f"combatants[].economy.{name}": COUNTER for name in _ECONOMY_COUNTERS},
    "combatants[].facets[][]": COUNTER,
    "combatants[].states[].markers": COUNTER,
    "combatants[].states[].until": COUNTER,
    "combatants[].momentum[].dice": COUNTER,
    **{f"turn.{name}": COUNTER for name in _TURN_COUNTERS},
    "meta.referee_shifts": COUNTER,
    "settings.days_since_rest": COUNTER,
    "combatants[].days_since_rest": COUNTER,
    "*": ANY_NUMBER,
}
"""Where each limit applies (``[]``: every item of a list or pair; a card is ``[rank,
suit]``, a facet ``[name, score]``); ``*`` is every other number, the log's included."""


@dataclass(frozen=True)
class Reference:
    """Text at some places that must be the id of a record elsewhere."""

    place: str
    target: str
    words: str


REFERENCES: tuple[Reference, ...] = (
    Reference("reflex.hands[].members[]", "combatants[].id", "a character in the encounter"),
    Reference("turn.order[]", "combatants[].id", "a character in the encounter"),
    Reference("turn.interjection", "combatants[].id", "a character in the encounter"),
    Reference("zone.tiles[].kind", "zone.kinds[].id", "one of the zone's tile kinds"),
)
"""Ids that must resolve. The hands' members, the turn order and the interjection name
characters; a tile names a kind of its zone (when the zone keeps kinds: a version-1 zone
upgraded without its tile set installed keeps none)."""

UNIQUE: tuple[str, ...] = (
    "combatants[].id",
    "reflex.hands[].id",
    "zone.kinds[].id",
    "zone.tiles[].(col,row)",
)
"""What is never given twice: a character's id, a hand's, a tile kind's, a tile's place."""


def check(state: EncounterState, data: bytes, source: str, doc: Callable[[], Any]) -> None:
    """Refuse ``state`` (decoded from ``data``) if it breaks a limit, a reference or a
    uniqueness rule; ``doc`` gives the parsed document, for locating a bad number."""
    try:
        _numbers(data, doc)
        _places(state)
        _unique(state)
        _references(state)
    except _Problem as problem:
        raise LoadError(source, messages.at(problem.place, problem.text)) from None


class _Problem(Exception):
    def __init__(self, place: str, text: str) -> None:
        super().__init__(place, text)
        self.place = place
        self.text = text


# ----------------------------------------------------------------------------- numbers

_INDEX = re.compile(r"\[\d+\]")
_DIGITS = bytes(48 if 48 <= c <= 57 else 32 for c in range(256))
"""Every digit to ``0``, every other byte to a space."""
_LONG_RUN = b"0" * 19


def _numbers(data: bytes, doc: Callable[[], Any]) -> None:
    """Whole numbers beyond 64 bits (msgspec itself refuses floats beyond range). The usual
    file has no run of 19 digits anywhere (a C-speed scan of the bytes); one that does
    (in a number, or in some text) is walked to find the number and its place."""
    if data.translate(_DIGITS).find(_LONG_RUN) < 0:
        return
    for place, value in _walk(doc(), ""):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if isinstance(value, float) and not math.isfinite(value):
            raise _Problem(place, "this is not a finite number")
        if not ANY_NUMBER.low <= value <= ANY_NUMBER.high:
            limit = LIMITS.get(_INDEX.sub("[]", place), ANY_NUMBER)
            raise _Problem(place, _outside(value, limit))


def _walk(value: Any, place: str) -> Iterator[tuple[str, Any]]:
    stack = [(place, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, dict):
            stack.extend(
                (f"{where}.{k}" if where else str(k), v) for k, v in reversed(item.items())
            )
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(item))))
        else:
            yield where, item


def _shown(value: float) -> str:
    """A number as the message shows it: at most 16 characters and ``...``."""
    if isinstance(value, int) and abs(value) >= 10**16:  # str() refuses 4,300 digits
        digits = int(abs(value).bit_length() * 0.30103)
        head = abs(value) // 10 ** max(digits - 16, 0)
        return f"{'-' if value < 0 else ''}{str(head)[:16]}..."
    text = repr(value)
    return text if len(text) <= 20 else text[:16] + "..."


def _outside(value: float, limit: Limit) -> str:
    return f"{limit.what} {_shown(value)} {limit.outside}: {limit.why}"


# ----------------------------------------------------------------------- places and sizes


def _within(place: str, value: float, limit: Limit) -> None:
    if not limit.low <= value <= limit.high:
        raise _Problem(place, _outside(value, limit))


def _segments(place: str, segments: tuple[Segment, ...]) -> None:
    for s, seg in enumerate(segments):
        if not seg.areas:
            raise _Problem(
                f"{place}.segments[{s}].areas",
                f"segment {messages.value_text(seg.name)} covers no area; a segment covers "
                "at least one area of its tile",
            )
        for a, (c, r) in enumerate(seg.areas):
            _within(f"{place}.segments[{s}].areas[{a}][0]", c, LOCAL_AREA)
            _within(f"{place}.segments[{s}].areas[{a}][1]", r, LOCAL_AREA)


def _places(state: EncounterState) -> None:
    for t, tile in enumerate(state.zone.tiles):
        where = f"zone.tiles[{t}]"
        _within(f"{where}.col", tile.col, TILE_COL)
        _within(f"{where}.row", tile.row, TILE_ROW)
        _segments(where, tile.segments)
    for k, kind in enumerate(state.zone.kinds):
        _segments(f"zone.kinds[{k}]", kind.segments)
    for i, c in enumerate(state.combatants):
        where = f"combatants[{i}]"
        if not math.isfinite(c.facing):
            raise _Problem(f"{where}.facing", "the facing is not a finite angle")
        _within(f"{where}.facing", c.facing, FACING)
        for name in _COMBATANT_COUNTERS:
            _within(f"{where}.{name}", getattr(c, name), COUNTER)
        for name in _SPEEDS:
            _within(f"{where}.speeds.{name}", getattr(c.speeds, name), COUNTER)
        for name in _ECONOMY_COUNTERS:
            _within(f"{where}.economy.{name}", getattr(c.economy, name), COUNTER)
        for f, facet in enumerate(c.facets):
            _within(f"{where}.facets[{f}][1]", facet.score, COUNTER)
        for s, st in enumerate(c.states):
            _within(f"{where}.states[{s}].markers", st.markers, COUNTER)
            if st.until is not None:
                _within(f"{where}.states[{s}].until", st.until, COUNTER)
        for m, marker in enumerate(c.momentum):
            _within(f"{where}.momentum[{m}].dice", marker.dice, COUNTER)
        if c.area is not None:
            _within(f"{where}.area[0]", c.area[0], ZONE_AREA)
            _within(f"{where}.area[1]", c.area[1], ZONE_AREA)
        for d, (col, row) in enumerate(c.decoys):
            _within(f"{where}.decoys[{d}][0]", col, ZONE_AREA)
            _within(f"{where}.decoys[{d}][1]", row, ZONE_AREA)
        for e, (col, row) in enumerate(c.economy.exit_to or ()):
            _within(f"{where}.economy.exit_to[{e}][0]", col, ZONE_AREA)
            _within(f"{where}.economy.exit_to[{e}][1]", row, ZONE_AREA)
    for d, card in enumerate(state.reflex.deck):
        _within(f"reflex.deck[{d}][0]", card.rank, CARD_RANK)
    for h, hand in enumerate(state.reflex.hands):
        for d, card in enumerate(hand.cards):
            _within(f"reflex.hands[{h}].cards[{d}][0]", card.rank, CARD_RANK)
        for d, played in enumerate(hand.played):
            if played is not None:
                _within(f"reflex.hands[{h}].played[{d}][0]", played.rank, CARD_RANK)
    turn = state.turn
    for name in _TURN_COUNTERS:
        _within(f"turn.{name}", getattr(turn, name), COUNTER)
    _within("meta.referee_shifts", state.meta.referee_shifts, COUNTER)
    _within("settings.days_since_rest", state.settings.days_since_rest, COUNTER)
    if not -1 <= turn.index <= max(len(turn.order) - 1, -1):
        raise _Problem(
            "turn.index",
            f"{turn.index} points at no place in the turn order "
            f"(it holds {len(turn.order)}; -1 is nobody's turn)",
        )


# ------------------------------------------------------------------------ unique ids


def _first_repeat(items: list[Any]) -> tuple[int, int] | None:
    seen: dict[Any, int] = {}
    for i, item in enumerate(items):
        if item in seen:
            return seen[item], i
        seen[item] = i
    return None


def _unique(state: EncounterState) -> None:
    checks: list[tuple[str, str, list[Any], str]] = [
        ("combatants", "id", [c.id for c in state.combatants], "every character needs its own"),
        ("reflex.hands", "id", [h.id for h in state.reflex.hands], "every hand needs its own"),
        ("zone.kinds", "id", [k.id for k in state.zone.kinds], "every kind of tile needs its own"),
    ]
    for where, field, values, rule in checks:
        hit = _first_repeat(values)
        if hit:
            first, again = hit
            raise _Problem(
                f"{where}[{again}].{field}",
                f"{messages.value_text(values[again])} is also the id of {where}[{first}]; {rule}",
            )
    hit = _first_repeat([(t.col, t.row) for t in state.zone.tiles])
    if hit:
        first, again = hit
        tile = state.zone.tiles[again]
        raise _Problem(
            f"zone.tiles[{again}]",
            f"a second tile at column {tile.col}, row {tile.row} (zone.tiles[{first}] is "
            "there already); a place holds one tile",
        )


# ------------------------------------------------------------------------- references


def _references(state: EncounterState) -> None:
    ids = {c.id for c in state.combatants}
    names = " (there are no characters)" if not ids else ""

    def need(place: str, value: str) -> None:
        if value not in ids:
            raise _Problem(
                place,
                f"{messages.value_text(value)} is not the id of a character in the "
                f"encounter{names}",
            )

    for h, hand in enumerate(state.reflex.hands):
        for m, member in enumerate(hand.members):
            need(f"reflex.hands[{h}].members[{m}]", member)
    for o, cid in enumerate(state.turn.order):
        need(f"turn.order[{o}]", cid)
    if state.turn.interjection:
        need("turn.interjection", state.turn.interjection)
    kinds = {k.id for k in state.zone.kinds}
    if kinds:
        for t, tile in enumerate(state.zone.tiles):
            if tile.kind not in kinds:
                raise _Problem(
                    f"zone.tiles[{t}].kind",
                    f"{messages.value_text(tile.kind)} is not one of the zone's tile kinds "
                    f"({', '.join(sorted(kinds))})",
                )
