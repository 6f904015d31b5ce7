"""What the chase Ops share (E16, H1-H5): the chase part, a participant, whose turn it is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afdesk.encounter.chase.order import pname
from afdesk.encounter.chase.state import ChaseState, Participant, chase_of
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.requires import name, require_phase
from afdesk.encounter.state import Mode, Phase

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def _chase(enc: Encounter, doing: str) -> ChaseState:
    if enc.mode is not Mode.CHASE:
        raise IllegalOp(f"cannot {doing}: the encounter is a {enc.mode.value}, not a chase")
    chase: ChaseState = chase_of(enc)
    return chase


def _participant(enc: Encounter, pid: str, doing: str) -> Participant:
    chase = _chase(enc, doing)
    p = chase.participant(pid)
    if p is None:
        v = chase.vehicle_of(pid)
        if v is not None:
            role = "commands" if pid == v.commander else "is at the helm of"
            role = role if pid in (v.commander, v.helm) else "is crew of"
            raise IllegalOp(
                f"cannot {doing}: {pname(enc, pid)} {role} {v.name}, which is the participant "
                f"(H5: {v.name} moves by its helm's pursuit die, on its commander's card)"
            )
        raise IllegalOp(f"cannot {doing}: {pname(enc, pid)} is not in the chase")
    return p


def _require_turn(enc: Encounter, p: Participant, doing: str) -> None:
    """It is this participant's turn: its own, or for a vehicle one of its crew's (H5). A
    pursuer a stage added (Occupied, H4) holds no reflex card: the GM plays it on any turn
    of the round (once a round, as everyone)."""
    require_phase(enc, Phase.TURNS, doing=doing)
    if p.label and p.id not in enc.combatants:
        if p.out:
            raise IllegalOp(f"cannot {doing}: {pname(enc, p.id)} is out of the chase (H3)")
        return
    actor = enc.actor
    crew: tuple[str, ...] = (p.id,)
    for v in chase_of(enc).vehicles:
        if v.id == p.id:
            crew = (v.commander, v.helm, *v.crew)
    if actor not in crew:
        who = name(enc, actor) if actor else "nobody"
        raise IllegalOp(f"cannot {doing}: it is {who}'s turn, not {pname(enc, p.id)}'s")
    if p.out:
        raise IllegalOp(f"cannot {doing}: {pname(enc, p.id)} is out of the chase (H3)")


def _set(enc: Encounter, p: Participant) -> None:
    enc.set_part("chase", chase_of(enc).replace(p))
