"""Each ruleset as an object: its roll, opposition, cooperation, spends, limits and odds,
checked against the ruleset modules and the odds they always had (R1-R13, C1-C6, D1-D5)."""

from __future__ import annotations

import pytest

from afdesk.rules import RulesError, af254, classic, d20, odds
from afdesk.rules.dice import Pool, ScriptedSource, build_roll, pool_sizes
from afdesk.rules.rulesets import SpendKind, ruleset_named

AF = ruleset_named(af254.NAME)
CLASSIC = ruleset_named(classic.NAME)
D20 = ruleset_named(d20.NAME)


def test_pool_sizes_bonus_adds_dice_penalty_adds_interference():
    assert pool_sizes(3, [2, -2, -1]) == (5, 3)  # R1
    assert pool_sizes(1, [-2]) == (1, 2)
    assert pool_sizes(0, []) == (0, 0)


def test_the_kick_under_each_dice_pool_ruleset():
    attack, defense = build_roll((2, 4, 5)), build_roll((1, 6, 2))
    assert AF.verdict(attack, defense).stopped  # R9: his 6 beats her 5
    v = CLASSIC.verdict(attack, defense)  # C2: his 6 cancels her 4, her 5 stands
    assert v.lands and v.attack.wins == (5,)


def test_d20_checks_and_pools_do_not_mix():
    with pytest.raises(RulesError, match="no dice pools"):
        D20.roll_check(3)
    with pytest.raises(RulesError, match="not a d20"):
        AF.roll_d20(3)
    with pytest.raises(RulesError, match="no defense roll"):
        D20.roll_opposition(3, 0)
    check = D20.roll_d20(4, 14, 3, source=ScriptedSource([12]))
    assert D20.verdict(check).degree is d20.Degree.PASS  # 16 against TN 14, FN 17


def test_af254_guard_cooperates_as_a_helper():
    """The helper rolls first with 1 Interference (R11); its Gain buys the leader a Fail
    retry."""
    source = ScriptedSource([5, 1, 2, 1, 2, 4])
    roll, helper = AF.roll_opposition(2, 0, (2, 0), source=source)
    assert helper is not None and helper.check_faces == (5, 1)
    assert helper.interference_faces == (2,)
    assert roll.check_faces == (4, 2) and roll.dice[0].retry_reason == "cooperation"
    assert all(d.pool is Pool.OPPOSITION for d in roll.main_pool)


def test_classic_guard_adds_its_successes():
    """C6: the helper rolls with Interference equal to the primary's dice; its successes
    left join the primary's pool."""
    source = ScriptedSource([5, 1, 4, 2, 1])
    roll, helper = CLASSIC.roll_opposition(2, 0, (1, 0), source=source)
    assert helper is not None and helper.interference_faces == (2, 1)
    assert roll.check_faces == (5, 1, 4)
    assert [d.pool for d in roll.main_pool][-1] is Pool.HELPER


def test_what_players_spend():
    assert AF.spend_kinds == (SpendKind.ADD, SpendKind.RETRY)
    assert CLASSIC.spend_kinds == (SpendKind.WILL,)
    assert D20.spend_kinds == () and D20.spend_unit is None
    roll = build_roll((5, 4))
    # R10: a Shift retries any dice not yet retried, Wins included; once each (R3).
    assert AF.spend_refusal("retry", roll, attacker=True, opposition_rolled=False) == ""
    retried, chosen = AF.spend(roll, SpendKind.RETRY, (1,), ScriptedSource([6]))
    assert chosen == (1,) and retried.check_faces == (5, 6)
    with pytest.raises(RulesError, match="no Fail left to retry: choose the dice"):
        AF.spend(roll, SpendKind.RETRY, (), ScriptedSource([6]))
    done, _ = AF.spend(retried, SpendKind.RETRY, (0,), ScriptedSource([1]))
    assert "already retried" in AF.spend_refusal(
        "retry", done, attacker=True, opposition_rolled=False
    )
    assert "unknown Shift" in AF.spend_refusal("will", roll, attacker=True, opposition_rolled=0)
    assert "before the opposition" in CLASSIC.spend_refusal(
        "will", roll, attacker=True, opposition_rolled=True
    )
    assert CLASSIC.spend_refusal("will", roll, attacker=False, opposition_rolled=True) == ""
    assert "spends Will" in CLASSIC.spend_refusal("add", roll, attacker=True, opposition_rolled=0)


