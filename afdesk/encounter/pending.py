"""What waits for the GM's decision, whoever is selected: hits that reached grit (down,
out or nothing), an ongoing state the actor must resolve this turn (E3), reserve groups
that may come in as reinforcements between exchanges (E1), and what the mode declares (a
dispute's tension after a fumble, its broken end, closing it: P7, P8; an infiltration's
decoy lost to a fumble while hidden, N4d).

The window's decisions bar lists these above the map until each is decided: a decision
goes away when the model no longer asks for it (the Op was applied), never on a timer."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.damage import HARM_CHOICES, hits_reach_grit
from afdesk.encounter.modes import current_mode
from afdesk.encounter.op import Op
from afdesk.encounter.ops.damage import DecideHarm
from afdesk.encounter.ops.reserve import BringIn, reserve_groups
from afdesk.encounter.ops.roster import TickBleeding
from afdesk.encounter.state import Phase

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class Choice(msgspec.Struct, frozen=True):
    """One button of a decision: its label, its tooltip and the Op it pushes; no Op
    means "show the character" (the decision needs the GM's numbers, in the dock)."""

    label: str
    tip: str
    op: Op | None = None


class Decision(msgspec.Struct, frozen=True):
    """One pending decision: what kind ("harm", "state", "reinforcements"), about whom
    (a character's id, or a reserve group's name), its sentence and its choices."""

    kind: str
    about: str
    text: str
    choices: tuple[Choice, ...]


_HARM_TIPS = {
    "down": "The down state (E17): penalty, speed 0, loses the next action",
    "out": "Out of the fight: the character leaves the encounter",
    "nothing": "It fights on; the decision returns if its hits rise again",
}

_ONGOING = (StateKind.BLEEDING, StateKind.BURNING, StateKind.BLINDED)
"""The ongoing states a turn resolves once (E3)."""


def pending_decisions(enc: Encounter) -> list[Decision]:
    """Every decision waiting for the GM now, in roster order: harm first, then the
    actor's ongoing states, then the reserve groups between exchanges, then the mode's
    own (:meth:`~afdesk.encounter.modes.EncounterMode.decisions`: a dispute's, P7, P8)."""
    out: list[Decision] = []
    for c in enc.roster():
        if hits_reach_grit(c):
            choices = tuple(
                Choice(choice.capitalize(), _HARM_TIPS[choice], DecideHarm(c.id, choice))
                for choice in HARM_CHOICES
            )
            text = f"{c.name}: hits {c.hits} reach grit {c.grit}. Down, out or nothing?"
            out.append(Decision("harm", c.id, text, choices))
    actor = enc.actor
    if enc.turn.phase is Phase.TURNS and actor in enc.combatants:
        c = enc.combatants[actor]
        for kind in _ONGOING:
            st = c.state(kind)
            if st is None or str(kind) in c.economy.resolved:
                continue
            if kind is StateKind.BLEEDING and st.markers <= 0:
                continue
            text = f"{c.name} is {st.label().lower()}: resolve it this turn (E3)"
            if kind is StateKind.BURNING:  # the fire's hits are the GM's roll: the dock
                choice = Choice("Show", f"Select {c.name} to resolve the fire (E3)")
            else:
                verb = "Bleed" if kind is StateKind.BLEEDING else "Resolve"
                choice = Choice(
                    verb, f"Resolve {kind.label.lower()} (E3)", TickBleeding(c.id, kind)
                )
            out.append(Decision("state", c.id, text, (choice,)))
    if enc.turn.phase is Phase.EXCHANGE_END:
        for group, members in reserve_groups(enc).items():
            text = (
                f"Reinforcements? {group} ({len(members)}) waits in reserve: bring it in "
                "before the next deal (E1)"
            )
            tip = f"{group} joins the fight and is dealt reflex from the next deal (E1, E2)"
            out.append(
                Decision("reinforcements", group, text, (Choice("Bring in", tip, BringIn(group)),))
            )
    out.extend(current_mode(enc).decisions(enc))  # the mode's own (P7, P8, N4d)
    return out
