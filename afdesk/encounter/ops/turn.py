"""Ops of play: reflex, turns, snaps, actions, screens, hesitation (E1-E7, E17)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter import movement, turn
from afdesk.encounter.combatant import Economy, State, StateKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.base import Op, name, require_actor, require_phase
from afdesk.encounter.reflex import (
    ROUNDS,
    Card,
    HandSpec,
    deal,
    hand_specs,
    round_order,
    shuffled_deck,
)
from afdesk.encounter.state import Phase, TurnState, exchanges_lasted
from afdesk.encounter.turn import ActionKind, SnapKind
from afdesk.rules.contest import outcome as af_outcome
from afdesk.rules.d20 import D20Check, Degree
from afdesk.rules.dice import Roll

if TYPE_CHECKING:
    from afdesk.encounter.model import Encounter


def check_succeeded(enc: Encounter, roll: Roll | None, d20: D20Check | None) -> bool:
    """Whether a plain check succeeded under the encounter's ruleset."""
    if d20 is not None:
        return d20.degree >= Degree.PASS
    if roll is None:
        raise IllegalOp("this needs the check's dice")
    return af_outcome(enc.ruleset, roll).success


# ------------------------------------------------------------------------------- reflex


class DealHands(Op, frozen=True):
    """Start an exchange: shuffle, deal 5 cards to every virtual hand (E2).

    The shuffled deck is part of the Op, so replaying deals the same cards.
    """

    deck: tuple[Card, ...]
    hands: tuple[HandSpec, ...]
    label = "Deal reflex"

    def execute(self, enc: Encounter) -> None:
        t = enc.turn
        redeal = t.phase is Phase.CARDS and t.round == 0
        if not redeal:
            require_phase(enc, Phase.SETUP, Phase.EXCHANGE_END, doing="deal reflex")
        for h in self.hands:
            for m in h.members:
                c = enc.combatant(m)
                if c.exited:
                    raise IllegalOp(f"{c.name} has left the encounter and holds no hand")
        if not self.hands:
            raise IllegalOp("nobody to deal reflex to: add characters first")
        enc.set_reflex(deal(self.deck, self.hands))
        enc.set_turn(
            TurnState(
                phase=Phase.CARDS,
                exchange=t.exchange if redeal else t.exchange + 1,
                round=0,
                exchanges_played=t.exchanges_played,
            )
        )

    def describe(self, enc: Encounter) -> str:
        t = enc.turn
        ex = t.exchange if (t.phase is Phase.CARDS and t.round == 0) else t.exchange + 1
        who = ", ".join(h.label + (" (physical)" if h.physical else "") for h in self.hands)
        return f"Exchange {ex}: reflex dealt to {who}"

    def title(self, enc: Encounter) -> str:
        return "Deal reflex"


def deal_hands(
    enc: Encounter, rng: random.Random | None = None, physical: tuple[str, ...] = ()
) -> DealHands:
    """A DealHands for everyone in the encounter, with a freshly shuffled deck."""
    specs = hand_specs(enc.roster(), physical)
    return DealHands(shuffled_deck(rng), tuple(specs))


class Play(msgspec.Struct, frozen=True, array_like=True):
    hand: str
    card: Card


def active_hands(enc: Encounter) -> list:
    return [
        h
        for h in enc.reflex.hands
        if any(m in enc.combatants and not enc.combatants[m].exited for m in h.members)
    ]


