"""Exact odds against a brute-force enumeration, and against a seeded Monte Carlo of the
project's own roller (within 4 standard errors)."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from afdesk.rules import RulesError, af254, classic, d20, odds
from afdesk.rules.dice import Pool, RandomSource, ScriptedSource
from afdesk.rules.odds import core as odds_core
from tests.rules import oracle

DEPTH = 9  # brute-force runs of up to 9 sixes: error bound 1e-7 per die


def bf_stats(dist):
    p_success = float(sum(p for o, p in dist.items() if o.success))
    p_fumble = float(sum(p for o, p in dist.items() if o.fumble))
    momentum = float(sum(p * o.momentum for o, p in dist.items()))
    return p_success, p_fumble, momentum


def af_pool(spec: odds.PoolSpec, depth=DEPTH):
    count, added = af254.interference_count(
        spec.interference,
        spec.ventures,
        advantage=spec.advantage,
        disadvantage=spec.disadvantage,
    )
    if spec.advantage and not spec.disadvantage:
        die = oracle.exploding_advantage(depth)
    elif spec.disadvantage and not spec.advantage and not added:
        die = oracle.exploding_disadvantage(depth)
    else:
        die = oracle.exploding(depth)
    check = [oracle.exploding(depth)] * spec.dice
    return oracle.enumerate_pool(check, [die] * count, af254._evaluate, spec.ventures), (
        spec.dice + count
    )


@pytest.mark.parametrize(
    "spec",
    [
        odds.PoolSpec(1),
        odds.PoolSpec(2),
        odds.PoolSpec(1, 1),
        odds.PoolSpec(0, 1),
        odds.PoolSpec(2, 1),
        odds.PoolSpec(1, 0, ventures=1),
    ],
)
def test_check_odds_match_brute_force(spec):
    dist, n = af_pool(spec)
    expected = bf_stats(dist)
    got = odds.check_odds(spec)
    tol = oracle.bound(n, DEPTH) * 8 + 1e-12
    for e, g in zip(expected, got, strict=True):
        assert abs(e - g) <= tol, (spec, expected, got)


@pytest.mark.parametrize(
    "spec",
    [
        odds.PoolSpec(1, 1, advantage=True),
        odds.PoolSpec(2, 1, disadvantage=True),
        odds.PoolSpec(1, 0, disadvantage=True),
        odds.PoolSpec(1, 1, advantage=True, disadvantage=True),
    ],
)
def test_advantage_and_disadvantage_match_brute_force(spec):
    depth = 4
    dist, n = af_pool(spec, depth)
    expected = bf_stats(dist)
    got = odds.check_odds(spec)
    tol = oracle.bound(n, depth) * 8
    for e, g in zip(expected, got, strict=True):
        assert abs(e - g) <= tol, (spec, expected, got)


def scores_of(dist):
    out = {}
    for o, p in dist.items():
        if o.success:
            out[(o.result, o.gain)] = out.get((o.result, o.gain), 0) + float(p)
    return out


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        (odds.PoolSpec(1), odds.PoolSpec(1)),
        (odds.PoolSpec(2), odds.PoolSpec(1, 1)),
        (odds.PoolSpec(1, 1), odds.PoolSpec(2)),
    ],
)
def test_contest_odds_match_brute_force(attacker, defender):
    a_dist, na = af_pool(attacker)
    d_dist, nd = af_pool(defender)
    succeeds = stopped = 0.0
    for a, pa in a_dist.items():
        if not a.success:
            continue
        succeeds += float(pa)
        for d, pd in d_dist.items():
            if af254.stops(a, d):
                stopped += float(pa * pd)
    got = odds.contest_odds(attacker, defender)
    tol = oracle.bound(na + nd, DEPTH) * 8 + 1e-12
    assert abs(got.p_attacker_succeeds - succeeds) <= tol
    assert abs(got.p_stopped - stopped) <= tol
    assert abs(got.p_attack_lands - (succeeds - stopped)) <= tol


@pytest.mark.parametrize("ties", [False, True], ids=["original-stands", "defense-wins-ties"])
@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        (odds.PoolSpec(1), odds.PoolSpec(1)),
        (odds.PoolSpec(2), odds.PoolSpec(2, 1)),
        (odds.PoolSpec(2, 1), odds.PoolSpec(2)),
    ],
)
def test_R9_contest_odds_match_brute_force_for_both_tie_rules(attacker, defender, ties):
    """R9 (amended): a full tie (equal Result and Gain) stops the attack when the defense
    wins ties (the higher reflex card in an encounter), else the original stands."""
    depth = 7
    a_dist, na = af_pool(attacker, depth)
    d_dist, nd = af_pool(defender, depth)
    stopped = tied = 0.0
    for a, pa in a_dist.items():
        if not a.success:
            continue
        for d, pd in d_dist.items():
            if af254.stops(a, d):
                stopped += float(pa * pd)
            elif d.success and (d.result, d.gain) == (a.result, a.gain):
                tied += float(pa * pd)
    assert tied > 0.01
    got = odds.contest_odds(attacker, defender, defense_wins_ties=ties)
    want = stopped + tied if ties else stopped
    tol = oracle.bound(na + nd, depth) * 8 + 1e-12
    assert abs(got.p_stopped - want) <= tol, (got, want)
    assert abs(got.p_attack_lands - (got.p_attacker_succeeds - want)) <= tol
    # Momentum does not depend on who wins a tie: both sides keep theirs (R9).
    base = odds.contest_odds(attacker, defender)
    assert got.attacker_expected_momentum == base.attacker_expected_momentum
    assert got.defender_expected_momentum == base.defender_expected_momentum


def test_contest_without_defender_is_the_check():
    spec = odds.PoolSpec(3, 1)
    c = odds.contest_odds(spec, None)
    assert c.p_stopped == 0 and c.p_attack_lands == odds.check_odds(spec).p_success


def test_probabilities_add_up():
    for spec in (odds.PoolSpec(4, 1), odds.PoolSpec(10, 6), odds.PoolSpec(0, 3)):
        d = odds.distribution(spec)
        fail_plain = 1 - d.p_success - d.p_fumble
        assert -1e-12 <= fail_plain <= 1
        assert abs(sum(d.scores.values()) - d.p_success) < 1e-12
    c = odds.contest_odds(odds.PoolSpec(10, 6), odds.PoolSpec(10, 6))
    assert abs(c.p_stopped + c.p_attack_lands - c.p_attacker_succeeds) < 1e-12


def test_truncation_error_is_below_1e_12():
    """Summing more of the 6-count tail changes nothing at 1e-12."""
    spec = (odds.PoolSpec(10, 6), odds.PoolSpec(10, 6))
    base = odds.contest_odds(*spec)
    old = odds_core.TAIL
    try:
        odds_core.TAIL = 1e-30
        odds.clear_cache()
        finer = odds.contest_odds(*spec)
    finally:
        odds_core.TAIL = old
        odds.clear_cache()
    for a, b in zip(base, finer, strict=True):
        assert abs(a - b) < 1e-12


def test_zero_dice_never_succeed():
    assert odds.check_odds(odds.PoolSpec(0)).p_success == 0
    assert odds.check_odds(odds.PoolSpec(0, 2)).p_fumble > 0


# ------------------------------------------------------------------------------ Monte Carlo


def within(estimate_samples, exact, n, label):
    mean = sum(estimate_samples) / n
    var = sum((x - mean) ** 2 for x in estimate_samples) / (n - 1)
    se = math.sqrt(var / n) or 1e-9
    assert abs(mean - exact) <= 4 * se + 1e-9, f"{label}: MC {mean} vs exact {exact}"


MC_SPECS = [
    odds.PoolSpec(3),
    odds.PoolSpec(4, 2),
    odds.PoolSpec(5, 1, ventures=1),
    odds.PoolSpec(3, 2, advantage=True),
    odds.PoolSpec(3, 2, disadvantage=True),
    odds.PoolSpec(2, 0, disadvantage=True),
]


@pytest.mark.parametrize("spec", MC_SPECS)
def test_roller_agrees_with_odds(spec):
    n = 20000
    source = RandomSource(seed=1234 + spec.dice * 7 + spec.interference)
    succ, fum, mom = [], [], []
    for _ in range(n):
        roll = af254.roll_check(
            spec.dice,
            spec.interference,
            ventures=spec.ventures,
            advantage=spec.advantage,
            disadvantage=spec.disadvantage,
            source=source,
        )
        o = af254.outcome_of(roll)
        succ.append(o.success)
        fum.append(o.fumble)
        mom.append(o.momentum)
    exact = odds.check_odds(spec)
    within(succ, exact.p_success, n, f"{spec} success")
    within(fum, exact.p_fumble, n, f"{spec} fumble")
    within(mom, exact.expected_momentum, n, f"{spec} momentum")


def test_contest_roller_agrees_with_odds():
    n = 20000
    source = RandomSource(seed=99)
    attacker, defender = odds.PoolSpec(4, 1), odds.PoolSpec(3)
    stopped = []
    for _ in range(n):
        a = af254.outcome_of(af254.roll_check(4, 1, source=source))
        d = af254.outcome_of(af254.roll_check(3, pool=Pool.OPPOSITION, source=source))
        stopped.append(a.success and af254.stops(a, d))
    within(stopped, odds.contest_odds(attacker, defender).p_stopped, n, "stopped")


def test_cooperation_odds_agree_with_the_roller():
    """R11: the helper rolls first; a failed helper gives 1 Interference, a Fumbling one 2;
    the leader retries Fails up to the helper's Gain."""
    n = 20000
    source = RandomSource(seed=7)
    leader, helper = odds.PoolSpec(4, 0), odds.PoolSpec(3, 1)
    results = []
    for _ in range(n):
        h = af254.outcome_of(af254.roll_check(3, 1, source=source))
        extra, retries = af254.leader_adjustment([h])
        roll = af254.roll_check(4, extra, source=source)
        fails = [i for i, d in enumerate(roll.dice) if not d.is_interference and d.face <= 3]
        if fails and retries:
            roll = af254.retry_fails(roll, fails[:retries], retries, "cooperation", source)
        results.append(af254.outcome_of(roll).success)
    exact = odds.check_odds(odds.Cooperation(leader, (helper,)))
    within(results, exact.p_success, n, "cooperation")


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        (odds.PoolSpec(3), odds.PoolSpec(2)),
        (odds.PoolSpec(4, 1, ventures=1), odds.PoolSpec(3, 1)),
        (odds.PoolSpec(3, 1, advantage=True), odds.PoolSpec(3)),
    ],
)
def test_classic_contest_agrees_with_the_roller(attacker, defender):
    n = 20000
    source = RandomSource(seed=5)
    lands, momentum = [], []
    against = attacker.advantage and not attacker.disadvantage
    for _ in range(n):
        a = classic.outcome_of(
            classic.roll_check(
                attacker.dice,
                attacker.interference,
                ventures=attacker.ventures,
                advantage=attacker.advantage,
                source=source,
            )
        )
        if a.success:
            d = classic.outcome_of(
                classic.roll_check(
                    defender.dice,
                    defender.interference,
                    pool=Pool.OPPOSITION,
                    against_advantage=against,
                    source=source,
                )
            )
            a = classic.oppose(a, d)
        lands.append(a.success)
        momentum.append(a.momentum)
    exact = odds.classic_contest_odds(attacker, defender)
    within(lands, exact.p_attack_lands, n, "classic lands")
    within(momentum, exact.attacker_expected_momentum, n, "classic momentum")


