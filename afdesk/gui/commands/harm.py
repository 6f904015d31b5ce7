"""The GM's decision when a character's hits reach its grit, offered in the
character's menus while it is flagged: Down, Out of the fight, or Nothing (``DecideHarm``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afdesk.encounter.damage import HARM_CHOICES, hits_reach_grit
from afdesk.encounter.op import Op
from afdesk.encounter.ops.damage import DecideHarm
from afdesk.gui.commands.base import REGISTRY, OpCommand

if TYPE_CHECKING:
    from afdesk.gui.document import EncounterDocument

LABELS = {
    "down": "Hits reach grit: down",
    "out": "Hits reach grit: out of the fight",
    "nothing": "Hits reach grit: fights on",
}


class DecideHarmCommand(OpCommand):
    group = "Harm"

    def __init__(self, choice: str) -> None:
        if choice not in HARM_CHOICES:
            raise ValueError(choice)
        self.choice = choice
        self.id = f"harm:{choice}"
        self.label = LABELS[choice]

    def offered(self, doc: EncounterDocument, who: str) -> bool:
        c = doc.encounter.combatants.get(who)
        return c is not None and hits_reach_grit(c)

    def op(self, doc: EncounterDocument, who: str) -> Op:
        return DecideHarm(who, self.choice)


HARM = tuple(REGISTRY.register(DecideHarmCommand(choice)) for choice in LABELS)
