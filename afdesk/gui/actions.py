"""What a GM can do with a character right now, for menus and buttons.

Availability comes from the model, never from widget logic: a simple action is offered
when its Op would be accepted (``EncounterDocument.try_op``), otherwise it is shown
disabled with the model's reason. Checks that need dice (attacks, hide, look, ...) open the
contest dialog; their availability is the action or snap they spend.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest import Action
from afdesk.encounter.ops.base import Op
from afdesk.encounter.ops.roster import RemoveState, TickBleeding
from afdesk.encounter.ops.turn import ActHesitated, Screen, TakeAction, UseSnap
from afdesk.encounter.state import Phase
from afdesk.encounter.turn import ActionKind, SnapKind

if TYPE_CHECKING:
    from afdesk.gui.document import EncounterDocument


class Entry(NamedTuple):
    key: str
    label: str
    group: str
    enabled: bool
    reason: str = ""
    op: Op | None = None
    """The Op to push, for entries that need no dialog."""


CHECKS = {
    "hack": (Action.HACK, "action"),
    "aim": (Action.AIM, "action"),
    "taunt": (Action.TAUNT, "action"),
    "convince": (Action.CONVINCE, "action"),
    "hide": (Action.HIDE, "action"),
    "distract": (Action.DISTRACT, "snap"),
    "look": (Action.LOOK, "snap"),
    "hustle": (Action.HUSTLE, "snap"),
    "creep": (None, "snap"),
    "check": (Action.CHECK, "free"),
}
"""Entries that need dice: the contest dialog opens for them."""

SIMPLE_ACTIONS = (
    ActionKind.MANEUVER,
    ActionKind.DEFEND,
    ActionKind.RECOVER,
    ActionKind.RECRUIT,
    ActionKind.HESITATE,
    ActionKind.SECOND_SNAP,
)
SIMPLE_SNAPS = (
    SnapKind.PREPARE,
    SnapKind.FEND,
    SnapKind.QUIP,
    SnapKind.CROUCH,
    SnapKind.EQUIP,
    SnapKind.ORDER,
    SnapKind.STAND,
)


def _spend_reason(doc: EncounterDocument, cid: str, what: str) -> str:
    enc = doc.encounter
    c = enc.combatant(cid)
    if enc.turn.phase is not Phase.TURNS:
        return "Only during turns."
    if enc.actor != cid:
        who = enc.combatants[enc.actor].name if enc.actor in enc.combatants else "nobody"
        return f"It is {who}'s turn."
    e = c.economy
    if what == "action":
        if not e.action:
            return "The action of this turn is used." if e.action_used else "No action now."
        if c.has(StateKind.DOWN):
            return "Down: the action can only Recover (E17)."
    if what == "snap" and e.snaps < 1:
        return "No snap left this turn (E5)."
    return ""


def entries(doc: EncounterDocument, cid: str) -> list[Entry]:
    """Everything offered for character ``cid`` now, enabled or with the reason why not."""
    enc = doc.encounter
    if cid not in enc.combatants:
        return []
    c = enc.combatants[cid]
    out: list[Entry] = []
    for key, (action, spends) in CHECKS.items():
        label = action.label if action else "Creep"
        if key == "creep" and not c.hidden:
            continue
        if key == "check":
            out.append(Entry(key, "Plain check…", "Check", True))
            continue
        reason = _spend_reason(doc, cid, spends)
        group = "Attack" if key in ("hack", "aim", "taunt") else "Check"
        out.append(Entry(key, f"{label}…", group, not reason, reason))
    if c.area is not None and enc.opponents_in(c.area, c):
        reason = _spend_reason(doc, cid, "none")
        out.append(Entry("leave", "Leave the overlap (move check)…", "Check", not reason, reason))
    for kind in SIMPLE_ACTIONS:
        op = TakeAction(cid, kind)
        reason = doc.try_op(op)
        out.append(Entry(f"action:{kind.value}", kind.label, "Action", not reason, reason, op))
    for kind in SIMPLE_SNAPS:
        op = UseSnap(cid, kind)
        reason = doc.try_op(op)
        out.append(Entry(f"snap:{kind.value}", kind.label, "Snap", not reason, reason, op))
    screen = Screen(cid)
    reason = doc.try_op(screen)
    out.append(
        Entry("screen", "Screen (lose the next action)", "Defense", not reason, reason, screen)
    )
    if c.has(StateKind.HESITATING):
        op = ActHesitated(cid)
        reason = doc.try_op(op)
        out.append(Entry("hesitated", "Act now (hesitated, -2)", "Action", not reason, reason, op))
    bleeding = c.state(StateKind.BLEEDING)
    if bleeding and bleeding.markers:
        op = TickBleeding(cid)
        out.append(Entry("bleed", f"Bleed ({bleeding.label()})", "State", True, "", op))
    for st in c.states:
        op = RemoveState(cid, st.kind)
        out.append(
            Entry(f"remove-state:{st.kind.value}", f"Remove {st.label()}", "State", True, "", op)
        )
    out.append(Entry("add-state", "Add state…", "State", True))
    out.append(Entry("momentum", "Momentum marker…", "State", True))
    out.append(Entry("edit", "Edit character…", "GM", True))
    out.append(Entry("remove", "Remove from the encounter", "GM", True))
    return out
