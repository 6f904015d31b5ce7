"""Spending after the roll, a part of :class:`~afdesk.encounter.contest.flow.ContestFlow`:
Shifts in turn (R10: 2 more dice, or a retry of any dice not yet retried, Wins included) or
Will (C4), with the exact odds of each choice, and the roller's free retry of its 6s for
Momentum (R3)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from afdesk.encounter.combatant import Side as Team
from afdesk.encounter.contest.assembly import ShiftSpend
from afdesk.encounter.contest.defense_side import DefenseSide
from afdesk.encounter.errors import IllegalOp
from afdesk.rules.contest import Role
from afdesk.rules.dice import DiceSource, Roll
from afdesk.rules.errors import RulesError
from afdesk.rules.odds import CheckState, ContestOdds
from afdesk.rules.rulesets import Ruleset, SpendKind, SpendUnit

if TYPE_CHECKING:
    from afdesk.rules.rulesets import OddsInput

_Pairs = list[tuple[str, "OddsInput", "OddsInput | None"]]


class SpendSide(DefenseSide):
    """What :class:`ContestFlow` does after the roll: Shifts or Will, and 6s retried."""

    attack: Roll | None
    spends: list[ShiftSpend]

    def _defender_state(self) -> OddsInput | None:
        raise NotImplementedError

    @property
    def spend_unit(self) -> SpendUnit | None:
        """What the players spend after the roll under this ruleset (Shifts, Will, none)."""
        return self.rules.spend_unit

    def payer(self, side: Role, defense: int = 0) -> str:
        """Who pays a Shift for a side (on defense roll ``defense``): the character, or the
        referee's pool for opponents and denizens (R10)."""
        c = self.enc.combatant(self.party(side, defense))
        return c.id if c.side in (Team.BAND, Team.FOLLOWER) else "referee"

    def party(self, side: Role, defense: int = 0) -> str:
        """The character on ``side``: the attacker, or the defender (the leading defense's
        character once one is chosen, else the target; another opponent's for ``defense``
        >= 1, E14)."""
        if side is Role.ATTACKER:
            return self.plan.attacker
        other = self.defender_at(defense)
        if other is not None:
            return other
        return self.defense[0].defender if self.defense else self.plan.target

    def shifts_left(self, side: Role, defense: int = 0) -> int:
        """Shifts (or Will) ``side``'s payer has left, this check's spends counted."""
        payer = self.payer(side, defense)
        will = self.rules.spend_unit is SpendUnit.WILL
        spent = sum(1 for s in self.spends if s.payer == payer and (s.kind == "will") == will)
        if payer == "referee":
            return self.enc.meta.referee_shifts - spent
        c = self.enc.combatant(payer)
        return (c.will if will else c.shifts) - spent

    def shift_choices(
        self, side: Role, defense: int = 0, retry: Sequence[int] = ()
    ) -> dict[str, ContestOdds]:
        """The odds after each spend ``side`` may choose, by kind: "add" (2 dice), "retry"
        (the dice at ``retry``, any not yet retried, Wins included; :meth:`default_retry`
        when none are chosen; left out when there is nothing to retry) — R10; af-classic:
        "will" (2 dice, C4). For another opponent's roll (``defense`` >= 1, E14): the odds
        that its defense stops the check."""
        return self.shift_choices_query(side, defense, retry)()

    def shift_choices_query(
        self, side: Role, defense: int = 0, retry: Sequence[int] = ()
    ) -> Callable[[], dict[str, ContestOdds]]:
        """:meth:`shift_choices` as a pure computation to run later, on any thread (it
        holds only roll states, specs and the stateless ruleset)."""
        if self.rules.spend_unit is None or not self.rolled:
            return dict
        own = self.own_roll(side, defense)
        if own is None:
            return dict
        state = CheckState.from_roll(own)
        pairs = []
        for kind in self.rules.spend_kinds:
            try:
                chosen = tuple(retry) or self.default_retry(side, defense)
                st = self.rules.after_spend(state, kind, own, chosen)
            except RulesError:
                continue  # nothing (or nothing valid) to retry: no odds to show
            pairs.append((kind.value, *self._sides(side, st)))
        return functools.partial(_contests, self.rules, pairs, self._ties(defense))

    def _sides(self, side: Role, st: CheckState) -> tuple[OddsInput, OddsInput | None]:
        """(attacker, defender) for the odds once ``side``'s check is ``st``."""
        assert self.attack is not None
        if side is Role.ATTACKER:
            return st, self._defender_state()
        return CheckState.from_roll(self.attack), st

    def _ties(self, defense: int) -> bool:
        other = self.defender_at(defense)
        return self.higher_card(other) if other else self.defense_wins_ties()

    def own_roll(self, side: Role, defense: int = 0) -> Roll | None:
        """``side``'s roll: the attack, or defense roll ``defense`` (E14); None before it
        is rolled."""
        if Role(side) is Role.ATTACKER:
            return self.attack
        return self.defense_roll_at(defense)

    def retry_candidates(self, side: Role, defense: int = 0) -> tuple[int, ...]:
        """The dice of ``side``'s roll a Shift may retry: its check dice not yet retried,
        Wins included (R3, R10)."""
        roll = self.own_roll(side, defense)
        return roll.retriable_indices() if roll is not None else ()

    def retry_fails(self, side: Role, defense: int = 0) -> tuple[int, ...]:
        """The quick choice "all Fails": ``side``'s Fails not yet retried (R10)."""
        roll = self.own_roll(side, defense)
        return roll.fail_indices() if roll is not None else ()

    def default_retry(self, side: Role, defense: int = 0) -> tuple[int, ...]:
        """What a Shift retry re-rolls when the spender picks nothing (R10): every Fail
        left, or, with none, every die below the other side's Result (the losing 4s of
        4,4 against a 5)."""
        return self.retry_fails(side, defense) or self.retry_below(side, defense)

    def retry_below(self, side: Role, defense: int = 0) -> tuple[int, ...]:
        """The quick choice "all below the other side's Result": ``side``'s check dice not
        yet retried that show less than the other side's Result (R5, R10); none while the
        other side has no Result."""
        side = Role(side)
        roll = self.own_roll(side, defense)
        other = self.attack if side is Role.DEFENDER else self.defense_roll_at(defense)
        if roll is None or other is None or not self.rules.dice_pools:
            return ()
        result = self.rules.outcome(other).result
        if result is None:
            return ()
        return tuple(i for i in roll.retriable_indices() if roll.dice[i].face < result)

    # ---------------------------------------------------------- R3: retrying 6s

    def six_retry_refusal(self, side: Role, indices: Sequence[int] = (), defense: int = 0) -> str:
        """Why ``side`` cannot retry the 6s at ``indices`` (any, when empty) now, or ""
        (R3: free, the roller's choice, each die once)."""
        side = Role(side)
        if not self.rules.six_retry:
            return f"{self.rules.name} has no retry of 6s for Momentum (R3)"
        if defense and side is Role.ATTACKER:
            return "the attacker retries its own 6s"
        roll = self.own_roll(side, defense)
        if roll is None:
            return f"the {side.value} has not rolled"
        sixes = roll.six_indices()
        if not sixes:
            return f"the {side.value}'s check has no 6 left to retry (R3)"
        for i in indices:
            if i not in sixes:
                return f"die {i} is not a 6 of the {side.value}'s check not yet retried (R3)"
        return ""

    def retry_sixes(
        self,
        side: Role,
        indices: Sequence[int],
        source: DiceSource | None = None,
        *,
        defense: int = 0,
    ) -> None:
        """``side`` retries its 6s at ``indices`` for free, trading Gain for Momentum (R3):
        each new face is frozen and never explodes. A refused retry changes nothing."""
        side = Role(side)
        if not indices:
            raise IllegalOp("choose at least one 6 to retry (R3)")
        why = self.six_retry_refusal(side, indices, defense)
        if why:
            raise IllegalOp(why)
        roll = self.own_roll(side, defense)
        assert roll is not None
        try:
            new = self.rules.retry_sixes(roll, tuple(indices), source)
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        if side is Role.ATTACKER:
            self.attack = new
        else:
            self._put_defense_roll(defense, new)

    def six_retry_query(
        self, side: Role, indices: Sequence[int], defense: int = 0
    ) -> Callable[[], ContestOdds]:
        """The exact odds once ``side`` has retried the 6s at ``indices`` (R3), as a pure
        computation to run on any thread. :class:`IllegalOp` when the retry is refused."""
        why = self.six_retry_refusal(side, indices, defense) or (
            "" if indices else "choose at least one 6 to retry (R3)"
        )
        if why:
            raise IllegalOp(why)
        own = self.own_roll(side, defense)
        assert own is not None
        st = CheckState.from_roll(own).with_retried([6] * len(set(indices)))
        pairs = [("six", *self._sides(Role(side), st))]
        return functools.partial(_one_contest, self.rules, pairs, self._ties(defense))

    def spend_options(
        self, side: Role, *, with_odds: bool = True, defense: int = 0
    ) -> list[SpendOption]:
        """Every way ``side`` may spend under this ruleset, with the odds after it (None
        without ``with_odds``: the dialog computes them off the UI thread) and why it is
        refused now ("" if it is not): what the Shifts panel offers."""
        choices = self.shift_choices(side, defense) if with_odds else {}
        return [
            SpendOption(kind, choices.get(kind.value), self.spend_refusal(side, kind, defense))
            for kind in self.rules.spend_kinds
        ]

    def spend_refusal(self, side: Role, kind: str = "", defense: int = 0) -> str:
        """Why ``side`` cannot spend now (on defense roll ``defense``), or "" (R10, C4)."""
        side = Role(side)
        unit = self.rules.spend_unit
        if unit is None:
            return f"{self.rules.name} has no Shifts"
        if defense and side is Role.ATTACKER:
            return "the attacker spends on its own check"
        if self.shifts_left(side, defense) < 1:
            return f"no {unit.label} left for the {side.value} (R10)"
        if self.shift_exchange.done:
            return "both sides are satisfied: the Shifts are over for this check"
        if side is not self.shift_exchange.turn:
            return (
                f"it is the {self.shift_exchange.turn.value}'s turn to spend Shifts or pass (R10)"
            )
        roll = self.attack if side is Role.ATTACKER else self.defense_roll_at(defense)
        if roll is None:
            return f"the {side.value} has not rolled"
        return self.rules.spend_refusal(
            kind,
            roll,
            attacker=side is Role.ATTACKER,
            opposition_rolled=self.defense_roll is not None,
        )

    def spend(
        self,
        side: Role,
        kind: str,
        indices: tuple[int, ...] = (),
        source: DiceSource | None = None,
        *,
        defense: int = 0,
    ) -> None:
        """Spend a Shift (or Will in af-classic) for ``side`` on its own roll: for the
        defender, on defense roll ``defense`` (another opponent's for 1 and up, E14). A
        retry re-rolls the dice at ``indices``, any not yet retried (R10), by default
        :meth:`default_retry`. A refused spend changes nothing."""
        side = Role(side)
        why = self.spend_refusal(side, kind, defense)
        if why:
            raise IllegalOp(why)
        target = "attack" if side is Role.ATTACKER else self._record_index(defense)
        roll = self.attack if side is Role.ATTACKER else self.defense_roll_at(defense)
        assert roll is not None
        if kind == SpendKind.RETRY and not indices:
            indices = self.default_retry(side, defense)
        try:
            new, indices = self.rules.spend(roll, kind, indices, source)
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        self.shift_exchange = self.shift_exchange.spend(side)
        if side is Role.ATTACKER:
            self.attack = new
        else:
            self._put_defense_roll(defense, new)
        payer = self.payer(side, defense)
        self.spends.append(ShiftSpend(side, payer, kind, target, tuple(indices)))

    def spend_on_turn(
        self,
        kind: SpendKind | str,
        source: DiceSource | None = None,
        indices: tuple[int, ...] = (),
    ) -> None:
        """The side on turn spends (R10); a retry re-rolls ``indices`` (by default
        :meth:`default_retry`)."""
        self.spend(self.shift_exchange.turn, kind, indices, source)

    def pass_turn(self, side: Role | None = None) -> None:
        """``side`` (the side on turn if None) is satisfied and passes (R10)."""
        side = self.shift_exchange.turn if side is None else Role(side)
        try:
            self.shift_exchange = self.shift_exchange.pass_turn(side)
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        if not self.opposed and not self.shift_exchange.done:
            # No one opposes (a plain check, hustle, hide): no other side answers, so the
            # acting side's pass ends the Shifts (R10).
            self.shift_exchange = self.shift_exchange.pass_turn(self.shift_exchange.turn)

    @property
    def opposed(self) -> bool:
        """Someone stands on the defender's side (a target, or a chosen defense)."""
        return bool(self.plan.target or self.defense)


class SpendOption(NamedTuple):
    """One way to spend after the roll: its kind, the odds after it, why it is refused."""

    kind: SpendKind
    odds: ContestOdds | None
    refusal: str


def _contests(rules: Ruleset, pairs: _Pairs, ties: bool) -> dict[str, ContestOdds]:
    """The odds of each (kind, attacker, defender), by kind."""
    return {kind: rules.contest_odds(a, d, defense_wins_ties=ties) for kind, a, d in pairs}


def _one_contest(rules: Ruleset, pairs: _Pairs, ties: bool) -> ContestOdds:
    return _contests(rules, pairs, ties)[pairs[0][0]]
