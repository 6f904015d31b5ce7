"""A chase check under any ruleset (H2, H3): the exact (success, margin) odds before
rolling, and what a rolled check comes to. The ruleset object is asked (its capabilities,
its own odds and outcome), never its name.

Margins follow R13 in the dice-pool rulesets: the Gain on a success, 1 + the Interference
Wins left unspent on a failure (af-classic reads a roll the same way, C1). The success side
of the odds is the ruleset's own (:meth:`Ruleset.p_margin_above`); a failure's margin is
split by R4's cancellation, which both dice-pool rulesets share (C1).

A d20 check (``dice_pools`` false, D1-D3) has no Interference; afdesk reads its degree as a
chase margin so that H3 applies unchanged: Pass and Success 1, Triumph 2 on a success;
Failure 1, Disaster 2 on a failure (:func:`d20_margin`'s distance from Pass, at least 1:
a chase margin is at least 1, R13; with F 0 there is no Pass band, D2).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from afdesk.rules.d20 import D20Check, Degree
from afdesk.rules.dice import Roll, pool_sizes
from afdesk.rules.errors import RulesError
from afdesk.rules.odds.core import PoolSpec
from afdesk.rules.odds.margins import check_margins
from afdesk.rules.pursuit.odds import BAD_PENALTY, TurnOdds, turn_odds
from afdesk.rules.pursuit.stages import StageProperty, stage_effects
from afdesk.rules.pursuit.turns import turn as pursuit_turn
from afdesk.rules.rulesets.base import Ruleset, d20_margin

Outcomes = dict[tuple[bool, int], float]
EPSILON = 1e-15


class ChaseResult(NamedTuple):
    """What a rolled chase check comes to (H3): success, its margin (R13), whether
    Interference was left unspent (the next pursuit die is the bad colour, H3), and the
    roll in words."""

    success: bool
    margin: int
    interference: bool
    text: str


def chase_margin(degree: Degree) -> tuple[bool, int]:
    """A d20 degree as a chase check's (success, margin) (see the module)."""
    m = d20_margin(degree)
    return (True, max(1, m)) if degree >= Degree.PASS else (False, -m)


def read_check(ruleset: Ruleset, roll: Roll | D20Check) -> ChaseResult:
    """What ``roll`` (the final roll, after any Shifts) comes to as a chase check."""
    if not ruleset.dice_pools:
        if not isinstance(roll, D20Check):
            raise RulesError(f"{ruleset.name} checks roll a d20, not a dice pool")
        success, margin = chase_margin(roll.degree)
        return ChaseResult(success, margin, False, f"{roll.degree.name.capitalize()}")
    if not isinstance(roll, Roll):
        raise RulesError(f"{ruleset.name} checks roll dice pools, not a d20")
    o = ruleset.outcome(roll)
    if o.success:
        return ChaseResult(True, o.success_margin, False, o.describe())
    unspent = o.unspent > 0
    text = o.describe() + (f", {o.unspent} Interference unspent" if unspent else "")
    return ChaseResult(False, o.failure_margin, unspent, text)


def check_outcomes(ruleset: Ruleset, score: int, modifiers: Sequence[int]) -> Outcomes:
    """The exact {(success, margin): probability} of a chase check of ``score`` with
    modifier dice (+N bonus, -N penalty, R1), under ``ruleset``."""
    mods = tuple(modifiers)
    if not ruleset.dice_pools:
        dist = ruleset.degree_odds(score + sum(mods))
        out: Outcomes = {}
        for deg, chance in dist.items():
            if chance:
                key = chase_margin(deg)
                out[key] = out.get(key, 0.0) + float(chance)
        return out
    # The ruleset's own chance of success; the margins' split within success and within
    # failure by R4's cancellation, which both dice-pool rulesets share (R13, C1). A test
    # holds the whole series against each ruleset's own p_margin_above.
    p_success = ruleset.p_margin_above(score, mods, 0)
    dice, intf = pool_sizes(score, mods)
    shape = check_margins(PoolSpec(dice, intf))
    out = {}
    for success, mass in ((True, p_success), (False, 1.0 - p_success)):
        if mass <= EPSILON:
            continue
        part = {k: v for k, v in shape.items() if k[0] is success}
        total = math.fsum(part.values())
        if total <= 0:
            out[(success, 1)] = mass
            continue
        for key, v in part.items():
            out[key] = mass * v / total
    return out


def chase_turn_odds(
    ruleset: Ruleset,
    speed: int,
    score: int,
    modifiers: Sequence[int] = (),
    *,
    bad: str = "blue",
    forced_bad: bool = False,
    extra_die: bool = False,
    stage: Iterable[StageProperty] = (),
    total: int = 0,
) -> TurnOdds:
    """The exact odds of a chase turn (H1-H4) whose check rolls ``score`` with
    ``modifiers`` under ``ruleset``; the bad colour adds its -2 (H2); ``extra_die``, the
    stage's subtractions and ``total`` as in :func:`~afdesk.rules.pursuit.odds.turn_odds`
    (the stage's Difficult penalty belongs in ``modifiers``)."""
    mods = tuple(modifiers)
    good = check_outcomes(ruleset, score, mods)
    worse = check_outcomes(ruleset, score, (*mods, -BAD_PENALTY))
    return turn_odds(
        speed,
        good,
        worse,
        bad=bad,
        forced_bad=forced_bad,
        extra_die=extra_die,
        stage=stage,
        total=total,
    )


class CheckOdds(NamedTuple):
    """A chase check's odds once its pursuit dice are known (H3): the check succeeds, the
    mean the total gains, the participant is knocked out (round speed 0 or less)."""

    p_success: float
    expected_added: float
    p_out: float


def rolled_turn_odds(
    ruleset: Ruleset,
    speed: int,
    colours: Sequence[str],
    score: int,
    modifiers: Sequence[int] = (),
    *,
    bad: str = "blue",
    stage: Iterable[StageProperty] = (),
    total: int = 0,
) -> CheckOdds:
    """The exact odds of the check of a turn whose pursuit dice ``colours`` are rolled
    (the bad colour's -2 already in ``modifiers``, H2); the expected gain counts what a
    Treacherous or Steep ``stage`` takes off ``total`` (the total before the turn, H4)."""
    stage = tuple(stage)
    p_success = expected = p_out = 0.0
    for (success, margin), p in check_outcomes(ruleset, score, modifiers).items():
        t = pursuit_turn(speed, colours, success, margin, bad=bad)
        fx = stage_effects(
            stage,
            bad=colours[-1] == bad,
            success=success,
            margin=margin,
            interference=False,
            teetering=False,
            total=total + t.added,
        )
        p_success += p if success else 0.0
        expected += p * (t.added + fx.total_delta)
        p_out += p if t.out else 0.0
    return CheckOdds(p_success, expected, p_out)


class CrewOdds(NamedTuple):
    """A crew member's check (H5): it moves nothing and knocks nobody out; a failure costs
    the crew member grit equal to its margin (H3) and the stage's consequences (H4)."""

    p_success: float
    expected_grit: float


def crew_check_odds(ruleset: Ruleset, score: int, modifiers: Sequence[int] = ()) -> CrewOdds:
    """The exact odds of a crew member's check of ``score`` with ``modifiers`` (the bad
    colour's -2 and the stage's already in them, H2, H4)."""
    p_success = grit = 0.0
    for (success, margin), p in check_outcomes(ruleset, score, modifiers).items():
        if success:
            p_success += p
        else:
            grit += p * margin
    return CrewOdds(p_success, grit)
