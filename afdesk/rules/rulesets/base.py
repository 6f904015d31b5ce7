"""The interface every ruleset implements, and what two dice-pool rulesets share.

A ruleset owns its roll, its outcome, its opposition and cooperation, what its players
spend after the roll (Shifts or Will), its limits (Ventures) and its odds. Callers outside
``afdesk.rules`` ask a ruleset what it can do (``dice_pools``, ``defense_roll``,
``keywords``, ``spend_unit``, ...) and never compare its name.
"""

from __future__ import annotations

import abc
import enum
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

from afdesk.rules.d20 import PLAIN_TN, D20Check, Degree
from afdesk.rules.dice import DiceSource, Pool, Roll, pool_sizes
from afdesk.rules.errors import RulesError
from afdesk.rules.outcome import Outcome
from afdesk.rules.verdict import Verdict

# The exact odds (``afdesk.rules.odds``) are imported where odds are asked for: loading a
# file or starting the app asks for none.
if TYPE_CHECKING:
    from fractions import Fraction

    from afdesk.rules.odds import CheckOdds, CheckState, ContestOdds, Cooperation, PoolSpec

    OddsInput: TypeAlias = PoolSpec | CheckState | Cooperation
    """What the exact odds take: a check before rolling, part-way through, or a
    cooperation."""
else:

    def __getattr__(name: str) -> Any:
        if name == "OddsInput":  # the union, built when first asked for
            from afdesk.rules.odds import CheckState, Cooperation, PoolSpec

            globals()[name] = union = PoolSpec | CheckState | Cooperation
            return union
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class SpendUnit(enum.StrEnum):
    """What a player spends after the roll: Shifts (R10) or Will (C4)."""

    SHIFTS = "shifts"
    WILL = "will"

    @property
    def label(self) -> str:
        return "Shifts" if self is SpendUnit.SHIFTS else "Will"

    @property
    def rule(self) -> str:
        return "R10" if self is SpendUnit.SHIFTS else "C4"


class SpendKind(enum.StrEnum):
    """One way to spend (stored in files as its value)."""

    ADD = "add"
    """A Shift: 2 more dice that do not explode (R10)."""
    RETRY = "retry"
    """A Shift: retry dice not yet retried, every Fail left by default (R10)."""
    WILL = "will"
    """1 Will: 2 more dice, before the opposition is rolled (C4)."""

    @property
    def label(self) -> str:
        return {"add": "+2 dice", "retry": "Retry dice", "will": "Will: +2 dice"}[self.value]


