"""The chase odds are the odds of what the Ops do (H1-H5): an extra pursuit die (a Grant,
roll both and choose, H1), the stage's subtractions (Treacherous, Steep, H4) and a crew
member's check (H5), each against a seeded Monte Carlo of the same steps within 3 standard
errors, and against exact fractions where the rules give them."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from afdesk.rules.dice import RandomSource
from afdesk.rules.pursuit import colour, stage_effects, turn, turn_odds
from afdesk.rules.pursuit.checks import (
    chase_turn_odds,
    crew_check_odds,
    read_check,
    rolled_turn_odds,
)
from afdesk.rules.pursuit.odds import REDS, REDS_OF_TWO
from afdesk.rules.pursuit.stages import StageProperty as S
from afdesk.rules.rulesets import ruleset_named

AF = ruleset_named("af-2.5.4")
N = 6000


def run(rng: random.Random) -> tuple[str, ...]:
    """One pursuit die (H1): reds, then the die that moves."""
    out = []
    while True:
        c = colour(rng.randint(1, 6))
        out.append(c)
        if c != "red":
            return tuple(out)


def keep(a: tuple[str, ...], b: tuple[str, ...], bad: str) -> tuple[str, ...]:
    """The participant's choice between two runs (H1): the good colour, then more reds."""
    return max((a, b), key=lambda r: (r[-1] != bad, len(r)))


def simulate(speed, score, mods, *, extra=False, stage=(), total=0, bad="blue", seed=7):
    """What RollPursuit and ChaseCheck do, N times: the total's change, the colour kept,
    the reds; the check rolled under af-2.5.4 and read as the Op reads it."""
    rng = random.Random(seed)
    gains, bads, reds = [], [], []
    for i in range(N):
        colours = run(rng)
        if extra:
            colours = keep(colours, run(rng), bad)
        is_bad = colours[-1] == bad
        check_mods = (*mods, -2) if is_bad else tuple(mods)
        r = read_check(AF, AF.roll_plain(score, check_mods, RandomSource(seed * 100003 + i)))
        t = turn(speed, colours, r.success, r.margin, bad=bad)
        fx = stage_effects(
            stage,
            bad=is_bad,
            success=r.success,
            margin=r.margin,
            interference=r.interference,
            teetering=False,
            total=total + t.added,
        )
        gains.append(t.added + fx.total_delta)
        bads.append(is_bad)
        reds.append(len(colours) - 1)
    return gains, bads, reds


def within_3_se(samples, exact):
    mean = math.fsum(samples) / len(samples)
    var = math.fsum((x - mean) ** 2 for x in samples) / (len(samples) - 1)
    se = math.sqrt(var / len(samples)) or 1e-9
    assert abs(mean - exact) <= 3 * se, (mean, exact, se)


def test_h1_an_extra_pursuit_die_is_the_better_of_two():
    one = chase_turn_odds(AF, 2, 3, ())
    two = chase_turn_odds(AF, 2, 3, (), extra_die=True)
    assert one.p_bad == pytest.approx(0.4) and one.expected_added == pytest.approx(2.3945, abs=1e-4)
    # the bad colour only when both runs show it: 0.4 ** 2
    assert two.p_bad == pytest.approx(0.16)
    assert two.expected_added == pytest.approx(2.7845, abs=1e-4)
    # exactly: the good colour's and the bad colour's means, weighted 84/16
    forced = chase_turn_odds(AF, 2, 3, (), forced_bad=True)
    e_good = (one.expected_added - 0.4 * forced.expected_added) / 0.6
    assert two.expected_added == pytest.approx(0.84 * e_good + 0.16 * forced.expected_added)
    assert two.expected_reds == pytest.approx(
        float(Fraction(48, 100) * REDS + Fraction(52, 100) * REDS_OF_TWO)
    )


@pytest.mark.parametrize(("speed", "score", "bad"), [(2, 3, "blue"), (4, 2, "green")])
def test_h1_extra_die_odds_match_a_seeded_monte_carlo(speed, score, bad):
    o = chase_turn_odds(AF, speed, score, (), bad=bad, extra_die=True)
    gains, bads, reds = simulate(speed, score, (), extra=True, bad=bad)
    within_3_se(gains, o.expected_added)
    within_3_se([float(b) for b in bads], o.p_bad)
    within_3_se(reds, o.expected_reds)


