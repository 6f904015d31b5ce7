"""Encounter-wide values: mode, phase of play, whose turn it is, settings (E1, E16, H2)."""

import enum

import msgspec

from afdesk.rules import DEFAULT_RULESET


class Mode(enum.StrEnum):
    """Encounter modes (E16); the mode may change at the end of an exchange."""

    BATTLE = "battle"
    CHASE = "chase"
    DISPUTE = "dispute"
    INFILTRATION = "infiltration"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class Phase(enum.StrEnum):
    """Where play stands."""

    SETUP = "setup"
    """Before the first exchange: place characters, then deal reflex."""
    CARDS = "cards"
    """Every hand plays its card for the next round."""
    TURNS = "turns"
    """Characters take their turns in reflex order."""
    EXCHANGE_END = "exchange-end"
    """After round 5: trim the zone, change mode, reinforcements, then deal again."""
    ENDED = "ended"
    """The encounter is over: persevere (E15)."""

    @property
    def label(self) -> str:
        return {
            "setup": "Setup",
            "cards": "Play reflex cards",
            "turns": "Turns",
            "exchange-end": "End of exchange",
            "ended": "Encounter over",
        }[self.value]


class TurnState(msgspec.Struct, frozen=True, omit_defaults=True):
    """Exchange, round and whose turn it is (E1, E2)."""

    phase: Phase = Phase.SETUP
    exchange: int = 0
    round: int = 0
    order: tuple[str, ...] = ()
    """Combatant ids of this round in reflex order."""
    index: int = -1
    """Position in ``order`` of the character whose turn it is (-1: nobody's)."""
    interjection: str = ""
    """A character taking a hesitated action right now (E6)."""
    exchanges_played: int = 0
    """Exchanges completed, for persevere (E15)."""
    persevered: bool = False
    """Everyone has made the persevere check (E15): once per encounter."""

    @property
    def actor(self) -> str | None:
        if self.interjection:
            return self.interjection
        if self.phase is Phase.TURNS and 0 <= self.index < len(self.order):
            return self.order[self.index]
        return None


def exchanges_lasted(turn: TurnState) -> int:
    """How many exchanges the encounter has lasted: the completed ones, plus the current one
    if a round of it was played (a deal alone does not count, E15)."""
    if turn.phase in (Phase.CARDS, Phase.TURNS) and turn.round >= 1:
        return turn.exchanges_played + 1
    return turn.exchanges_played


class Settings(msgspec.Struct, frozen=True, omit_defaults=True):
    """Per-encounter settings."""

    bad_pursuit_colour: str = "blue"
    """H2: which pursuit-die colour is the bad result ("blue" by default, or "green")."""
    days_since_rest: int = 0
    """For persevere (E15): the success margin must exceed this."""
    low_activity: bool = False
    """A low-activity encounter (a dispute, say) gives +2 to persevere (E15)."""


class Meta(msgspec.Struct, frozen=True, omit_defaults=True):
    """Name, ruleset, the GM's notes and the referee's Shifts."""

    name: str = "Untitled encounter"
    ruleset: str = DEFAULT_RULESET
    notes: str = ""
    """GM-only."""
    description: str = ""
    """Shown to the players."""
    referee_shifts: int = 3
    """The referee's pool of Shifts (R10), spent for opponents and denizens."""
