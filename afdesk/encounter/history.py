"""The log, the exact inverse of every Op, and the whole-encounter snapshot.

``Restore`` puts back the parts an Op changed (recorded by ``Encounter.apply``), so undo is
exact by construction. ``AnyOp`` is the union of every Op type, for decoding the log and
the journal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Union

import msgspec

from afdesk.encounter.combatant import Combatant
from afdesk.encounter.ops.base import Op
from afdesk.encounter.ops.check import Persevere, ResolveContest
from afdesk.encounter.ops.meta import (
    AdjustRefereeShifts,
    ChangeMode,
    Rename,
    SetNotes,
    SetRuleset,
    SetSettings,
)
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.roster import (
    AddCombatant,
    AddMomentum,
    AddState,
    AdjustCounter,
    EditCombatant,
    ExitCombatant,
    PlaceCombatant,
    RemoveCombatant,
    RemoveDecoy,
    RemoveMomentum,
    RemoveState,
    SetDecoys,
    SetFacing,
    SetMarkers,
    TickBleeding,
)
from afdesk.encounter.ops.turn import (
    ActHesitated,
    DealHands,
    EndEncounter,
    NextTurn,
    PlayCards,
    Screen,
    SetEconomy,
    TakeAction,
    UseSnap,
)
from afdesk.encounter.ops.zone import (
    ExtendZone,
    ReplaceTile,
    SetEdgeRule,
    SetSegmentProps,
    TrimZone,
)
from afdesk.encounter.reflex import Reflex
from afdesk.encounter.state import Meta, Mode, Settings, TurnState
from afdesk.encounter.zone import Zone

if TYPE_CHECKING:
    from afdesk.encounter.model import Encounter


class LogEntry(msgspec.Struct, frozen=True, omit_defaults=True):
    """One line of the encounter log: the Op (with its dice) and its plain words."""

    op: AnyOp
    text: str
    exchange: int = 0
    round: int = 0


class Slot(msgspec.Struct, frozen=True, array_like=True):
    """A character as it was; None if it did not exist."""

    id: str
    value: Combatant | None


class Restore(Op, frozen=True):
    """Put parts of an encounter back as they were: the inverse of any Op."""

    combatants: tuple[Slot, ...] = ()
    order: tuple[str, ...] | None = None
    zone: Zone | None = None
    reflex: Reflex | None = None
    turn: TurnState | None = None
    mode: Mode | None = None
    settings: Settings | None = None
    meta: Meta | None = None
    log_length: int | None = None
    log_entries: tuple[LogEntry, ...] = ()
    logged = False
    label = "Restore"

    @classmethod
    def from_record(cls, rec: dict) -> Restore:
        from afdesk.encounter.model import _MISSING

        slots = tuple(
            Slot(cid, None if old is _MISSING else old) for cid, old in rec["combatants"].items()
        )
        log_length = rec.get("log")
        entries: tuple[LogEntry, ...] = ()
        if "log_cut" in rec:
            log_length, cut = rec["log_cut"]
            entries = tuple(cut)
        return cls(
            combatants=slots,
            order=rec.get("order"),
            zone=rec.get("zone"),
            reflex=rec.get("reflex"),
            turn=rec.get("turn"),
            mode=rec.get("mode"),
            settings=rec.get("settings"),
            meta=rec.get("meta"),
            log_length=log_length,
            log_entries=entries,
        )

    def execute(self, enc: Encounter) -> None:
        for slot in self.combatants:
            if slot.value is None:
                if slot.id in enc.combatants:
                    enc.drop(slot.id)
            else:
                enc.put(slot.value)
        if self.order is not None:
            enc.set_order(self.order)
        if self.zone is not None:
            enc.set_zone(self.zone)
        if self.reflex is not None:
            enc.set_reflex(self.reflex)
        if self.turn is not None:
            enc.set_turn(self.turn)
        if self.mode is not None:
            enc.set_mode(self.mode)
        if self.settings is not None:
            enc.set_settings(self.settings)
        if self.meta is not None:
            enc.set_meta(self.meta)
        if self.log_length is not None:
            enc.truncate_log(self.log_length)
            if self.log_entries:
                enc.extend_log(self.log_entries)


class EncounterState(msgspec.Struct, frozen=True):
    """The whole encounter as immutable data: what a file holds."""

    meta: Meta
    zone: Zone
    combatants: tuple[Combatant, ...]
    reflex: Reflex
    turn: TurnState
    mode: Mode
    settings: Settings
    log: tuple[LogEntry, ...] = ()


ALL_OPS: tuple[type[Op], ...] = (
    AddCombatant,
    RemoveCombatant,
    EditCombatant,
    PlaceCombatant,
    SetFacing,
    ExitCombatant,
    AddState,
    RemoveState,
    SetMarkers,
    TickBleeding,
    AdjustCounter,
    AddMomentum,
    RemoveMomentum,
    SetDecoys,
    RemoveDecoy,
    ExtendZone,
    TrimZone,
    SetSegmentProps,
    ReplaceTile,
    SetEdgeRule,
    Rename,
    SetNotes,
    SetRuleset,
    SetSettings,
    AdjustRefereeShifts,
    ChangeMode,
    DealHands,
    PlayCards,
    NextTurn,
    ActHesitated,
    UseSnap,
    TakeAction,
    Screen,
    SetEconomy,
    EndEncounter,
    MoveCombatant,
    ResolveContest,
    Persevere,
    Restore,
)

AnyOp = Union[ALL_OPS]  # noqa: UP007 - a runtime union of the classes above
