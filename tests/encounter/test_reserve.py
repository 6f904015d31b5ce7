"""Staged opponents: held in reserve by group, unseen by the players, dealt no
reflex, brought in as reinforcements (E1, E2)."""

from __future__ import annotations

import random

import pytest

from afdesk.encounter.combatant import Combatant, Side
from afdesk.encounter.contest.assembly import candidates
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.movement import reachable
from afdesk.encounter.ops.flow import EndExchangeEarly
from afdesk.encounter.ops.reflex import DealHands, deal_hands
from afdesk.encounter.ops.reserve import BringIn, HoldInReserve, reserve_groups
from afdesk.encounter.reflex import HandSpec, shuffled_deck
from afdesk.encounter.state import Phase
from afdesk.encounter.visibility import player_visible
from afdesk.storage.codec import decode, encode
from tests.encounter.conftest import band, foe, make


def staged() -> Encounter:
    enc = make(
        band("ada", (2, 2)),
        foe("a1", (5, 5), group="", name="Archer 1"),
        foe("a2", (6, 5), group="", name="Archer 2"),
        foe("g1", (3, 2), name="Guard"),
    )
    enc.apply(HoldInReserve(("a1", "a2"), "the archers on the ridge"))
    return enc


def test_reserve_is_unseen_by_players_and_listed_by_group():
    enc = staged()
    assert not player_visible(enc, "a1") and not player_visible(enc, "a2")
    assert player_visible(enc, "ada") and player_visible(enc, "g1")
    assert not player_visible(enc, "nobody")
    groups = reserve_groups(enc)
    assert list(groups) == ["the archers on the ridge"]
    assert [c.id for c in groups["the archers on the ridge"]] == ["a1", "a2"]
    assert enc.log[-1].text == (
        "Reserve: Archer 1 and Archer 2 held back in the archers on the ridge, unseen by the "
        "players"
    )


def test_hidden_characters_are_not_visible_either():
    from afdesk.encounter.combatant import State, StateKind

    enc = make(band("ada", (2, 2), states=(State(StateKind.HIDDEN),)), band("bo", None))
    assert not player_visible(enc, "ada")
    assert not player_visible(enc, "bo")  # not on the map yet


def test_reserve_is_dealt_no_reflex_and_is_nobodys_opponent():
    enc = staged()
    op = deal_hands(enc, random.Random(1))
    members = {m for h in op.hands for m in h.members}
    assert members == {"ada", "g1"}
    # Standing next to a reserve archer stops nobody, and nobody can target it (E14, E8).
    ada = enc.combatant("ada")
    assert "a1" not in [c.id for c in candidates(enc, "ada", "hack")]
    assert enc.opponents_in((5, 5), ada) == []
    enc.apply(op)
    assert reachable(enc, "ada", budget=60)[(5, 5)].stops is False


def test_a_deal_naming_a_reserve_member_is_refused():
    enc = staged()
    bad = DealHands(shuffled_deck(random.Random(2)), (HandSpec("x", "Archers", ("a1",)),))
    with pytest.raises(IllegalOp, match="waits in reserve"):
        enc.apply(bad)


def test_bring_in_joins_reflex_from_the_next_deal_with_its_own_hand():
    enc = staged()
    enc.apply(deal_hands(enc, random.Random(3)))
    assert enc.turn.phase is Phase.CARDS
    # During the exchange it is the GM's override, and the log says so (E1).
    enc.apply(BringIn("the archers on the ridge"))
    text = enc.log[-1].text
    assert text.startswith("Reinforcements: the archers on the ridge come in (Archer 1 and ")
    assert "join reflex from the next deal (E2)" in text and "GM override" in text
    assert player_visible(enc, "a1") and player_visible(enc, "a2")
    assert all("a1" not in h.members for h in enc.reflex.hands)  # not this exchange
    assert enc.combatant("a1").group == "the archers on the ridge"
    enc.apply(EndExchangeEarly())
    nxt = deal_hands(enc, random.Random(4))
    hands = {h.label: h.members for h in nxt.hands}
    assert hands["the archers on the ridge"] == ("a1", "a2")
    assert hands["Foes"] == ("g1",)
    assert reserve_groups(enc) == {}


def test_bring_in_at_exchange_end_is_no_override_and_undo_puts_them_back():
    enc = staged()
    enc.apply(deal_hands(enc, random.Random(3)))
    enc.apply(EndExchangeEarly())
    inverse = enc.apply(BringIn("the archers on the ridge"))
    assert "override" not in enc.log[-1].text
    enc.apply(inverse)
    assert [c.id for c in reserve_groups(enc)["the archers on the ridge"]] == ["a1", "a2"]
    assert enc.combatant("a1").group == ""


@pytest.mark.parametrize(
    ("op", "words"),
    [
        (HoldInReserve(("ada",), "late"), "band member"),
        (HoldInReserve((), "late"), "choose the characters"),
        (HoldInReserve(("g1", "g1"), "late"), "named twice"),
        (HoldInReserve(("g1",), " late"), "spaces"),
        (HoldInReserve(("zed",), "late"), "zed"),
        (BringIn("nobody here"), "no reserve group 'nobody here'"),
    ],
)
def test_refusals_say_what(op, words):
    enc = staged()
    before = enc.state()
    with pytest.raises(IllegalOp, match=words):
        enc.apply(op)
    assert enc.state() == before


def test_no_holding_back_in_the_middle_of_an_exchange():
    enc = staged()
    enc.apply(deal_hands(enc, random.Random(3)))
    with pytest.raises(IllegalOp, match="while preparing or at the end of an exchange"):
        enc.apply(HoldInReserve(("g1",), "later"))


def test_an_empty_group_returns_a_character_to_play():
    enc = staged()
    enc.apply(HoldInReserve(("a1",), ""))
    assert [c.id for c in reserve_groups(enc)["the archers on the ridge"]] == ["a2"]
    assert enc.log[-1].text == "Reserve: Archer 1 back in play"


def test_the_reserve_survives_a_file_round_trip():
    enc = staged()
    state = decode(encode(enc.state()))
    again = Encounter.from_state(state)
    assert again.combatant("a1").reserve == "the archers on the ridge"
    assert [c.id for c in reserve_groups(again)["the archers on the ridge"]] == ["a1", "a2"]
    # An old file (no reserve field) loads with nobody in reserve.
    plain = Combatant("x", "X", Side.OPPONENT)
    assert not plain.in_reserve


def test_the_gm_notes_for_reinforcements_link_to_their_group():
    from afdesk.encounter.ops.meta import SetNotes
    from afdesk.encounter.ops.reserve import group_notes

    enc = staged()
    enc.apply(
        SetNotes(
            "Gao wants the toll. When Gao goes down, The Archers on the Ridge loose a volley.\n"
            "The ferry waits south."
        )
    )
    assert group_notes(enc, "the archers on the ridge") == [
        "When Gao goes down, The Archers on the Ridge loose a volley."
    ]
    assert group_notes(enc, "nobody") == [] and group_notes(enc, " ") == []
