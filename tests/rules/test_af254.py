"""af-2.5.4 (seed 000): worked examples, rules R1-R13, properties of evaluate."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from afdesk.rules import RulesError, af254
from afdesk.rules.dice import Pool, ScriptedSource

faces = st.lists(st.integers(1, 6), max_size=12)


# ------------------------------------------------------------------ worked examples (seed 000)


def test_the_kick_chens_dodge_stops_huangs_kick():
    """Huang 2,4,5 vs Chen 1,6 and the exploded 2: Chen's Result 6 beats her 5 (R9)."""
    huang = af254.evaluate((2, 4, 5))
    chen = af254.evaluate((1, 6, 2))
    assert (huang.success, huang.result, huang.gain) == (True, 5, 1)
    assert (chen.result, chen.gain) == (6, 1)
    assert af254.stops(huang, chen)


def test_the_kick_rolled_from_scripted_dice():
    """The same kick through the roller: Chen's 6 explodes into the 2."""
    huang = af254.roll_check(3, source=ScriptedSource([2, 4, 5]))
    chen = af254.roll_check(2, pool=Pool.OPPOSITION, source=ScriptedSource([1, 6, 2]))
    assert [d.face for d in chen.dice] == [1, 6, 2]
    assert chen.dice[1].exploded and chen.dice[2].from_explosion
    assert af254.stops(af254.outcome_of(huang), af254.outcome_of(chen))


def test_the_alley_huangs_guard_with_a_venture():
    """Thug's attack: Result 4. Huang 1,2,4,5 with Interference 2,3 from one Venture:
    Result 5, Gain 1, the 4 pairs with the Venture for 1 Momentum, and her 5 beats his 4."""
    thug = af254.evaluate((4, 2))
    huang = af254.evaluate((1, 2, 4, 5), (2, 3), ventures=1)
    assert thug.result == 4
    assert (huang.result, huang.gain, huang.momentum) == (5, 1, 1)
    assert huang.wins == (4, 5)
    assert af254.stops(thug, huang)


def test_the_alley_rolled_with_a_venture_adds_two_interference():
    roll = af254.roll_check(4, ventures=1, source=ScriptedSource([1, 2, 4, 5, 2, 3]))
    assert len(roll.interference) == 2
    o = af254.outcome_of(roll)
    assert (o.result, o.gain, o.momentum) == (5, 1, 1)


# ------------------------------------------------------------------------------- the rules


def test_fails_are_set_aside_and_wins_count():
    """R2: 1-3 are Fails, 4-6 Wins; the Result is the highest Win, Gain its count (R5)."""
    o = af254.evaluate((1, 2, 3, 5, 5, 4))
    assert (o.result, o.gain, o.wins) == (5, 2, (4, 5, 5))


def test_no_wins_fails():
    o = af254.evaluate((1, 2, 3))
    assert not o.success and o.result is None and o.gain == 0 and not o.fumble


def test_zero_dice_fails():
    """R1: a check with 0 dice fails unless Shifts add dice."""
    o = af254.evaluate(())
    assert not o.success
    assert af254.outcome_of(af254.roll_check(0, source=ScriptedSource([]))).success is False


@pytest.mark.parametrize(
    ("check", "interference", "wins", "unspent"),
    [
        ((4, 5), (4,), (5,), 0),  # the 4 cancels the 4
        ((5, 6), (4,), (5, 6), 0),  # lowest Win 5 > 4: only the Interference die goes
        ((4, 6), (5, 5), (6,), 0),  # a 5 cancels the 4; the other 5 cannot take the 6
        ((4, 6), (5, 6), (), 0),  # 5 cancels 4, 6 cancels 6: nothing left
        ((4,), (5, 6), (), 1),  # the 5 cancels the 4; the 6 is unspent: a Fumble
        ((5, 5), (4, 4, 6), (5,), 0),  # both 4s are spent alone, the 6 takes a 5
        ((2, 3), (4,), (), 1),  # no Wins at all: the Interference Win is unspent
        ((4, 4, 5), (6,), (4, 5), 0),
    ],
)
def test_interference_cancels_from_the_bottom(check, interference, wins, unspent):
    """R4: Interference Wins, lowest first, take the lowest check Win if it is <= them."""
    o = af254.evaluate(check, interference)
    assert o.wins == wins
    assert o.unspent == unspent
    assert o.fumble == (not wins and unspent > 0)


