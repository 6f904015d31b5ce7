"""A contest between an original check and its opposition, for every ruleset.

``verdict`` says what a contest came to; :class:`ShiftExchange` runs R10: after the results,
both sides may spend Shifts in turn until both are satisfied.
"""

from __future__ import annotations

import enum

import msgspec

from afdesk.rules import af254, classic
from afdesk.rules.d20 import D20Check, Degree
from afdesk.rules.dice import Roll
from afdesk.rules.errors import RulesError
from afdesk.rules.outcome import Outcome

AF_RULESETS = (af254.NAME, classic.NAME)


def outcome(ruleset: str, roll: Roll) -> Outcome:
    """The outcome of ``roll`` under an AF ruleset."""
    if ruleset == af254.NAME:
        return af254.outcome_of(roll)
    if ruleset == classic.NAME:
        return classic.outcome_of(roll)
    raise RulesError(f"ruleset {ruleset!r} has no dice pools (expected af-2.5.4 or af-classic)")


def roll(ruleset: str, dice: int, interference: int = 0, **kw) -> Roll:
    """Roll a check under an AF ruleset (``kw`` as for ``af254.roll_check`` /
    ``classic.roll_check``)."""
    if ruleset == af254.NAME:
        return af254.roll_check(dice, interference, **kw)
    if ruleset == classic.NAME:
        return classic.roll_check(dice, interference, **kw)
    raise RulesError(f"ruleset {ruleset!r} has no dice pools (expected af-2.5.4 or af-classic)")


class Verdict(msgspec.Struct, frozen=True):
    """What a contest came to.

    ``attack`` is the original's outcome before opposition, ``defense`` the opposition's
    (None when there was none or it was not rolled). ``lands``: the original succeeded and
    was not stopped.
    """

    succeeds: bool
    stopped: bool
    attack: Outcome | None = None
    defense: Outcome | None = None
    degree: Degree | None = None

    @property
    def lands(self) -> bool:
        return self.succeeds and not self.stopped

    def explain(self) -> str:
        """ "6 beats 5, stopped", "5 stands against 4", "failed", ..."""
        if self.degree is not None:
            return self.degree.label
        a, d = self.attack, self.defense
        if a is None or not a.success:
            return "Fumble" if a is not None and a.fumble else "failed"
        if d is None:
            return f"{_score(a)}, succeeds"
        if not d.success:
            return f"{_score(a)} against a failed defense, lands"
        if self.stopped:
            return f"{_score(d)} beats {_score(a)}, stopped"
        return f"{_score(a)} stands against {_score(d)}"


def _score(o: Outcome) -> str:
    return f"{o.result}" + (f"x{o.gain}" if o.gain > 1 else "")


def verdict(ruleset: str, attack: Roll | D20Check, defense: Roll | None = None) -> Verdict:
    """Resolve a contest: R9 for af-2.5.4, C2 for af-classic, D2 for d20-degrees.

    Opposition only counts against a successful original. A d20 check has no opposing roll:
    the defense is in its TN and F; it "succeeds" from a Pass up.
    """
    if isinstance(attack, D20Check):
        d = attack.degree
        return Verdict(succeeds=d >= Degree.PASS, stopped=False, degree=d)
    a = outcome(ruleset, attack)
    if defense is None or not a.success:
        return Verdict(succeeds=a.success, stopped=False, attack=a)
    d = outcome(ruleset, defense)
    if ruleset == af254.NAME:
        return Verdict(succeeds=True, stopped=af254.stops(a, d), attack=a, defense=d)
    after = classic.oppose(a, d)
    return Verdict(succeeds=True, stopped=not after.success, attack=after, defense=d)


class Side(enum.StrEnum):
    """The two sides of a contest."""

    ATTACKER = "attacker"
    DEFENDER = "defender"

    @property
    def other(self) -> Side:
        return Side.DEFENDER if self is Side.ATTACKER else Side.ATTACKER


class ShiftExchange(msgspec.Struct, frozen=True):
    """Whose turn it is to spend Shifts (R10).

    The side on turn may spend as often as it likes; when it is satisfied it passes and the
    other side may spend. The exchange is over when both pass in a row (nothing changed
    after the last pass).
    """

    turn: Side = Side.ATTACKER
    passes: int = 0

    @property
    def done(self) -> bool:
        return self.passes >= 2

    def spend(self, side: Side) -> ShiftExchange:
        self._check(side)
        return ShiftExchange(turn=side, passes=0)

    def pass_turn(self, side: Side) -> ShiftExchange:
        self._check(side)
        return ShiftExchange(turn=side.other, passes=self.passes + 1)

    def _check(self, side: Side) -> None:
        if self.done:
            raise RulesError("both sides are satisfied: the Shifts are over for this check")
        if side is not self.turn:
            raise RulesError(
                f"it is the {self.turn.value}'s turn to spend Shifts or pass (R10), "
                f"not the {side.value}'s"
            )
