"""The exact inverse of every Op: put back the parts it changed.

``Encounter.apply`` records every part an Op changes before it changes it; ``Restore`` holds
those old values, so undo is exact by construction.
"""

from typing import TYPE_CHECKING, Any

from afdesk.encounter.art import MapArt
from afdesk.encounter.chase.state import ChaseState
from afdesk.encounter.dispute.state import DisputeState
from afdesk.encounter.fog import Fog
from afdesk.encounter.infiltration.state import InfiltrationState
from afdesk.encounter.op import Op
from afdesk.encounter.parts import MISSING, all_parts
from afdesk.encounter.reflex import Reflex
from afdesk.encounter.snapshot import LogEntry, Slot
from afdesk.encounter.state import Meta, Mode, Settings, TurnState
from afdesk.encounter.zone import Zone

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class Restore(Op, frozen=True):
    """Put parts of an encounter back as they were: the inverse of any Op."""

    # One field per part of afdesk.encounter.parts (None: unchanged). The fields are the
    # crash journal's format, so they are written out here; a test checks that they cover
    # the declaration. (The docstring above is in the published schema.)

    combatants: tuple[Slot, ...] = ()
    order: tuple[str, ...] | None = None
    zone: Zone | None = None
    reflex: Reflex | None = None
    turn: TurnState | None = None
    mode: Mode | None = None
    settings: Settings | None = None
    meta: Meta | None = None
    chase: ChaseState | None = None
    fog: Fog | None = None
    dispute: DisputeState | None = None
    infiltration: InfiltrationState | None = None
    art: MapArt | None = None
    log_length: int | None = None
    log_entries: tuple[LogEntry, ...] = ()
    logged = False
    label = "Restore"

    @classmethod
    def from_record(cls, rec: dict[str, Any]) -> "Restore":
        slots = tuple(
            Slot(cid, None if old is MISSING else old) for cid, old in rec["combatants"].items()
        )
        log_length = rec.get("log")
        entries: tuple[LogEntry, ...] = ()
        if "log_cut" in rec:
            log_length, cut = rec["log_cut"]
            entries = tuple(cut)
        return cls(
            combatants=slots,
            order=rec.get("order"),
            log_length=log_length,
            log_entries=entries,
            **{p.name: rec.get(p.name) for p in all_parts()},
        )

    def execute(self, enc: "Encounter") -> None:
        for slot in self.combatants:
            if slot.value is None:
                if slot.id in enc.combatants:
                    enc.drop(slot.id)
            else:
                enc.put(slot.value)
        if self.order is not None:
            enc.set_order(self.order)
        for part in all_parts():
            value = getattr(self, part.name)
            if value is not None:
                enc.set_part(part.name, value)
        if self.log_length is not None:
            enc.truncate_log(self.log_length)
            if self.log_entries:
                enc.extend_log(self.log_entries)
