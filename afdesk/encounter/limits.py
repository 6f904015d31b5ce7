"""The limits of an encounter's numbers, declared once: the model refuses an Op that would
break one, the loader refuses a file that does, and the published JSON Schema states them.

Each record type that holds a bounded number has a row in :data:`BOUNDS`: which field
(``areas[][]``: every item of every pair), which :class:`Limit`. The check walks any value
(the whole encounter, one character, the Ops of a log, a Restore's payload) and finds
every record of those types wherever it sits, so a character carried inside an
``AddCombatant`` is held to the same limits as one in the roster.

Beyond the bounded fields, every number is finite and fits in 64 bits
(:func:`number_problem`): anything larger overflows where it is drawn or saved, and JSON
has no NaN or Infinity (they would be written as ``null`` and never read back).
"""

from __future__ import annotations

import enum
import math
import types
from collections.abc import Iterable, Iterator
from typing import Any, Literal, Union, get_args, get_origin

import msgspec
import msgspec.inspect as mi

from afdesk.encounter.art import ART_SIDE, TileArt
from afdesk.encounter.combatant import Combatant, Economy, Facet, MomentumMarker, Speeds, State
from afdesk.encounter.parts import by_name
from afdesk.encounter.reflex import Card
from afdesk.encounter.state import Meta, Settings, TurnState
from afdesk.encounter.zone import TILE, Segment, Tile

MAX_MAGNITUDE = 2**63 - 1
"""No number in an encounter is larger than this (or smaller than its negative): a 64-bit
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


class Limit(msgspec.Struct, frozen=True):
    """An inclusive range for the numbers at some places of an encounter."""

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
NON_NEGATIVE = Limit(
    0, MAX_COUNT, "count", f"this number lies between 0 and {MAX_COUNT:,}", "is out of range"
)
HEADCOUNT = Limit(
    1, MAX_COUNT, "count", f"an individual or group counts 1 to {MAX_COUNT:,} people (P3)"
)
ART_PIXELS = Limit(1, ART_SIDE, "size", f"a tile's picture is 1 to {ART_SIDE} pixels wide and high")
FACING = Limit(-360_000, 360_000, "facing", "a facing is an angle in degrees")


class Bound(msgspec.Struct, frozen=True):
    """A field of a record type and its limit; ``items`` is ``[]`` once per level of list
    or pair below the field (``areas[][]``: both numbers of every area)."""

    field: str
    limit: Limit
    items: str = ""
    words: str = ""
    """The number in a GM's words, with the rule that gives it (``Shifts (R10)``)."""


def counters(*names: tuple[str, str]) -> tuple[Bound, ...]:
    """Bounds of :data:`COUNTER` for fields given as (name, words)."""
    return tuple(Bound(name, COUNTER, words=words) for name, words in names)


BOUNDS: dict[type, tuple[Bound, ...]] = {
    Tile: (Bound("col", TILE_COL, words="column (E9)"), Bound("row", TILE_ROW, words="row (E9)")),
    Segment: (Bound("areas", LOCAL_AREA, "[][]", "segment area (E10)"),),
    TileArt: (
        Bound("col", TILE_COL, words="map art column (E9)"),
        Bound("row", TILE_ROW, words="map art row (E9)"),
        Bound("width", ART_PIXELS, words="map art width"),
        Bound("height", ART_PIXELS, words="map art height"),
    ),
    Combatant: (
        Bound("area", ZONE_AREA, "[]", "area (E9)"),
        Bound("decoys", ZONE_AREA, "[][]", "decoy area (E6)"),
        Bound("facing", FACING, words="facing (E11)"),
        *counters(
            ("reach", "reach (E12)"),
            ("weapon_range", "weapon range (E12)"),
            ("grit", "Grit (E15)"),
            ("grit_max", "Grit maximum (E15)"),
            ("hits", "hits (E17)"),
            ("shifts", "Shifts (R10)"),
            ("will", "Will (C4)"),
            ("days_since_rest", "days since rest (E15)"),
        ),
    ),
    Speeds: counters(*((n, f"{n} speed (E14)") for n in ("run", "climb", "jump", "swim", "fly"))),
    Economy: (
        *counters(
            ("turns", "turn count (E3)"),
            ("guards", "guards (E4)"),
            ("snaps", "snaps (E5)"),
            ("movement", "movement (E14)"),
        ),
        Bound("exit_to", ZONE_AREA, "[][]", "exit area (E14)"),
    ),
    Facet: counters(("score", "facet score (R1)")),
    State: counters(("markers", "markers (E17)"), ("until", "end turn (E3)")),
    MomentumMarker: counters(("dice", "Momentum marker (R12)")),
    Card: (Bound("rank", CARD_RANK, words="rank (E2)"),),
    TurnState: counters(
        ("exchange", "exchange (E1)"),
        ("round", "round (E1)"),
        ("exchanges_played", "exchanges played (E15)"),
    ),
    Meta: counters(("referee_shifts", "referee's Shifts (R10)")),
    Settings: counters(("days_since_rest", "days since rest (E15)")),
}
"""Every bounded number, by the record type that holds it (a mode adds its own records'
rows when registered: :func:`declare_bounds`)."""


