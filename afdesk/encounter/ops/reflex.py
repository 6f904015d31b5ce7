"""Ops of the reflex deck: deal the hands at the start of an exchange, play a card per hand
at the start of a round (E1, E2)."""

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter import economy
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.modes import current_mode
from afdesk.encounter.op import Op
from afdesk.encounter.reflex import (
    ROUNDS,
    Card,
    Hand,
    HandSpec,
    deal,
    hand_specs,
    round_order,
    shuffled_deck,
)
from afdesk.encounter.requires import require_phase
from afdesk.encounter.state import Phase, TurnState

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class DealHands(Op, frozen=True):
    """Start an exchange: shuffle, deal 5 cards to every virtual hand (E2).

    The shuffled deck is part of the Op, so replaying deals the same cards.
    """

    deck: tuple[Card, ...]
    hands: tuple[HandSpec, ...]
    label = "Deal reflex"

    def execute(self, enc: "Encounter") -> None:
        t = enc.turn
        redeal = t.phase is Phase.CARDS and t.round == 0
        if not dealing_time(t):
            # First, whoever the hands are (afdesk.gui.commands.deal_refusal relies on it)
            require_phase(enc, Phase.SETUP, Phase.EXCHANGE_END, doing="deal reflex")
        for h in self.hands:
            for m in h.members:
                c = enc.combatant(m)
                if c.exited:
                    raise IllegalOp(f"{c.name} has left the encounter and holds no hand")
                if c.in_reserve:
                    raise IllegalOp(f"{c.name} waits in reserve ({c.reserve}) and holds no hand")
        if not self.hands:
            raise IllegalOp("nobody to deal reflex to: add characters first")
        hands = dealt_hands(enc, self.hands)
        if not hands:
            raise IllegalOp("nobody to deal reflex to: a vehicle's helm and crew hold none (H5)")
        enc.set_reflex(deal(self.deck, hands))
        enc.set_turn(
            TurnState(
                phase=Phase.CARDS,
                exchange=t.exchange if redeal else t.exchange + 1,
                round=0,
                exchanges_played=t.exchanges_played,
            )
        )

    def describe(self, enc: "Encounter") -> str:
        t = enc.turn
        ex = t.exchange if (t.phase is Phase.CARDS and t.round == 0) else t.exchange + 1
        hands = dealt_hands(enc, self.hands)
        who = ", ".join(h.label + (" (physical)" if h.physical else "") for h in hands)
        return f"Exchange {ex}: reflex dealt to {who}"

    def title(self, enc: "Encounter") -> str:
        return "Deal reflex"


def dealt_hands(enc: "Encounter", hands: tuple[HandSpec, ...]) -> tuple[HandSpec, ...]:
    """The hands as dealt: without the characters the mode deals no card (a vehicle's helm
    and crew in a chase, H5: only the commander holds reflex); a hand left with nobody is
    not dealt."""
    none = current_mode(enc).holds_no_reflex(enc)
    if not none:
        return hands
    out = []
    for h in hands:
        members = tuple(m for m in h.members if m not in none)
        if members:
            out.append(h if members == h.members else msgspec.structs.replace(h, members=members))
    return tuple(out)


def dealing_time(t: TurnState) -> bool:
    """Whether reflex may be dealt at this point of play: before the fight, at the end of
    an exchange, or again before the first card of an exchange is played (E2)."""
    return t.phase in (Phase.SETUP, Phase.EXCHANGE_END) or (t.phase is Phase.CARDS and t.round == 0)


def deal_hands(
    enc: "Encounter", rng: random.Random | None = None, physical: tuple[str, ...] = ()
) -> DealHands:
    """A DealHands for everyone in the encounter, with a freshly shuffled deck; characters
    held in reserve are dealt nothing until their group is brought in (E2)."""
    none = current_mode(enc).holds_no_reflex(enc)
    specs = hand_specs([c for c in enc.roster() if not (c.in_reserve or c.id in none)], physical)
    return DealHands(shuffled_deck(rng), tuple(specs))


class Play(msgspec.Struct, frozen=True, array_like=True):
    hand: str
    card: Card


def acts_on_a_card(enc: "Encounter", cid: str) -> bool:
    """Whether ``cid`` takes a turn on its hand's card: present, not gone, and not one the
    mode gives no turn of its own (a vehicle's helm and crew in a chase act on the
    commander's card, H5)."""
    c = enc.combatants.get(cid)
    return c is not None and not c.exited and cid not in current_mode(enc).holds_no_reflex(enc)


def active_hands(enc: "Encounter") -> list[Hand]:
    """The hands that play a card this round: each with someone to act on it (E2, H5)."""
    return [h for h in enc.reflex.hands if any(acts_on_a_card(enc, m) for m in h.members)]


class PlayCards(Op, frozen=True):
    """Every hand plays one card; all are revealed together and the round begins, highest
    card first, a whole group on its card (E2)."""

    plays: tuple[Play, ...]
    label = "Play reflex cards"

    def execute(self, enc: "Encounter") -> None:
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
        none = current_mode(enc).holds_no_reflex(enc)
        for hid in by_hand:
            if any(h.id == hid for h in reflex.hands):
                continue
            if hid in none:
                raise IllegalOp(
                    f"{enc.combatant(hid).name} is a vehicle's helm or crew and holds no "
                    "reflex: it acts on its commander's card (H5)"
                )
            reflex.hand(hid)  # raises: there is no such hand
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
        order: list[str] = []
        for h in round_order(new_reflex, round_no):
            order.extend(m for m in h.members if acts_on_a_card(enc, m))
        if not order:
            raise IllegalOp("nobody is left to act")
        enc.set_reflex(new_reflex)
        first = enc.combatant(order[0])
        enc.put(economy.start_turn(first, t.exchange, round_no))
        enc.set_turn(
            msgspec.structs.replace(
                t, phase=Phase.TURNS, round=round_no, order=tuple(order), index=0
            )
        )

    def describe(self, enc: "Encounter") -> str:
        hands = {h.id: h.label for h in enc.reflex.hands}
        parts = [
            f"{hands.get(p.hand, p.hand)} {p.card.label}"
            for p in sorted(self.plays, key=lambda p: p.card.key, reverse=True)
        ]
        return f"Round {enc.turn.round + 1}: " + ", ".join(parts)

    def title(self, enc: "Encounter") -> str:
        return f"Round {enc.turn.round + 1} cards"


def play_cards(
    enc: "Encounter",
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
