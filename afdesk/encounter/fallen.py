"""Where a character out of the fight fell, so that the maps keep its token there, greyed
and tilted with an OUT badge, as a down character's (E17) is drawn with DOWN: the players
see who fell where, not only a ticker line.

"Out" takes the character off the map (``DecideHarm``: no area, ``exited`` says why), so
its last place is not in the encounter; the undo history holds it: the inverse of the
change that took it off the map restores the area it had. What a file holds is unchanged,
so a file opened afresh has no history and draws no such token.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from afdesk.encounter import features
from afdesk.encounter.combatant import Combatant
from afdesk.encounter.geometry import Area
from afdesk.encounter.restore import is_restore

if TYPE_CHECKING:  # the steps are read, not made: a picture (export-png) needs no history
    from afdesk.encounter.history import Step


def is_out(c: Combatant) -> bool:
    """Whether ``c`` is out of the fight (its standing row "out", features.py), not merely
    gone over an edge (E9) or held back."""
    return any(row.kind == "out" for row in features.standings(c))


def out_of(roster: Iterable[Combatant]) -> list[Combatant]:
    """The characters of ``roster`` out of the fight (:func:`is_out`), in its order. Each
    map asks at every change, of every character: those neither gone nor held back (most)
    have no standing row (``features.standings``) and are passed by without a call."""
    return [c for c in roster if (c.exited or c.reserve) and is_out(c)]


def fell_at(steps: Iterable[Step]) -> dict[str, Area]:
    """Each character's area just before the last change of ``steps`` (the applied ones,
    oldest first) that touched it while it was on the map: for a character out of the
    fight, where it fell."""
    places: dict[str, Area] = {}
    for step in steps:
        for _op, inverse in step.changes:
            if not is_restore(inverse):
                continue
            for slot in inverse.combatants:
                old = slot.value
                if old is not None and old.on_map and old.area is not None:
                    places[slot.id] = (old.area[0], old.area[1])
    return places
