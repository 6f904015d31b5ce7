"""A contest between an original check and its opposition, for every ruleset.

``verdict`` says what a contest came to; :class:`ShiftExchange` runs R10: after the results,
both sides may spend Shifts in turn until both are satisfied.
"""

import enum

import msgspec

from afdesk.rules import d20
from afdesk.rules.d20 import D20Check
from afdesk.rules.dice import DiceSource, Pool, Roll
from afdesk.rules.errors import RulesError
from afdesk.rules.outcome import Outcome
from afdesk.rules.rulesets import ruleset_named
from afdesk.rules.verdict import Verdict


def outcome(ruleset: str, roll: Roll) -> Outcome:
    """The outcome of ``roll`` under the dice-pool ruleset named ``ruleset``."""
    return ruleset_named(ruleset).outcome(roll)


def roll(
    ruleset: str,
    dice: int,
    interference: int = 0,
    *,
    ventures: int = 0,
    advantage: bool = False,
    disadvantage: bool = False,
    pool: Pool = Pool.CHECK,
    source: DiceSource | None = None,
) -> Roll:
    """Roll a check under the dice-pool ruleset named ``ruleset`` (the keywords as for
    ``af254.roll_check`` / ``classic.roll_check``)."""
    return ruleset_named(ruleset).roll_check(
        dice,
        interference,
        ventures=ventures,
        advantage=advantage,
        disadvantage=disadvantage,
        pool=pool,
        source=source,
    )


def verdict(ruleset: str, attack: Roll | D20Check, defense: Roll | None = None) -> Verdict:
    """Resolve a contest: R9 for af-2.5.4, C2 for af-classic, D2 for d20-degrees.

    Opposition only counts against a successful original. A d20 check has no opposing roll:
    the defense is in its TN and F; it "succeeds" from a Pass up.
    """
    if isinstance(attack, D20Check):
        return ruleset_named(d20.NAME).verdict(attack)
    return ruleset_named(ruleset).verdict(attack, defense)


class Role(enum.StrEnum):
    """The two parties of a contest, attacker and defender (a character's side is ``Side``)."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> "Role":
        return Role.DEFENDER if self is Role.ATTACKER else Role.ATTACKER


class ShiftExchange(msgspec.Struct, frozen=True):
    """Whose turn it is to spend Shifts (R10).

    The side on turn may spend as often as it likes; when it is satisfied it passes and the
    other side may spend. The exchange is over when both pass in a row (nothing changed
    after the last pass).
    """

    turn: Role = Role.ATTACKER
    passes: int = 0

    @property
    def done(self) -> bool:
        return self.passes >= 2

    def spend(self, side: Role) -> "ShiftExchange":
        self._check(side)
        return ShiftExchange(turn=side, passes=0)

    def pass_turn(self, side: Role) -> "ShiftExchange":
        self._check(side)
        return ShiftExchange(turn=side.other, passes=self.passes + 1)

    def _check(self, side: Role) -> None:
        if self.done:
            raise RulesError("both sides are satisfied: the Shifts are over for this check")
        if side is not self.turn:
            raise RulesError(
                f"it is the {self.turn.value}'s turn to spend Shifts or pass (R10), "
                f"not the {side.value}'s"
            )
