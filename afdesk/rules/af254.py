"""Ruleset ``af-2.5.4``, the default (seed 000; docs/rules.md R1-R13).

>>> evaluate((2, 4, 5)).result
5
>>> stops(evaluate((2, 4, 5)), evaluate((1, 6, 2)))   # the kick: Chen's 6 beats Huang's 5
True
>>> o = evaluate((1, 2, 4, 5), (2, 3), ventures=1)     # the alley
>>> (o.result, o.gain, o.momentum)
(5, 1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from afdesk.rules.cancellation import cancel
from afdesk.rules.dice import (
    DiceSource,
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

NAME = "af-2.5.4"
MAX_INTERFERENCE_FOR_VENTURE = 6  # R8: no Venture once Interference is 6 dice or more


def evaluate(
    check: Sequence[int], interference: Sequence[int] = (), *, ventures: int = 0
) -> Outcome:
    """Evaluate final faces (after explosions and retries, explosion dice included).

    Interference cancels check Wins (R4); the Result is the highest Win left and its Gain
    how many show it (R5); a failure with unspent Interference is a Fumble (R6); Momentum is
    (W + V) // 2 on a success (R7, R8); margins per R13.
    """
    check = validate_faces(check, "check")
    interference = validate_faces(interference, "interference")
    validate_count(ventures, "ventures")
    if len(interference) < 2 * ventures:
        raise RulesError(
            f"{ventures} Venture(s) add {2 * ventures} Interference dice, but only "
            f"{len(interference)} are given (R8)"
        )
    # The R8 limit (no Venture at 6 Interference or more) is checked when the roll is made
    # (roll_check). Final faces cannot tell it: explosion dice and Advantage retries of 6s
    # hide how many Interference dice there were before the Ventures.
    return _evaluate(check, interference, ventures)


def _evaluate(check: Sequence[int], interference: Sequence[int], ventures: int) -> Outcome:
    c = cancel(check, interference)
    wins = tuple(sorted(check[i] for i in c.remaining))
    if not wins:
        unspent = len(c.unspent)
        return Outcome(
            success=False,
            result=None,
            gain=0,
            momentum=0,
            fumble=unspent > 0,
            wins=(),
            success_margin=0,
            failure_margin=1 + unspent,
            unspent=unspent,
            ventures=ventures,
        )
    result = wins[-1]
    gain = wins.count(result)
    others = len(wins) - gain
    return Outcome(
        success=True,
        result=result,
        gain=gain,
        momentum=(others + ventures) // 2,
        fumble=False,
        wins=wins,
        success_margin=gain,
        failure_margin=0,
        unspent=0,
        ventures=ventures,
    )


def _as_outcome(value: Outcome | Sequence[int], what: str) -> Outcome:
    if isinstance(value, Outcome):
        return value
    if isinstance(value, Roll):
        return outcome_of(value)
    return evaluate(value) if value is not None else _missing(what)


def _missing(what: str) -> Outcome:
    raise RulesError(f"{what}: expected an outcome or faces, got None")


def stops(original: Outcome | Sequence[int], opposition: Outcome | Sequence[int]) -> bool:
    """Whether the opposition stops the original check (R9).

    Opposition is only rolled against a successful check. It stops the original when its
    Result is higher, or equal with a larger Gain; equal Result and Gain: the original
    stands. Outcomes, rolls or plain faces are accepted.
    """
    original = _as_outcome(original, "original")
    opposition = _as_outcome(opposition, "opposition")
    if not original.success or not opposition.success:
        return False
    if opposition.result is None or original.result is None:
        return False  # unreachable: a success always has a Result
    if opposition.result != original.result:
        return opposition.result > original.result
    return opposition.gain > original.gain


def check_venture_allowed(interference: int, ventures: int) -> None:
    """R8: each Venture adds 2 Interference; none once Interference is 6 dice or more."""
    validate_count(interference, "interference")
    validate_count(ventures, "ventures")
    if ventures == 0:
        return
    last = interference + 2 * (ventures - 1)  # Interference when the last one is declared
    if last >= MAX_INTERFERENCE_FOR_VENTURE:
        if ventures == 1:
            raise RulesError(
                f"no Venture with {interference} Interference dice: Venture is not allowed "
                "once Interference is 6 dice or more (R8)"
            )
        raise RulesError(
            f"{ventures} Ventures on {interference} Interference: Venture number {ventures} "
            f"would be declared at {last} Interference dice, and Venture is not allowed once "
            "Interference is 6 dice or more (R8)"
        )


def interference_count(
    interference: int, ventures: int = 0, *, advantage: bool = False, disadvantage: bool = False
) -> tuple[int, bool]:
    """How many Interference dice to roll, and whether Disadvantage added them (R4, R8).

    Disadvantage with no Interference at all adds 2 Interference dice instead of its retry.
    """
    validate_count(interference, "interference")
    check_venture_allowed(interference, ventures)
    total = interference + 2 * ventures
    if disadvantage and not advantage and total == 0:
        return 2, True
    return total, False


def roll_check(
    dice: int,
    interference: int = 0,
    *,
    ventures: int = 0,
    advantage: bool = False,
    disadvantage: bool = False,
    pool: Pool = Pool.CHECK,
    source: DiceSource | None = None,
) -> Roll:
    """Roll a check: ``dice`` exploding d6s and their Interference (R1, R2, R4, R8).

    Advantage retries every 6 of the Interference, Disadvantage every Fail of it (after
    explosions); the two cancel.
    """
    validate_count(dice, "dice")
    count, added = interference_count(
        interference, ventures, advantage=advantage, disadvantage=disadvantage
    )
    src: DiceSource = source or RandomSource()
    rolled = roll_dice(dice, pool, src)
    rolled += roll_dice(count, Pool.INTERFERENCE, src, added_by="disadvantage" if added else None)
    roll = Roll(
        dice=annotate(tuple(rolled)),
        ventures=ventures,
        advantage=advantage,
        disadvantage=disadvantage,
        seed=getattr(src, "seed", None),
        draws=getattr(src, "index", 0),
    )
    if advantage and not disadvantage:
        sixes = [i for i, d in enumerate(roll.dice) if d.is_interference and d.face == 6]
        if sixes:
            roll = roll.retry(sixes, "advantage", src)
    elif disadvantage and not advantage and not added:
        fails = [i for i, d in enumerate(roll.dice) if d.is_interference and d.face <= 3]
        if fails:
            roll = roll.retry(fails, "disadvantage", src)
    return roll


def outcome_of(roll: Roll) -> Outcome:
    """The outcome of a roll record under af-2.5.4.

    A roll knows how many Interference dice it started with, so the Venture limit was
    checked when it was rolled; it is not guessed again from the faces here.
    """
    known = _OUTCOMES.get(id(roll))
    if known is not None and known[0] is roll:
        return known[1]
    outcome = _evaluate(roll.check_faces, roll.interference_faces, roll.ventures)
    if len(_OUTCOMES) >= _OUTCOMES_KEPT:
        _OUTCOMES.clear()
    _OUTCOMES[id(roll)] = (roll, outcome)
    return outcome


_OUTCOMES: dict[int, tuple[Roll, Outcome]] = {}
"""The last outcomes worked out, by the identity of their roll (kept beside it, so its id
is not reused while it is here): a roll and its outcome never change, and one check is
read several times (a Convince's log line, its change and the dispute's end, P4)."""
_OUTCOMES_KEPT = 256


def shift_add(roll: Roll, source: DiceSource | None = None) -> Roll:
    """Spend a Shift to add 2 dice; added dice do not explode (R10)."""
    return roll.add_dice(2, "shift", source, explode=False)


def shift_retry(roll: Roll, indices: Sequence[int], source: DiceSource | None = None) -> Roll:
    """Spend a Shift to retry any dice not yet retried (R10)."""
    if not indices:
        raise RulesError("a Shift retry needs at least one die to re-roll")
    return roll.retry(indices, "shift", source)


def retry_sixes(roll: Roll, indices: Sequence[int], source: DiceSource | None = None) -> Roll:
    """The roller may retry any 6, trading Gain for Momentum (R3)."""
    if not indices:
        raise RulesError("choose at least one 6 to retry (R3)")
    for i in indices:
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(roll.dice):
            raise RulesError(f"there is no die number {i!r} in this roll of {len(roll.dice)}")
        die = roll.dice[i]
        if die.is_interference or die.face != 6:
            raise RulesError(
                f"die {i} ({die.face}) is not a 6 of the check: only 6s may be retried "
                "this way (R3)"
            )
    return roll.retry(indices, "six", source)


def retry_fails(
    roll: Roll,
    indices: Sequence[int],
    allowed: int,
    reason: str,
    source: DiceSource | None = None,
) -> Roll:
    """Retry up to ``allowed`` Fails: a Distinction, or Cooperation (R3, R11)."""
    if len(indices) > allowed:
        raise RulesError(f"{len(indices)} Fails chosen but only {allowed} may be retried")
    for i in indices:
        if not 0 <= i < len(roll.dice):
            raise RulesError(f"there is no die number {i} in this roll")
        die = roll.dice[i]
        if die.is_interference or die.face >= 4:
            raise RulesError(f"die {i} ({die.face}) is not a Fail of the check")
    return roll.retry(indices, reason, source)


def helper_interference(cooperators: int) -> int:
    """Each helper rolls with 1 Interference per other cooperator (R11)."""
    validate_count(cooperators, "cooperators")
    if cooperators < 2:
        raise RulesError("cooperation needs a leader and at least one helper")
    return cooperators - 1


def leader_adjustment(helpers: Sequence[Outcome]) -> tuple[int, int]:
    """``(extra Interference, Fail retries)`` the helpers give the leader (R11).

    The leader may retry Fails up to the helpers' total Gain; a failed helper gives the
    leader 1 Interference, a Fumbling helper 2.
    """
    extra = sum(2 if h.fumble else 1 for h in helpers if not h.success)
    retries = sum(h.gain for h in helpers if h.success)
    return extra, retries


def choose_leader(dice: Sequence[int]) -> int:
    """Index of the cooperator rolling most dice; the first of equals (R11)."""
    if not dice:
        raise RulesError("cooperation needs at least one cooperator")
    return max(range(len(dice)), key=lambda i: (dice[i], -i))
