"""When an infiltration is over and what it came to (N8): worked out from the encounter,
never stored (the file format holds who left and the objectives' done marks already)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.infiltration.state import InfiltrationState, infiltration_of

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
    from afdesk.encounter.interface import Encounter


class Outcome(msgspec.Struct, frozen=True):
    """What the infiltration came to so far (N8): who got out by which edge, who is out
    of the fight or otherwise gone, who is still in, and the objectives done."""

    got_out: tuple[tuple[str, str], ...]
    """(intruder, edge) for each intruder recorded as left (MarkLeft)."""
    gone: tuple[tuple[str, str], ...]
    """(intruder, the record's note) for each intruder out of the encounter otherwise
    (out of the fight, captured, left with no edge recorded)."""
    inside: tuple[str, ...]
    """Intruders still in the encounter."""
    done: tuple[str, ...]
    """The texts of the objectives done."""
    open: tuple[str, ...]
    """The texts of the objectives not done."""


def outcome(enc: Encounter) -> Outcome:
    """Who got out, who is gone, who is still inside, which objectives are done (N8)."""
    inf: InfiltrationState = infiltration_of(enc)
    edges = {d.id: d.edge for d in inf.left}
    got_out: list[tuple[str, str]] = []
    gone: list[tuple[str, str]] = []
    inside: list[str] = []
    for cid in inf.intruders:
        c = enc.combatants.get(cid)
        if cid in edges:
            got_out.append((cid, edges[cid]))
        elif c is None:
            gone.append((cid, "removed from the encounter"))
        elif c.exited:
            gone.append((cid, c.exited))
        else:
            inside.append(cid)
    return Outcome(
        tuple(got_out),
        tuple(gone),
        tuple(inside),
        tuple(o.text for o in inf.objectives if o.done),
        tuple(o.text for o in inf.objectives if not o.done),
    )


def over(enc: Encounter) -> str:
    """Why the infiltration is over now, or "" while it goes on (N8): every intruder has
    left by an edge (E9) or is out or captured (gone from the encounter). An infiltration
    with no intruder named is not over: its roles are still to be set (N1). The GM's own
    ends (a change of mode at an exchange end, E16, or ending the encounter) need no
    answer here: the mode is then no longer an infiltration."""
    inf: InfiltrationState = infiltration_of(enc)
    if not inf.intruders:
        return ""
    o = outcome(enc)
    if o.inside:
        return ""
    if o.got_out and not o.gone:
        return "every intruder has left by an edge (N8)"
    if o.gone and not o.got_out:
        return "every intruder is out of the fight or captured (N8)"
    return "every intruder has left by an edge or is out or captured (N8)"


def nearest_edge(enc: Encounter, c: Combatant) -> str:
    """The edge nearest where ``c`` truly is (a hidden intruder too), the first of
    :data:`EDGES` on a tie: the one it would leave by (E9, N8)."""
    from afdesk.encounter.infiltration.ops import EDGES  # the Ops' own list of edges

    if c.area is None:
        return EDGES[0]
    c0, r0, c1, r1 = enc.zone.area_bounds()
    col, row = c.area[0], c.area[1]
    away = {"north": row - r0, "east": c1 - col, "south": r1 - row, "west": col - c0}
    return min(EDGES, key=lambda e: away.get(e, 0))
