"""Ops of the flow of play: whose turn it is, a hesitated action cutting in, the end of the
encounter (E1, E3, E6, E15)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter import economy
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.base import Op, name, require_phase
from afdesk.encounter.reflex import ROUNDS
from afdesk.encounter.state import Phase, TurnState, exchanges_lasted

if TYPE_CHECKING:
    from afdesk.encounter.model import Encounter


class NextTurn(Op, frozen=True):
    """End the current turn and start the next in reflex order (E3); after the last turn
    the round ends, and after round 5 the exchange (E1)."""

    label = "Next turn"

    def execute(self, enc: Encounter) -> None:
        require_phase(enc, Phase.TURNS, doing="go to the next turn")
        t = enc.turn
        current = t.actor
        if current in enc.combatants:
            c = economy.end_turn(enc.combatants[current])
            if t.interjection:
                c = c.without_state(StateKind.HESITATING).with_economy(action=False)
            enc.put(c)
        index = _next_index(enc, t)
        if index < len(t.order):
            nxt = enc.combatants[t.order[index]]
            enc.put(economy.start_turn(nxt, t.exchange, t.round))
            enc.set_turn(msgspec.structs.replace(t, index=index, interjection=""))
            return
        for c in enc.roster():
            ended = economy.end_round(c)
            if ended is not c:
                enc.put(ended)
        if t.round >= ROUNDS:
            enc.set_turn(
                TurnState(
                    phase=Phase.EXCHANGE_END,
                    exchange=t.exchange,
                    round=t.round,
                    exchanges_played=t.exchanges_played + 1,
                )
            )
        else:
            enc.set_turn(
                TurnState(
                    phase=Phase.CARDS,
                    exchange=t.exchange,
                    round=t.round,
                    exchanges_played=t.exchanges_played,
                )
            )

    def describe(self, enc: Encounter) -> str:
        t = enc.turn
        current = name(enc, t.actor) if t.actor else "nobody"
        index = _next_index(enc, t)
        if index < len(t.order):
            return f"{current}'s turn ends; {name(enc, t.order[index])}'s turn"
        if t.round >= ROUNDS:
            return f"{current}'s turn ends; exchange {t.exchange} is over"
        return f"{current}'s turn ends; round {t.round} is over"

    def title(self, enc: Encounter) -> str:
        t = enc.turn
        index = _next_index(enc, t)
        nxt = name(enc, t.order[index]) if index < len(t.order) else "end of the round"
        return f"Next turn: {name(enc, t.actor) if t.actor else 'nobody'} → {nxt}"


def _next_index(enc: Encounter, t: TurnState) -> int:
    """The position of the next character in the round who is still there."""
    index = t.index + 1
    while index < len(t.order):
        nxt = enc.combatants.get(t.order[index])
        if nxt is not None and not nxt.exited:
            break
        index += 1
    return index


class ActHesitated(Op, frozen=True):
    """A hesitating character takes its kept action directly after another character's
    turn, at -2 (E6). The current turn ends; the round then goes on in order."""

    id: str
    label = "Hesitated action"

    def execute(self, enc: Encounter) -> None:
        require_phase(enc, Phase.TURNS, doing="take a hesitated action")
        c = enc.combatant(self.id)
        t = enc.turn
        if c.exited:
            raise IllegalOp(f"{c.name} has left the encounter: the kept action is gone")
        if not c.has(StateKind.HESITATING) or not c.economy.action:
            raise IllegalOp(f"{c.name} is not hesitating with an action to take (E6)")
        if t.interjection:
            raise IllegalOp(f"{name(enc, t.interjection)} is taking a hesitated action now")
        if t.actor == c.id:
            raise IllegalOp(f"it is {c.name}'s own turn: a hesitated action comes after another's")
        if t.actor in enc.combatants:
            enc.put(economy.end_turn(enc.combatants[t.actor]))
        enc.set_turn(msgspec.structs.replace(t, interjection=c.id))

    def describe(self, enc: Encounter) -> str:
        return f"{name(enc, self.id)} takes the hesitated action now (-2, E6)"

    def title(self, enc: Encounter) -> str:
        return f"{name(enc, self.id)} acts (hesitated)"


class EndEncounter(Op, frozen=True):
    """The encounter is over; persevere follows if it lasted more than one exchange (E15)."""

    label = "End encounter"

    def execute(self, enc: Encounter) -> None:
        t = enc.turn
        if t.phase is Phase.ENDED:
            raise IllegalOp("the encounter is already over")
        if t.phase is Phase.SETUP:
            raise IllegalOp("the encounter has not started")
        enc.set_turn(
            TurnState(
                phase=Phase.ENDED,
                exchange=t.exchange,
                round=t.round,
                exchanges_played=exchanges_lasted(t),
            )
        )

    def describe(self, enc: Encounter) -> str:
        return f"The encounter ends after {exchanges_lasted(enc.turn)} exchange(s)"