class Ruleset(abc.ABC):
    """One ruleset. Instances are stateless; look one up by name with
    :func:`afdesk.rules.rulesets.ruleset_named`."""

    name: ClassVar[str]
    """The name files store (``meta.ruleset``)."""
    description: ClassVar[str]
    """One line for the GM: what the ruleset is, with its rule ids."""
    dice_pools: ClassVar[bool] = True
    """Checks roll d6 pools against Interference; False: a d20 against TN and F."""
    defense_roll: ClassVar[bool] = True
    """The target rolls its defense; False: its numbers are the defense."""
    advantage: ClassVar[bool] = True
    """Advantage and Disadvantage apply to checks."""
    keywords: ClassVar[frozenset[str]] = frozenset()
    """Keywords a check may carry (Risk, Ease, ...)."""
    venture_interference: ClassVar[int] = 0
    """Interference each Venture adds; 0: no Ventures."""
    spend_unit: ClassVar[SpendUnit | None] = None
    """What players spend after the roll; None: nothing."""
    spend_kinds: ClassVar[tuple[SpendKind, ...]] = ()
    """The ways to spend, in the order the GM is offered them."""
    odds_count_guard_help: ClassVar[bool] = True
    """The exact odds count a guard cooperating with a defense."""
    helper_rolls_first: ClassVar[bool] = False
    """A defense's helper (a guard, or another's retort, R11) rolls before the defense:
    physical dice are typed in that order."""
    momentum: ClassVar[bool] = True
    """Successes earn Momentum to spend after the check (R7, R12, C3)."""
    momentum_marker: ClassVar[int] = 2
    """The dice a Momentum marker gives (or, negative, the Interference it gives) on a
    character's next check: 2 under R12, 1 under af-classic's C3."""
    momentum_rule: ClassVar[str] = "R12"
    """The rule id that sets :attr:`momentum_marker`."""
    six_retry: ClassVar[bool] = False
    """The roller may retry any of its 6s for free, trading Gain for Momentum (R3)."""
    typed_dice_order: ClassVar[str] = (
        "the check's dice, each 6's extra die right after it (R2), then the Interference "
        "dice the same way, then any new face a retry asks for (R3, R4)"
    )
    """How the GM types physical dice: the order this ruleset's roll takes them in."""

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<ruleset {self.name}>"

    # ---------------------------------------------------------------------- Momentum

    @property
    def momentum_markers(self) -> dict[int, str]:
        """The Momentum markers a character can carry under this ruleset, with what each
        does (R12: +2/-2; C3: +1/-1)."""
        n = self.momentum_marker
        count = {1: "one", 2: "two"}.get(n, str(n))
        more = f"{count} more {'die' if n == 1 else 'dice'}"
        less = f"{count} Interference"
        return {n: f"{more} on the next check", -n: f"{less} on the next check"}

    def marker_refusal(self, dice: int) -> str:
        """Why a Momentum marker of ``dice`` is refused under this ruleset, or ""."""
        if dice in self.momentum_markers:
            return ""
        n = self.momentum_marker
        return f"a Momentum marker is +{n} or -{n} ({self.momentum_rule}), not {dice:+d}"

    # --------------------------------------------------------------------- Ventures

    def check_ventures(self, interference: int, ventures: int) -> None:
        """:class:`RulesError` unless ``ventures`` Ventures are allowed on a check with
        ``interference`` Interference dice."""
        if ventures:
            raise RulesError(f"{self.name} has no Ventures")

    def max_ventures(self, interference: int) -> int:
        """The most Ventures allowed on a check with ``interference`` Interference dice."""
        return 0

    # ---------------------------------------------------------------------- rolling

    @abc.abstractmethod
    def verdict(
        self,
        attack: Roll | D20Check,
        defense: Roll | None = None,
        *,
        defense_wins_ties: bool = False,
    ) -> Verdict:
        """What a contest came to (R9, C2, D2). ``defense_wins_ties``: in an encounter
        both hold a reflex card this round and the defender's is higher, so a full tie
        goes to the defense (R9, E2)."""

    def outcome(self, roll: Roll) -> Outcome:
        """The outcome of a dice-pool roll."""
        raise RulesError(f"ruleset {self.name!r} has no dice pools")

    def roll_check(
        self,
        dice: int,
        interference: int = 0,
        *,
        ventures: int = 0,
        advantage: bool = False,
        disadvantage: bool = False,
        pool: Pool = Pool.CHECK,
        source: DiceSource | None = None,
    ) -> Roll:
        """Roll a dice-pool check."""
        raise RulesError(f"ruleset {self.name!r} has no dice pools")

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
        """Roll a defense, with a guard's ``(dice, Interference)`` cooperating (E4):
        ``(the defense's roll, the helper's roll)``. The defense takes Ventures,
        Advantage and Disadvantage like any check (R4, R8, C3, C5)."""
        raise RulesError(f"{self.name} has no defense roll: the TN and F are the defense")

    # ------------------------------------------------------------------------- odds

    def check_odds(self, spec: OddsInput) -> CheckOdds:
        raise RulesError(f"ruleset {self.name!r} has no dice pools")

    def contest_odds(
        self,
        attacker: OddsInput,
        defender: OddsInput | None,
        *,
        defense_wins_ties: bool = False,
    ) -> ContestOdds:
        """Exact odds of a contest (R9, C2). ``defense_wins_ties``: a full tie goes to the
        defense, as :meth:`verdict` takes it (R9, E2: the defender's reflex card is the
        higher)."""
        raise RulesError(f"ruleset {self.name!r} has no dice pools")

    def opposition_spec(self, lead: PoolSpec, helper: PoolSpec | None) -> OddsInput:
        """What the odds of a defense count: the lead pool, with the guard helping where
        :attr:`odds_count_guard_help`."""
        return lead

    # ------------------------------------------------------- checks against numbers

    def roll_d20(
        self,
        bonus: int,
        tn: int = PLAIN_TN,
        fortification: int = 0,
        *,
        keywords: Iterable[str] = (),
        source: DiceSource | None = None,
    ) -> D20Check:
        """Roll d20 + bonus against TN and F (D1), where the ruleset's checks are d20s
        (``dice_pools`` is false)."""
        raise RulesError(f"{self.name} checks roll dice pools, not a d20")

    def degree_odds(
        self,
        bonus: int,
        tn: int = PLAIN_TN,
        fortification: int = 0,
        *,
        keywords: Iterable[str] = (),
    ) -> dict[Degree, Fraction]:
        """The exact probability of each degree of a d20 check (D2-D4)."""
        raise RulesError(f"{self.name} checks roll dice pools, not a d20")

    def p_success(
        self,
        bonus: int,
        tn: int = PLAIN_TN,
        fortification: int = 0,
        *,
        keywords: Iterable[str] = (),
    ) -> float:
        """P(a d20 check makes a Pass or better)."""
        raise RulesError(f"{self.name} checks roll dice pools, not a d20")

    # ------------------------------------------------------------------------ spends

    def spend_refusal(
        self, kind: str, roll: Roll | None, *, attacker: bool, opposition_rolled: bool
    ) -> str:
        """Why a spend of ``kind`` on ``roll`` is refused now, or ""."""
        return f"{self.name} has nothing to spend after the roll"

    def spend(
        self,
        roll: Roll,
        kind: str,
        indices: Sequence[int] = (),
        source: DiceSource | None = None,
    ) -> tuple[Roll, tuple[int, ...]]:
        """Spend ``kind`` on ``roll``: ``(the new roll, the dice it retried)``."""
        raise RulesError(f"{self.name} has nothing to spend after the roll")

    def after_spend(
        self, state: CheckState, kind: str, roll: Roll, indices: Sequence[int] = ()
    ) -> CheckState:
        """The check's state after spending ``kind`` on ``roll`` (retrying the dice at
        ``indices``, the default of :meth:`spend` when empty), for the odds."""
        raise RulesError(f"{self.name} has nothing to spend after the roll")

    def retry_sixes(
        self, roll: Roll, indices: Sequence[int], source: DiceSource | None = None
    ) -> Roll:
        """Retry the 6s of ``roll`` at ``indices``, for free (R3), where :attr:`six_retry`."""
        raise RulesError(f"{self.name} has no retry of 6s for Momentum (R3)")

    # ----------------------------------------------------------------- plain checks

    @abc.abstractmethod
    def roll_plain(
        self, score: int, modifiers: Sequence[int], source: DiceSource | None = None
    ) -> Roll | D20Check:
        """Roll an unopposed check of ``score`` with modifier dice (+N bonus, -N penalty)."""

    @abc.abstractmethod
    def p_margin_above(self, score: int, modifiers: Sequence[int], n: int) -> float:
        """P(an unopposed check succeeds with a success margin above ``n``) (R13)."""


