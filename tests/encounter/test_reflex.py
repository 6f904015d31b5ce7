"""Reflex (E2): cards, deals, the order of a round, physical hands, refusals."""

from __future__ import annotations

import random

import pytest

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.reflex import Play, PlayCards, deal_hands, play_cards
from afdesk.encounter.reflex import FULL_DECK, Card, Suit, hand_specs
from afdesk.encounter.state import Phase
from tests.encounter.conftest import band, foe, make


def test_card_order_rank_then_suit():
    assert Card(14, Suit.CLUBS) > Card(13, Suit.SPADES)
    assert Card(10, Suit.SPADES) > Card(10, Suit.HEARTS) > Card(10, Suit.DIAMONDS)
    assert Card(10, Suit.DIAMONDS) > Card(10, Suit.CLUBS)
    assert len(set(FULL_DECK)) == 52


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("QH", Card(12, Suit.HEARTS)),
        ("q♥", Card(12, Suit.HEARTS)),
        ("10s", Card(10, Suit.SPADES)),
        ("T c", Card(10, Suit.CLUBS)),
        ("ace of spades", Card(14, Suit.SPADES)),
        ("2D", Card(2, Suit.DIAMONDS)),
    ],
)
def test_parse_cards(text, card):
    assert Card.parse(text) == card


@pytest.mark.parametrize("text", ["", "1S", "11H", "QX", "queen", "AS AS"])
def test_bad_cards_say_what_to_type(text):
    with pytest.raises(IllegalOp, match="is not a card"):
        Card.parse(text)


def sample_enc():
    return make(
        band("huang", (1, 1)),
        band("chen", (2, 1)),
        foe("gao", (5, 5)),
        foe("b1", (6, 5)),
        foe("archer", (9, 9), group="Archers"),
    )


def test_hands_for_each_band_member_and_each_group():
    specs = hand_specs(sample_enc().roster())
    assert [(s.id, s.members) for s in specs] == [
        ("huang", ("huang",)),
        ("chen", ("chen",)),
        ("opponent:Foes", ("gao", "b1")),
        ("opponent:Archers", ("archer",)),
    ]


def test_deal_five_each_and_replay_the_same_deck():
    enc = sample_enc()
    op = deal_hands(enc, random.Random(7))
    enc.apply(op)
    assert all(len(h.cards) == 5 for h in enc.reflex.hands)
    assert len(enc.reflex.deck) == 52 - 20
    seen = [c for h in enc.reflex.hands for c in h.cards]
    assert len(set(seen)) == 20
    again = sample_enc()
    again.apply(op)
    assert again.reflex == enc.reflex
    assert enc.turn.phase is Phase.CARDS and enc.turn.exchange == 1


def test_round_order_highest_first_whole_group_on_its_card():
    enc = sample_enc()
    enc.apply(deal_hands(enc, random.Random(7)))
    hands = {h.id: h for h in enc.reflex.hands}
    chosen = {hid: max(h.cards) for hid, h in hands.items()}
    enc.apply(play_cards(enc, chosen))
    ranked = sorted(hands, key=lambda hid: chosen[hid].key, reverse=True)
    expected = [m for hid in ranked for m in hands[hid].members]
    assert list(enc.turn.order) == expected
    assert enc.actor == expected[0]
    assert enc.turn.round == 1


def test_virtual_hand_must_hold_the_card():
    enc = sample_enc()
    enc.apply(deal_hands(enc, random.Random(7)))
    other = next(c for c in FULL_DECK if c not in enc.reflex.seen())
    plays = play_cards(enc, rng=random.Random(1)).plays
    bad = (Play(plays[0].hand, other), *plays[1:])
    before = enc.state()
    with pytest.raises(IllegalOp, match="does not hold"):
        enc.apply(PlayCards(bad))
    assert enc.state() == before


def test_every_hand_must_play():
    enc = sample_enc()
    enc.apply(deal_hands(enc, random.Random(7)))
    plays = play_cards(enc, rng=random.Random(1)).plays
    with pytest.raises(IllegalOp, match="still waiting for a card from"):
        enc.apply(PlayCards(plays[:-1]))


def test_physical_hand_cards_are_typed_and_checked():
    enc = sample_enc()
    enc.apply(deal_hands(enc, random.Random(7), physical=("huang",)))
    huang = enc.reflex.hand("huang")
    assert huang.physical and huang.cards == ()
    free = next(c for c in FULL_DECK if c not in enc.reflex.seen())
    plays = {p.hand: p.card for p in play_cards(enc, {"huang": free}, random.Random(2)).plays}
    held = next(c for c in enc.reflex.hand("chen").cards if c != plays["chen"])
    enc_copy_state = enc.state()
    plays["huang"] = held
    with pytest.raises(IllegalOp, match="is in a dealt hand"):
        enc.apply(PlayCards(tuple(Play(h, c) for h, c in plays.items())))
    assert enc.state() == enc_copy_state
    with pytest.raises(IllegalOp, match="physical hand"):
        play_cards(enc)
    plays["huang"] = free
    enc.apply(PlayCards(tuple(Play(h, c) for h, c in plays.items())))
    assert enc.reflex.hand("huang").played == (free,)


def test_five_rounds_then_exchange_end_and_redeal():
    enc = sample_enc()
    enc.apply(deal_hands(enc, random.Random(7)))
    for round_no in range(1, 6):
        enc.apply(play_cards(enc, rng=random.Random(round_no)))
        assert enc.turn.round == round_no
        while enc.turn.phase is Phase.TURNS:
            enc.apply(NextTurn())
    assert enc.turn.phase is Phase.EXCHANGE_END
    assert enc.turn.exchanges_played == 1
    with pytest.raises(IllegalOp, match="cannot play reflex cards now"):
        enc.apply(PlayCards(()))
    enc.apply(deal_hands(enc, random.Random(8)))
    assert enc.turn.exchange == 2 and enc.turn.round == 0
    assert all(len(h.cards) == 5 and not h.played for h in enc.reflex.hands)


def test_too_many_hands_for_one_deck():
    many = [band(f"b{i}", (i, 0)) for i in range(11)]
    enc = make(*many)
    with pytest.raises(IllegalOp, match="11 virtual hands need 55 cards"):
        enc.apply(deal_hands(enc, random.Random(0)))
    enc.apply(deal_hands(enc, random.Random(0), physical=("b0",)))
