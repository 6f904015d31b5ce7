"""What waits for the GM in an infiltration (N4d): a hidden character that fumbled a check
loses a decoy, its owner picking which; its last decoy gone, it is revealed there (N5).
Worked out from the encounter (the hidden state's note), with the Ops that decide it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afdesk.encounter.infiltration.ops import LoseDecoy, owes_decoy
from afdesk.encounter.infiltration.state import InfiltrationState, infiltration_of
from afdesk.encounter.requires import area_text
from afdesk.encounter.state import Mode

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter
    from afdesk.encounter.pending import Decision


def fumble_decisions(enc: Encounter) -> list[Decision]:
    """One decision per hidden character owing a decoy to a fumble (N4d, R6): a button
    per decoy, each a :class:`LoseDecoy`."""
    from afdesk.encounter.pending import Choice, Decision

    if enc.mode is not Mode.INFILTRATION:
        return []
    inf: InfiltrationState = infiltration_of(enc)
    out: list[Decision] = []
    for cid in (*inf.intruders, *inf.guardians):
        c = enc.combatants.get(cid)
        if c is None or c.exited or not c.hidden or not owes_decoy(c) or not c.decoys:
            continue
        areas = [(d[0], d[1]) for d in c.decoys]
        if len(areas) == 1:
            text = (
                f"{c.name} fumbled while hidden: its last decoy at {area_text(areas[0])} "
                f"goes and {c.name} is revealed there (N4d, N5)"
            )
        else:
            where = " or ".join(area_text(a) for a in areas)
            text = f"{c.name} fumbled while hidden: which decoy goes, {where}? (N4d)"
        choices = tuple(
            Choice(
                f"Lose {area_text(a)}",
                f"{c.name}'s decoy at {area_text(a)} goes (N4d)"
                + (f"; {c.name} is revealed there (N5)" if len(areas) == 1 else ""),
                LoseDecoy(c.id, a),
            )
            for a in areas
        )
        out.append(Decision("decoy", c.id, text, choices))
    return out
