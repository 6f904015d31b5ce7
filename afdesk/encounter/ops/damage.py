"""The GM's decision when a character's hits reach its grit.

The pages give no automatic rule: the app flags the character (``damage.hits_reach_grit``)
and the GM decides down (E17), out of the fight, or nothing. The decision is an Op: logged,
undoable, and the flag stays away until the hits rise again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from afdesk.encounter.combatant import State, StateKind
from afdesk.encounter.damage import HARM_CHOICES, hits_reach_grit
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.op import Op
from afdesk.encounter.requires import name

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


OUT_NOTE = "out of the fight: hits reached grit"


class DecideHarm(Op, frozen=True):
    """What reaching grit does to ``id``: "down" (the down state, E17), "out" (it leaves the
    fight) or "nothing" (it fights on)."""

    id: str
    choice: str
    label = "Decide harm"

    def execute(self, enc: Encounter) -> None:
        c = enc.combatant(self.id)
        if self.choice not in HARM_CHOICES:
            raise IllegalOp(f"{self.choice!r} is not a choice: " + ", ".join(sorted(HARM_CHOICES)))
        if not hits_reach_grit(c):
            raise IllegalOp(
                f"{c.name}'s hits ({c.hits}) have not reached its grit ({c.grit}), or the GM "
                "has already decided at this many hits: there is nothing to decide"
            )
        c = c.replace(harm_call=c.hits)
        if self.choice == "down":
            c = c.with_state(State(StateKind.DOWN, note="hits reached grit"))
        elif self.choice == "out":
            c = c.without_state(StateKind.HESITATING).replace(area=None, exited=OUT_NOTE, decoys=())
        enc.put(c)

    def describe(self, enc: Encounter) -> str:
        c = enc.combatants.get(self.id)
        counts = f" (hits {c.hits}, grit {c.grit})" if c is not None else ""
        words = HARM_CHOICES.get(self.choice, self.choice)
        return f"GM decides: {name(enc, self.id)} {words}{counts}"

    def title(self, enc: Encounter) -> str:
        return f"{self.choice.capitalize()}: {name(enc, self.id)}"