def test_fumble_and_failure_margin():
    """R6, R13: a failure with unspent Interference is a Fumble, margin 1 + unspent."""
    o = af254.evaluate((4,), (5, 6, 6))
    assert not o.success and o.fumble and o.unspent == 2 and o.failure_margin == 3
    plain = af254.evaluate((1, 2))
    assert plain.failure_margin == 1 and not plain.fumble


def test_success_margin_is_gain():
    o = af254.evaluate((6, 6, 4))
    assert o.success_margin == 2 and o.failure_margin == 0


@pytest.mark.parametrize(
    ("check", "ventures", "momentum"),
    [
        ((6, 5, 4), 0, 1),  # 5 and 4 pair (any pair of Wins, R7)
        ((6, 5), 0, 0),
        ((6, 5), 1, 1),  # the lone 5 pairs with the Venture
        ((6,), 2, 1),  # two Ventures make 1 Momentum on their own
        ((6, 6, 5, 5, 4), 0, 1),
        ((5, 4, 4, 4, 4), 1, 2),
    ],
)
def test_momentum(check, ventures, momentum):
    interference = (1, 1) * ventures
    assert af254.evaluate(check, interference, ventures=ventures).momentum == momentum


def test_failed_check_makes_no_momentum():
    assert af254.evaluate((1, 2), (1, 1, 1, 1), ventures=2).momentum == 0


def test_equal_result_and_gain_the_original_stands():
    """R9: equal Result and equal Gain: the original stands; larger Gain stops."""
    assert not af254.stops(af254.evaluate((5,)), af254.evaluate((5,)))
    assert af254.stops(af254.evaluate((5,)), af254.evaluate((5, 5)))
    assert not af254.stops(af254.evaluate((5, 5)), af254.evaluate((5,)))
    assert not af254.stops(af254.evaluate((6,)), af254.evaluate((5, 5, 5)))


def test_opposition_does_not_count_against_a_failed_check():
    assert not af254.stops(af254.evaluate((1,)), af254.evaluate((6,)))


def test_stops_accepts_faces():
    assert af254.stops((2, 4, 5), (1, 6, 2))


def test_explosions_keep_rolling():
    """R2: 6s explode again and again."""
    roll = af254.roll_check(1, source=ScriptedSource([6, 6, 6, 3]))
    assert [d.face for d in roll.dice] == [6, 6, 6, 3]
    assert [d.exploded for d in roll.dice] == [True, True, True, False]
    assert [d.from_explosion for d in roll.dice] == [False, True, True, True]


def test_interference_explodes_too():
    roll = af254.roll_check(1, 1, source=ScriptedSource([4, 6, 5]))
    assert [(d.face, d.pool) for d in roll.dice] == [
        (4, Pool.CHECK),
        (6, Pool.INTERFERENCE),
        (5, Pool.INTERFERENCE),
    ]
    assert roll.dice[0].cancelled_by == 2  # the Interference 5 took the 4
    o = af254.outcome_of(roll)
    assert not o.success and o.fumble


def test_advantage_retries_interference_sixes():
    """R4 Advantage: retry every 6 of the Interference, after explosions."""
    roll = af254.roll_check(2, 1, advantage=True, source=ScriptedSource([5, 5, 6, 2, 1]))
    intf = roll.interference
    assert [d.face for d in intf] == [1, 2]
    assert intf[0].retried_from == 6 and intf[0].retry_reason == "advantage"
    assert af254.outcome_of(roll).wins == (5, 5)


def test_disadvantage_retries_interference_fails():
    roll = af254.roll_check(2, 2, disadvantage=True, source=ScriptedSource([5, 4, 1, 5, 4]))
    intf = roll.interference
    assert [d.face for d in intf] == [4, 5]
    assert intf[0].retried_from == 1 and intf[0].retry_reason == "disadvantage"
    assert intf[1].retried_from is None