def test_classic_check_odds_match_brute_force():
    for spec in (odds.PoolSpec(2), odds.PoolSpec(2, 1), odds.PoolSpec(1, 0, ventures=1)):
        check = [oracle.exploding(DEPTH)] * spec.dice
        intf = [oracle.exploding(DEPTH)] * (spec.interference + spec.ventures)
        dist = oracle.enumerate_pool(
            check, intf, lambda c, i, v: classic.evaluate(c, i, ventures=v), spec.ventures
        )
        p, _, m = bf_stats(dist)
        got = odds.classic_check_odds(spec)
        tol = oracle.bound(len(check) + len(intf), DEPTH) * 8
        assert abs(got.p_success - p) <= tol and abs(got.expected_momentum - m) <= tol


def _classic_pool(spec: odds.PoolSpec, depth: int, *, against_advantage: bool = False):
    """Enumerated af-classic pool: check dice plain under Disadvantage or against a check
    with Advantage (C5), Interference (with the tokens) plain under Advantage."""
    adv = spec.advantage and not spec.disadvantage
    dis = spec.disadvantage and not spec.advantage
    check_die = oracle.plain() if dis or against_advantage else oracle.exploding(depth)
    intf_die = oracle.plain() if adv else oracle.exploding(depth)
    check = [check_die] * spec.dice
    intf = [intf_die] * (spec.interference + spec.ventures)
    dist = oracle.enumerate_pool(
        check, intf, lambda c, i, v: classic.evaluate(c, i, ventures=v), spec.ventures
    )
    return dist, len(check) + len(intf)