class PlayCards(Op, frozen=True):
    """Every hand plays one card; all are revealed together and the round begins, highest
    card first, a whole group on its card (E2)."""

    plays: tuple[Play, ...]
    label = "Play reflex cards"

    def execute(self, enc: Encounter) -> None:
        require_phase(enc, Phase.CARDS, doing="play reflex cards")
        t = enc.turn
        if t.round >= ROUNDS:
            raise IllegalOp("all 5 rounds of this exchange are played: deal again (E1)")
        reflex = enc.reflex
        by_hand = {}
        for p in self.plays:
            if p.hand in by_hand:
                raise IllegalOp(f"{reflex.hand(p.hand).label} plays two cards")
            by_hand[p.hand] = p.card
        hands = {h.id: h for h in active_hands(enc)}
        missing = [h.label for hid, h in hands.items() if hid not in by_hand]
        if missing:
            raise IllegalOp("still waiting for a card from " + ", ".join(missing))
        cards = list(by_hand.values())
        if len(set(cards)) != len(cards):
            raise IllegalOp("two hands play the same card")
        seen = {c for h in reflex.hands for c in h.played if c is not None}
        held = {c for h in reflex.hands for c in h.cards}
        round_no = t.round + 1
        new_hands = []
        for h in reflex.hands:
            card = by_hand.get(h.id)
            # Rounds a hand sat out (nobody to act) are None, so the cards stay aligned
            # with the rounds and a character who comes back plays again.
            played = h.played + (None,) * (round_no - 1 - len(h.played))
            if card is None:
                if h.id in hands:
                    raise IllegalOp(f"{h.label} has not played")
                new_hands.append(msgspec.structs.replace(h, played=(*played, None)))
                continue
            if h.id not in hands:
                raise IllegalOp(f"{h.label} has nobody left to act")
            if card in seen:
                raise IllegalOp(f"the {card.words} was already played this exchange")
            if h.physical:
                if card in held:
                    raise IllegalOp(f"the {card.words} is in a dealt hand, not {h.label}'s")
                new_hands.append(msgspec.structs.replace(h, played=(*played, card)))
            else:
                if card not in h.cards:
                    raise IllegalOp(f"{h.label} does not hold the {card.words}")
                rest = tuple(c for c in h.cards if c != card)
                new_hands.append(msgspec.structs.replace(h, cards=rest, played=(*played, card)))
        new_reflex = msgspec.structs.replace(reflex, hands=tuple(new_hands))
        order = []
        for h in round_order(new_reflex, round_no):
            for m in h.members:
                c = enc.combatants.get(m)
                if c is not None and not c.exited:
                    order.append(m)
        if not order:
            raise IllegalOp("nobody is left to act")
        enc.set_reflex(new_reflex)
        first = enc.combatant(order[0])
        enc.put(turn.start_turn(first, t.exchange, round_no))
        enc.set_turn(
            msgspec.structs.replace(
                t, phase=Phase.TURNS, round=round_no, order=tuple(order), index=0
            )
        )

    def describe(self, enc: Encounter) -> str:
        hands = {h.id: h.label for h in enc.reflex.hands}
        parts = [
            f"{hands.get(p.hand, p.hand)} {p.card.label}"
            for p in sorted(self.plays, key=lambda p: p.card.key, reverse=True)
        ]
        return f"Round {enc.turn.round + 1}: " + ", ".join(parts)

    def title(self, enc: Encounter) -> str:
        return f"Round {enc.turn.round + 1} cards"


def play_cards(
    enc: Encounter,
    chosen: Mapping[str, Card] | None = None,
    rng: random.Random | None = None,
) -> PlayCards:
    """Cards for every active hand: the chosen ones, and for the other virtual hands a card
    drawn at random from the hand (physical hands must be chosen)."""
    chosen = dict(chosen or {})
    rng = rng or random.SystemRandom()
    plays = []
    for h in active_hands(enc):
        card = chosen.get(h.id)
        if card is None:
            if h.physical:
                raise IllegalOp(f"type the card {h.label} plays (a physical hand)")
            if not h.cards:
                raise IllegalOp(f"{h.label} has no cards left: deal again")
            card = rng.choice(h.cards)
        plays.append(Play(h.id, card))
    return PlayCards(tuple(plays))


class NextTurn(Op, frozen=True):
    """End the current turn and start the next in reflex order (E3); after the last turn
    the round ends, and after round 5 the exchange (E1)."""

    label = "Next turn"

    def execute(self, enc: Encounter) -> None:
        require_phase(enc, Phase.TURNS, doing="go to the next turn")
        t = enc.turn
        current = t.actor
        if current in enc.combatants:
            c = turn.end_turn(enc.combatants[current])
            if t.interjection:
                c = c.without_state(StateKind.HESITATING).with_economy(action=False)
            enc.put(c)
        index = _next_index(enc, t)
        if index < len(t.order):
            nxt = enc.combatants[t.order[index]]
            enc.put(turn.start_turn(nxt, t.exchange, t.round))
            enc.set_turn(msgspec.structs.replace(t, index=index, interjection=""))
            return
        for c in enc.roster():
            ended = turn.end_round(c)
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
            enc.put(turn.end_turn(enc.combatants[t.actor]))
        enc.set_turn(msgspec.structs.replace(t, interjection=c.id))

    def describe(self, enc: Encounter) -> str:
        return f"{name(enc, self.id)} takes the hesitated action now (-2, E6)"

    def title(self, enc: Encounter) -> str:
        return f"{name(enc, self.id)} acts (hesitated)"