def test_disadvantage_without_interference_adds_two_dice():
    roll = af254.roll_check(2, disadvantage=True, source=ScriptedSource([5, 4, 4, 2]))
    intf = roll.interference
    assert len(intf) == 2 and all(d.added_by == "disadvantage" for d in intf)
    assert not any(d.retried for d in intf)
    assert af254.outcome_of(roll).wins == (5,)


def test_advantage_and_disadvantage_cancel():
    roll = af254.roll_check(
        1, 1, advantage=True, disadvantage=True, source=ScriptedSource([5, 6, 2])
    )
    assert [d.face for d in roll.interference] == [6, 2]


def test_shift_adds_two_dice_that_do_not_explode():
    """R10: a Shift adds 2 dice; added dice do not explode."""
    roll = af254.roll_check(1, source=ScriptedSource([2]))
    roll = af254.shift_add(roll, ScriptedSource([6, 6]))
    added = [d for d in roll.dice if d.added_by == "shift"]
    assert [d.face for d in added] == [6, 6] and not any(d.exploded for d in added)
    assert af254.outcome_of(roll).gain == 2


def test_shift_retry_any_dice_once():
    roll = af254.roll_check(3, source=ScriptedSource([1, 2, 5]))
    roll = af254.shift_retry(roll, [0, 1], ScriptedSource([6, 4]))
    assert [d.face for d in roll.dice] == [6, 4, 5]
    assert roll.dice[0].retried_from == 1
    assert not roll.dice[0].exploded  # a retried face is frozen (R3)
    with pytest.raises(RulesError, match="already retried"):
        af254.shift_retry(roll, [0], ScriptedSource([3]))


def test_retry_sixes_trades_gain_for_momentum():
    roll = af254.roll_check(2, source=ScriptedSource([6, 4, 5]))
    roll = af254.retry_sixes(roll, [0], ScriptedSource([5]))
    o = af254.outcome_of(roll)
    assert (o.result, o.gain, o.momentum) == (5, 2, 0)
    with pytest.raises(RulesError, match="not a 6"):
        af254.retry_sixes(roll, [1], ScriptedSource([1]))


def test_interference_cannot_be_retried_by_a_shift():
    roll = af254.roll_check(1, 1, source=ScriptedSource([4, 5]))
    with pytest.raises(RulesError, match="Interference"):
        af254.shift_retry(roll, [1], ScriptedSource([1]))


def test_cooperation():
    """R11: helpers roll with 1 Interference per other cooperator; the leader retries Fails
    up to the helpers' Gain; a failed helper gives 1 Interference, a Fumbling one 2."""
    assert af254.helper_interference(3) == 2
    assert af254.choose_leader([2, 4, 4]) == 1
    ok = af254.evaluate((5, 5))
    failed = af254.evaluate((1,))
    fumbled = af254.evaluate((4,), (5, 6))
    assert af254.leader_adjustment([ok, failed, fumbled]) == (3, 2)
    leader = af254.roll_check(3, source=ScriptedSource([1, 2, 4]))
    leader = af254.retry_fails(leader, [0, 1], 2, "cooperation", ScriptedSource([5, 6]))
    assert af254.outcome_of(leader).wins == (4, 5, 6)
    with pytest.raises(RulesError, match="not a Fail"):
        af254.retry_fails(leader, [2], 1, "cooperation")
    three_fails = af254.roll_check(3, source=ScriptedSource([1, 2, 3]))
    with pytest.raises(RulesError, match="only 1"):
        af254.retry_fails(three_fails, [0, 1], 1, "cooperation")
    with pytest.raises(RulesError):
        af254.helper_interference(1)


# ------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "call",
    [
        lambda: af254.evaluate((0, 4)),
        lambda: af254.evaluate((7,)),
        lambda: af254.evaluate((4,), (9,)),
        lambda: af254.evaluate(("4",)),
        lambda: af254.evaluate((4.0,)),
        lambda: af254.evaluate(4),
        lambda: af254.evaluate((4,), ventures=-1),
        lambda: af254.evaluate((5,), (1,), ventures=1),
        lambda: af254.roll_check(-1),
        lambda: af254.roll_check(2, -2),
        lambda: af254.roll_check(2, 6, ventures=1),
        lambda: af254.roll_check(2, 4, ventures=2),
        lambda: af254.check_venture_allowed(7, 1),
    ],
)
def test_bad_input_raises_rules_error(call):
    with pytest.raises(RulesError) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert str(info.value)


