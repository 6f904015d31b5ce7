"""Ruleset ``af-classic`` (docs/rules.md C1-C6): Will instead of Shifts, Venture tokens, no
Fumble."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from afdesk.rules import classic
from afdesk.rules.dice import DiceSource, Pool, Roll
from afdesk.rules.errors import RulesError
from afdesk.rules.outcome import Outcome
from afdesk.rules.rulesets.base import DicePoolRuleset, SpendKind, SpendUnit

if TYPE_CHECKING:  # the odds are imported when asked for (base.py)
    from afdesk.rules.odds.core import CheckOdds, CheckState, ContestOdds, PoolSpec
    from afdesk.rules.rulesets.base import OddsInput


class Classic(DicePoolRuleset):
    name = classic.NAME
    description = "af-classic: Will, Venture tokens, no Fumble (C1-C6)"
    venture_interference = 1
    spend_unit = SpendUnit.WILL
    spend_kinds = (SpendKind.WILL,)
    odds_count_guard_help = False
    momentum_marker = 1
    momentum_rule = "C3"
    typed_dice_order = (
        "the check's dice, each 6's extra die right after it unless Disadvantage stops "
        "explosions, then the Interference dice the same way (C1, C5)"
    )

    def check_ventures(self, interference: int, ventures: int) -> None:
        classic.check_ventures(ventures)

    def outcome(self, roll: Roll) -> Outcome:
        return classic.outcome_of(roll)

    def oppose(self, attack: Outcome, defense: Outcome) -> tuple[bool, Outcome]:
        after = classic.oppose(attack, defense)
        return not after.success, after

    def opposition_after(self, attack: Outcome, defense: Outcome) -> Outcome:
        return classic.spend_opposition(attack, defense)

    def _roll_check(self) -> Callable[..., Roll]:
        return classic.roll_check

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
        """The guard's remaining successes join the defense's pool (C6)."""
        roll = classic.roll_check(
            dice,
            interference,
            ventures=ventures,
            advantage=advantage,
            disadvantage=disadvantage,
            pool=Pool.OPPOSITION,
            against_advantage=against_advantage,
            source=source,
        )
        if helper is None:
            return roll, None
        h_dice, h_intf = helper
        helper_roll = classic.roll_check(
            h_dice, h_intf + classic.helper_interference(dice), pool=Pool.HELPER, source=source
        )
        return classic.cooperate(roll, [helper_roll]), helper_roll

    def check_odds(self, spec: OddsInput) -> CheckOdds:
        from afdesk.rules.odds import classic as odds

        return odds.classic_check_odds(_single(spec))

    def contest_odds(
        self,
        attacker: OddsInput,
        defender: OddsInput | None,
        *,
        defense_wins_ties: bool = False,
    ) -> ContestOdds:
        from afdesk.rules.odds import classic as odds

        return odds.classic_contest_odds(
            _single(attacker),
            None if defender is None else _single(defender),
            defense_wins_ties=defense_wins_ties,
        )

    def p_gain_above(self, spec: PoolSpec, n: int) -> float:
        from afdesk.rules.odds import classic as odds

        return odds.classic_p_gain_above(spec, n)

    def spend_refusal(
        self, kind: str, roll: Roll | None, *, attacker: bool, opposition_rolled: bool
    ) -> str:
        if kind and kind != SpendKind.WILL:
            return "af-classic spends Will for 2 dice (C4)"
        if opposition_rolled and attacker:
            return "Will is spent before the opposition is rolled (C4)"
        return ""

    def spend(
        self,
        roll: Roll,
        kind: str,
        indices: Sequence[int] = (),
        source: DiceSource | None = None,
    ) -> tuple[Roll, tuple[int, ...]]:
        return classic.spend_will(roll, source), tuple(indices)

    def after_spend(
        self, state: CheckState, kind: str, roll: Roll, indices: Sequence[int] = ()
    ) -> CheckState:
        """The 2 dice of Will are rolled like the check's: they explode unless it has
        Disadvantage (C4, C5), as :func:`afdesk.rules.classic.spend_will` rolls them."""
        return state.with_added_dice(2, explode=classic.will_dice_explode(roll))


def _single(spec: OddsInput) -> PoolSpec | CheckState:
    from afdesk.rules.odds.af254 import Cooperation

    if isinstance(spec, Cooperation):
        raise RulesError("the af-classic odds do not count cooperation (C6)")
    return spec
