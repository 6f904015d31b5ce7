"""The dispute's model (P1-P9): platforms, sides, grit/wits/sway, tension, Convince against
the audience and a personality, the reckoning, closing and the outcome; every Op undone
exactly and its dice recorded (replay never re-rolls)."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from afdesk.encounter.dispute.convince import DisputeConvince
from afdesk.encounter.dispute.ops import (
    AddPlatform,
    AddTension,
    CloseDispute,
    EditPlatform,
    JoinDispute,
    MoveDisputant,
    SetDisputeStats,
    SetTensionThreshold,
    SettleDispute,
)
from afdesk.encounter.dispute.state import AUDIENCE, Entry, Platform
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.modes import current_mode
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.state import Mode, Phase
from afdesk.rules.dice import Roll, ScriptedSource
from afdesk.rules.rulesets import ruleset_named
from afdesk.storage.samples import build_council
from tests.encounter.conftest import start_round, turn_of


def roll(*faces: int, interference: int = 0) -> Roll:
    """A scripted af-2.5.4 roll: the check's faces, then the Interference dice's."""
    dice = len(faces) - interference
    return ruleset_named("af-2.5.4").roll_check(dice, interference, source=ScriptedSource(faces))


def council() -> Encounter:
    return build_council()


def undo_exact(enc: Encounter, op) -> None:
    """Apply ``op``, undo it, and check the encounter is exactly as before; then redo."""
    before = enc.state()
    inverse = enc.apply(op)
    enc.apply(inverse)
    assert enc.state() == msgspec.structs.replace(before, log=enc.state().log)
    enc.apply(op)


def playing() -> Encounter:
    enc = council()
    start_round(enc)
    return enc


# ------------------------------------------------------------------ the sample, P6


def test_p6_the_council_counts_fifteen_present_and_a_target_of_eight():
    d = council().dispute
    assert [p.id for p in d.platforms] == ["mill", "bridge", "magistrate"]
    assert d.present() == 15 and d.highest_wits() == 3 and d.target() == 8
    assert d.support() == {"mill": 1, "bridge": 1, "magistrate": 1}
    assert d.neutral() == 12
    assert {e.id for e in d.entries if e.group} == {"farmers", "fishers"}
    assert d.conventional() is not None and d.conventional().id == "mill"
    assert current_mode(council()).low_activity  # E15: +2 to persevere


# ------------------------------------------------------------------ P2 platforms


def test_p2_at_most_one_platform_is_conventional():
    enc = council()
    with pytest.raises(IllegalOp, match=r"already the conventional platform.*\(P2\)"):
        enc.apply(AddPlatform(Platform("wait", "Wait", conventional=True)))
    before = enc.state()
    with pytest.raises(IllegalOp, match="P2"):
        enc.apply(EditPlatform(Platform("bridge", "Mend the bridge", conventional=True)))
    assert enc.state() == before


def test_p2_platforms_are_added_and_edited_and_undone_exactly():
    enc = council()
    undo_exact(enc, AddPlatform(Platform("wait", "Wait for spring", "Do nothing yet")))
    assert enc.dispute.platform("wait") is not None
    undo_exact(enc, EditPlatform(Platform("wait", "Wait until spring", "Do nothing")))
    assert enc.dispute.platform("wait").name == "Wait until spring"
    with pytest.raises(IllegalOp, match="already has a platform 'wait'"):
        enc.apply(AddPlatform(Platform("wait", "Again")))
    with pytest.raises(IllegalOp, match="no platform 'nope'"):
        enc.apply(EditPlatform(Platform("nope", "Nope")))


def test_p1_dispute_ops_are_refused_outside_a_dispute():
    enc = council()
    enc.apply(ChangeMode(Mode.BATTLE))
    with pytest.raises(IllegalOp, match="not a dispute"):
        enc.apply(AddTension(1))


# ------------------------------------------------------------------ P3 sides


def test_p3_splitting_a_group_and_joining_it_back():
    enc = council()
    undo_exact(enc, MoveDisputant("farmers", "mill", count=3))
    d = enc.dispute
    assert d.entry("farmers").count == 4 and d.entry("farmers").side == AUDIENCE
    assert d.entry("farmers@mill").count == 3 and d.entry("farmers@mill").side == "mill"
    assert d.present() == 15  # nobody appears or vanishes
    enc.apply(MoveDisputant("farmers@mill", AUDIENCE))  # the whole split part goes back
    assert enc.dispute.entry("farmers").count == 7
    assert enc.dispute.entry("farmers@mill") is None


def test_p3_bad_moves_are_refused_with_what_is_wrong():
    enc = council()
    before = enc.state()
    with pytest.raises(IllegalOp, match="counts 7: cannot move 8"):
        enc.apply(MoveDisputant("farmers", "mill", count=8))
    with pytest.raises(IllegalOp, match="already stands in the neutral audience"):
        enc.apply(MoveDisputant("farmers", AUDIENCE))
    with pytest.raises(IllegalOp, match="no platform 'moon'"):
        enc.apply(MoveDisputant("farmers", "moon"))
    with pytest.raises(IllegalOp, match="nobody called 'ghost'"):
        enc.apply(MoveDisputant("ghost", "mill"))
    assert enc.state() == before


def test_p3_grit_wits_sway_are_edited_and_never_negative():
    enc = council()
    undo_exact(enc, SetDisputeStats("lan", grit=0, wits=4))
    e = enc.dispute.entry("lan")
    assert (e.grit, e.wits, e.sway) == (0, 4, 1)
    assert enc.dispute.target() == 8  # W = 4 < ceil(15 / 2)
    with pytest.raises(IllegalOp, match=r"Widow Lan's sway cannot be negative \(-1, P3\)"):
        enc.apply(SetDisputeStats("lan", sway=-1))
    with pytest.raises(IllegalOp, match="at least 1 individual"):
        enc.apply(JoinDispute(Entry("none", "Nobody", count=0)))


def test_p6_a_move_that_reaches_the_target_ends_the_dispute():
    enc = council()
    enc.apply(MoveDisputant("farmers", "mill"))  # mill 8, T = 8, ahead of every other
    d = enc.dispute
    assert d.over and d.outcome.how == "reckoning" and d.outcome.winner == "mill"
    assert "Rebuild the mill wins (P6)" in enc.log[-1].text
    assert "goes along with it (P9)" in enc.log[-1].text


def test_p6_a_tie_at_the_target_does_not_end_it():
    enc = council()
    enc.apply(JoinDispute(Entry("guild", "Guild", count=7, side="bridge")))  # N 22, T 11
    enc.apply(MoveDisputant("farmers", "mill"))  # mill 8
    enc.apply(MoveDisputant("fishers", "mill"))  # mill 13 vs bridge 8
    assert enc.dispute.over and enc.dispute.outcome.winner == "mill"
    tied = council()
    tied.apply(JoinDispute(Entry("guild", "Guild", count=11, side="bridge")))  # N 26, T 13
    tied.apply(MoveDisputant("farmers", "mill"))
    tied.apply(MoveDisputant("fishers", "mill"))  # mill 13, bridge 12: wins
    assert tied.dispute.outcome.winner == "mill"


# ------------------------------------------------------------------ P7 tension


def test_p7_tension_breaks_only_when_it_exceeds_the_threshold():
    enc = council()
    for _ in range(3):
        enc.apply(AddTension(1))
    assert enc.dispute.tension == 3 and not enc.dispute.over  # equal: still holds
    inverse = enc.apply(AddTension(1))
    assert enc.dispute.over and enc.dispute.outcome.how == "broken"
    assert enc.dispute.outcome.winner == ""
    assert "breaks with no winner (P7)" in enc.log[-1].text
    with pytest.raises(IllegalOp, match="the dispute is over"):
        enc.apply(AddTension(1))
    enc.apply(inverse)
    assert enc.dispute.tension == 3 and not enc.dispute.over


def test_p7_tension_never_below_zero_and_threshold_changes():
    enc = council()
    with pytest.raises(IllegalOp, match="cannot go below 0"):
        enc.apply(AddTension(-1))
    enc.apply(SetTensionThreshold(1))
    enc.apply(AddTension(1))
    assert not enc.dispute.over
    enc.apply(SetTensionThreshold(0))  # tension 1 now exceeds it
    assert enc.dispute.outcome.how == "broken"


# ------------------------------------------------------------------ P4 Convince


def test_p4a_convince_the_audience_up_to_the_margin_on_the_actors_turn():
    enc = playing()
    turn_of(enc, "huang")
    # 4, 5, 5 (Result 5, Gain 2: success margin 2, R13)
    op = DisputeConvince("huang", attack=roll(5, 5, 4), picks=("fishers",))
    undo_exact(enc, op)
    d = enc.dispute
    assert d.support()["magistrate"] == 3
    assert d.entry("fishers").count == 3 and d.entry("fishers@magistrate").count == 2
    assert not enc.combatant("huang").economy.action  # the action is spent (E6)
    assert "convinces 2 of the audience to join Send for the magistrate" in enc.log[-1].text
    # the dice are in the Op: the log holds them, replay never re-rolls
    assert enc.log[-1].op.attack == op.attack


def test_p4a_a_failed_convince_moves_nobody_and_a_fumble_proposes_tension():
    enc = playing()
    turn_of(enc, "huang")
    before = enc.dispute
    # 1, 2 with an Interference 5: no Wins, an Interference Win unspent: Fumble (R6)
    enc.apply(DisputeConvince("huang", attack=roll(1, 2, 5, interference=1)))
    assert enc.dispute == before
    assert "proposes +1 tension (P7, R6)" in enc.log[-1].text


def test_p4a_the_audience_makes_no_defence_and_the_audience_cannot_convince():
    enc = playing()
    turn_of(enc, "huang")
    with pytest.raises(IllegalOp, match=r"no defence against a Convince \(P4a\)"):
        enc.apply(DisputeConvince("huang", attack=roll(5, 5), defense=roll(5)))
    with pytest.raises(IllegalOp, match="stands in the neutral audience"):
        enc.apply(DisputeConvince("farmers", margin=2, override=True))


def test_p4b_a_personality_with_grit_and_sway_is_refused():
    enc = playing()
    turn_of(enc, "huang")
    before = enc.state()
    with pytest.raises(IllegalOp, match=r"still has grit 2 and sway 2.*\(P4b\)"):
        enc.apply(DisputeConvince("huang", target="bao", attack=roll(5, 4)))
    assert enc.state() == before


def test_p4b_convince_a_personality_with_no_sway_against_its_insight():
    enc = playing()
    enc.apply(SetDisputeStats("bao", sway=0))
    turn_of(enc, "huang")
    # Huang's 5 against Bao's insight 4: the Convince stands (R9), Bao joins
    enc.apply(DisputeConvince("huang", target="bao", attack=roll(5, 2), defense=roll(4)))
    assert enc.dispute.entry("bao").side == "magistrate"
    assert "convinces Elder Bao to join" in enc.log[-1].text


def test_p4b_the_insight_stops_it_and_nobody_moves():
    enc = playing()
    enc.apply(SetDisputeStats("lan", grit=0))
    turn_of(enc, "huang")
    enc.apply(DisputeConvince("huang", target="lan", attack=roll(4), defense=roll(5)))
    assert enc.dispute.entry("lan").side == "bridge"


def test_p3_a_player_character_changes_side_only_when_its_player_agrees():
    enc = council()
    enc.apply(SetDisputeStats("huang", sway=0))
    enc.apply(DisputeConvince("bao", target="huang", margin=1, override=True))
    assert enc.dispute.entry("huang").side == "magistrate"
    assert "keeps their side (P3, P4b)" in enc.log[-1].text
    enc.apply(DisputeConvince("bao", target="huang", margin=1, player_agrees=True, override=True))
    assert enc.dispute.entry("huang").side == "mill"


def test_e6_convince_is_refused_out_of_turn():
    enc = playing()
    turn_of(enc, "huang")
    with pytest.raises(IllegalOp, match="it is Huang's turn"):
        enc.apply(DisputeConvince("bao", margin=3))
    with pytest.raises(IllegalOp, match="has not been rolled"):
        enc.apply(DisputeConvince("huang"))


def test_p6_a_convince_that_reaches_the_target_wins():
    enc = council()
    enc.apply(MoveDisputant("farmers", "mill", count=6))  # mill 7 of T 8
    enc.apply(DisputeConvince("bao", margin=1, override=True, picks=("fishers",)))
    assert enc.dispute.outcome == enc.dispute.outcome.__class__("reckoning", "mill", 0)
    assert "Rebuild the mill wins (P6)" in enc.log[-1].text
    with pytest.raises(IllegalOp, match=r"the dispute is over \(Rebuild the mill won, P9\)"):
        enc.apply(DisputeConvince("lan", margin=1, override=True))


# ------------------------------------------------------------------ P8, P9


def exchange_end(enc: Encounter) -> None:
    for _ in range(5):
        start_round(enc, deal=enc.turn.round == 0)
        while enc.turn.phase is Phase.TURNS:
            enc.apply(NextTurn())
    assert enc.turn.phase is Phase.EXCHANGE_END


def test_p8_closing_only_at_an_exchange_end_most_support_wins():
    enc = council()
    enc.apply(MoveDisputant("farmers", "bridge", count=3))
    with pytest.raises(IllegalOp, match="close the dispute now"):
        enc.apply(CloseDispute())
    exchange_end(enc)
    undo_exact(enc, CloseDispute())
    assert enc.dispute.outcome.how == "closed" and enc.dispute.outcome.winner == "bridge"
    with pytest.raises(IllegalOp, match="the dispute is over"):
        enc.apply(NextTurn())


def test_p8_a_tie_goes_to_the_conventional_platform_else_the_gm_picks():
    enc = council()
    exchange_end(enc)
    enc.apply(CloseDispute())  # three-way tie at 1: the mill is conventional
    assert enc.dispute.outcome.winner == "mill"
    enc2 = council()
    enc2.apply(MoveDisputant("farmers", "bridge", count=2))
    enc2.apply(MoveDisputant("fishers", "magistrate", count=2))
    exchange_end(enc2)
    with pytest.raises(IllegalOp, match="are tied and none is conventional: the GM picks"):
        enc2.apply(CloseDispute())
    with pytest.raises(IllegalOp, match="not among the tied"):
        enc2.apply(CloseDispute(pick="mill"))
    enc2.apply(CloseDispute(pick="magistrate"))
    assert enc2.dispute.outcome.winner == "magistrate"


def test_p9_the_gm_settles_or_reopens_the_dispute():
    enc = council()
    enc.apply(SettleDispute("bridge"))
    assert enc.dispute.outcome.how == "gm" and enc.dispute.outcome.winner == "bridge"
    assert "Mend the bridge wins (P9)" in enc.log[-1].text
    enc.apply(SettleDispute(reopen=True))
    assert not enc.dispute.over


# ------------------------------------------------------------------ mode, E16


def test_p1_a_dispute_offers_no_hiding_or_sneaking():
    mode = current_mode(council())
    assert not mode.offers("hide") and not mode.offers("creep")
    assert mode.offers("convince") and mode.offers("quip") and mode.offers("attack")


def test_e16_changing_mode_keeps_the_dispute_and_every_character():
    enc = council()
    enc.apply(MoveDisputant("farmers", "mill", count=2))
    enc.apply(AddTension(2))
    before = enc.state()
    for mode in (Mode.BATTLE, Mode.CHASE, Mode.INFILTRATION, Mode.DISPUTE):
        enc.apply(ChangeMode(mode))
    after = enc.state()
    assert after.dispute == before.dispute
    assert [c.id for c in after.combatants] == [c.id for c in before.combatants]


# ------------------------------------------------------------------ limits


def test_p3_p7_numbers_beyond_their_limits_are_refused_with_their_words():
    enc = council()
    before = enc.state()
    with pytest.raises(IllegalOp, match=r"wits \(P3, P6\) would be 1000001"):
        enc.apply(SetDisputeStats("lan", wits=1_000_001))
    with pytest.raises(IllegalOp, match=r"head count \(P3\) would be 1000001"):
        enc.apply(JoinDispute(Entry("horde", "Horde", count=1_000_001)))
    assert enc.state() == before


def test_a_file_with_a_group_of_nobody_is_refused_with_its_place():
    import json

    from afdesk.storage import LoadError, decode, encode

    doc = json.loads(encode(council().state()))
    doc["dispute"]["entries"][3]["count"] = 0
    with pytest.raises(LoadError, match=r"dispute\.entries\[3\]\.count"):
        decode(json.dumps(doc).encode())


# ------------------------------------------------------------------ properties

SIDES = ("", "mill", "bridge", "magistrate")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(SIDES), st.integers(1, 7)), max_size=8))
def test_p3_p6_moves_keep_everyone_present_and_undo_exactly(moves):
    """Whatever the GM moves, nobody appears or vanishes (N stays 15), support plus the
    audience is everyone, a win is exactly the P6 rule, and undoing every move gives back
    the dispute as it was."""
    enc = council()
    start = enc.state().dispute
    inverses = []
    for side, count in moves:
        d = enc.dispute
        movable = [e for e in d.entries if e.side != side and e.count >= count]
        if d.over or not movable:
            continue
        inverses.append(enc.apply(MoveDisputant(movable[0].id, side, count)))
        d = enc.dispute
        assert d.present() == 15
        assert sum(d.support().values()) + d.neutral() == 15
        if d.over:
            assert d.outcome.winner == d.leader() == rules_winner(d)
    for inverse in reversed(inverses):
        enc.apply(inverse)
    assert enc.dispute == start


def rules_winner(d):
    support = d.support()
    best = max(support.values())
    leaders = [p for p, n in support.items() if n == best]
    return leaders[0] if len(leaders) == 1 and best >= d.target() else None
