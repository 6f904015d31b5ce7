"""Ruleset ``d20-degrees`` (docs/rules.md D1-D5): d20 + bonus against TN and F, five degrees,
keywords; no dice pools, no defense roll, nothing to spend."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from afdesk.rules import d20
from afdesk.rules.d20 import D20Check, Degree
from afdesk.rules.dice import DiceSource, Roll
from afdesk.rules.errors import RulesError
from afdesk.rules.rulesets.base import Ruleset, d20_margin
from afdesk.rules.verdict import Verdict

if TYPE_CHECKING:
    from fractions import Fraction


class D20Degrees(Ruleset):
    name = d20.NAME
    description = "d20-degrees: d20 + bonus against TN and F, five degrees (D1-D5)"
    dice_pools = False
    defense_roll = False
    advantage = False
    keywords = d20.KEYWORDS
    odds_count_guard_help = False
    momentum = False
    typed_dice_order = "one d20, its face 1 to 20 (D1)"

    def verdict(
        self,
        attack: Roll | D20Check,
        defense: Roll | None = None,
        *,
        defense_wins_ties: bool = False,
    ) -> Verdict:
        """A d20 check has no opposing roll: the defense is in its TN and F; it
        "succeeds" from a Pass up (D2)."""
        if not isinstance(attack, D20Check):
            raise RulesError(f"ruleset {self.name!r} has no dice pools: its checks roll a d20")
        d = attack.degree
        return Verdict(succeeds=d >= Degree.PASS, stopped=False, degree=d)

    def roll_d20(
        self,
        bonus: int,
        tn: int = d20.PLAIN_TN,
        fortification: int = 0,
        *,
        keywords: Iterable[str] = (),
        source: DiceSource | None = None,
    ) -> D20Check:
        """Roll d20 + bonus against TN and F (D1); without a target TN 10 and no F."""
        return d20.roll_d20(bonus, tn, fortification, keywords=keywords, source=source)

    def degree_odds(
        self,
        bonus: int,
        tn: int = d20.PLAIN_TN,
        fortification: int = 0,
        *,
        keywords: Iterable[str] = (),
    ) -> dict[Degree, Fraction]:
        from afdesk.rules.odds.d20 import degree_odds  # when asked for (base.py)

        return degree_odds(bonus, tn, fortification, keywords=keywords)

    def p_success(
        self,
        bonus: int,
        tn: int = d20.PLAIN_TN,
        fortification: int = 0,
        *,
        keywords: Iterable[str] = (),
    ) -> float:
        """P(a Pass or better)."""
        dist = self.degree_odds(bonus, tn, fortification, keywords=keywords)
        return float(sum(v for k, v in dist.items() if k >= Degree.PASS))

    def roll_plain(
        self, score: int, modifiers: Sequence[int], source: DiceSource | None = None
    ) -> D20Check:
        """Modifiers count 1 per die on a d20 (D1); TN 10, no F."""
        return self.roll_d20(score + sum(modifiers), source=source)

    def p_margin_above(self, score: int, modifiers: Sequence[int], n: int) -> float:
        dist = self.degree_odds(score + sum(modifiers))
        return float(sum(v for k, v in dist.items() if d20_margin(k) > n))
