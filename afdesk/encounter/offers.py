"""Which checks a character can be offered now, and why one is not available: the facts
the GM's menus and buttons show, decided here rather than in the widgets (E3-E6, E14).

A check spends what its action spec says (an action, a snap, or nothing); attacks are the
checks another character's menu offers against it; Creep is only for a hidden character
(E5); leaving an overlap is a move check offered only inside one (E14).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from afdesk.encounter import features
from afdesk.encounter.actor import spend_refusal
from afdesk.encounter.contest.assembly import CheckKind, assemble
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.modes import current_mode

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter

_SPENDS_ORDER = {"action": 0, "snap": 1, "free": 2}

MENU_CHECKS: tuple[CheckKind, ...] = tuple(
    sorted(
        (a for a in CheckKind if a is not CheckKind.LEAVE_OVERLAP),
        key=lambda a: _SPENDS_ORDER[a.spec.uses],
    )
)
"""A character's own checks, those that spend an action first, then snaps, then free."""

ATTACKS: tuple[CheckKind, ...] = tuple(a for a in CheckKind if a.spec.attack)
"""The checks the actor can aim at another character from that character's menu."""


def spends(action: CheckKind) -> str:
    """What ``action`` spends: "action", "snap" or "free" (E5, E6)."""
    return action.spec.uses


def economy_menu(action: CheckKind) -> str:
    """Which of the Character dock's economy menus lists ``action``: "action" (what
    spends the action, and leaving an overlap, which comes with a move), "snap", or ""
    (a plain check, in neither)."""
    if action is CheckKind.LEAVE_OVERLAP:
        return "action"
    uses = action.spec.uses
    return uses if uses in ("action", "snap") else ""


def is_offered(enc: Encounter, cid: str, action: CheckKind) -> bool:
    """Whether ``cid``'s menu lists ``action`` at all (enabled or not)."""
    c = enc.combatants.get(cid)
    if c is None or not current_mode(enc).offers(action):
        return False
    row = features.SNAPS.get(str(action))
    if row is not None and row.requires is not None:
        return not row.requires(enc, c)  # the snap's row: Creep only while hidden (E5)
    if action is CheckKind.LEAVE_OVERLAP:
        return c.area is not None and bool(enc.opponents_in(c.area, c))
    return True


def check_refusal(enc: Encounter, cid: str, action: CheckKind) -> str:
    """Why ``cid`` cannot start ``action`` now ("" if it can): the action or snap it
    would spend, or what the mode forbids (a Hide in an opponent's clear line, N4a). A
    plain check and the move check to leave an overlap spend nothing."""
    return spend_refusal(enc, cid, action.spec.uses, kind=str(action.value))


def can_target(enc: Encounter, actor: str, target: str) -> bool:
    """Whether ``target``'s menu offers the actor's attacks against it: someone else,
    on the map, while ``actor`` acts."""
    c = enc.combatants.get(target)
    return (
        bool(actor)
        and actor != target
        and actor in enc.combatants
        and c is not None
        and c.on_map
        and not c.in_reserve
    )


def target_refusal(enc: Encounter, actor: str, action: CheckKind, target: str) -> str:
    """Why ``actor`` cannot do ``action`` to ``target`` now ("" if it can), as planned."""
    try:
        plan = assemble(enc, actor, action, target)
    except IllegalOp as exc:
        return str(exc)
    return "" if plan.allowed else plan.reason