@pytest.mark.parametrize(
    ("attacker", "defender"),
    [
        (odds.PoolSpec(2), odds.PoolSpec(2)),
        (odds.PoolSpec(2, 0, ventures=1), odds.PoolSpec(2, 0, ventures=1)),
        (odds.PoolSpec(2, 1), odds.PoolSpec(3)),
        (odds.PoolSpec(2, 0, advantage=True), odds.PoolSpec(2, 0, ventures=1)),
    ],
)
def test_C2_C3_classic_contest_momentum_matches_brute_force(attacker, defender):
    """C2, C3 (amended): the opposition spends its lowest success that can remove the
    original's lowest, and both sides' Momentum is counted on what is left: the odds'
    expected Momentum of each side against every pair of enumerated rolls."""
    depth = 5
    against = attacker.advantage and not attacker.disadvantage
    a_dist, na = _classic_pool(attacker, depth)
    d_dist, nd = _classic_pool(defender, depth, against_advantage=against)
    succeeds = stopped = a_mom = d_mom = d_mom_before = Fraction(0)
    for a, pa in a_dist.items():
        if not a.success:
            continue
        succeeds += pa
        for d, pd in d_dist.items():
            after = classic.oppose(a, d)
            spent = classic.spend_opposition(a, d)
            stopped += pa * pd * (not after.success)
            a_mom += pa * pd * after.momentum
            d_mom += pa * pd * spent.momentum
            d_mom_before += pa * pd * d.momentum
    got = odds.classic_contest_odds(attacker, defender)
    tol = oracle.bound(na + nd, depth) * 40 + 1e-12
    assert abs(got.p_attacker_succeeds - float(succeeds)) <= tol
    assert abs(got.p_stopped - float(stopped)) <= tol
    assert abs(got.attacker_expected_momentum - float(a_mom)) <= tol
    assert abs(got.defender_expected_momentum - float(d_mom)) <= tol, (got, float(d_mom))
    # The opposition's spent success costs it Momentum: the figure before was too high.
    assert float(d_mom_before) - float(d_mom) > 0.01
    # No full tie in af-classic: the tie rule changes nothing (R9 is af-2.5.4's).
    assert odds.classic_contest_odds(attacker, defender, defense_wins_ties=True) == got