def test_spends_roll_as_the_rules_say():
    roll = build_roll((1, 5, 2))
    added, _ = AF.spend(roll, SpendKind.ADD, source=ScriptedSource([6, 6]))
    assert added.check_faces == (1, 5, 2, 6, 6) and not any(d.exploded for d in added.dice)
    retried, indices = AF.spend(roll, SpendKind.RETRY, source=ScriptedSource([4, 6]))
    assert indices == (0, 2) and retried.check_faces == (4, 5, 6)
    will, _ = CLASSIC.spend(roll, SpendKind.WILL, source=ScriptedSource([6, 3, 2]))
    assert will.check_faces == (1, 5, 2, 6, 3, 2)  # Will dice explode (C4)


def test_odds_are_the_odds_modules():
    a, d = odds.PoolSpec(3, 1), odds.PoolSpec(2)
    assert AF.contest_odds(a, d) == odds.contest_odds(a, d)
    assert CLASSIC.contest_odds(a, d) == odds.classic_contest_odds(a, d)
    assert AF.check_odds(a) == odds.check_odds(a)
    assert CLASSIC.check_odds(a) == odds.classic_check_odds(a)
    lead, helper = odds.PoolSpec(3), odds.PoolSpec(2)
    assert AF.opposition_spec(lead, helper) == odds.Cooperation(lead, (odds.PoolSpec(2, 1),))
    assert CLASSIC.opposition_spec(lead, helper) == lead
    with pytest.raises(RulesError, match="cooperation"):
        CLASSIC.check_odds(odds.Cooperation(lead, (helper,)))
    assert D20.p_success(3, 12) == pytest.approx(
        float(sum(v for k, v in odds.degree_odds(3, 12, 0).items() if k >= d20.Degree.PASS))
    )


def test_persevere_odds_follow_each_ruleset():
    spec = odds.PoolSpec(*pool_sizes(3, [-2]))
    assert AF.p_margin_above(3, [-2], 1) == odds.distribution(spec).p_gain_above(1)
    assert CLASSIC.p_margin_above(3, [-2], 1) == odds.classic_p_gain_above(spec, 1)
    # d20: a Success (margin 1) or a Triumph (2) beats 0 days; TN 10, no F (D1).
    dist = odds.degree_odds(1, d20.PLAIN_TN, 0)
    expected = float(dist[d20.Degree.SUCCESS] + dist[d20.Degree.TRIUMPH])
    assert D20.p_margin_above(3, [-2], 0) == pytest.approx(expected)


def test_plain_rolls():
    roll = AF.roll_plain(2, [-1], ScriptedSource([5, 1, 2]))
    assert roll.check_faces == (5, 1) and roll.interference_faces == (2,)
    check = D20.roll_plain(2, [-1], ScriptedSource([9]))
    assert (check.bonus, check.tn, check.fortification) == (1, d20.PLAIN_TN, 0)


def test_venture_limits():
    assert AF.max_ventures(0) == 3 and AF.max_ventures(5) == 1 and AF.max_ventures(6) == 0
    with pytest.raises(RulesError, match="R8"):
        AF.check_ventures(6, 1)
    with pytest.raises(RulesError, match="C3"):
        CLASSIC.check_ventures(0, 4)
    with pytest.raises(RulesError, match="no Ventures"):
        D20.check_ventures(0, 1)
