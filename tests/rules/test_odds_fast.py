"""The fast odds paths against the slow exact ones they replaced
(``tests/rules/reference``, the odds code as it was), over seeded random configurations of
every ruleset, to 1e-12. The brute-force oracle tests in test_odds.py check both against
enumerated dice."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings, strategies

from afdesk.rules import af254, classic, odds
from afdesk.rules.dice import RandomSource
from tests.rules.reference import af254 as ref_af254
from tests.rules.reference import classic as ref_classic
from tests.rules.reference import core as ref_core

TOL = 1e-12


def close(a, b) -> bool:
    return all(abs(x - y) <= TOL for x, y in zip(a, b, strict=True))


def af_spec(rng: random.Random, max_dice: int = 7, retries: bool = True) -> odds.PoolSpec:
    intf = rng.randint(0, 5)
    ventures = rng.randint(0, 2)
    try:
        af254.check_venture_allowed(intf, ventures)
    except Exception:
        ventures = 0
    return odds.PoolSpec(
        rng.randint(0, max_dice),
        intf,
        ventures,
        advantage=rng.random() < 0.35,
        disadvantage=rng.random() < 0.35,
        retry_fails=rng.randint(0, 2) if retries else 0,
    )


def classic_spec(rng: random.Random) -> odds.PoolSpec:
    return odds.PoolSpec(
        rng.randint(0, 8),
        rng.randint(0, 5),
        rng.randint(0, 3),
        advantage=rng.random() < 0.35,
        disadvantage=rng.random() < 0.35,
    )


@pytest.mark.parametrize("seed", range(4))
def test_af254_contests_match_the_reference(seed):
    rng = random.Random(seed)
    for _ in range(12):
        a, d = af_spec(rng), af_spec(rng)
        got = odds.contest_odds(a, d)
        want = ref_af254.contest_odds(a, d)
        assert close(got, want), (a, d, got, want)
        assert close(odds.check_odds(a), ref_af254.check_odds(a)), a
        assert odds.distribution(a).scores.keys() == ref_af254.distribution(a).scores.keys()


@pytest.mark.parametrize("seed", range(3))
def test_R9_full_ties_to_the_defense_match_the_reference(seed):
    """R9 (amended): the odds with a full tie going to the defense (the higher reflex card)
    and with the original standing, against the reference's plain double loop, for checks,
    rolled checks and cooperations."""
    rng = random.Random(400 + seed)
    source = RandomSource(seed)
    for _ in range(8):
        a, d = af_spec(rng), af_spec(rng)
        roll = af254.roll_check(a.dice, a.interference, ventures=a.ventures, source=source)
        coop = odds.Cooperation(d, (odds.PoolSpec(rng.randint(0, 4), rng.randint(1, 3)),))
        for attacker, defender in ((a, d), (odds.CheckState.from_roll(roll), d), (a, coop)):
            for ties in (False, True):
                got = odds.contest_odds(attacker, defender, defense_wins_ties=ties)
                want = ref_af254.contest_odds(attacker, defender, defense_wins_ties=ties)
                assert close(got, want), (attacker, defender, ties, got, want)
            lost = odds.contest_odds(attacker, defender, defense_wins_ties=True)
            kept = odds.contest_odds(attacker, defender)
            assert lost.p_stopped >= kept.p_stopped


@pytest.mark.parametrize("seed", range(3))
def test_af254_cooperation_matches_the_reference(seed):
    """R11 as one mixed leader pool per extra Interference, against one leader pool per
    (extra Interference, retries) as before."""
    rng = random.Random(100 + seed)
    for _ in range(4):
        leader = af_spec(rng, 6)
        helpers = tuple(
            odds.PoolSpec(rng.randint(0, 5), rng.randint(1, 4)) for _ in range(rng.randint(1, 2))
        )
        coop = odds.Cooperation(leader, helpers)
        attacker = af_spec(rng, 5, retries=False)
        assert close(odds.check_odds(coop), ref_af254.check_odds(coop)), coop
        got = odds.contest_odds(attacker, coop)
        assert close(got, ref_af254.contest_odds(attacker, coop)), (attacker, coop)


@pytest.mark.parametrize(
    "attacker, lead, guard",
    [
        (odds.PoolSpec(8, 5), odds.PoolSpec(8, 5, disadvantage=True), odds.PoolSpec(5, 1)),
        (
            odds.PoolSpec(7, 3, disadvantage=True),
            odds.PoolSpec(7, 2, advantage=True),
            odds.PoolSpec(6, 1),
        ),
        (odds.PoolSpec(6, 2, 1), odds.PoolSpec(6, 0, disadvantage=True), odds.PoolSpec(4, 1)),
    ],
)
def test_R11_guarded_defense_with_advantage_or_disadvantage_matches_the_reference(
    attacker, lead, guard
):
    """The shapes of the slowest queries (R4, R11: a guard helping a defense that has
    Advantage or Disadvantage): extra Interference counts that leave the leader the same
    retries mixed into one Interference pool, the six branch summed per check
    distribution, against the reference's one evaluation per (extra, retries)."""
    coop = odds.Cooperation(lead, (guard,))
    assert close(odds.check_odds(coop), ref_af254.check_odds(coop)), coop
    got = odds.contest_odds(attacker, coop)
    assert close(got, ref_af254.contest_odds(attacker, coop)), (attacker, coop)


