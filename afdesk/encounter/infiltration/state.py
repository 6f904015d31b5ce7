"""The infiltration's part of an encounter (N1, N3, N6, N8): plain immutable data."""

import enum
from typing import TYPE_CHECKING

import msgspec

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter

Area = tuple[int, int]


class Role(enum.StrEnum):
    """Which side of an infiltration a character is on (N1)."""

    INTRUDER = "intruder"
    GUARDIAN = "guardian"


class Objective(msgspec.Struct, frozen=True, omit_defaults=True):
    """What the intruders are after (N1, reading): an area or a segment, a text, done."""

    id: str
    text: str
    area: Area | None = None
    segment: str = ""
    done: bool = False


class Departure(msgspec.Struct, frozen=True, omit_defaults=True):
    """An intruder who left by an edge (N8, E9)."""

    id: str
    edge: str
    exchange: int = 0


class InfiltrationState(msgspec.Struct, frozen=True, omit_defaults=True):
    """The infiltration's part of an encounter."""

    intruders: tuple[str, ...] = ()
    guardians: tuple[str, ...] = ()
    alarm: bool = False
    """Raised (N6): from its next turn every guardian takes normal turns."""
    alerted: tuple[str, ...] = ()
    """Guardians no longer unaware (N3, N6): each from its first turn after the alarm."""
    objectives: tuple[Objective, ...] = ()
    left: tuple[Departure, ...] = ()
    obscured: tuple[Area, ...] = ()
    """Areas the GM marked with a visibility penalty: they block clear lines (N4a)."""

    def role(self, cid: str) -> Role | None:
        if cid in self.intruders:
            return Role.INTRUDER
        if cid in self.guardians:
            return Role.GUARDIAN
        return None

    def unaware(self, cid: str) -> bool:
        """A guardian still watching (N3): none is once its turn came after the alarm."""
        return cid in self.guardians and cid not in self.alerted

    def opponents(self, cid: str) -> tuple[str, ...]:
        role = self.role(cid)
        if role is Role.INTRUDER:
            return self.guardians
        if role is Role.GUARDIAN:
            return self.intruders
        return ()

    def objective(self, oid: str) -> Objective | None:
        return next((o for o in self.objectives if o.id == oid), None)


def infiltration_of(enc: "Encounter") -> InfiltrationState:
    """The infiltration mode's part of ``enc`` (the interface, below every mode, names none)."""
    part: InfiltrationState = enc.part("infiltration")
    return part
