"""Ruleset ``af-classic`` (seed 002; docs/rules.md C1-C6).

>>> evaluate((1, 4, 5), (5,)).wins          # the door: the 5 cancels the 4, the 5 stands
(5,)
>>> oppose(evaluate((2, 4, 5)), evaluate((1, 6, 2))).wins   # the kick: his 6 cancels her 4
(5,)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import msgspec

from afdesk.rules.cancellation import cancel
from afdesk.rules.dice import (
    DiceSource,
    Die,
    Pool,
    RandomSource,
    Roll,
    annotate,
    roll_dice,
    validate_count,
    validate_faces,
)
from afdesk.rules.errors import RulesError
from afdesk.rules.outcome import Outcome

NAME = "af-classic"
MAX_VENTURES = 3  # C3: 1-3 tokens


def momentum_of(wins: Sequence[int], ventures: int) -> int:
    """Pairs of matching successes, plus one pair per Venture token made from a single (C3).

    Each token turns an unmatched success into a pair, highest single first, so the count
    is ``min(tokens, singles)``.
    """
    counts = Counter(wins)
    pairs = sum(n // 2 for n in counts.values())
    singles = sum(n % 2 for n in counts.values())
    return pairs + min(ventures, singles)


def _outcome(wins: tuple[int, ...], unspent: int, ventures: int) -> Outcome:
    if not wins:
        return Outcome(
            success=False,
            result=None,
            gain=0,
            momentum=0,
            fumble=False,
            wins=(),
            success_margin=0,
            failure_margin=1 + unspent,
            unspent=unspent,
            ventures=ventures,
        )
    result = wins[-1]
    gain = wins.count(result)
    return Outcome(
        success=True,
        result=result,
        gain=gain,
        momentum=momentum_of(wins, ventures),
        fumble=False,
        wins=wins,
        success_margin=gain,
        failure_margin=0,
        unspent=0,
        ventures=ventures,
    )


def check_ventures(ventures: int) -> None:
    """C3: 1-3 Venture tokens (0 for none)."""
    validate_count(ventures, "ventures")
    if ventures > MAX_VENTURES:
        raise RulesError(f"{ventures} Venture tokens: af-classic allows 1 to 3 (C3)")


def evaluate(
    check: Sequence[int], interference: Sequence[int] = (), *, ventures: int = 0
) -> Outcome:
    """Evaluate final faces: cancellation as R4 (C1), Momentum from pairs and tokens (C3).

    Each Venture token is one of the Interference dice given. af-classic has no Fumble, so
    ``fumble`` is always false; the margins follow R13 so both AF rulesets report them.
    """
    check = validate_faces(check, "check")
    interference = validate_faces(interference, "interference")
    check_ventures(ventures)
    c = cancel(check, interference)
    wins = tuple(sorted(check[i] for i in c.remaining))
    return _outcome(wins, len(c.unspent), ventures)


def oppose(original: Outcome, opposition: Outcome) -> Outcome:
    """The original's outcome after opposition (C2, C3).

    Opposition is rolled only if the original succeeded. If it has successes left, one of
    them removes the original's lowest success, which must be <= it; only one success is
    ever removed. The original succeeds if any success remains; its Momentum counts what is
    left.
    """
    for value, what in ((original, "original"), (opposition, "opposition")):
        if not isinstance(value, Outcome):
            raise RulesError(f"{what}: expected an outcome, got {value!r}")
    if not original.success or not opposition.success:
        return original
    lowest = original.wins[0]
    if opposition.result is None or lowest > opposition.result:
        return original
    return _outcome(original.wins[1:], 0, original.ventures)


def spend_opposition(original: Outcome, opposition: Outcome) -> Outcome:
    """The opposition's outcome after it opposed (C2, C3): it spends its lowest success
    that can remove the original's lowest success (one >= it), keeping its higher ones,
    and its Momentum counts what is left. Nothing is spent when none can. Its success,
    Result and Gain stay those of the roll (it did succeed); ``wins`` and ``momentum`` are
    what is left.

    >>> spend_opposition(evaluate((2, 4, 5)), evaluate((4, 5))).wins  # the alley: 4 spent
    (5,)
    """
    for value, what in ((original, "original"), (opposition, "opposition")):
        if not isinstance(value, Outcome):
            raise RulesError(f"{what}: expected an outcome, got {value!r}")
    if not original.success or not opposition.success:
        return opposition
    lowest = original.wins[0]
    able = [i for i, w in enumerate(opposition.wins) if w >= lowest]
    if not able:
        return opposition
    spent = able[0]
    left = opposition.wins[:spent] + opposition.wins[spent + 1 :]
    return msgspec.structs.replace(
        opposition, wins=left, momentum=momentum_of(left, opposition.ventures)
    )


def roll_check(
    dice: int,
    interference: int = 0,
    *,
    ventures: int = 0,
    advantage: bool = False,
    disadvantage: bool = False,
    against_advantage: bool = False,
    pool: Pool = Pool.CHECK,
    source: DiceSource | None = None,
) -> Roll:
    """Roll an af-classic check (C1, C3, C5).

    Each Venture token adds 1 Interference. Advantage: the Interference's 6s do not
    explode; Disadvantage: the check's 6s do not explode (they cancel). ``against_advantage``
    is for an opposition roll against a check with Advantage: its own 6s do not explode.
    """
    validate_count(dice, "dice")
    validate_count(interference, "interference")
    check_ventures(ventures)
    adv = advantage and not disadvantage
    dis = disadvantage and not advantage
    src: DiceSource = source or RandomSource()
    rolled = roll_dice(dice, pool, src, explode=not dis and not against_advantage)
    rolled += roll_dice(interference + ventures, Pool.INTERFERENCE, src, explode=not adv)
    return Roll(
        dice=annotate(tuple(rolled)),
        ventures=ventures,
        advantage=advantage,
        disadvantage=disadvantage,
        seed=getattr(src, "seed", None),
        draws=getattr(src, "index", 0),
    )


def outcome_of(roll: Roll) -> Outcome:
    """The outcome of a roll record under af-classic."""
    return evaluate(roll.check_faces, roll.interference_faces, ventures=roll.ventures)


def spend_will(roll: Roll, source: DiceSource | None = None) -> Roll:
    """Spend 1 Will: 2 more dice, after Interference and before Opposition (C4).

    They are rolled like the check's dice (they explode unless it has Disadvantage).
    """
    return roll.add_dice(2, "will", source, explode=will_dice_explode(roll))


def will_dice_explode(roll: Roll) -> bool:
    """Whether the 2 dice of Will explode on ``roll``: like the check's own, unless it has
    Disadvantage (C4, C5)."""
    return not (roll.disadvantage and not roll.advantage)


def helper_interference(primary_dice: int) -> int:
    """Helpers roll with Interference equal to the primary's dice (C6)."""
    return validate_count(primary_dice, "primary dice")


def cooperate(primary: Roll, helpers: Sequence[Roll]) -> Roll:
    """Add each helper's remaining successes to the primary's check pool (C6).

    They join the pool as helper dice; the primary's Interference then resolves against the
    whole pool.
    """
    dice = list(primary.dice)
    for helper in helpers:
        c = cancel(helper.check_faces, helper.interference_faces)
        faces = helper.check_faces
        dice += [Die(face=faces[i], pool=Pool.HELPER) for i in c.remaining]
    return msgspec.structs.replace(primary, dice=annotate(tuple(dice)))