# ---------------------------------------------------------------- odds part-way through a roll


def test_shift_choice_odds_after_a_roll():
    """Odds of adding 2 dice (no explosions) after seeing a roll: enumerate the 36 faces."""
    roll = af254.roll_check(3, 1, source=ScriptedSource([1, 2, 4, 5]))
    state = odds.CheckState.from_roll(roll)
    assert odds.check_odds(state).p_success == 0  # 4 cancelled by the 5
    added = odds.check_odds(state.with_added_dice(2))
    hits = 0
    for a in range(1, 7):
        for b in range(1, 7):
            hits += af254.evaluate((1, 2, 4, a, b), (5,)).success
    assert abs(added.p_success - hits / 36) < 1e-12


def test_retry_choice_odds_after_a_roll():
    roll = af254.roll_check(3, source=ScriptedSource([1, 2, 4]))
    state = odds.CheckState.from_roll(roll).with_retried([1, 2])
    expected = Fraction(0)
    for a in range(1, 7):
        for b in range(1, 7):
            o = af254.evaluate((4, a, b))
            expected += Fraction(o.momentum, 36)
    assert abs(odds.check_odds(state).expected_momentum - float(expected)) < 1e-12


def test_contest_odds_with_a_known_attack():
    attack = af254.roll_check(3, source=ScriptedSource([5, 5, 2]))
    c = odds.contest_odds(odds.CheckState.from_roll(attack), odds.PoolSpec(1))
    # One die stops 5x2 only with a 6 (then its run goes on): P = 1/6.
    assert abs(c.p_stopped - 1 / 6) < 1e-12 and c.p_attacker_succeeds == 1


# --------------------------------------------------------------------------------------- d20


def test_degree_odds():
    dist = odds.degree_odds(5, 15, 5)
    assert sum(dist.values()) == 1
    counted = dict.fromkeys(d20.Degree, 0)
    for die in range(1, 21):
        counted[d20.degree(die, 5, 15, 5)] += 1
    assert {k: Fraction(v, 20) for k, v in counted.items()} == dist


# --------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "make",
    [
        lambda: odds.PoolSpec(-1),
        lambda: odds.PoolSpec(2, -1),
        lambda: odds.check_odds(odds.PoolSpec(2, 6, ventures=1)),  # R8, checked by af-2.5.4
        lambda: odds.PoolSpec(2, ventures=-1),
        lambda: odds.PoolSpec(2.5),
        lambda: odds.PoolSpec(2, advantage="yes"),
        lambda: odds.distribution("3 dice"),
        lambda: odds.degree_odds(0, 10, 0, keywords=("nope",)),
    ],
)
def test_bad_specs(make):
    with pytest.raises(RulesError):
        make()


def test_random_source_is_seeded_and_auditable():
    roll = af254.roll_check(5, 2)
    assert roll.seed is not None
    from afdesk.rules.dice import audit

    assert audit(roll)
    again = af254.roll_check(5, 2, source=RandomSource(roll.seed))
    assert again.dice == roll.dice
    random.Random(0)  # the default source never touches the global generator