# -------------------------------------------------------------------------------- snaps


class UseSnap(Op, frozen=True):
    """Spend the turn's snap (E5). Hustle and Creep carry their check's dice; Distract and
    Look are contests (ResolveContest)."""

    id: str
    snap: SnapKind
    roll: Roll | None = None
    d20: D20Check | None = None
    note: str = ""
    decoy: tuple[int, int] | None = None
    """Creep: the decoy lost on a failed sneak check."""
    label = "Snap"

    def execute(self, enc: Encounter) -> None:
        c = require_actor(enc, self.id, f"use a snap ({self.snap.value})")
        k = self.snap
        if k in (SnapKind.DISTRACT, SnapKind.LOOK):
            raise IllegalOp(f"{k.label} is a contested check: resolve it as a contest")
        c = turn.use_snap(c)
        if k is SnapKind.CROUCH:
            if not turn.adjacent_cover(enc, c):
                raise IllegalOp(f"{c.name} is not next to cover: nothing to crouch behind (E5)")
            c = turn.state_until(c, StateKind.CROUCHED)
        elif k is SnapKind.FEND:
            c = turn.state_until(c, StateKind.FENDING)
        elif k is SnapKind.QUIP:
            c = turn.state_until(c, StateKind.QUIPPING)
        elif k is SnapKind.PREPARE:
            c = turn.state_until(c, StateKind.PREPARED)
        elif k is SnapKind.STAND:
            if not c.has(StateKind.DOWN):
                raise IllegalOp(f"{c.name} is not down")
            c = c.without_state(StateKind.DOWN)
            if c.economy.action:
                c = c.with_economy(action=False, action_used="down")
        elif k is SnapKind.HUSTLE:
            c = turn.hustled(c, check_succeeded(enc, self.roll, self.d20))
        elif k is SnapKind.CREEP:
            c = turn.crept(c, check_succeeded(enc, self.roll, self.d20), self.decoy)
        enc.put(c)

    def describe(self, enc: Encounter) -> str:
        who = name(enc, self.id)
        k = self.snap
        if k in (SnapKind.HUSTLE, SnapKind.CREEP) and (self.roll or self.d20):
            try:
                ok = check_succeeded(enc, self.roll, self.d20)
            except IllegalOp:
                ok = False
            result = "succeeds" if ok else "fails"
            extra = ""
            if k is SnapKind.HUSTLE and ok:
                extra = ": extra movement"
            if k is SnapKind.CREEP and not ok:
                extra = ": a decoy is lost"
            return f"{who} {k.value}s (snap): the check {result}{extra}"
        note = f": {self.note}" if self.note else ""
        return f"{who} uses the snap to {k.label.lower()}{note}"

    def title(self, enc: Encounter) -> str:
        return f"{self.snap.label} ({name(enc, self.id)})"


# ------------------------------------------------------------------------------ actions


