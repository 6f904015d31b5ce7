"""Who is who and who comes first in a chase: participants' names (a character's, or a
vehicle's, H5), the round's order by reflex (E2) and the ranking by total (H3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afdesk.encounter.chase.state import ChaseState, chase_of
from afdesk.encounter.requires import name

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def pname(enc: Encounter, pid: str) -> str:
    """A participant's name: its character's, its vehicle's, or its own label (a pursuer
    an Occupied stage added, H4)."""
    for v in chase_of(enc).vehicles:
        if v.id == pid:
            return v.name
    p = chase_of(enc).participant(pid)
    if p is not None and p.label:
        return p.label
    return name(enc, pid)


def reflex_order(enc: Encounter, chase: ChaseState) -> list[str]:
    """Participants from the highest reflex card down (E2): the round's order; a vehicle
    plays on its commander's card (H5)."""
    order = list(enc.turn.order)
    for v in chase.vehicles:
        if v.commander in order:
            order.insert(order.index(v.commander), v.id)
    return [pid for pid in order if chase.participant(pid) is not None]


def ranked(enc: Encounter, chase: ChaseState) -> list[str]:
    """Highest total first; the last round's reflex order, then the roster, break ties."""
    order = {pid: i for i, pid in enumerate([*chase.reflex, *enc.combatants])}
    return [
        p.id for p in sorted(chase.participants, key=lambda p: (-p.total, order.get(p.id, 1 << 20)))
    ]


def acting(enc: Encounter) -> str:
    """The participant whose turn it is: the actor, or the vehicle it crews (H5); ""."""
    actor = enc.actor
    if actor is None:
        return ""
    if chase_of(enc).participant(actor) is not None:
        return actor
    for v in chase_of(enc).vehicles:
        if actor in (v.commander, v.helm, *v.crew):
            return v.id
    return ""
