"""Whose turn it is, asked the same way by the Ops, the contest and the menus: a character
acts only on its turn (or its hesitated action, E6), as its mode allows (an unaware guardian
only watches, N3), and spends an action or a snap it still has (E3-E6)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afdesk.encounter import economy
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.modes import current_mode
from afdesk.encounter.state import Phase

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
    from afdesk.encounter.interface import Encounter


def require_actor(enc: Encounter, cid: str, doing: str, kind: str = "") -> Combatant:
    """The character, if it is its turn (or its hesitated action, E6) and its mode lets
    it do ``kind`` (an action, snap or check; "" for a move or a facing): an unaware
    guardian only watches (N3)."""
    c = enc.combatant(cid)
    if c.exited:
        raise IllegalOp(f"{c.name} cannot {doing}: {c.name} has left the encounter")
    actor = enc.actor
    if actor != cid:
        who = enc.combatants[actor].name if actor in enc.combatants else "nobody"
        raise IllegalOp(f"{c.name} cannot {doing}: it is {who}'s turn, not {c.name}'s")
    why = current_mode(enc).turn_refusal(enc, c, kind)
    if why:
        raise IllegalOp(why)
    return c


def spend_refusal(
    enc: Encounter, cid: str, uses: str, doing: str = "do that", kind: str = ""
) -> str:
    """Why ``cid`` cannot spend its action or snap (``uses``) now, or "" if it can (E3-E6);
    ``kind`` names the action, snap or check for its mode ("hide": a Hide in an opponent's
    clear line is refused in an infiltration, N4a).

    "free" checks (a plain check, the move check to leave an overlap) need nothing.
    """
    if uses not in ("action", "snap"):
        return ""
    if enc.turn.phase is not Phase.TURNS:
        return f"{enc.combatant(cid).name} can only {doing} on a turn"
    try:
        c = require_actor(enc, cid, doing, kind)
        if uses == "action":
            economy.require_action(c, doing, enc.turn.exchange, enc.turn.round)
        else:
            economy.require_snap(c)
    except IllegalOp as exc:
        return str(exc)
    return ""
