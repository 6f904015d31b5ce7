"""The checks Ops share that need nothing of the turn's rules: which phase, on the map,
inside the zone, and a character's name and an area in the log's words. The modes ask them
too, so they live below the Ops and the modes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.state import Phase

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
    from afdesk.encounter.geometry import Area
    from afdesk.encounter.interface import Encounter


def name(enc: Encounter, cid: str) -> str:
    c = enc.combatants.get(cid)
    return c.name if c else cid


def require_phase(enc: Encounter, *phases: Phase, doing: str) -> None:
    if enc.turn.phase not in phases:
        allowed = " or ".join(p.label.lower() for p in phases)
        raise IllegalOp(
            f"cannot {doing} now: play is at {enc.turn.phase.label.lower()}, this needs {allowed}"
        )


def require_on_map(c: Combatant, doing: str) -> None:
    if c.exited:
        raise IllegalOp(f"{c.name} cannot {doing}: {c.name} has left the encounter")
    if c.area is None:
        raise IllegalOp(f"{c.name} cannot {doing}: {c.name} is not on the map yet")


def require_area_in_zone(enc: Encounter, area: Area, what: str) -> None:
    if not enc.zone.contains(area):
        c0, r0, c1, r1 = enc.zone.area_bounds()
        raise IllegalOp(
            f"{what} ({area[0]}, {area[1]}) is outside the zone, which spans columns "
            f"{c0} to {c1} and rows {r0} to {r1}"
        )


def area_text(area: Area | tuple[int, int]) -> str:
    return f"({area[0]}, {area[1]})"