def declare_bounds(rows: dict[type, tuple[Bound, ...]]) -> None:
    """Add the bounded numbers of a mode's own records (its ``EncounterMode.bounds``,
    added by ``register_mode``): the model, the loader and the schema read them as the
    others. What was worked out from the table before is worked out again."""
    BOUNDS.update(rows)
    _forget_plans()


def forget_bounds(rows: Iterable[type]) -> None:
    """Take away the rows of these record types (a mode unregistered again)."""
    for cls in rows:
        BOUNDS.pop(cls, None)
    _forget_plans()


def _forget_plans() -> None:
    _PLANS.clear()
    _REACH.clear()
    _FROZEN.clear()
    _CLEAN.clear()


def bound_place(cls: type, bound: Bound) -> str:
    """Where a bound sits inside its record as a file spells it: ``.col``, or ``[1]`` for
    a record written as a list (a facet is ``[name, score]``)."""
    fields = cls.__struct_fields__  # type: ignore[attr-defined]
    if cls.__struct_config__.array_like:  # type: ignore[attr-defined]
        return f"[{fields.index(bound.field)}]{bound.items}"
    return f".{bound.field}{bound.items}"


class Problem(msgspec.Struct, frozen=True):
    """A number that breaks its limit: where (``combatants[0].grit``) and what, in words."""

    place: str
    text: str
    words: str = ""
    """The number in a GM's words (``Shifts (R10)``), when a bound names it."""
    value: float = 0
    limit: Limit | None = ANY_NUMBER

    def refusal(self, owner: str) -> str:
        """Why a change is refused that would leave this: ``owner`` is whose number it is,
        in words (``Huang's``, ``the zone's``)."""
        what = f"{owner} {self.words or self.place}"
        if isinstance(self.value, float) and not math.isfinite(self.value):
            return f"{what} would not be a finite number"
        if self.limit is None:
            return f"{what}: {self.text}"
        return f"{what} would be {shown(self.value)}, which {self.limit.outside}: {self.limit.why}"


class _Found(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.place, problem.text)
        self.problem = problem


# A place is built only when a problem is found: a chain of (parent, step) pairs.
_Place = tuple[Any, Any] | str


def _text(place: _Place) -> str:
    steps: list[str] = []
    while isinstance(place, tuple):
        place, step = place
        steps.append(f"[{step}]" if isinstance(step, int) else step)
    text = place + "".join(reversed(steps))
    return text[1:] if text.startswith(".") else text


def shown(value: float) -> str:
    """A number as a message shows it: at most 16 characters and ``...``."""
    if isinstance(value, int) and abs(value) >= 10**16:  # str() refuses 4,300 digits
        digits = int(abs(value).bit_length() * 0.30103)
        head = abs(value) // 10 ** max(digits - 16, 0)
        return f"{'-' if value < 0 else ''}{str(head)[:16]}..."
    text = repr(value)
    return text if len(text) <= 20 else text[:16] + "..."


