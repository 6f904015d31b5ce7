"""What an encounter file means, checked after its types: the limits and references of
the format, declared here once, and the one function that enforces them.

The types (msgspec) say a tile's column is a whole number; this module says which whole
numbers a zone can hold, that every id a record names exists, and that no id is used
twice. Each limit is a row of :data:`afdesk.encounter.limits.BOUNDS`, by the record type
that holds the number, wherever it sits (a character in the roster or inside a logged
``AddCombatant``); the model refuses an Op that would break one, the published JSON Schema
and the README's file-format section are written from the same numbers. Each reference is
a row of
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
from collections.abc import Callable
from typing import Any

import msgspec

from afdesk.encounter import limits
from afdesk.encounter.art import map_art_problem

# The limits themselves are the model's (the model refuses an Op that would break one):
# declared once in afdesk.encounter.limits, by the record type that holds each number.
from afdesk.encounter.limits import (
    ANY_NUMBER,
    AREA_HIGH,
    AREA_LOW,
    BOUNDS,
    CARD_RANK,
    COUNTER,
    FACING,
    LOCAL_AREA,
    MAX_COUNT,
    MAX_MAGNITUDE,
    TILE_COL,
    TILE_ROW,
    ZONE_AREA,
    ZONE_RADIUS,
    Bound,
    Limit,
)
from afdesk.encounter.snapshot import EncounterState
from afdesk.storage import messages
from afdesk.storage.errors import LoadError

__all__ = [
    "ANY_NUMBER",
    "AREA_HIGH",
    "AREA_LOW",
    "BOUNDS",
    "CARD_RANK",
    "COUNTER",
    "FACING",
    "LOCAL_AREA",
    "MAX_COUNT",
    "MAX_MAGNITUDE",
    "REFERENCES",
    "TILE_COL",
    "TILE_ROW",
    "UNIQUE",
    "ZONE_AREA",
    "ZONE_RADIUS",
    "Bound",
    "Limit",
    "check",
]


class Reference(msgspec.Struct, frozen=True):
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
        found = limits.problem(state)
        if found is not None:
            raise _Problem(found.place, found.text)
        _numbers(data, doc)
        _turn_index(state)
        _unique(state)
        _references(state)
        _art(state)
    except _Problem as problem:
        raise LoadError(source, messages.at(problem.place, problem.text)) from None


class _Problem(Exception):
    def __init__(self, place: str, text: str) -> None:
        super().__init__(place, text)
        self.place = place
        self.text = text


# ----------------------------------------------------------------------------- numbers

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
            raise _Problem(place, limits.outside(value, ANY_NUMBER))


_walk = limits.walk


class _Kept:
    """Stands for a number the walk below must see (beyond 64 bits, or not finite)."""

    __slots__ = ("value",)

    def __init__(self, value: float) -> None:
        self.value = value


def _big_int(text: str) -> Any:
    digits = text.lstrip("-")
    if len(digits) < 19:
        return 0
    try:
        value = msgspec.json.decode(text)
    except msgspec.ValidationError:
        # Too long for msgspec too: a field afdesk reads would have been refused already,
        # so this one is in a field it ignores.
        return 0
    return value if not ANY_NUMBER.low <= value <= ANY_NUMBER.high else 0


def _odd_float(text: str) -> Any:
    value = float(text)
    if math.isfinite(value) and ANY_NUMBER.low <= value <= ANY_NUMBER.high:
        return 0
    return value


def _holds_number(value: Any) -> bool:
    if isinstance(value, dict):
        return True
    if isinstance(value, list):
        return any(_holds_number(v) for v in value)
    return value != 0 and value is not None and not isinstance(value, str)


def numbers_document(data: bytes) -> Any:
    """The document of ``data`` keeping only the way to each number beyond 64 bits or
    not finite: objects without one are dropped as they are read, strings are dropped,
    every other number is 0. Memory stays a small multiple of the file's size, where
    parsing it whole into Python objects takes up to 25 times it (None if not JSON)."""
    import json

    def pairs(items: list[tuple[str, Any]]) -> Any:
        if any(_holds_number(v) for _, v in items):
            return {k: v for k, v in items if _holds_number(v)}
        return None

    try:
        return json.loads(
            data,
            object_pairs_hook=pairs,
            parse_int=_big_int,
            parse_float=_odd_float,
            parse_constant=float,
        )
    except (ValueError, RecursionError):
        return None


def _turn_index(state: EncounterState) -> None:
    turn = state.turn
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


# --------------------------------------------------------------------------- map art


def _art(state: EncounterState) -> None:
    """Each picture of the map art is of a type afdesk draws, its bytes start as that
    type does, one per tile place, and the sizes fit (afdesk.encounter.art). The pictures
    themselves are decoded by the GUI only: one that still cannot be drawn is left out of
    the map, never a reason to refuse the encounter."""
    if not state.art.tiles:
        return
    found = map_art_problem(state.art)
    if found is not None:
        raise _Problem(*found)


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