@pytest.mark.parametrize("seed", range(3))
def test_af254_odds_part_way_through_match_the_reference(seed):
    """Rolled checks, with a Shift's added dice or retried Fails (R10)."""
    rng = random.Random(200 + seed)
    source = RandomSource(seed)
    for _ in range(10):
        spec = af_spec(rng, 6, retries=False)
        roll = af254.roll_check(
            spec.dice,
            spec.interference,
            ventures=spec.ventures,
            advantage=spec.advantage,
            disadvantage=spec.disadvantage,
            source=source,
        )
        state = odds.CheckState.from_roll(roll)
        fails = [roll.dice[i].face for i in roll.fail_indices()]
        for st in (state, state.with_added_dice(2), state.with_retried(fails)):
            defender = af_spec(rng, 6)
            got = odds.contest_odds(st, defender)
            assert close(got, ref_af254.contest_odds(st, defender)), (st, defender)


@pytest.mark.parametrize("seed", range(4))
def test_classic_contests_match_the_reference(seed):
    rng = random.Random(300 + seed)
    source = RandomSource(seed)
    for _ in range(15):
        a, d = classic_spec(rng), classic_spec(rng)
        got = odds.classic_contest_odds(a, d)
        assert close(got, ref_classic.classic_contest_odds(a, d)), (a, d)
        assert close(odds.classic_check_odds(a), ref_classic.classic_check_odds(a)), a
        for n in (0, 1, 2):
            assert (
                abs(odds.classic_p_gain_above(a, n) - ref_classic.classic_p_gain_above(a, n)) <= TOL
            )
        roll = classic.roll_check(
            a.dice, a.interference, ventures=a.ventures, advantage=a.advantage, source=source
        )
        st = odds.CheckState.from_roll(roll).with_added_dice(2)
        got = odds.classic_contest_odds(st, d)
        assert close(got, ref_classic.classic_contest_odds(st, d)), (st, d)


def test_large_pools_match_the_reference():
    """The biggest pools the app asks about, once each (the reference is slow)."""
    big = odds.PoolSpec(12, 8)
    for a in (
        odds.PoolSpec(12, 8, advantage=True),
        odds.PoolSpec(12, 8, disadvantage=True),
        odds.PoolSpec(12, 4, ventures=1, retry_fails=3),
    ):
        assert close(odds.contest_odds(a, big), ref_af254.contest_odds(a, big)), a
    coop = odds.Cooperation(odds.PoolSpec(10, 6), (odds.PoolSpec(8, 7),))
    assert close(odds.check_odds(coop), ref_af254.check_odds(coop))
    c = odds.PoolSpec(12, 5, ventures=3, advantage=True)
    assert close(odds.classic_contest_odds(c, big), ref_classic.classic_contest_odds(c, big))


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_advantage_interference_groups_match_the_reference(n):
    """R4 Advantage: the Interference pool built from the joint distribution of its low
    Wins and 6s (each low Win a 4 or a 5 with even odds) against the reference's
    enumeration of every retried face, group by group."""
    from afdesk.rules.odds import core
    from tests.rules.reference import core as ref_core

    state = odds.PoolState(exploding=n, retry="advantage")
    want = {g.low: g for g in ref_core.groups(state)}
    got = {g.low: g for g in core.groups(state)}
    heavy = {k for k, g in want.items() if g.p > 1e-15}
    assert heavy <= got.keys()
    for low, g in got.items():
        w = want.get(low)
        if w is None:
            assert g.p < 1e-15, low
            continue
        assert abs(g.p - w.p) <= TOL, low
        if w.p > 1e-9:
            tail = max(len(g.six), len(w.six))
            a = [*g.six, *[0.0] * (tail - len(g.six))]
            b = [*w.six, *[0.0] * (tail - len(w.six))]
            assert close(a, b), low


