"""Ruleset ``af-2.5.4``, the default (docs/rules.md R1-R13): Shifts, Ventures, Fumbles."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from afdesk.rules import af254
from afdesk.rules.dice import DiceSource, Pool, Roll
from afdesk.rules.errors import RulesError
from afdesk.rules.outcome import Outcome
from afdesk.rules.rulesets.base import DicePoolRuleset, SpendKind, SpendUnit

if TYPE_CHECKING:  # the odds are imported when asked for (base.py)
    from afdesk.rules.odds.core import CheckOdds, CheckState, ContestOdds, PoolSpec
    from afdesk.rules.rulesets.base import OddsInput


class AF254(DicePoolRuleset):
    name = af254.NAME
    description = "af-2.5.4 (default): Shifts, Ventures, Fumbles (R1-R13)"
    venture_interference = 2
    spend_unit = SpendUnit.SHIFTS
    spend_kinds = (SpendKind.ADD, SpendKind.RETRY)
    six_retry = True
    helper_rolls_first = True  # its Gain buys the defense retries of Fails (R11)

    def check_ventures(self, interference: int, ventures: int) -> None:
        af254.check_venture_allowed(interference, ventures)

    def outcome(self, roll: Roll) -> Outcome:
        return af254.outcome_of(roll)

    def oppose(self, attack: Outcome, defense: Outcome) -> tuple[bool, Outcome]:
        return af254.stops(attack, defense), attack

    def full_tie(self, attack: Outcome, defense: Outcome) -> bool:
        """Equal Result and equal Gain (R9)."""
        return (
            attack.success
            and defense.success
            and attack.result == defense.result
            and attack.gain == defense.gain
        )

    def _roll_check(self) -> Callable[..., Roll]:
        return af254.roll_check

    def roll_opposition(
        self,
        dice: int,
        interference: int,
        helper: tuple[int, int] | None = None,
        *,
        against_advantage: bool = False,
        ventures: int = 0,
        advantage: bool = False,
        disadvantage: bool = False,
        source: DiceSource | None = None,
    ) -> tuple[Roll, Roll | None]:
        """The guard helps as a cooperator (R11): its Gain buys the defense Fail retries,
        its failure adds Interference."""
        extra = retries = 0
        helper_roll = None
        if helper is not None:
            h_dice, h_intf = helper
            helper_roll = af254.roll_check(
                h_dice, h_intf + af254.helper_interference(2), pool=Pool.HELPER, source=source
            )
            extra, retries = af254.leader_adjustment([af254.outcome_of(helper_roll)])
        roll = af254.roll_check(
            dice,
            interference + extra,
            ventures=ventures,
            advantage=advantage,
            disadvantage=disadvantage,
            pool=Pool.OPPOSITION,
            source=source,
        )
        fails = roll.fail_indices()[:retries]
        if fails:
            roll = af254.retry_fails(roll, fails, retries, "cooperation", source)
        return roll, helper_roll

    def check_odds(self, spec: OddsInput) -> CheckOdds:
        from afdesk.rules.odds import af254 as odds

        return odds.check_odds(spec)

    def contest_odds(
        self,
        attacker: OddsInput,
        defender: OddsInput | None,
        *,
        defense_wins_ties: bool = False,
    ) -> ContestOdds:
        from afdesk.rules.odds import af254 as odds

        return odds.contest_odds(attacker, defender, defense_wins_ties=defense_wins_ties)

    def opposition_spec(self, lead: PoolSpec, helper: PoolSpec | None) -> OddsInput:
        from afdesk.rules.odds import af254 as odds
        from afdesk.rules.odds.core import PoolSpec

        if helper is None:
            return lead
        helping = PoolSpec(helper.dice, helper.interference + af254.helper_interference(2))
        return odds.Cooperation(lead, (helping,))

    def p_gain_above(self, spec: PoolSpec, n: int) -> float:
        from afdesk.rules.odds import af254 as odds

        return odds.distribution(spec).p_gain_above(n)

    def spend_refusal(
        self, kind: str, roll: Roll | None, *, attacker: bool, opposition_rolled: bool
    ) -> str:
        if kind and kind not in (SpendKind.ADD, SpendKind.RETRY):
            return f"unknown Shift {kind!r}: add or retry (R10)"
        if kind == SpendKind.RETRY and roll is not None and not roll.retriable_indices():
            return "every die of the check is already retried: each is re-rolled once (R3, R10)"
        return ""

    def spend(
        self,
        roll: Roll,
        kind: str,
        indices: Sequence[int] = (),
        source: DiceSource | None = None,
    ) -> tuple[Roll, tuple[int, ...]]:
        if kind == SpendKind.ADD:
            return af254.shift_add(roll, source), tuple(indices)
        chosen = self.retry_choice(roll, indices)
        return af254.shift_retry(roll, chosen, source), chosen

    def retry_choice(self, roll: Roll, indices: Sequence[int] = ()) -> tuple[int, ...]:
        """The dice a Shift retry re-rolls: ``indices`` (any check dice not yet retried,
        Wins included, R10), or every Fail left when none are chosen. :class:`RulesError`
        saying which die is wrong."""
        if not indices:
            fails = roll.fail_indices()
            if not fails:
                raise RulesError(
                    "there is no Fail left to retry: choose the dice the Shift retries (R10)"
                )
            return fails
        allowed = set(roll.retriable_indices())
        chosen: list[int] = []
        for i in indices:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(roll.dice):
                raise RulesError(f"there is no die number {i!r} in this roll of {len(roll.dice)}")
            die = roll.dice[i]
            if die.is_interference:
                raise RulesError(f"die {i} is Interference: a Shift retries the check's dice (R4)")
            if i not in allowed:
                raise RulesError(
                    f"die {i} ({die.face}) was already retried: each die is re-rolled once (R3)"
                )
            if i not in chosen:
                chosen.append(i)
        return tuple(sorted(chosen))

    def after_spend(
        self, state: CheckState, kind: str, roll: Roll, indices: Sequence[int] = ()
    ) -> CheckState:
        if kind == SpendKind.ADD:
            return state.with_added_dice(2)
        chosen = self.retry_choice(roll, indices)
        return state.with_retried([roll.dice[i].face for i in chosen])

    def retry_sixes(
        self, roll: Roll, indices: Sequence[int], source: DiceSource | None = None
    ) -> Roll:
        return af254.retry_sixes(roll, indices, source)