def test_venture_limit_message_names_the_rule():
    with pytest.raises(RulesError, match=r"6 dice or more \(R8\)"):
        af254.roll_check(3, 6, ventures=1)
    af254.roll_check(3, 5, ventures=1, source=ScriptedSource([1] * 10))
    af254.roll_check(3, 2, ventures=2, source=ScriptedSource([1] * 10))


def test_evaluate_accepts_a_venture_over_exploded_interference():
    """Explosion dice do not count toward the R8 limit: 4 dice + 2 Venture + 1 explosion."""
    o = af254.evaluate((5,), (6, 1, 1, 1, 1, 1, 1), ventures=1)
    assert not o.success


def test_R8_evaluate_accepts_a_legal_roll_with_advantage_and_a_venture():
    """The audit's reproduction: 1 die, 4 Interference, 1 Venture, Advantage. Both 6s of
    the Interference explode and are then retried (2, 2), so the final faces show 8
    Interference dice and no 6: evaluate must not guess the Venture limit from them."""
    source = ScriptedSource([4, 6, 6, 1, 1, 1, 1, 1, 1, 2, 2])
    roll = af254.roll_check(1, 4, ventures=1, advantage=True, source=source)
    assert roll.interference_faces.count(6) == 0 and len(roll.interference_faces) == 8
    o = af254.evaluate(roll.check_faces, roll.interference_faces, ventures=1)
    assert o == af254.outcome_of(roll)


# ------------------------------------------------------------------------------ properties


@given(faces, faces, st.integers(0, 2))
def test_interference_never_raises_result_or_momentum(check, interference, ventures):
    with_i = af254._evaluate(tuple(check), tuple(interference), ventures)
    without = af254._evaluate(tuple(check), (), ventures)
    assert (with_i.result or 0) <= (without.result or 0)
    assert with_i.momentum <= without.momentum
    assert len(with_i.wins) <= len(without.wins)


@given(faces, faces)
def test_wins_left_are_a_submultiset_of_wins_rolled(check, interference):
    o = af254.evaluate(check, interference)
    rolled = Counter(f for f in check if f >= 4)
    assert not Counter(o.wins) - rolled
    assert list(o.wins) == sorted(o.wins)


@given(faces, faces)
def test_removed_wins_are_the_lowest(check, interference):
    """Cancellation only takes from the bottom: what is left is the top of the Wins."""
    o = af254.evaluate(check, interference)
    rolled = sorted(f for f in check if f >= 4)
    assert list(o.wins) == rolled[len(rolled) - len(o.wins) :]


@given(faces, faces, st.integers(0, 2))
def test_outcome_is_consistent(check, interference, ventures):
    o = af254._evaluate(tuple(check), tuple(interference), ventures)
    if o.success:
        assert o.result == max(o.wins) and o.gain == o.wins.count(o.result)
        assert o.momentum == (len(o.wins) - o.gain + ventures) // 2
        assert o.success_margin == o.gain >= 1 and o.failure_margin == 0 and not o.fumble
    else:
        assert o.result is None and o.momentum == 0 and o.wins == ()
        assert o.failure_margin == 1 + o.unspent
        assert o.fumble == (o.unspent > 0)
    cancelled = sum(1 for f in check if f >= 4) - len(o.wins)
    assert cancelled <= sum(1 for f in interference if f >= 4)


@given(faces, faces)
def test_more_check_wins_never_hurt(check, interference):
    base = af254.evaluate(check, interference)
    more = af254.evaluate([*check, 6], interference)
    assert more.success or not base.success
    assert (more.result or 0) >= (base.result or 0)


@given(faces, st.lists(st.integers(1, 6), min_size=1, max_size=6))
def test_opposition_relation(check, other):
    a, b = af254.evaluate(check), af254.evaluate(other)
    if a.success and b.success:
        assert af254.stops(a, b) == ((b.result, b.gain) > (a.result, a.gain))
        assert not (af254.stops(a, b) and af254.stops(b, a))