def outside(value: float, limit: Limit) -> str:
    """The message for ``value`` beyond ``limit``."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"the {limit.what} is not a finite number"
    return f"{limit.what} {shown(value)} {limit.outside}: {limit.why}"


# --------------------------------------------------------------------------- the walk

_Plan = tuple[
    tuple[tuple[str, float, float, int, Bound, str], ...],  # field, low, high, depth, where
    tuple[tuple[str, str, bool], ...],  # fields to look into, their steps, never changing
    bool,  # whether the record can never change (its answer can be remembered)
]
_PLANS: dict[type, _Plan] = {}
_EMPTY: _Plan = ((), (), False)
_REACH: dict[Any, bool] = {}
_FROZEN: dict[type, bool] = {}
_FIELDS: dict[type, tuple[msgspec.structs.FieldInfo, ...]] = {}


def _fields(cls: type) -> tuple[msgspec.structs.FieldInfo, ...]:
    """``msgspec.structs.fields(cls)``, read once per record type: it evaluates the
    class's annotations at every call, and :func:`_frozen`, :func:`_type_reaches` and
    :func:`_plan` each ask it of every record type a first load meets (a Struct's fields
    never change once the class is made)."""
    found = _FIELDS.get(cls)
    if found is None:
        found = _FIELDS[cls] = msgspec.structs.fields(cls)
    return found


_CLEAN: dict[int, Any] = {}
"""Values found within every limit, by identity, each kept beside its id (so the id is not
reused while it is here): records that can never change (frozen, holding only numbers,
words, enums, tuples and such records) and the tuples of them a record holds. An Op that
changes one number of a character makes a new character around the same facets, states
and markers: only what is new is looked at again, so a change costs what it changed, not
the size of what it touched (840 Momentum markers, R12, are looked at once)."""

CLEAN_MAX = 20_000
"""The most values :data:`_CLEAN` holds; past it, it starts again empty (each is looked at
again once when next met), so it keeps few old records alive."""


def _remember(value: Any) -> None:
    if len(_CLEAN) >= CLEAN_MAX:
        _CLEAN.clear()
    _CLEAN[id(value)] = value


def _frozen(t: Any) -> bool:
    """Whether a value of type ``t`` can never change, read from the annotation: numbers,
    words, enums, literals, and tuples, frozen sets and unions of them, and frozen records
    of final types (no subclass may add a list) holding only such values. Anything else
    (lists, dicts, Any, a base type of Ops) is not, and its answers are not remembered."""
    if isinstance(t, type):
        if issubclass(t, msgspec.Struct):
            if t in _FROZEN:
                return _FROZEN[t]
            _FROZEN[t] = False  # a cycle: not remembered (the safe side)
            found = (
                not getattr(t, "__parameters__", ())
                and t.__struct_config__.frozen
                and not t.__subclasses__()
                and all(_frozen(f.type) for f in _fields(t))
            )
            _FROZEN[t] = bool(found)
            return bool(found)
        return t in _SCALARS or issubclass(t, enum.Enum)
    origin = get_origin(t)
    if origin in (tuple, frozenset) or origin in _UNIONS:
        return all(a is Ellipsis or _frozen(a) for a in get_args(t))
    return origin is Literal


def _reaches(t: Any) -> bool:
    """Whether a value of type ``t`` can hold a bounded record (or any Op)."""
    if isinstance(t, mi.StructType):
        key: Any = t.cls
        if key in BOUNDS:
            return True
    else:
        key = None
    if key is not None and key in _REACH:
        return _REACH[key]
    if key is not None:
        _REACH[key] = False  # a cycle reaches nothing new
    found = False
    if isinstance(t, mi.StructType):
        found = any(_reaches(f.type) for f in t.fields)
    elif isinstance(t, (mi.ListType, mi.VarTupleType, mi.SetType, mi.FrozenSetType)):
        found = _reaches(t.item_type)
    elif isinstance(t, mi.TupleType):
        found = any(_reaches(i) for i in t.item_types)
    elif isinstance(t, mi.UnionType):
        found = any(_reaches(i) for i in t.types)
    elif isinstance(t, mi.DictType):
        found = _reaches(t.key_type) or _reaches(t.value_type)
    elif isinstance(t, mi.CustomType):
        found = True  # a field of any Op: look at what it holds
    if key is not None:
        _REACH[key] = found
    return found


_SCALARS = frozenset({int, float, str, bool, bytes, type(None)})
_ITEMS = frozenset({list, set, frozenset})
_UNIONS = frozenset({Union, types.UnionType})


def _type_reaches(t: Any) -> bool:
    """:func:`_reaches` of ``msgspec.inspect.type_info(t)``, read from the annotation
    itself for what records hold (records, scalars, enums, literals, lists, tuples, sets,
    dicts, unions): translating every record type through ``msgspec.inspect`` cost the
    first load of a file about a millisecond. Any other type goes through it."""
    if isinstance(t, type):
        if issubclass(t, msgspec.Struct) and not getattr(t, "__parameters__", ()):
            if t in BOUNDS:
                return True
            if t in _REACH:
                return _REACH[t]
            _REACH[t] = False  # a cycle reaches nothing new
            found = any(_type_reaches(f.type) for f in _fields(t))
            _REACH[t] = found
            return found
        if t in _SCALARS or issubclass(t, enum.Enum):
            return False
    else:
        origin = get_origin(t)
        args = get_args(t)
        if origin in _ITEMS and len(args) == 1:
            return _type_reaches(args[0])
        if origin is tuple and args and args != ((),):
            if len(args) == 2 and args[1] is Ellipsis:
                return _type_reaches(args[0])
            if Ellipsis not in args:
                return any(_type_reaches(a) for a in args)
        if origin in _UNIONS:
            return any(_type_reaches(a) for a in args)
        if origin is dict and len(args) == 2:
            return _type_reaches(args[0]) or _type_reaches(args[1])
        if origin is Literal or t is Any:
            return False
    return _reaches(mi.type_info(t))


def _plan(cls: type) -> _Plan:
    plan = _PLANS.get(cls)
    if plan is None:
        names = cls.__struct_fields__  # type: ignore[attr-defined]
        array_like = cls.__struct_config__.array_like  # type: ignore[attr-defined]
        checks = tuple(
            (
                b.field,
                b.limit.low,
                b.limit.high,
                len(b.items) // 2,
                b,
                f"[{names.index(b.field)}]" if array_like else f".{b.field}",
            )
            for b in BOUNDS.get(cls, ())
        )
        fields = tuple(
            (
                f.name,
                f"[{names.index(f.name)}]" if array_like else f".{f.name}",
                _frozen(f.type),
            )
            for f in _fields(cls)
            if _type_reaches(f.type)
        )
        plan = (checks, fields, _frozen(cls)) if checks or fields else _EMPTY
        _PLANS[cls] = plan
    return plan


def _check(value: Any, depth: int, limit: Limit, bound: Bound, place: _Place) -> None:
    if depth:
        if isinstance(value, (tuple, list)):
            for i, item in enumerate(value):
                _check(item, depth - 1, limit, bound, (place, i))
        return
    if value is None or isinstance(value, bool):
        return
    if not limit.low <= value <= limit.high:  # NaN fails this too
        raise _Found(Problem(_text(place), outside(value, limit), bound.words, value, limit))


def _visit(value: Any, place: _Place) -> None:
    if isinstance(value, msgspec.Struct):
        cls = type(value)
        checks, fields, _ = _PLANS.get(cls) or _plan(cls)
        for name, low, high, depth, bound, where in checks:
            number = getattr(value, name)
            if depth:
                _check(number, depth, bound.limit, bound, (place, where))
            elif number is not None and not low <= number <= high:  # NaN fails this too
                _check(number, 0, bound.limit, bound, (place, where))
        for name, step, fixed in fields:
            item = getattr(value, name)
            if item is None:
                continue
            if (
                isinstance(item, msgspec.Struct)
                and (_PLANS.get(type(item)) or _plan(type(item))) is _EMPTY
            ):
                continue
            if fixed and (type(item) is tuple or isinstance(item, msgspec.Struct)):
                if _CLEAN.get(id(item)) is item:
                    continue  # looked at before, and it cannot have changed since
                _visit(item, (place, step))
                _remember(item)
                continue
            _visit(item, (place, step))
        if cls is Segment and not value.areas:  # type: ignore[attr-defined]
            name = msgspec.json.encode(value.name).decode()  # type: ignore[attr-defined]
            raise _Found(
                Problem(
                    _text((place, ".areas")),
                    f"segment {name} covers no area; a segment covers at least "
                    "one area of its tile (E10)",
                    "segment",
                    limit=None,
                )
            )
    elif isinstance(value, (tuple, list)):
        plans = _PLANS
        struct = msgspec.Struct
        for i, item in enumerate(value):
            if isinstance(item, struct):
                plan = plans.get(type(item)) or _plan(type(item))
                if plan is _EMPTY:
                    continue
                checks, fields, _ = plan
                if not checks and len(fields) == 1:  # a wrapper: a log entry around its Op
                    inner = getattr(item, fields[0][0])
                    if (
                        isinstance(inner, struct)
                        and (plans.get(type(inner)) or _plan(type(inner))) is _EMPTY
                    ):
                        continue
            elif not isinstance(item, (tuple, list, dict)):
                continue
            _visit(item, (place, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            _visit(item, (place, f".{key}"))


def problem(value: Any, place: str = "") -> Problem | None:
    """The first bounded number in ``value`` (a record, or a list of them, at any depth:
    Ops and their payloads included) that breaks its limit, or None. ``place`` is where
    ``value`` sits (``combatants[2]``), for the problem's place."""
    if _CLEAN.get(id(value)) is value:
        return None  # looked at before, and it cannot have changed since
    try:
        _visit(value, place)
    except _Found as found:
        return found.problem
    if isinstance(value, msgspec.Struct) and (_PLANS.get(type(value)) or _plan(type(value)))[2]:
        _remember(value)
    return None