def _capped_reference(state: odds.PoolState, cap: int) -> dict[tuple[int, int], tuple]:
    """The reference's groups of ``state`` with 4s and 5s counted up to ``cap``: (mass,
    unnormalised 6-distribution) per capped key."""
    out: dict[tuple[int, int], tuple[float, list[float]]] = {}
    for g in ref_core.groups(state):
        key = (min(g.low[0], cap), min(g.low[1], cap))
        mass, vec = out.get(key, (0.0, []))
        vec = vec + [0.0] * (len(g.six) - len(vec))
        for k, x in enumerate(g.six):
            vec[k] += g.p * x
        out[key] = (mass + g.p, vec)
    return out


@pytest.mark.parametrize(("n", "cap"), [(1, None), (3, None), (6, None), (8, None), (8, 3)])
def test_R4_disadvantage_interference_groups_match_the_reference(n, cap):
    """R4 Disadvantage: the Interference pool built from its multinomial 4s, 5s and others
    (a Fail retried once, frozen: a 6 among the others with odds 1/4), against the
    reference's face-by-face enumeration, group by group, also counted up to a cap; and
    the groups with as many 4s and 5s in all share one 6-distribution object (the six
    branch sums once per distinct object)."""
    from afdesk.rules.odds import core

    state = odds.PoolState(exploding=n, retry="disadvantage")
    top = cap if cap is not None else n + 1
    want = _capped_reference(state, top)
    got = {g.low: g for g in core.groups(state, cap)}
    assert got.keys() == want.keys()
    for low, g in got.items():
        mass, vec = want[low]
        assert abs(g.p - mass) <= TOL, low
        tail = max(len(g.six), len(vec))
        a = [g.p * x for x in g.six] + [0.0] * (tail - len(g.six))
        assert close(a, vec + [0.0] * (tail - len(vec))), low
    shared: dict[int, set[int]] = {}
    for g in got.values():
        if max(g.low) < top:
            shared.setdefault(sum(g.low), set()).add(id(g.six))
    assert all(len(ids) == 1 for ids in shared.values()), shared


@pytest.mark.parametrize("k", [0, 1, 4, 9])
def test_R3_plain_dice_rows_match_the_reference(k):
    """R3, R10: ``k`` plain dice (retried or added, no explosion) from the multinomial
    formula, against the reference's one die at a time."""
    from afdesk.rules.odds import core

    state = odds.PoolState(plain=k)
    want = {g.low: (g.p, g.six) for g in ref_core.groups(state)}
    got: dict[tuple[int, int], tuple[float, tuple[float, ...]]] = {}
    for y4, y5, vec in core._plain_rows(k):
        total = math.fsum(vec)
        got[(y4, y5)] = (total, tuple(x / total for x in vec))
    assert got.keys() == want.keys()
    for low, (p, vec) in got.items():
        assert abs(p - want[low][0]) <= TOL, low
        assert close(vec, want[low][1]), low


_SMALL = strategies.builds(
    odds.PoolSpec,
    strategies.integers(0, 5),
    strategies.integers(0, 4),
    advantage=strategies.booleans(),
    disadvantage=strategies.booleans(),
    retry_fails=strategies.integers(0, 2),
)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(attacker=_SMALL, lead=_SMALL, guard=strategies.none() | _SMALL)
def test_R4_R11_random_small_pools_match_the_reference(attacker, lead, guard):
    """R4, R9, R11: random small checks, with Advantage, Disadvantage, retries and a guard
    helping the defense, against the reference (derandomized: the same examples each run)."""
    defender = lead if guard is None else odds.Cooperation(lead, (guard,))
    odds.clear_cache()
    got = odds.contest_odds(attacker, defender)
    assert close(got, ref_af254.contest_odds(attacker, defender)), (attacker, defender)
    assert close(odds.check_odds(defender), ref_af254.check_odds(defender)), defender