class TakeAction(Op, frozen=True):
    """Spend the turn's action on something that is not a check (E6): Defend, Recover,
    Recruit, Hesitate, a second snap, or anything else the GM narrates."""

    id: str
    action: ActionKind
    note: str = ""
    label = "Action"

    def execute(self, enc: Encounter) -> None:
        a = self.action
        if a in (ActionKind.ATTACK, ActionKind.CONVINCE, ActionKind.HIDE):
            raise IllegalOp(f"{a.label} is a check: resolve it as a contest")
        if a is ActionKind.SCREEN:
            raise IllegalOp("a Screen is its own Op (it can come out of turn)")
        c = require_actor(enc, self.id, f"take an action ({a.label.lower()})")
        t = enc.turn
        if a is ActionKind.HESITATE:
            turn.require_action(c, a, t.exchange, t.round)
            if t.interjection:
                raise IllegalOp("a hesitated action cannot hesitate again (E6)")
            enc.put(c.with_state(State(StateKind.HESITATING)))
            return
        if a is ActionKind.MANEUVER:
            c = turn.use_action(c, a, t.exchange, t.round)
            c = c.with_economy(movement=c.economy.movement + movement.maneuver_ticks(c))
        elif a is ActionKind.DEFEND:
            c = turn.use_action(c, a, t.exchange, t.round)
            c = turn.state_until(c, StateKind.DEFENDING)
            c = c.with_economy(guards=c.economy.guards + 1)
        elif a is ActionKind.RECOVER:
            if not (c.has(StateKind.DOWN) or c.has(StateKind.STALL)):
                raise IllegalOp(f"{c.name} is neither down nor stalled: nothing to recover")
            c = turn.use_action(c, a, t.exchange, t.round)
            c = c.without_state(StateKind.DOWN).without_state(StateKind.STALL)
        elif a is ActionKind.SECOND_SNAP:
            c = turn.use_action(c, a, t.exchange, t.round)
            c = c.with_economy(snaps=c.economy.snaps + 1)
        else:
            c = turn.use_action(c, a, t.exchange, t.round)
        enc.put(c)

    def describe(self, enc: Encounter) -> str:
        who = name(enc, self.id)
        a = self.action
        note = f": {self.note}" if self.note else ""
        text = {
            ActionKind.DEFEND: f"{who} defends: an extra guard and a defense against every "
            "check until the next turn (E6)",
            ActionKind.RECOVER: f"{who} recovers",
            ActionKind.HESITATE: f"{who} hesitates, keeping the action (E6)",
            ActionKind.SECOND_SNAP: f"{who} gives up the action for a second snap (E5)",
            ActionKind.MANEUVER: f"{who} maneuvers",
        }.get(a, f"{who}: {a.label.lower()}")
        return text + note

    def title(self, enc: Encounter) -> str:
        return f"{self.action.label} ({name(enc, self.id)})"


class Screen(Op, frozen=True):
    """Abort the next action to have defenses now, until the turn after that, as if the
    lost action had been Defend but without its extra guard (E7). On the character's own
    turn it spends this turn's action instead."""

    id: str
    label = "Screen"

    def execute(self, enc: Encounter) -> None:
        require_phase(enc, Phase.TURNS, doing="screen")
        c = enc.combatant(self.id)
        if c.exited:
            raise IllegalOp(f"{c.name} cannot screen: {c.name} has left the encounter")
        if c.has(StateKind.SCREENING):
            raise IllegalOp(f"{c.name} is already screening")
        t = enc.turn
        if t.actor == c.id and c.economy.action:
            c = turn.use_action(c, ActionKind.SCREEN, t.exchange, t.round)
            c = turn.state_until(c, StateKind.SCREENING, 1)
        elif c.has(StateKind.HESITATING) and c.economy.action:
            # A held hesitated action is the next action it would take: the Screen aborts
            # it, and the defenses last as a Defend on it would, until the next turn (E7).
            c = c.without_state(StateKind.HESITATING)
            c = c.with_economy(action=False, action_used=str(ActionKind.SCREEN))
            c = turn.state_until(c, StateKind.SCREENING, 1)
        else:
            if c.economy.lose_next_action:
                raise IllegalOp(f"{c.name}'s next action is already lost to a Screen")
            c = turn.state_until(c, StateKind.SCREENING, 2).with_economy(lose_next_action=True)
        enc.put(c)

    def describe(self, enc: Encounter) -> str:
        return f"{name(enc, self.id)} screens: defenses now, the next action is lost (E7)"

    def title(self, enc: Encounter) -> str:
        return f"Screen ({name(enc, self.id)})"


class SetEconomy(Op, frozen=True):
    """GM override of a character's guard, snap and action."""

    id: str
    economy: Economy
    label = "Override turn economy"

    def execute(self, enc: Encounter) -> None:
        c = enc.combatant(self.id)
        e = self.economy
        if e.guards < 0 or e.snaps < 0 or e.movement < 0:
            raise IllegalOp("guards, snaps and movement cannot be negative")
        enc.put(c.replace(economy=e))

    def describe(self, enc: Encounter) -> str:
        e = self.economy
        parts = [
            f"guards {e.guards}",
            f"snaps {e.snaps}",
            "action ready" if e.action else "no action",
        ]
        return f"GM sets {name(enc, self.id)}'s turn economy: " + ", ".join(parts)


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
