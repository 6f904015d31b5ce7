"""Exact odds of one chase turn (H1-H3): the distribution of what the total gains.

The pursuit die (H1) is a run of reds ended by a green or a blue: each die is red with
probability 1/6, so the last die is green with probability (1/2) / (5/6) = 3/5 and blue with
2/5, independently of the number of reds (geometric: P(k reds) = (1/6)^k * 5/6). An extra
pursuit die (a Grant, H1: roll both, choose) rolls two such runs and keeps the better: the
good colour when either shows it, so the bad colour only when both do (p_bad squared), and
between two of one colour the run with more reds. On the bad
colour the check takes the -2 penalty (two Interference dice, R1, H2); with Interference left
from the last check the die is the bad colour without rolling (H3). The check's
(success, margin) distribution comes from :func:`afdesk.rules.odds.margins.check_margins`
for af-2.5.4 pools, or is given directly (another ruleset, GM-set odds).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import NamedTuple

from afdesk.rules.errors import RulesError
from afdesk.rules.odds.core import PoolSpec
from afdesk.rules.odds.margins import check_margins
from afdesk.rules.pursuit.stages import StageProperty, stage_effects
from afdesk.rules.pursuit.turns import BLUE, GREEN, good_colour, turn

BAD_PENALTY = 2
"""H2: the bad colour's penalty, -2 (two Interference dice, R1)."""

REDS = Fraction(1, 5)
"""H1: the mean number of reds in one run, (1/6) / (5/6)."""
REDS_OF_TWO = Fraction(13, 35)
"""H1: the mean of the larger of two runs' reds: sum over j >= 1 of 2 q^j - q^(2j), q = 1/6,
that is 2/5 - 1/35 (the chosen run of two of one colour has the more reds)."""

Outcomes = Mapping[tuple[bool, int], float]


def colour_odds(bad: str = BLUE) -> dict[str, Fraction]:
    """H1: exact chances of the colour that decides the movement (the last die) and of at
    least one red (a special action), as fractions: {"good", "bad", "red"}."""
    good = good_colour(bad)
    p_green = Fraction(3, 5)
    p_good = p_green if good == GREEN else 1 - p_green
    return {"good": p_good, "bad": 1 - p_good, "red": Fraction(1, 6)}


class TurnOdds(NamedTuple):
    """What a chase turn comes to before rolling (H1-H3).

    ``added`` maps what the total gains (after the stage's subtractions, H4) to its
    probability; ``p_success`` the check succeeds; ``p_out`` the round speed is 0 or less;
    ``p_bad`` the deciding die is the bad colour; ``expected_added`` and ``expected_grit``
    the means; ``expected_reds`` the mean number of special actions (0 when the die is
    forced).
    """

    added: dict[int, float]
    p_success: float
    p_out: float
    p_bad: float
    expected_added: float
    expected_grit: float
    expected_reds: float


def _outcomes(value: PoolSpec | Outcomes, what: str) -> dict[tuple[bool, int], float]:
    if isinstance(value, PoolSpec):
        return check_margins(value)
    out = {}
    for key, p in value.items():
        if (
            not isinstance(key, tuple)
            or len(key) != 2
            or not isinstance(key[0], bool)
            or isinstance(key[1], bool)
            or not isinstance(key[1], int)
            or key[1] < 0
        ):
            raise RulesError(f"{what}: outcomes are (success, margin) pairs, got {key!r}")
        if not isinstance(p, (int, float)) or p < 0:
            raise RulesError(f"{what}: probabilities are numbers >= 0, got {p!r}")
        out[key] = float(p)
    total = math.fsum(out.values())
    if abs(total - 1.0) > 1e-9:
        raise RulesError(f"{what}: probabilities must add up to 1, got {total}")
    return out


def turn_odds(
    speed: int,
    check: PoolSpec | Outcomes,
    penalised: PoolSpec | Outcomes | None = None,
    *,
    bad: str = BLUE,
    forced_bad: bool = False,
    extra_die: bool = False,
    stage: Iterable[StageProperty] = (),
    total: int = 0,
) -> TurnOdds:
    """The exact distribution of ``added`` for a participant about to roll (H1-H4).

    ``check``: the check on the good colour, as an af-2.5.4 :class:`PoolSpec` (with the
    stage's penalties already in it) or a {(success, margin): probability} mapping;
    ``penalised``: the check on the bad colour (default: ``check`` with two more
    Interference dice, H2; a mapping ``check`` needs it given). ``forced_bad``: the last
    check left Interference, so the pursuit die is the bad colour without rolling (H3);
    it rolls nothing, so an extra die then changes nothing. ``extra_die``: a Grant, roll
    both and choose (H1). ``stage`` and ``total`` (the chase total before the turn): a
    failure margin on a Treacherous or Steep stage comes off the total, never below 0 (H4).
    """
    on_good = _outcomes(check, "the check")
    if penalised is None:
        if not isinstance(check, PoolSpec):
            raise RulesError("give the bad colour's check odds as well (H2)")
        penalised = PoolSpec(check.dice, check.interference + BAD_PENALTY, check.ventures)
    on_bad = _outcomes(penalised, "the penalised check")
    good = good_colour(bad)
    stage = tuple(stage)
    if forced_bad:
        p_bad, reds = 1.0, 0.0
    elif extra_die:
        one = colour_odds(bad)["bad"]
        split = 2 * one * (1 - one)  # one good, one bad: the good run is kept
        p_bad, reds = float(one * one), float(split * REDS + (1 - split) * REDS_OF_TWO)
    else:
        p_bad, reds = float(colour_odds(bad)["bad"]), float(REDS)
    added: dict[int, float] = defaultdict(float)
    p_success = p_out = e_grit = 0.0
    for weight, last, outcomes in ((1 - p_bad, good, on_good), (p_bad, bad, on_bad)):
        if not weight:
            continue
        for (success, margin), p in outcomes.items():
            q = weight * p
            t = turn(speed, (last,), success, margin, bad=bad)
            gained = t.added
            if stage:
                fx = stage_effects(
                    stage,
                    bad=last == bad,
                    success=success,
                    margin=margin,
                    interference=False,
                    teetering=False,
                    total=total + t.added,
                )
                gained += fx.total_delta
            added[gained] += q
            p_success += q if success else 0.0
            p_out += q if t.out else 0.0
            e_grit += q * t.grit_lost
    expected = math.fsum(a * p for a, p in added.items())
    return TurnOdds(dict(sorted(added.items())), p_success, p_out, p_bad, expected, e_grit, reds)
