"""Exact odds of a chase turn (H1-H3, R13): margins and turn_odds."""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from afdesk.rules import RulesError, af254
from afdesk.rules.odds import PoolSpec, distribution
from afdesk.rules.odds.margins import check_margins
from afdesk.rules.pursuit import colour, colour_odds, turn, turn_odds
from tests.rules import oracle


def _margin(c, i, v=0):
    o = af254.evaluate(c, i)
    return (o.success, o.success_margin if o.success else o.failure_margin)


@pytest.mark.parametrize(("dice", "intf"), [(1, 0), (2, 0), (1, 2), (2, 2), (3, 1), (0, 2)])
def test_r13_margins_match_brute_force(dice, intf):
    depth = 3
    brute = oracle.enumerate_pool(
        [oracle.exploding(depth)] * dice, [oracle.exploding(depth)] * intf, _margin
    )
    got = check_margins(PoolSpec(dice, intf))
    bound = oracle.bound(dice + intf, depth)
    for key in set(brute) | set(got):
        assert got.get(key, 0.0) == pytest.approx(float(brute.get(key, 0)), abs=bound)


@given(st.integers(0, 8), st.integers(0, 6))
def test_r13_margins_agree_with_the_contest_odds(dice, intf):
    got = check_margins(PoolSpec(dice, intf))
    d = distribution(PoolSpec(dice, intf))
    assert math.fsum(got.values()) == pytest.approx(1.0, abs=1e-12)
    assert sum(p for (s, _), p in got.items() if s) == pytest.approx(d.p_success, abs=1e-12)
    # R6/R13: a Fumble is a failure margin of 2 or more
    assert sum(p for (s, m), p in got.items() if not s and m >= 2) == pytest.approx(
        d.p_fumble, abs=1e-12
    )
    gains = defaultdict(float)
    for (_, g), p in d.scores.items():
        gains[g] += p
    for g, p in gains.items():
        assert got.get((True, g), 0.0) == pytest.approx(p, abs=1e-12)
    assert all(m >= 1 for _, m in got)


def test_margins_refuse_what_they_do_not_cover():
    with pytest.raises(RulesError):
        check_margins(PoolSpec(3, 0, advantage=True))


def test_h1_colour_odds_are_the_die_faces():
    odds = colour_odds("blue")
    faces = [colour(f) for f in range(1, 6)]  # a red is re-rolled: the last die is 1-5
    assert odds["good"] == Fraction(faces.count("green"), 5) == Fraction(3, 5)
    assert odds["bad"] == Fraction(2, 5)
    assert odds["red"] == Fraction(1, 6)
    assert colour_odds("green")["bad"] == Fraction(3, 5)


def _brute_turn(speed, dice, intf, bad, depth=2, pdepth=3):
    """Every pursuit run (up to ``pdepth`` reds) x every face of the check: {added: p}."""
    out = defaultdict(Fraction)
    good_checks = oracle.enumerate_pool(
        [oracle.exploding(depth)] * dice, [oracle.exploding(depth)] * intf, _margin
    )
    bad_checks = oracle.enumerate_pool(
        [oracle.exploding(depth)] * dice, [oracle.exploding(depth)] * (intf + 2), _margin
    )
    sixth = Fraction(1, 6)
    for reds in range(pdepth + 1):
        for last in range(1, 6):
            p_run = sixth ** (reds + 1)
            colours = ["red"] * reds + [colour(last)]
            checks = bad_checks if colours[-1] == bad else good_checks
            for (success, margin), q in checks.items():
                out[turn(speed, colours, success, margin, bad=bad).added] += p_run * q
    return out


@pytest.mark.parametrize(
    ("speed", "dice", "intf", "bad"), [(2, 1, 0, "blue"), (4, 2, 0, "green"), (3, 1, 1, "blue")]
)
def test_h3_turn_odds_match_brute_force(speed, dice, intf, bad):
    brute = _brute_turn(speed, dice, intf, bad)
    got = turn_odds(speed, PoolSpec(dice, intf), bad=bad)
    bound = oracle.bound(dice + intf + 2, 2) + float(Fraction(1, 6) ** 4)
    for key in set(brute) | set(got.added):
        assert got.added.get(key, 0.0) == pytest.approx(float(brute.get(key, 0)), abs=bound)


def test_h3_turn_odds_with_given_outcomes_are_exact():
    # A check that always succeeds by 1 on green and always fails by 1 on blue.
    got = turn_odds(4, {(True, 1): 1.0}, {(False, 1): 1.0})
    assert got.added == {1: pytest.approx(0.4), 5: pytest.approx(0.6)}  # blue: 4//2-1
    assert got.p_success == pytest.approx(0.6)
    assert got.p_out == 0.0
    assert got.expected_grit == pytest.approx(0.4)
    assert got.expected_reds == pytest.approx(0.2)
    forced = turn_odds(2, {(True, 1): 1.0}, {(False, 1): 1.0}, forced_bad=True)
    assert forced.added == {0: 1.0} and forced.p_out == 1.0 and forced.expected_reds == 0


def test_h3_turn_odds_refuse_bad_distributions():
    with pytest.raises(RulesError):
        turn_odds(3, {(True, 1): 0.5})
    with pytest.raises(RulesError):
        turn_odds(3, {(True, 1): 0.5}, {(True, 1): 1.0})
    with pytest.raises(RulesError):
        turn_odds(3, {"x": 1.0}, {(True, 1): 1.0})


@given(st.integers(0, 8), st.integers(1, 6), st.integers(0, 4), st.booleans())
def test_h3_turn_odds_properties(speed, dice, intf, forced):
    got = turn_odds(speed, PoolSpec(dice, intf), forced_bad=forced)
    assert math.fsum(got.added.values()) == pytest.approx(1.0, abs=1e-9)
    assert all(a >= 0 for a in got.added)
    assert got.expected_added == pytest.approx(sum(a * p for a, p in got.added.items()))
    if speed == 0:
        assert got.p_out == pytest.approx(1.0)
    # forcing the bad colour never helps (H3)
    free = turn_odds(speed, PoolSpec(dice, intf))
    assert got.expected_added <= free.expected_added + 1e-9


def test_turn_odds_distribution_sums_turn_over_every_outcome():
    # Exactness: turn_odds is the pushforward of colour odds x check margins through turn().
    spec = PoolSpec(3, 1)
    good, bad_ = check_margins(spec), check_margins(PoolSpec(3, 3))
    expected = defaultdict(float)
    for last, p_last in [("green", 0.6), ("blue", 0.4)]:
        table = good if last == "green" else bad_
        for (s, m), p in table.items():
            expected[turn(5, [last], s, m).added] += p_last * p
    got = turn_odds(5, spec).added
    assert set(got) == set(expected)
    for k, p in expected.items():
        assert got[k] == pytest.approx(p, abs=1e-15)
