"""The encounter: plain data changed only by Ops, announcing every change as an event.

``Encounter.apply(op)`` runs the Op, logs it and returns its inverse. While an Op runs,
every part it changes is recorded, so the inverse is exact and a failing Op is rolled back:
a refused Op (:class:`IllegalOp`) changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import msgspec

from afdesk.encounter import (
    installed,  # noqa: F401 - registers the modes, their parts and their Ops
    limits,
)
from afdesk.encounter.art import MapArt
from afdesk.encounter.combatant import Combatant, opposed
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.fog import Fog
from afdesk.encounter.geometry import Area
from afdesk.encounter.parts import MISSING, Event, EventKind, all_parts, by_name
from afdesk.encounter.reflex import Reflex
from afdesk.encounter.registry import decode_hook
from afdesk.encounter.restore import restore_type
from afdesk.encounter.snapshot import LogEntry
from afdesk.encounter.state import AnyMode, Meta, Mode, Settings, TurnState
from afdesk.encounter.zone import PLAIN, AreaTerrain, Edge, Zone

if TYPE_CHECKING:
    from afdesk.encounter.op import Op
    from afdesk.encounter.snapshot import EncounterState


def canonical(op: Op) -> Op:
    """``op`` with every field of the type it declares (an enum, not its string; a tuple,
    not a list), or :class:`IllegalOp` naming the bad field. Ops built from widgets get
    plain strings back from their combo boxes; the model only ever holds the real types."""
    try:
        raw = msgspec.to_builtins(op)
        op = msgspec.convert(raw, type(op), dec_hook=decode_hook)
    except (msgspec.ValidationError, TypeError, ValueError) as exc:
        raise IllegalOp(f"{type(op).__name__} is malformed: {exc}") from None
    _numbers_fit(op, raw)
    return op


def _numbers_fit(op: Op, raw: Any) -> None:
    """:class:`IllegalOp` if ``raw`` (``op`` as builtins) holds a number a file could not
    hold (never finite, or beyond 64 bits)."""
    if limits.has_bad_number(raw):
        found = limits.number_problem(raw)
        where = f" ({found.place}: {found.text})" if found else ""
        raise IllegalOp(f"{type(op).__name__} holds a number no file can hold{where}")


INVERSES_KEPT = 4_096
"""How many of the inverses it made an encounter knows again by identity (an undo puts
back one of the last few hundred steps; an older one goes the long way, converted)."""


_NOT_PARTS = frozenset({"combatants", "order", "log", "log_cut"})
"""What an Op's record of changes holds beside the parts (afdesk.encounter.parts)."""