def test_h3_a_forced_bad_die_rolls_nothing_so_an_extra_die_changes_nothing():
    a = chase_turn_odds(AF, 3, 2, (), forced_bad=True)
    b = chase_turn_odds(AF, 3, 2, (), forced_bad=True, extra_die=True)
    assert a == b and a.p_bad == 1.0


@pytest.mark.parametrize(
    ("stage", "total"),
    [((S.TREACHEROUS,), 5), ((S.STEEP,), 0), ((S.STEEP, S.TREACHEROUS), 1), ((S.CHASM,), 3)],
)
def test_h4_expected_gains_take_the_treacherous_and_steep_subtractions(stage, total):
    plain = chase_turn_odds(AF, 2, 2, (-2,))
    o = chase_turn_odds(AF, 2, 2, (-2,), stage=stage, total=total)
    if S.TREACHEROUS in stage or S.STEEP in stage:
        assert o.expected_added < plain.expected_added
    else:
        assert o.expected_added == pytest.approx(plain.expected_added)
    # never below a total of 0 (H4): a loss is at most the total before the turn
    assert min(o.added) >= -total
    assert math.fsum(o.added.values()) == pytest.approx(1.0)
    gains, _bads, _reds = simulate(2, 2, (-2,), stage=stage, total=total, seed=11)
    within_3_se(gains, o.expected_added)


def test_h4_the_stage_odds_are_the_pushforward_through_the_stage_effects():
    """Exactness: turn_odds with a stage is the sum over colours and check outcomes."""
    good = {(True, 2): 0.3, (True, 1): 0.2, (False, 1): 0.3, (False, 3): 0.2}
    worse = {(True, 1): 0.25, (False, 1): 0.35, (False, 2): 0.4}
    stage = (S.STEEP, S.TREACHEROUS)
    got = turn_odds(3, good, worse, stage=stage, total=2)
    want: dict[int, float] = {}
    for w, last, outcomes in ((0.6, "green", good), (0.4, "blue", worse)):
        for (ok, m), p in outcomes.items():
            t = turn(3, (last,), ok, m)
            fx = stage_effects(
                stage,
                bad=last == "blue",
                success=ok,
                margin=m,
                interference=False,
                teetering=False,
                total=2 + t.added,
            )
            want[t.added + fx.total_delta] = want.get(t.added + fx.total_delta, 0.0) + w * p
    assert got.added == pytest.approx(want)


def test_h4_the_check_dialog_odds_count_the_stage_too():
    plain = rolled_turn_odds(AF, 2, ("blue",), 2, (-2,))
    steep = rolled_turn_odds(AF, 2, ("blue",), 2, (-2,), stage=(S.STEEP,), total=4)
    assert steep.p_success == pytest.approx(plain.p_success)
    assert steep.p_out == pytest.approx(plain.p_out)
    assert steep.expected_added < plain.expected_added
    rng = random.Random(3)
    gains = []
    for i in range(N):
        r = read_check(AF, AF.roll_plain(2, (-2,), RandomSource(rng.getrandbits(40) + i)))
        t = turn(2, ("blue",), r.success, r.margin)
        fx = stage_effects(
            (S.STEEP,),
            bad=True,
            success=r.success,
            margin=r.margin,
            interference=False,
            teetering=False,
            total=4 + t.added,
        )
        gains.append(t.added + fx.total_delta)
    within_3_se(gains, steep.expected_added)


def test_h5_a_crew_check_has_no_knock_out_only_its_success_and_grit():
    o = crew_check_odds(AF, 2, (-2,))
    assert not hasattr(o, "p_out") and not hasattr(o, "expected_added")
    rng = random.Random(5)
    ok, grit = [], []
    for i in range(N):
        r = read_check(AF, AF.roll_plain(2, (-2,), RandomSource(rng.getrandbits(40) + i)))
        ok.append(float(r.success))
        grit.append(0 if r.success else r.margin)
    within_3_se(ok, o.p_success)
    within_3_se(grit, o.expected_grit)