def d20_margin(deg: Degree) -> int:
    """A d20-degrees margin (afdesk's reading of R13 there): Pass 0, Success 1, Triumph 2;
    negative for a Failure (-1) or a Disaster (-2)."""
    return int(deg) - int(Degree.PASS)


class DicePoolRuleset(Ruleset):
    """What af-2.5.4 and af-classic share: d6 pools, Interference, opposing rolls."""

    def _roll_check(self) -> Callable[..., Roll]:
        """The ruleset's own ``roll_check`` (``af254.roll_check``, ``classic.roll_check``)."""
        raise NotImplementedError

    def roll_check(
        self,
        dice: int,
        interference: int = 0,
        *,
        ventures: int = 0,
        advantage: bool = False,
        disadvantage: bool = False,
        pool: Pool = Pool.CHECK,
        source: DiceSource | None = None,
    ) -> Roll:
        roll: Roll = self._roll_check()(
            dice,
            interference,
            ventures=ventures,
            advantage=advantage,
            disadvantage=disadvantage,
            pool=pool,
            source=source,
        )
        return roll

    def max_ventures(self, interference: int) -> int:
        n = 0
        while True:
            try:
                self.check_ventures(interference, n + 1)
            except RulesError:
                return n
            n += 1
            if n > 99:
                return n

    @abc.abstractmethod
    def oppose(self, attack: Outcome, defense: Outcome) -> tuple[bool, Outcome]:
        """``(stopped, the attack's outcome after opposition)`` (R9, C2)."""

    def full_tie(self, attack: Outcome, defense: Outcome) -> bool:
        """Whether a contest is a full tie that the higher reflex card decides (R9)."""
        return False

    def opposition_after(self, attack: Outcome, defense: Outcome) -> Outcome:
        """The opposition's outcome once it has opposed (C2, C3: what it spent is gone)."""
        return defense

    def verdict(
        self,
        attack: Roll | D20Check,
        defense: Roll | None = None,
        *,
        defense_wins_ties: bool = False,
    ) -> Verdict:
        if isinstance(attack, D20Check):
            raise RulesError(f"{self.name} checks roll dice pools, not a d20")
        a = self.outcome(attack)
        if defense is None or not a.success:
            return Verdict(succeeds=a.success, stopped=False, attack=a)
        d = self.outcome(defense)
        stopped, after = self.oppose(a, d)
        if not stopped and defense_wins_ties and self.full_tie(a, d):
            stopped = True  # the higher reflex card wins the full tie (R9, E2)
        return Verdict(
            succeeds=True, stopped=stopped, attack=after, defense=self.opposition_after(a, d)
        )

    def roll_plain(
        self, score: int, modifiers: Sequence[int], source: DiceSource | None = None
    ) -> Roll:
        dice, interference = pool_sizes(score, modifiers)
        return self.roll_check(dice, interference, source=source)

    def p_margin_above(self, score: int, modifiers: Sequence[int], n: int) -> float:
        from afdesk.rules.odds import PoolSpec

        dice, interference = pool_sizes(score, modifiers)
        return self.p_gain_above(PoolSpec(dice, interference), n)

    @abc.abstractmethod
    def p_gain_above(self, spec: PoolSpec, n: int) -> float:
        """P(success with a Gain above ``n``): the success margin exceeds ``n`` (R13)."""