class Encounter:
    """One encounter's state. Read it freely; change it only with :meth:`apply`."""

    # The parts (afdesk.encounter.parts), for type checkers; __init__ sets every one,
    # the modes' parts too (each read through its folder's accessor: chase_of(enc), ...).
    meta: Meta
    zone: Zone
    reflex: Reflex
    turn: TurnState
    mode: AnyMode
    settings: Settings
    fog: Fog
    art: MapArt

    def __init__(
        self,
        *,
        combatants: Iterable[Combatant] = (),
        log: Iterable[LogEntry] = (),
        **values: Any,
    ) -> None:
        """An encounter of ``combatants``, ``log`` and any parts by name (``zone=...``);
        a part not given has its default."""
        unknown = set(values) - {p.name for p in all_parts()}
        if unknown:
            raise TypeError(f"an encounter has no part {', '.join(sorted(unknown))}")
        for part in all_parts():
            value = values.get(part.name)
            setattr(self, part.name, part.default() if value is None else value)
        self.combatants: dict[str, Combatant] = {c.id: c for c in combatants}
        self.order: tuple[str, ...] = tuple(self.combatants)
        self.log: list[LogEntry] = list(log)
        self._listeners: list[Callable[[list[Event]], None]] = []
        self._rec: dict[str, Any] | None = None
        self._events: list[Event] = []
        self._terrain: dict[Area, AreaTerrain] | None = None
        self._occupancy: dict[Area, list[str]] | None = None
        self._inverses: dict[int, Op] = {}
        """The inverses this encounter made (by id, each kept so its id is not reused):
        their values are its own, already of their declared types, so applying one again
        (an undo) keeps the very records it holds (the limits check remembers them,
        afdesk.encounter.limits) instead of converting them into copies."""
        self._replaying = False
        """Inside :meth:`replaying`: every Op applied is taken as checked (see there)."""

    # ----------------------------------------------------------------------- snapshots

    @classmethod
    def from_state(cls, state: EncounterState) -> Encounter:
        values = {p.name: getattr(state, p.name) for p in all_parts()}
        return cls(combatants=state.combatants, log=state.log, **values)

    def state(self) -> EncounterState:
        """An immutable snapshot of the whole encounter (what a file holds)."""
        from afdesk.encounter.snapshot import layout

        return layout()(
            combatants=tuple(self.combatants[cid] for cid in self.order),
            log=tuple(self.log),
            **{p.name: getattr(self, p.name) for p in all_parts()},
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Encounter):
            return NotImplemented
        return self.state() == other.state()

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------------- events

    def subscribe(self, listener: Callable[[list[Event]], None]) -> None:
        """Call ``listener(events)`` after every applied Op."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[list[Event]], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    # ------------------------------------------------------------------------ queries

    @property
    def applying(self) -> bool:
        """Whether an Op is running right now (an error caught at this moment may have
        left the encounter half changed)."""
        return self._rec is not None

    def combatant(self, cid: str) -> Combatant:
        try:
            return self.combatants[cid]
        except KeyError:
            raise IllegalOp(f"there is no character with id {cid!r}") from None

    def roster(self) -> list[Combatant]:
        return list(map(self.combatants.__getitem__, self.order))  # asked a dozen times a change

    @property
    def ruleset(self) -> str:
        return self.meta.ruleset

    @property
    def actor(self) -> str | None:
        return self.turn.actor

    @property
    def terrain(self) -> dict[Area, AreaTerrain]:
        if self._terrain is None:
            self._terrain = self.zone.terrain()
        return self._terrain

    def terrain_at(self, area: Area) -> AreaTerrain:
        return self.terrain.get(area, PLAIN)

    @property
    def occupancy(self) -> dict[Area, list[str]]:
        """Who stands where (characters on the map, in roster order)."""
        if self._occupancy is None:
            occ: dict[Area, list[str]] = {}
            for cid in self.order:
                c = self.combatants[cid]
                if c.on_map and c.area is not None:
                    occ.setdefault(c.area, []).append(cid)
            self._occupancy = occ
        return self._occupancy

    def occupants(self, area: Area) -> list[Combatant]:
        return [self.combatants[cid] for cid in self.occupancy.get(area, ())]

    def trim_proposal(self) -> list[Edge]:
        """Edges to trim at the end of an exchange, back to 3 x 3 tiles: the lines nobody
        (and no decoy) stands in (E9)."""
        held = [c.area for c in self.roster() if c.on_map and c.area is not None]
        held += [d for c in self.roster() for d in c.decoys]
        return self.zone.trim_proposal(held)

    def opponents_in(
        self, area: Area, of: Combatant, *, visible_only: bool = True
    ) -> list[Combatant]:
        """The opponents of ``of`` standing in ``area`` (hidden ones left out by default;
        those held in reserve always: they are not in the fight yet)."""
        return [
            c
            for c in self.occupants(area)
            if c.id != of.id
            and opposed(c.side, of.side)
            and not (visible_only and c.hidden)
            and not c.in_reserve
        ]

    # ------------------------------------------------------------------------- change

    def apply(self, op: Op, *, described: str | None = None) -> Op:
        """Run ``op``, log it and return its inverse. :class:`IllegalOp` changes nothing.

        ``described``: its log line, when the caller has it already (a crash journal's
        replay: the journal keeps the line each Op wrote when it was first applied, on
        the same encounter); None: the Op describes itself."""
        return self._apply(op, trusted=self._replaying, described=described)

    @contextmanager
    def replaying(self) -> Iterator[None]:
        """Ops applied inside are a crash journal's, replayed: each was applied by this
        model when the journal was written, after the model had checked its types and
        numbers (a refused Op is never journaled), and each line is sealed, so the replay
        does not check them again (those checks were 40% of a three-hour journal's
        replay). The Ops still run, and anything else the model refuses is refused as
        ever. Whoever replays checks once what the result can reach (afdesk.storage.
        recovery: the encounter as a file's load checks it, and the values of the steps
        it keeps) and replays again outside this when that fails, so a journal changed by
        hand is refused where the model refuses it."""
        was, self._replaying = self._replaying, True
        try:
            yield
        finally:
            self._replaying = was

    def _apply(self, op: Op, *, trusted: bool = False, described: str | None = None) -> Op:
        """:meth:`apply`; ``trusted``: the inverse the model just made of an Op it applied
        (its values were the encounter's own a moment ago: well-typed, within limits), put
        back without checking them again."""
        if self._rec is not None:
            raise RuntimeError("an Op is already running: Ops do not nest")
        if not trusted:
            if self._inverses.get(id(op)) is op:  # its own values: typed, numbers checked
                _numbers_fit(op, msgspec.to_builtins(op))
            else:
                op = canonical(op)
        self._rec = {"combatants": {}}
        self._events = []
        try:
            if not op.logged:
                text = ""
            else:
                text = described if described is not None else op.describe(self)
            op.execute(self)
            if not trusted:
                self._within_limits()
            if op.logged:
                self._touch("log")
                self.log.append(
                    LogEntry(op=op, text=text, exchange=self.turn.exchange, round=self.turn.round)
                )
                self._events.append(Event(EventKind.LOG))
        except BaseException:
            self._rollback()
            self._rec = None
            self._events = []
            raise
        rec = self._rec
        self._rec = None
        events = self._events
        self._events = []
        inverse = restore_type().from_record(rec)
        if len(self._inverses) >= INVERSES_KEPT:
            self._inverses.clear()
        self._inverses[id(inverse)] = inverse
        for listener in list(self._listeners):
            listener(events)
        return inverse

    def _within_limits(self) -> None:
        """Refuse the running Op if it leaves a number beyond its limit
        (afdesk.encounter.limits): what the model holds, a file can always hold."""
        rec = self._rec
        assert rec is not None
        touched = [cid for cid in rec["combatants"] if cid in self.combatants]
        parts = [name for name in rec if name not in _NOT_PARTS]
        if touched or parts:
            why = limits.change_refusal(
                (self.combatants[cid] for cid in touched),
                ((name, getattr(self, name)) for name in parts),
            )
            if why:
                raise IllegalOp(why)

    def refusal(self, op: Op) -> str:
        """Why ``op`` would be refused now, or "" if it would be accepted.

        A dry run: the Op runs and is rolled back, and nobody hears of it (no events, no
        log), so menus can ask freely.
        """
        listeners = self._listeners
        self._listeners = []
        try:
            inverse = self.apply(op)
        except IllegalOp as exc:
            return str(exc) or "not allowed"
        finally:
            self._listeners = listeners
        self._inverses.pop(id(inverse), None)  # put back at once, below: not kept
        self._listeners = []
        try:
            self._apply(inverse, trusted=True)
        finally:
            self._listeners = listeners
        return ""

    def _rollback(self) -> None:
        rec = self._rec
        if rec is None:
            return
        for cid, old in rec["combatants"].items():
            if old is MISSING:
                self.combatants.pop(cid, None)
            else:
                self.combatants[cid] = old
        for name in (*(p.name for p in all_parts()), "order"):
            if name in rec:
                setattr(self, name, rec[name])
        if "log_cut" in rec:
            length, removed = rec["log_cut"]
            del self.log[length:]
            self.log.extend(removed)
        if "log" in rec:
            del self.log[rec["log"] :]
        if "zone" in rec:  # the terrain follows the zone only (kept otherwise)
            self._terrain = None
        if rec["combatants"] or "order" in rec:  # who stands where: only if anyone moved
            self._occupancy = None

    # Setters: only Ops call these, inside apply().

    def _touch(self, part: str) -> None:
        rec = self._rec
        if rec is None:
            raise RuntimeError("the encounter changes only through Encounter.apply(op)")
        if part not in rec:
            rec[part] = len(self.log) if part == "log" else getattr(self, part)

    def put(self, combatant: Combatant) -> None:
        """Add or replace a character (a new one joins the end of the roster)."""
        rec = self._rec
        if rec is None:
            raise RuntimeError("the encounter changes only through Encounter.apply(op)")
        cid = combatant.id
        old = self.combatants.get(cid, MISSING)
        rec["combatants"].setdefault(cid, old)
        self.combatants[cid] = combatant
        if old is MISSING:
            self._touch("order")
            self.order = (*self.order, cid)
            self._events.append(Event(EventKind.ROSTER))
            self._occupancy = None
        elif isinstance(old, Combatant) and (
            old.area != combatant.area or old.exited != combatant.exited
        ):
            self._move_occupancy(old, combatant)
        self._events.append(Event(EventKind.COMBATANT, cid))

    def drop(self, cid: str) -> None:
        """Remove a character from the encounter."""
        rec = self._rec
        if rec is None:
            raise RuntimeError("the encounter changes only through Encounter.apply(op)")
        old = self.combatant(cid)
        rec["combatants"].setdefault(cid, old)
        del self.combatants[cid]
        self._touch("order")
        self.order = tuple(x for x in self.order if x != cid)
        self._occupancy = None
        self._events.append(Event(EventKind.ROSTER))
        self._events.append(Event(EventKind.COMBATANT, cid))

    def set_order(self, order: tuple[str, ...]) -> None:
        if sorted(order) != sorted(self.combatants):
            raise IllegalOp("a new roster order must hold every character exactly once")
        self._touch("order")
        self.order = tuple(order)
        self._occupancy = None
        self._events.append(Event(EventKind.ROSTER))

    def forget_terrain(self) -> None:
        """The zone changed: the terrain by area is worked out again when next asked."""
        self._terrain = None

    def part(self, name: str) -> Any:
        """The part ``name`` (afdesk.encounter.parts); ``KeyError`` if there is none."""
        return getattr(self, by_name(name).name)

    def set_part(self, name: str, value: Any) -> None:
        """Replace the whole part ``name`` (afdesk.encounter.parts) with ``value``."""
        part = by_name(name)
        self._touch(name)
        setattr(self, name, value)
        if part.on_change is not None:
            part.on_change(self)
        self._events.append(Event(part.event))

    # One setter per part, for readable Ops and type checkers.

    def set_zone(self, zone: Zone) -> None:
        self.set_part("zone", zone)

    def set_reflex(self, reflex: Reflex) -> None:
        self.set_part("reflex", reflex)

    def set_turn(self, turn: TurnState) -> None:
        self.set_part("turn", turn)

    def set_mode(self, mode: Mode) -> None:
        self.set_part("mode", mode)

    def set_settings(self, settings: Settings) -> None:
        self.set_part("settings", settings)

    def set_meta(self, meta: Meta) -> None:
        self.set_part("meta", meta)

    def truncate_log(self, length: int) -> None:
        self._touch("log")
        rec = self._rec
        assert rec is not None  # _touch checked it
        if "log_cut" in rec:
            raise RuntimeError("an Op truncates the log at most once")
        rec["log_cut"] = (length, list(self.log[length:]))
        del self.log[length:]
        self._events.append(Event(EventKind.LOG))

    def extend_log(self, entries: Iterable[LogEntry]) -> None:
        self._touch("log")
        self.log.extend(entries)
        self._events.append(Event(EventKind.LOG))

    def _move_occupancy(self, old: Combatant, new: Combatant) -> None:
        occ = self._occupancy
        if occ is None:
            return
        if old.on_map and old.area is not None:
            ids = occ.get(old.area)
            if ids and old.id in ids:
                ids.remove(old.id)
                if not ids:
                    del occ[old.area]
        if new.on_map and new.area is not None:
            ids = occ.setdefault(new.area, [])
            ids.append(new.id)
            if len(ids) > 1:
                rank = {cid: i for i, cid in enumerate(self.order)}
                ids.sort(key=rank.__getitem__)
