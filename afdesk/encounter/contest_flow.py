"""Running one contested check, step by step, for the dialog and for scripted play.

Choose (modifiers, Venture, Advantage), see the odds, roll the attack, choose the defense
after seeing the result (E4), roll it, spend Shifts in turn (R10) with the odds of each
choice, spend Momentum (R12), then :meth:`ContestFlow.op` is the one Op that records it all.
Nothing here changes the encounter.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

import msgspec

from afdesk.encounter.combatant import Side as Team
from afdesk.encounter.contest import (
    CheckKind,
    ContestRecord,
    DefenseOption,
    DefenseUse,
    Modifier,
    MomentumUse,
    Plan,
    ShiftSpend,
    Via,
    combinable,
    momentum_refusal,
    pools,
)
from afdesk.encounter.damage import plan_damage
from afdesk.encounter.defense_side import DefenseSide
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import Area
from afdesk.rules import d20
from afdesk.rules.contest import Role, ShiftExchange
from afdesk.rules.dice import DiceSource, Roll
from afdesk.rules.errors import RulesError
from afdesk.rules.odds import CheckState, ContestOdds, Cooperation, PoolSpec
from afdesk.rules.rulesets import Ruleset, SpendKind, SpendUnit, ruleset_named
from afdesk.rules.verdict import Verdict

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter
    from afdesk.encounter.ops.check import ResolveContest


class ContestFlow(DefenseSide):
    """One contested (or plain) check in progress (the defense's part: DefenseSide)."""

    def __init__(self, enc: Encounter, plan: Plan) -> None:
        if not plan.allowed:
            raise IllegalOp(plan.reason)
        self.enc = enc
        self.plan = plan
        self.rules: Ruleset = ruleset_named(enc.ruleset)
        self.modifiers: list[Modifier] = list(plan.modifiers)
        self.ventures = 0
        self.advantage = False
        self.disadvantage = False
        self.keywords: tuple[str, ...] = ()
        self.defense: tuple[DefenseOption, ...] = ()
        self.defense_modifiers: dict[int, list[Modifier]] = {}
        self.defense_ventures = 0
        self.defense_advantage = False
        self.defense_disadvantage = False
        self.attack: Roll | None = None
        self.d20: d20.D20Check | None = None
        self.defense_roll: Roll | None = None
        self.helper_roll: Roll | None = None
        self.also: list[DefenseUse] = []
        """Other opponents in the overlap contesting the same move check (E14)."""
        self.shift_exchange = ShiftExchange()
        self.spends: list[ShiftSpend] = []
        self.momentum_uses: list[MomentumUse] = []
        self.decoy = None
        self.decoys: tuple[Area, ...] = ()
        self.hits = plan_damage(enc.combatant(plan.attacker), plan.weapon)
        """The attack's damage, dealt with Momentum's if the attack lands (E6, R12)."""
        self.physical: list[str] = []
        """Rolls typed from physical dice ("attack", "defense"; afdesk.encounter.typed)."""
        self.note = ""

    # ------------------------------------------------------------------ configuration

    @property
    def rolled(self) -> bool:
        return self.attack is not None or self.d20 is not None

    def _before_roll(self, what: str) -> None:
        if self.rolled:
            raise IllegalOp(f"the dice are rolled: {what} can no longer change")

    def set_enabled(self, key: str, enabled: bool) -> None:
        """Switch a derived modifier off or back on (the GM overrides, DESIGN)."""
        self._before_roll("modifiers")
        for i, m in enumerate(self.modifiers):
            if m.key == key:
                self.modifiers[i] = msgspec.structs.replace(m, enabled=enabled)
                return
        raise IllegalOp(f"there is no modifier {key!r}")

    def add_gm_modifier(self, label: str, dice: int, reason: str = "") -> None:
        self._before_roll("modifiers")
        if dice == 0:
            raise IllegalOp("a modifier of 0 changes nothing")
        key = f"gm-{len([m for m in self.modifiers if m.gm])}"
        self.modifiers.append(
            Modifier(key, label or "GM", dice, reason or "GM's call", "", True, True)
        )

    def set_ventures(self, n: int) -> None:
        self._before_roll("Ventures")
        _dice, intf = self.attack_pools()
        try:
            self.rules.check_ventures(intf, n)
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        self.ventures = n

    def max_ventures(self) -> int:
        """The most Ventures the rules allow on this check now (R8, C3)."""
        _dice, intf = self.attack_pools()
        return self.rules.max_ventures(intf)

    def interference_total(self) -> int:
        """Interference dice the check rolls: penalties plus those of its Ventures."""
        _dice, intf = self.attack_pools()
        return intf + self.rules.venture_interference * self.ventures

    def set_advantage(self, advantage: bool, disadvantage: bool) -> None:
        self._before_roll("Advantage")
        self.advantage, self.disadvantage = advantage, disadvantage

    # ------------------------------------------------------------------------- pools

    def attack_pools(self) -> tuple[int, int]:
        """(dice, Interference) of the check, Ventures not included (R1)."""
        return pools(self.plan.dice, self.modifiers)

    def attack_spec(self) -> PoolSpec:
        dice, intf = self.attack_pools()
        return PoolSpec(dice, intf, self.ventures, self.advantage, self.disadvantage)

    def choose_defense(self, *options: DefenseOption) -> None:
        """The target's choice after seeing the attack's result (E4): nothing, one guard or
        defense, or a guard cooperating with a defense of another type."""
        if self.defense_roll is not None:
            raise IllegalOp("the defense is already rolled")
        for o in options:
            if not o.allowed:
                raise IllegalOp(o.reason)
        if len(options) > 2:
            raise IllegalOp("at most a guard and a defense contest one check (E4)")
        if len(options) == 2:
            guard, other = sorted(options, key=lambda o: o.via is not Via.GUARD)
            why = combinable(guard, other)
            if why:
                raise IllegalOp(why)
            options = (other, guard)  # the defense leads; the guard cooperates (E4)
        self.defense = tuple(options)
        self.defense_modifiers = {}
        if len(options) == 2:
            # Prepared and Momentum markers count on the character's next check once
            # (E5, R12): the leading defense uses them, not the guard that helps it.
            self.defense_modifiers[1] = [
                msgspec.structs.replace(m, enabled=False) if _one_shot(m) else m
                for m in options[1].modifiers
            ]

    def defense_spec(self) -> PoolSpec | CheckState | Cooperation | None:
        """The chosen defense before it is rolled, as the ruleset's odds count it (a guard
        helping counts where the ruleset's odds can, R11)."""
        if not self.defense:
            return None
        lead = PoolSpec(
            *self.defense_pools(0),
            self.defense_ventures,
            self.defense_advantage,
            self.defense_disadvantage,
        )
        helper = PoolSpec(*self.defense_pools(1)) if len(self.defense) == 2 else None
        return self.rules.opposition_spec(lead, helper)

    @property
    def odds_leave_out_guard_help(self) -> bool:
        """The odds shown do not count the guard cooperating with the defense."""
        return len(self.defense) == 2 and not self.rules.odds_count_guard_help

    # -------------------------------------------------------------------------- odds

    def odds(self) -> ContestOdds:
        """Exact odds right now: before rolling, or given what is already rolled.

        :class:`IllegalOp` (never a bare RulesError) when the rules refuse the check."""
        query = self.odds_query()
        try:
            return query()
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None

    def odds_query(self) -> Callable[[], ContestOdds]:
        """:meth:`odds` as a pure computation to run later, on any thread: it holds only
        immutable values (specs, roll states, the stateless ruleset), never this flow or
        the Encounter. It raises RulesError when the rules refuse the check."""
        rules = self.rules
        try:
            if not rules.dice_pools:
                bonus, tn, f = self.d20_numbers()
                keywords = tuple(self.keywords)

                def d20_odds() -> ContestOdds:
                    p = rules.p_success(bonus, tn, f, keywords=keywords)
                    return ContestOdds(p, 0.0, p)

                return d20_odds
            attacker = CheckState.from_roll(self.attack) if self.attack else self.attack_spec()
            defender = self._defender_state()
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        return functools.partial(
            rules.contest_odds, attacker, defender, defense_wins_ties=self.defense_wins_ties()
        )

    def degree_odds_query(self) -> Callable[[], dict[d20.Degree, Fraction]]:
        """:meth:`degree_odds` as a pure computation to run later, on any thread."""
        bonus, tn, f = self.d20_numbers()
        return functools.partial(
            self.rules.degree_odds, bonus, tn, f, keywords=tuple(self.keywords)
        )

    def _defender_state(self) -> PoolSpec | CheckState | Cooperation | None:
        if self.defense_roll is not None:
            return CheckState.from_roll(self.defense_roll)
        return self.defense_spec()

    def d20_numbers(self) -> tuple[int, int, int]:
        """(bonus, TN, F) of a d20-degrees check (D1): modifiers count 1 per die."""
        attacker = self.enc.combatant(self.plan.attacker)
        bonus = self.plan.dice + attacker.d20.training
        bonus += sum(m.dice for m in self.modifiers if m.enabled)
        if self.plan.target:
            target = self.enc.combatant(self.plan.target)
            return bonus, target.d20.tn, target.d20.fortification
        return bonus, d20.PLAIN_TN, 0

    def degree_odds(self) -> dict[d20.Degree, Fraction]:
        """The odds of each degree of a d20 check (D2-D4)."""
        bonus, tn, f = self.d20_numbers()
        return self.rules.degree_odds(bonus, tn, f, keywords=self.keywords)

    # ----------------------------------------------------------------------- rolling

    def roll_attack(self, source: DiceSource | None = None) -> None:
        if self.rolled:
            raise IllegalOp("the check is already rolled")
        try:
            if not self.rules.dice_pools:
                bonus, tn, f = self.d20_numbers()
                self.d20 = self.rules.roll_d20(bonus, tn, f, keywords=self.keywords, source=source)
                return
            dice, intf = self.attack_pools()
            self.attack = self.rules.roll_check(
                dice,
                intf,
                ventures=self.ventures,
                advantage=self.advantage,
                disadvantage=self.disadvantage,
                source=source,
            )
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        self.shift_exchange = ShiftExchange(turn=Role.ATTACKER)

    def attack_succeeded(self) -> bool:
        return self.verdict_now().succeeds

    def roll_defense(self, source: DiceSource | None = None) -> None:
        """Roll the chosen defense (opposition is rolled only against a success, R9)."""
        if not self.rolled:
            raise IllegalOp("roll the check first")
        if not self.defense:
            raise IllegalOp("choose a defense first")
        if self.defense_roll is not None:
            raise IllegalOp("the defense is already rolled")
        if not self.rules.defense_roll:
            raise IllegalOp(f"{self.rules.name} has no defense roll: the TN and F are the defense")
        if not self.attack_succeeded():
            raise IllegalOp("the check failed: there is nothing to oppose (R9)")
        dice, intf = self.defense_pools(0)
        helper = self.defense_pools(1) if len(self.defense) == 2 else None
        try:
            roll, self.helper_roll = self.rules.roll_opposition(
                dice,
                intf,
                helper,
                against_advantage=self.advantage and not self.disadvantage,
                ventures=self.defense_ventures,
                advantage=self.defense_advantage,
                disadvantage=self.defense_disadvantage,
                source=source,
            )
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        self.defense_roll = roll
        self.shift_exchange = ShiftExchange(turn=self._losing_side())

    def _losing_side(self) -> Role:
        v = self.verdict_now()
        return Role.ATTACKER if (not v.succeeds or v.stopped) else Role.DEFENDER

    # ------------------------------------------------------------------------ Shifts

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

    def shift_choices(self, side: Role, defense: int = 0) -> dict[str, ContestOdds]:
        """The odds after each spend ``side`` may choose, by kind: "add" (2 dice), "retry"
        (every Fail not yet retried) — R10; af-classic: "will" (2 dice, C4). For another
        opponent's roll (``defense`` >= 1, E14): the odds that its defense stops the check."""
        return self.shift_choices_query(side, defense)()

    def shift_choices_query(
        self, side: Role, defense: int = 0
    ) -> Callable[[], dict[str, ContestOdds]]:
        """:meth:`shift_choices` as a pure computation to run later, on any thread (it
        holds only roll states, specs and the stateless ruleset)."""
        if self.rules.spend_unit is None or not self.rolled:
            return dict
        d_roll = self.defense_roll_at(defense)
        if side is Role.DEFENDER and d_roll is None:
            return dict
        own = self.attack if side is Role.ATTACKER else d_roll
        assert own is not None and self.attack is not None
        state = CheckState.from_roll(own)
        pairs = []
        for kind in self.rules.spend_kinds:
            if kind is SpendKind.RETRY and not own.fail_indices():
                continue
            st = self.rules.after_spend(state, kind, own)
            if side is Role.ATTACKER:
                a, d = st, self._defender_state()
            else:
                a, d = CheckState.from_roll(self.attack), st
            pairs.append((kind.value, a, d))
        rules = self.rules
        other = self.defender_at(defense)
        ties = self.higher_card(other) if other else self.defense_wins_ties()

        def choices() -> dict[str, ContestOdds]:
            return {kind: rules.contest_odds(a, d, defense_wins_ties=ties) for kind, a, d in pairs}

        return choices

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
        refused spend changes nothing."""
        side = Role(side)
        why = self.spend_refusal(side, kind, defense)
        if why:
            raise IllegalOp(why)
        target = "attack" if side is Role.ATTACKER else self._record_index(defense)
        roll = self.attack if side is Role.ATTACKER else self.defense_roll_at(defense)
        assert roll is not None
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

    def spend_on_turn(self, kind: SpendKind | str, source: DiceSource | None = None) -> None:
        """The side on turn spends (R10)."""
        self.spend(self.shift_exchange.turn, kind, source=source)

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

    # ---------------------------------------------------------------------- results

    def verdict_now(self) -> Verdict:
        if self.d20 is not None:
            return self.rules.verdict(self.d20)
        if self.attack is None:
            raise IllegalOp("the check has not been rolled")
        ties = self.defense_wins_ties()
        v = self.rules.verdict(self.attack, self.defense_roll, defense_wins_ties=ties)
        if not v.stopped:
            # Another opponent's defense that wins stops the move check too (E14).
            for d in self.also:
                other = self.rules.verdict(self.attack, d.roll, defense_wins_ties=d.higher_card)
                if other.stopped:
                    return other
        return v

    def momentum(self, side: Role) -> int:
        v = self.verdict_now()
        o = v.attack if side is Role.ATTACKER else v.defense
        return o.momentum if o else 0

    def momentum_left(self, side: Role) -> int:
        side = Role(side)
        return self.momentum(side) - sum(1 for u in self.momentum_uses if u.side is side)

    def use_momentum(
        self, side: Role, kind: str, target: str = "", dice: int = 0, note: str = ""
    ) -> None:
        """Spend one Momentum (R12): a +2/-2 marker on someone's next check, +1/-1 damage on
        the attack, or a stunt."""
        side = Role(side)
        why = momentum_refusal(kind, dice)
        if why and kind != "marker":
            raise IllegalOp(why)
        used = sum(1 for u in self.momentum_uses if u.side is side)
        if used >= self.momentum(side):
            raise IllegalOp(f"the {side.value} has no Momentum left to spend (R12)")
        if why:
            raise IllegalOp(why)
        self.momentum_uses.append(MomentumUse(side, kind, target, dice, note))

    def record(self) -> ContestRecord:
        defenses: tuple[DefenseUse, ...] = ()
        if self.defense and self.defense_roll is not None:
            lead = self.defense[0]
            helper = None
            if len(self.defense) == 2:
                h = self.defense[1]
                helper = DefenseUse(
                    h.defender,
                    h.kind,
                    h.via,
                    h.facet,
                    tuple(self.defense_mods(1, h)),
                    self.helper_roll,
                )
            defenses = (
                DefenseUse(
                    lead.defender,
                    lead.kind,
                    lead.via,
                    lead.facet,
                    tuple(self.defense_mods(0, lead)),
                    self.defense_roll,
                    helper,
                    self.higher_card(lead.defender),
                ),
            )
        defenses += tuple(self.also)
        return ContestRecord(
            attacker=self.plan.attacker,
            action=self.plan.action,
            facet=self.plan.facet,
            target=self.plan.target,
            uses=self.plan.action.spec.uses,
            modifiers=tuple(self.modifiers),
            ventures=self.ventures,
            advantage=self.advantage,
            disadvantage=self.disadvantage,
            attack=self.attack,
            d20=self.d20,
            defenses=defenses,
            spends=tuple(self.spends),
            momentum_uses=tuple(self.momentum_uses),
            decoy=self.decoy,
            decoys=self.decoys,
            hits=self.hits,
            note=self.note,
            weapon=self.plan.weapon,
            physical=tuple(self.physical),
        )

    def op(self, *, override: bool = False) -> ResolveContest:
        from afdesk.encounter.ops.check import ResolveContest

        if not self.rolled:
            raise IllegalOp("roll the check first")
        return ResolveContest(self.record(), override=override)


class SpendOption(NamedTuple):
    """One way to spend after the roll: its kind, the odds after it, why it is refused."""

    kind: SpendKind
    odds: ContestOdds | None
    refusal: str


def _one_shot(m: Modifier) -> bool:
    return m.one_shot


def leave_overlap_flow(enc: Encounter, mover: str, opponent: str) -> ContestFlow:
    """The move check to leave an overlap, contested by one opponent there (E14)."""
    from afdesk.encounter.contest import assemble

    return ContestFlow(enc, assemble(enc, mover, CheckKind.LEAVE_OVERLAP, opponent))
