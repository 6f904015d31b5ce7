"""af-classic (seed 002): the worked examples and rules C1-C6."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from afdesk.rules import RulesError, classic
from afdesk.rules.dice import Pool, ScriptedSource

faces = st.lists(st.integers(1, 6), max_size=10)


def test_the_door():
    """Huang 1,4,5 with Interference 5: the 5 cancels the 4, the other 5 succeeds (C1)."""
    o = classic.evaluate((1, 4, 5), (5,))
    assert o.success and o.wins == (5,)


def test_the_kick():
    """Huang 2,4,5; Chen 1,6,2: his 6 cancels her 4, her 5 stands (C2)."""
    after = classic.oppose(classic.evaluate((2, 4, 5)), classic.evaluate((1, 6, 2)))
    assert after.success and after.wins == (5,)


def test_opposition_removes_only_one_success_and_only_if_not_higher():
    huang = classic.evaluate((5, 6))
    assert classic.oppose(huang, classic.evaluate((4, 4))).wins == (5, 6)  # 5 > 4
    assert classic.oppose(huang, classic.evaluate((6, 6, 6))).wins == (6,)
    lone = classic.evaluate((4,))
    assert not classic.oppose(lone, classic.evaluate((4,))).success


def test_failed_opposition_or_failed_original_changes_nothing():
    a = classic.evaluate((5,))
    assert classic.oppose(a, classic.evaluate((1, 2))) == a
    failed = classic.evaluate((1,))
    assert classic.oppose(failed, classic.evaluate((6,))) == failed


@pytest.mark.parametrize(
    ("wins", "ventures", "momentum"),
    [
        ((5, 5), 0, 1),
        ((4, 5), 0, 0),  # C3: only matching successes pair
        ((4, 5, 6), 1, 1),
        ((4, 5, 6), 3, 3),
        ((5, 5, 5), 1, 2),  # the odd 5 is a single
        ((6, 6), 2, 1),  # no singles for the tokens
    ],
)
def test_momentum_pairs_and_venture_tokens(wins, ventures, momentum):
    o = classic.evaluate(wins, (1,) * ventures, ventures=ventures)
    assert o.momentum == momentum


def test_the_alley_venture_token():
    """Huang 1,2,4,5 and Interference 3 with one token: after the thug's 4 takes her 4,
    her 5 pairs with the token for Momentum (seed 002)."""
    huang = classic.evaluate((1, 2, 4, 5), (3,), ventures=1)
    assert huang.momentum == 1


def test_ventures_are_one_to_three():
    with pytest.raises(RulesError, match="1 to 3"):
        classic.evaluate((5,), (1, 1, 1, 1), ventures=4)


def test_venture_token_adds_one_interference():
    roll = classic.roll_check(2, ventures=2, source=ScriptedSource([4, 5, 1, 2]))
    assert len(roll.interference) == 2


def test_advantage_interference_does_not_explode():
    roll = classic.roll_check(1, 1, advantage=True, source=ScriptedSource([5, 6]))
    assert [d.face for d in roll.interference] == [6]


def test_disadvantage_check_does_not_explode():
    roll = classic.roll_check(1, disadvantage=True, source=ScriptedSource([6]))
    assert [d.face for d in roll.dice] == [6] and not roll.dice[0].exploded


def test_opposition_against_advantage_does_not_explode():
    roll = classic.roll_check(
        1, pool=Pool.OPPOSITION, against_advantage=True, source=ScriptedSource([6])
    )
    assert len(roll.dice) == 1


def test_will_adds_two_dice():
    roll = classic.roll_check(1, source=ScriptedSource([2]))
    roll = classic.spend_will(roll, ScriptedSource([5, 4]))
    assert [d.added_by for d in roll.dice] == [None, "will", "will"]
    assert classic.outcome_of(roll).wins == (4, 5)


def test_cooperation_successes_join_the_pool():
    """C6: helpers roll with Interference equal to the primary's dice; their remaining
    successes join the primary's pool."""
    assert classic.helper_interference(3) == 3
    primary = classic.roll_check(2, source=ScriptedSource([1, 4]))
    helper = classic.roll_check(2, 2, source=ScriptedSource([5, 6, 3, 1, 2]))
    combined = classic.cooperate(primary, [helper])
    helpers = [d for d in combined.dice if d.pool is Pool.HELPER]
    assert sorted(d.face for d in helpers) == [5, 6]
    assert classic.outcome_of(combined).wins == (4, 5, 6)


def test_classic_has_no_fumble():
    o = classic.evaluate((4,), (5, 6))
    assert not o.success and not o.fumble and o.failure_margin == 2


@given(faces, faces)
def test_oppose_never_helps(check, other):
    a = classic.evaluate(check)
    after = classic.oppose(a, classic.evaluate(other))
    assert len(after.wins) >= len(a.wins) - 1
    assert set(after.wins) <= set(a.wins)
