"""A chase check under each ruleset (H2, H3, R13, C1, D2): the odds before rolling come from
the ruleset object, and a rolled check is read by it."""

from __future__ import annotations

import math

import pytest

from afdesk.rules.d20 import D20Check, Degree
from afdesk.rules.dice import ScriptedSource
from afdesk.rules.errors import RulesError
from afdesk.rules.odds import PoolSpec, check_margins
from afdesk.rules.pursuit import turn_odds
from afdesk.rules.pursuit.checks import chase_margin, chase_turn_odds, check_outcomes, read_check
from afdesk.rules.rulesets import all_rulesets, ruleset_named

AF = ruleset_named("af-2.5.4")
CLASSIC = ruleset_named("af-classic")
D20 = ruleset_named("d20-degrees")


@pytest.mark.parametrize("rules", [AF, CLASSIC], ids=lambda r: r.name)
@pytest.mark.parametrize(
    ("score", "mods"), [(0, ()), (1, ()), (2, (-2,)), (3, (-2, -2)), (4, (1,))]
)
def test_r13_c1_dice_pool_margins_match_the_exact_cancellation(rules, score, mods):
    got = check_outcomes(rules, score, mods)
    dice = max(0, score + sum(m for m in mods if m > 0))
    intf = -sum(m for m in mods if m < 0)
    want = check_margins(PoolSpec(dice, intf))
    for key in {*got, *want}:
        assert got.get(key, 0.0) == pytest.approx(want.get(key, 0.0), abs=1e-12), key
    # the whole series is the ruleset's own (R13): P(success margin above n)
    for n in range(6):
        above = math.fsum(p for (ok, m), p in got.items() if ok and m > n)
        assert above == pytest.approx(rules.p_margin_above(score, mods, n), abs=1e-12), n
    assert math.fsum(got.values()) == pytest.approx(1.0)


def test_d2_d20_degrees_become_chase_margins():
    assert [chase_margin(d) for d in Degree] == [
        (False, 2),
        (False, 1),
        (True, 1),
        (True, 1),
        (True, 2),
    ]
    got = check_outcomes(D20, 2, (-2,))  # d20 + 0 against TN 10: no Pass band (F 0)
    dist = D20.degree_odds(0)
    assert got[(True, 1)] == pytest.approx(float(dist[Degree.SUCCESS] + dist[Degree.PASS]))
    assert got[(False, 2)] == pytest.approx(float(dist[Degree.DISASTER]))
    assert math.fsum(got.values()) == pytest.approx(1.0)


def test_h3_turn_odds_under_af254_equal_the_pool_odds():
    ours = chase_turn_odds(AF, 3, 2, (), bad="blue")
    pool = turn_odds(3, PoolSpec(2, 0), bad="blue")
    assert ours.p_success == pytest.approx(pool.p_success)
    assert ours.expected_added == pytest.approx(pool.expected_added)
    for k in {*pool.added, *ours.added}:
        assert ours.added.get(k, 0.0) == pytest.approx(pool.added.get(k, 0.0), abs=1e-12)


@pytest.mark.parametrize("rules", all_rulesets(), ids=lambda r: r.name)
def test_h3_every_ruleset_gives_a_distribution(rules):
    o = chase_turn_odds(rules, 3, 3, (-2,), bad="green", forced_bad=True)
    assert o.p_bad == 1.0
    assert math.fsum(o.added.values()) == pytest.approx(1.0)
    assert 0 < o.p_success < 1


def test_r13_h3_a_rolled_check_is_read_by_its_ruleset():
    win = AF.roll_check(3, 0, source=ScriptedSource([5, 5, 2]))
    assert read_check(AF, win)[:3] == (True, 2, False)
    # 4 against Interference 5 and 6: the 5 cancels the 4, the 6 is left unspent (R4, R6)
    lost = AF.roll_check(1, 2, source=ScriptedSource([4, 5, 6, 1]))
    r = read_check(AF, lost)
    assert (r.success, r.interference) == (False, True) and r.margin >= 2
    assert "Interference unspent" in r.text
    assert read_check(CLASSIC, CLASSIC.roll_check(2, 0, source=ScriptedSource([4, 4])))[:2] == (
        True,
        2,
    )
    d = D20Check(die=19, bonus=2, tn=10, fortification=0)
    assert read_check(D20, d)[:2] == (True, 2)
    with pytest.raises(RulesError, match="roll a d20"):
        read_check(D20, win)
    with pytest.raises(RulesError, match="dice pools"):
        read_check(AF, d)
