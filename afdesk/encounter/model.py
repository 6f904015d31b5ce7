"""The encounter: plain data changed only by Ops, announcing every change as an event.

``Encounter.apply(op)`` runs the Op, logs it and returns its inverse. While an Op runs,
every part it changes is recorded, so the inverse is exact and a failing Op is rolled back:
a refused Op (:class:`IllegalOp`) changes nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, NamedTuple

import msgspec

from afdesk.encounter.combatant import Combatant, opposed
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import Area
from afdesk.encounter.ops.registry import decode_hook
from afdesk.encounter.reflex import Reflex
from afdesk.encounter.state import Meta, Mode, Settings, TurnState
from afdesk.encounter.zone import PLAIN, AreaTerrain, Zone

if TYPE_CHECKING:
    from afdesk.encounter.snapshot import EncounterState, LogEntry, Op


class EventKind(enum.StrEnum):
    COMBATANT = "combatant"
    """One character changed (``id``)."""
    ROSTER = "roster"
    """Characters were added, removed or reordered."""
    ZONE = "zone"
    REFLEX = "reflex"
    TURN = "turn"
    MODE = "mode"
    SETTINGS = "settings"
    META = "meta"
    LOG = "log"


class Event(NamedTuple):
    """What changed: a kind and, for a character, its id."""

    kind: EventKind
    id: str = ""


_MISSING = object()


def canonical(op: Op) -> Op:
    """``op`` with every field of the type it declares (an enum, not its string; a tuple,
    not a list), or :class:`IllegalOp` naming the bad field. Ops built from widgets get
    plain strings back from their combo boxes; the model only ever holds the real types."""
    try:
        return msgspec.convert(msgspec.to_builtins(op), type(op), dec_hook=decode_hook)
    except (msgspec.ValidationError, TypeError, ValueError) as exc:
        raise IllegalOp(f"{type(op).__name__} is malformed: {exc}") from None


class Encounter:
    """One encounter's state. Read it freely; change it only with :meth:`apply`."""

    def __init__(
        self,
        *,
        meta: Meta | None = None,
        zone: Zone | None = None,
        combatants: Iterable[Combatant] = (),
        reflex: Reflex | None = None,
        turn: TurnState | None = None,
        mode: Mode = Mode.BATTLE,
        settings: Settings | None = None,
        log: Iterable[LogEntry] = (),
    ) -> None:
        self.meta = meta or Meta()
        self.zone = zone or Zone(tileset="", tiles=())
        self.combatants: dict[str, Combatant] = {c.id: c for c in combatants}
        self.order: tuple[str, ...] = tuple(self.combatants)
        self.reflex = reflex or Reflex()
        self.turn = turn or TurnState()
        self.mode = mode
        self.settings = settings or Settings()
        self.log: list[LogEntry] = list(log)
        self._listeners: list[Callable[[list[Event]], None]] = []
        self._rec: dict | None = None
        self._events: list[Event] = []
        self._terrain: dict[Area, AreaTerrain] | None = None
        self._occupancy: dict[Area, list[str]] | None = None

    # ----------------------------------------------------------------------- snapshots

    @classmethod
    def from_state(cls, state: EncounterState) -> Encounter:
        return cls(
            meta=state.meta,
            zone=state.zone,
            combatants=state.combatants,
            reflex=state.reflex,
            turn=state.turn,
            mode=state.mode,
            settings=state.settings,
            log=state.log,
        )

    def state(self) -> EncounterState:
        """An immutable snapshot of the whole encounter (what a file holds)."""
        from afdesk.encounter.snapshot import EncounterState

        return EncounterState(
            meta=self.meta,
            zone=self.zone,
            combatants=tuple(self.combatants[cid] for cid in self.order),
            reflex=self.reflex,
            turn=self.turn,
            mode=self.mode,
            settings=self.settings,
            log=tuple(self.log),
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

    def combatant(self, cid: str) -> Combatant:
        try:
            return self.combatants[cid]
        except KeyError:
            raise IllegalOp(f"there is no character with id {cid!r}") from None

    def roster(self) -> list[Combatant]:
        return [self.combatants[cid] for cid in self.order]

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
                if c.on_map:
                    occ.setdefault(c.area, []).append(cid)
            self._occupancy = occ
        return self._occupancy

    def occupants(self, area: Area) -> list[Combatant]:
        return [self.combatants[cid] for cid in self.occupancy.get(area, ())]

    def trim_proposal(self) -> list:
        """Edges to trim at the end of an exchange, back to 3 x 3 tiles: the lines nobody
        (and no decoy) stands in (E9)."""
        held = [c.area for c in self.roster() if c.on_map]
        held += [d for c in self.roster() for d in c.decoys]
        return self.zone.trim_proposal(held)

    def opponents_in(self, area: Area, of: Combatant, *, visible_only: bool = True) -> list:
        """The opponents of ``of`` standing in ``area`` (hidden ones left out by default)."""
        return [
            c
            for c in self.occupants(area)
            if c.id != of.id and opposed(c.side, of.side) and not (visible_only and c.hidden)
        ]

    # ------------------------------------------------------------------------- change

    def apply(self, op: Op) -> Op:
        """Run ``op``, log it and return its inverse. :class:`IllegalOp` changes nothing."""
        from afdesk.encounter.ops.restore import Restore
        from afdesk.encounter.snapshot import LogEntry

        if self._rec is not None:
            raise RuntimeError("an Op is already running: Ops do not nest")
        op = canonical(op)
        self._rec = {"combatants": {}}
        self._events = []
        try:
            text = op.describe(self) if op.logged else ""
            op.execute(self)
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
        inverse = Restore.from_record(rec)
        for listener in list(self._listeners):
            listener(events)
        return inverse

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
        self._listeners = []
        try:
            self.apply(inverse)
        finally:
            self._listeners = listeners
        return ""

    def _rollback(self) -> None:
        rec = self._rec
        for cid, old in rec["combatants"].items():
            if old is _MISSING:
                self.combatants.pop(cid, None)
            else:
                self.combatants[cid] = old
        for part in ("meta", "zone", "reflex", "turn", "mode", "settings", "order"):
            if part in rec:
                setattr(self, part, rec[part])
        if "log_cut" in rec:
            length, removed = rec["log_cut"]
            del self.log[length:]
            self.log.extend(removed)
        if "log" in rec:
            del self.log[rec["log"] :]
        self._terrain = None
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
        old = self.combatants.get(cid, _MISSING)
        rec["combatants"].setdefault(cid, old)
        self.combatants[cid] = combatant
        if old is _MISSING:
            self._touch("order")
            self.order = (*self.order, cid)
            self._events.append(Event(EventKind.ROSTER))
            self._occupancy = None
        elif old.area != combatant.area or old.exited != combatant.exited:
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

    def set_zone(self, zone: Zone) -> None:
        self._touch("zone")
        self.zone = zone
        self._terrain = None
        self._events.append(Event(EventKind.ZONE))

    def set_reflex(self, reflex: Reflex) -> None:
        self._touch("reflex")
        self.reflex = reflex
        self._events.append(Event(EventKind.REFLEX))

    def set_turn(self, turn: TurnState) -> None:
        self._touch("turn")
        self.turn = turn
        self._events.append(Event(EventKind.TURN))

    def set_mode(self, mode: Mode) -> None:
        self._touch("mode")
        self.mode = mode
        self._events.append(Event(EventKind.MODE))

    def set_settings(self, settings: Settings) -> None:
        self._touch("settings")
        self.settings = settings
        self._events.append(Event(EventKind.SETTINGS))

    def set_meta(self, meta: Meta) -> None:
        self._touch("meta")
        self.meta = meta
        self._events.append(Event(EventKind.META))

    def truncate_log(self, length: int) -> None:
        self._touch("log")
        if "log_cut" in self._rec:
            raise RuntimeError("an Op truncates the log at most once")
        self._rec["log_cut"] = (length, list(self.log[length:]))
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
        if old.on_map:
            ids = occ.get(old.area)
            if ids and old.id in ids:
                ids.remove(old.id)
                if not ids:
                    del occ[old.area]
        if new.on_map:
            ids = occ.setdefault(new.area, [])
            ids.append(new.id)
            if len(ids) > 1:
                rank = {cid: i for i, cid in enumerate(self.order)}
                ids.sort(key=rank.__getitem__)
