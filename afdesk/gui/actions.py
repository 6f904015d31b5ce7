"""What a GM can do with a character right now, for menus and buttons.

Availability comes from the model, never from widget logic: a simple action is offered
when its Op would be accepted (``EncounterDocument.try_op``), otherwise it is shown
disabled with the model's reason. Checks that need dice (attacks, hide, look, ...) open the
contest dialog; their availability is the action or snap they spend.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest import Action, assemble
from afdesk.encounter.economy import ActionKind, SnapKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.base import Op, spend_refusal
from afdesk.encounter.ops.economy import Screen, TakeAction, UseSnap
from afdesk.encounter.ops.flow import ActHesitated
from afdesk.encounter.ops.reflex import deal_hands
from afdesk.encounter.ops.roster import RemoveState, TickBleeding
from afdesk.gui.text import sentence

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
    "creep": (Action.CREEP, "snap"),
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
    reason = spend_refusal(doc.encounter, cid, what)
    return sentence(reason) if reason else ""


def _target_reason(doc: EncounterDocument, actor: str, action: Action, target: str) -> str:
    """Why ``actor`` cannot do ``action`` to ``target`` now ("" if it can), from the model."""
    try:
        plan = assemble(doc.encounter, actor, action, target)
    except IllegalOp as exc:
        return sentence(str(exc))
    return "" if plan.allowed else sentence(plan.reason)


def entries(doc: EncounterDocument, cid: str) -> list[Entry]:
    """Everything offered for character ``cid`` now, enabled or with the reason why not."""
    enc = doc.encounter
    if cid not in enc.combatants:
        return []
    c = enc.combatants[cid]
    out: list[Entry] = []
    actor = enc.actor
    if actor and actor != cid and actor in enc.combatants and c.on_map:
        who = enc.combatants[actor].name
        for key in ("hack", "aim", "taunt"):
            action = CHECKS[key][0]
            plan_reason = _target_reason(doc, actor, action, cid)
            out.append(
                Entry(
                    f"target:{key}",
                    f"{who}: {action.label} {c.name}…",
                    "Target",
                    not plan_reason,
                    plan_reason,
                )
            )
    for key, (action, spends) in CHECKS.items():
        label = action.label
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


def fill_menu(menu, doc: EncounterDocument, cid: str, on_entry, keep=None) -> None:
    """Add ``cid``'s entries (those ``keep(entry)`` accepts) to a QMenu, grouped, disabled
    ones with the model's reason; choosing one calls ``on_entry(entry)``."""
    menu.setToolTipsVisible(True)
    c = doc.encounter.combatants.get(cid)
    if c is not None:
        menu.addSection(c.name)
    group = None
    for entry in entries(doc, cid):
        if keep is not None and not keep(entry):
            continue
        if entry.group != group:
            menu.addSection(entry.group)
            group = entry.group
        act = menu.addAction(entry.label)
        act.setData(entry.key)
        act.setEnabled(entry.enabled)
        if entry.reason:
            act.setToolTip(entry.reason)
            act.setStatusTip(entry.reason)
        act.triggered.connect(lambda _checked=False, e=entry: on_entry(e))


def deal_refusal(doc: EncounterDocument, physical: tuple[str, ...] = ()) -> str:
    """Why reflex cannot be dealt now ("" if it can): asked of the model (E2)."""
    op = deal_hands(doc.encounter, None, physical)
    return doc.try_op(op) if op.hands else "Add characters first: nobody holds a hand."


def trim_words(enc: Encounter) -> str:
    """What the end of the exchange means for the zone (E9), in a sentence."""
    cols, rows = enc.zone.size()
    edges = enc.trim_proposal()
    if (cols, rows) == (3, 3):
        return "The zone is 3 x 3 tiles: nothing to trim."
    if edges:
        return (
            f"The zone is {cols} x {rows} tiles; afdesk proposes removing the "
            + ", ".join(e.value for e in edges)
            + " tiles, which hold nobody (E9)."
        )
    return (
        f"The zone is {cols} x {rows} tiles, and every extra line holds somebody or a "
        "decoy: move them or let them exit first (E9)."
    )