def plain_problem(value: Any, place: str = "") -> Problem | None:
    """:func:`problem` by a fresh walk, the memory of values found within limits set
    aside: what that memory must always agree with (its tests compare the two)."""
    global _CLEAN
    kept, _CLEAN = _CLEAN, {}
    try:
        return problem(value, place)
    finally:
        _CLEAN = kept


def number_problem(value: Any, place: str = "") -> Problem | None:
    """The first number in ``value`` (builtins: dicts, lists, numbers, as
    :func:`msgspec.to_builtins` gives them) that is not finite or beyond 64 bits."""
    if not has_bad_number(value):  # the same numbers, without building every place
        return None
    for where, item in walk(value, place):
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            continue
        if isinstance(item, float) and not math.isfinite(item):
            return Problem(where, "this is not a finite number")
        if not ANY_NUMBER.low <= item <= ANY_NUMBER.high:
            return Problem(where, outside(item, ANY_NUMBER), value=item)
    return None


def has_bad_number(value: Any) -> bool:
    """Whether builtins ``value`` holds a number that is not finite or beyond 64 bits
    (fast: no places; :func:`number_problem` finds the place)."""
    if isinstance(value, float):
        return not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE
    if isinstance(value, int):
        return not -MAX_MAGNITUDE <= value <= MAX_MAGNITUDE
    if isinstance(value, dict):
        value = value.values()
    elif not isinstance(value, (list, tuple)):
        return False
    for v in value:
        kind = type(v)
        if kind is int or kind is float:  # checked here: a call per number cost most
            if not -MAX_MAGNITUDE <= v <= MAX_MAGNITUDE:  # NaN fails this too
                return True
        elif kind is str or v is None or kind is bool:
            continue  # most leaves: names, ids, flags
        elif has_bad_number(v):
            return True
    return False


def walk(value: Any, place: str = "") -> Iterator[tuple[str, Any]]:
    """Every leaf of a builtins document with its place (``zone.tiles[3].col``)."""
    stack = [(place, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, dict):
            stack.extend(
                (f"{where}.{k}" if where else str(k), v) for k, v in reversed(item.items())
            )
        elif isinstance(item, (list, tuple)):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(item))))
        else:
            yield where, item


def change_refusal(combatants: Iterable[Combatant], parts: Iterable[tuple[str, Any]]) -> str:
    """Why a change that leaves these characters and these parts of the encounter (by
    name) must be refused, or "": the first number beyond its limit, in words."""
    for c in combatants:
        found = problem(c)
        if found is not None:
            return found.refusal(f"{c.name}'s")
    for name, value in parts:
        found = problem(value, name)
        if found is None and name not in _SMALL_PARTS:
            found = number_problem(msgspec.to_builtins(value), name)
        if found is not None:
            return found.refusal(by_name(name).owner)
    return ""


_SMALL_PARTS = frozenset({"zone", "reflex", "turn", "meta", "settings", "mode", "art"})
"""Parts whose every number is bounded above or set whole by an Op whose own numbers are
checked; the others (a mode's part: chase totals add up) are checked number by number."""
