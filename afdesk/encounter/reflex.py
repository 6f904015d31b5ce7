"""Reflex: the card deck, hands and the order of a round (E2).

The default deck is a standard 52-card deck, Ace high, suits spades > hearts > diamonds >
clubs breaking equal ranks, so two cards never tie. Every band member holds a hand; every
other side acts by group, each group on one hand. A hand is virtual (dealt by afdesk) or
physical (the player holds real cards and the GM types the card played).
"""

import enum
import random
import re
from collections.abc import Iterable, Sequence

import msgspec

from afdesk.encounter.combatant import Combatant, Side
from afdesk.encounter.errors import IllegalOp

HAND_SIZE = 5
ROUNDS = 5  # E1: an exchange is 5 rounds


class Suit(enum.StrEnum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[self.value]

    @property
    def rank_order(self) -> int:
        return {"S": 4, "H": 3, "D": 2, "C": 1}[self.value]

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_WORDS = {11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}
_SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


class Card(msgspec.Struct, frozen=True, array_like=True):
    """A playing card; compares by rank, then suit (E2)."""

    rank: int
    suit: Suit

    @property
    def key(self) -> tuple[int, int]:
        return self.rank, self.suit.rank_order

    def __lt__(self, other: "Card") -> bool:
        return self.key < other.key

    @property
    def label(self) -> str:
        """ "A♠", "10♥"."""
        return _RANK_NAMES.get(self.rank, str(self.rank)) + self.suit.symbol

    @property
    def words(self) -> str:
        return f"{_RANK_WORDS.get(self.rank, str(self.rank))} of {_SUIT_WORDS[self.suit.value]}"

    @classmethod
    def parse(cls, text: str) -> "Card":
        """A card from what a GM types: "QH", "q♥", "10s", "T c", "ace of spades"."""
        raw = str(text).strip()
        words = raw.lower().split()
        if len(words) == 3 and words[1] == "of":
            ranks = {v.lower(): k for k, v in _RANK_WORDS.items()}
            suits = {v: k for k, v in _SUIT_WORDS.items()}
            rank = ranks.get(words[0]) or (int(words[0]) if words[0].isdigit() else None)
            suit = suits.get(words[2]) or suits.get(words[2] + "s")
            if rank and suit and 2 <= rank <= 14:
                return cls(rank, Suit(suit))
        m = re.fullmatch(r"\s*(10|[2-9]|[tjqka])\s*([shdc♠♥♦♣])\s*", raw, flags=re.I)
        if not m:
            raise IllegalOp(
                f"{raw!r} is not a card: type a rank (2-10, J, Q, K, A) and a suit "
                "(S, H, D, C), for example QH or 10s"
            )
        r, s = m.group(1).upper(), m.group(2).upper()
        rank = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}.get(r) or int(r)
        suit = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(s, s)
        return cls(rank, Suit(suit))


FULL_DECK: tuple[Card, ...] = tuple(Card(r, s) for s in Suit for r in range(2, 15))


class Hand(msgspec.Struct, frozen=True, omit_defaults=True):
    """One reflex hand: a band member's, or a group's."""

    id: str
    label: str
    members: tuple[str, ...]
    physical: bool = False
    cards: tuple[Card, ...] = ()
    """Cards still held (virtual hands only)."""
    played: tuple[Card | None, ...] = ()
    """One entry per round so far this exchange: the card, or None for a round the hand
    sat out (nobody left to act on it then)."""


class Reflex(msgspec.Struct, frozen=True, omit_defaults=True):
    """The deck left to deal and the hands of the current exchange."""

    deck: tuple[Card, ...] = ()
    hands: tuple[Hand, ...] = ()

    def hand(self, hand_id: str) -> Hand:
        for h in self.hands:
            if h.id == hand_id:
                return h
        raise IllegalOp(f"there is no reflex hand {hand_id!r}")

    def hand_of(self, combatant_id: str) -> Hand | None:
        for h in self.hands:
            if combatant_id in h.members:
                return h
        return None

    def seen(self) -> set[Card]:
        """Cards dealt or played this exchange."""
        return {c for h in self.hands for c in (*h.cards, *h.played) if c is not None}


def hand_key(c: Combatant) -> str:
    """The id of the hand a character who is not a band member acts on: one per group of
    each side (E2). Band members hold their own hand, under their own id."""
    return f"{c.side.value}:{c.group or c.side.value}"


class HandSpec(msgspec.Struct, frozen=True, omit_defaults=True):
    id: str
    label: str
    members: tuple[str, ...]
    physical: bool = False


def hand_specs(combatants: Iterable[Combatant], physical: Iterable[str] = ()) -> list[HandSpec]:
    """Who holds a hand: each band member, and each group of every other side (E2).

    Characters who left the encounter hold none. ``physical`` names hands whose cards
    the players hold at the table.
    """
    physical = set(physical)
    specs: list[HandSpec] = []
    groups: dict[str, list[Combatant]] = {}
    for c in combatants:
        if c.exited:
            continue
        if c.side is Side.BAND:
            specs.append(HandSpec(c.id, c.name, (c.id,), c.id in physical))
        else:
            groups.setdefault(hand_key(c), []).append(c)
    for key, members in groups.items():
        label = members[0].group or f"{members[0].side.label}s"
        specs.append(HandSpec(key, label, tuple(m.id for m in members), key in physical))
    return specs


def shuffled_deck(rng: random.Random | None = None) -> tuple[Card, ...]:
    deck = list(FULL_DECK)
    (rng or random.SystemRandom()).shuffle(deck)
    return tuple(deck)


def deal(deck: Sequence[Card], specs: Sequence[HandSpec]) -> Reflex:
    """Deal 5 cards to every virtual hand from the top of ``deck``."""
    virtual = [s for s in specs if not s.physical]
    needed = HAND_SIZE * len(virtual)
    if needed > len(deck):
        raise IllegalOp(
            f"{len(virtual)} virtual hands need {needed} cards but the deck has {len(deck)}: "
            "mark some hands as physical or merge opponent groups"
        )
    if len(set(deck)) != len(deck) or not set(deck) <= set(FULL_DECK):
        raise IllegalOp("the deck to deal is not a set of distinct standard cards")
    hands = []
    top = 0
    for s in specs:
        cards: tuple[Card, ...] = ()
        if not s.physical:
            cards = tuple(sorted(deck[top : top + HAND_SIZE], reverse=True))
            top += HAND_SIZE
        hands.append(Hand(s.id, s.label, s.members, s.physical, cards))
    return Reflex(deck=tuple(deck[top:]), hands=tuple(hands))


def round_order(reflex: Reflex, round_no: int) -> list[Hand]:
    """Hands that have played their card for ``round_no``, highest card first (E2)."""
    cards = {
        h.id: card
        for h in reflex.hands
        if len(h.played) >= round_no and (card := h.played[round_no - 1]) is not None
    }
    playing = [h for h in reflex.hands if h.id in cards]
    return sorted(playing, key=lambda h: cards[h.id].key, reverse=True)
