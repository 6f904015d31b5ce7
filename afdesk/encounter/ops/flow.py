"""Ops of the flow of play: whose turn it is, a hesitated action cutting in, the end of the
encounter (E1, E3, E6, E15). What "next turn" means belongs to the mode
(:mod:`afdesk.encounter.modes`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter import economy
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.modes import current_mode
from afdesk.encounter.op import Op
from afdesk.encounter.requires import name, require_phase
from afdesk.encounter.state import Phase, TurnState, exchanges_lasted

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class NextTurn(Op, frozen=True):
    """End the current turn and start the next in reflex order (E3); after the last turn
    the round ends, and after round 5 the exchange (E1)."""

    # The mode plays it (afdesk.encounter.modes.EncounterMode.next_turn); the docstring
    # above is battle's, and part of the published schema.

    label = "Next turn"

    def execute(self, enc: Encounter) -> None:
        current_mode(enc).next_turn(enc)

    def describe(self, enc: Encounter) -> str:
        return current_mode(enc).next_turn_text(enc)

    def title(self, enc: Encounter) -> str:
        return current_mode(enc).next_turn_title(enc)


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


class EndExchangeEarly(Op, frozen=True):
    """A GM override: the exchange ends now, before its fifth round (the fight broke off,
    everyone fled). The turn and round under way end as they would; the exchange counts
    for persevere if a round of it was played (E1, E15)."""

    label = "End the exchange early"

    def execute(self, enc: Encounter) -> None:
        require_phase(enc, Phase.CARDS, Phase.TURNS, doing="end the exchange early")
        t = enc.turn
        if t.phase is Phase.TURNS and t.actor in enc.combatants:
            enc.put(economy.end_turn(enc.combatants[t.actor]))
        if t.phase is Phase.TURNS:
            for c in enc.roster():
                ended = economy.end_round(c)
                if ended is not c:
                    enc.put(ended)
        enc.set_turn(
            TurnState(
                phase=Phase.EXCHANGE_END,
                exchange=t.exchange,
                round=t.round,
                exchanges_played=exchanges_lasted(t),
            )
        )

    def describe(self, enc: Encounter) -> str:
        t = enc.turn
        played = f"after round {t.round}" if t.round else "before its first round"
        return f"GM override: exchange {t.exchange} ends early, {played}"

    def title(self, enc: Encounter) -> str:
        return f"End exchange {enc.turn.exchange} early"


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
        n = exchanges_lasted(enc.turn)
        text = f"The encounter ends after {n} exchange" + ("" if n == 1 else "s")
        if enc.turn.exchange > n:
            # Dealt but not played: a deal alone does not count (E15).
            text += f" (exchange {enc.turn.exchange} was dealt but not played)"
        return text
