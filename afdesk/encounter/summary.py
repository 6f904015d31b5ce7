"""Where play stands, in words: the headline the Reflex dock and the map's legend show.

One owner for the facts behind it (which round the cards are for, how many rounds an
exchange has, E1-E2), so the dock and the map never disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from afdesk.encounter.reflex import ROUNDS
from afdesk.encounter.state import Phase

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def headline(enc: Encounter, *, brief: bool = False) -> str:
    """Where play stands: the exchange, the round and what happens now.

    ``brief`` is the short form for the map's legend (no instructions); the full form is a
    sentence for the Reflex dock. While the cards are played the round named is the coming
    one (E2).
    """
    t = enc.turn
    x = t.exchange
    if brief:
        return {
            Phase.SETUP: "Setup",
            Phase.CARDS: f"Exchange {x} · reflex cards for round {t.round + 1}",
            Phase.TURNS: f"Exchange {x} · Round {t.round}",
            Phase.EXCHANGE_END: f"End of exchange {x}",
            Phase.ENDED: "The encounter is over",
        }[t.phase]
    return {
        Phase.SETUP: "Setup: place everyone, then deal reflex.",
        Phase.CARDS: f"Exchange {x} · round {t.round + 1} of {ROUNDS}: every hand plays a card.",
        Phase.TURNS: f"Exchange {x} · round {t.round} of {ROUNDS}",
        Phase.EXCHANGE_END: f"Exchange {x} is over.",
        Phase.ENDED: "The encounter is over.",
    }[t.phase]


def whose_turn(enc: Encounter) -> str:
    """The status line during turns: the brief headline and whose turn it is ("" when no
    one is acting)."""
    actor = enc.combatants.get(enc.actor) if enc.actor else None
    if enc.turn.phase is not Phase.TURNS or actor is None:
        return ""
    return f"{headline(enc, brief=True)} · {actor.name}'s turn"
