"""Running one contested check, step by step, for the dialog and for scripted play.

Choose (modifiers, Venture, Advantage), see the odds, roll the attack, choose the defense
after seeing the result (E4), roll it, spend Shifts in turn (R10) with the odds of each
choice, spend Momentum (R12), then :meth:`ContestFlow.op` is the one Op that records it all.
Nothing here changes the encounter.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.contest.assembly import (
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
from afdesk.encounter.contest.defense_side import helping_refusal
from afdesk.encounter.contest.spends import SpendSide
from afdesk.encounter.damage import margin_damage, plan_damage
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import Area
from afdesk.rules import d20
from afdesk.rules.contest import Role, ShiftExchange
from afdesk.rules.dice import DiceSource, Roll
from afdesk.rules.errors import RulesError
from afdesk.rules.odds import CheckState, ContestOdds, Cooperation, PoolSpec
from afdesk.rules.rulesets import Ruleset, ruleset_named
from afdesk.rules.verdict import Verdict

if TYPE_CHECKING:
    from fractions import Fraction

    from afdesk.encounter.contest.ops import ResolveContest
    from afdesk.encounter.interface import Encounter


class ContestFlow(SpendSide):
    """One contested (or plain) check in progress (the defense's part: DefenseSide;
    spending after the roll: SpendSide)."""

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
        self._hits: int | None = plan_damage(enc.combatant(plan.attacker), plan.weapon)
        if plan.action is CheckKind.TAUNT and not plan.weapon:
            self._hits = None  # the success margin, as rolled (R13, P5): :attr:`hits`
        self.physical: list[str] = []
        """Rolls typed from physical dice ("attack", "defense"; afdesk.encounter.typed)."""
        self.note = ""

    # ------------------------------------------------------------------ configuration

    @property
    def hits(self) -> int:
        """The attack's damage, dealt with Momentum's if the attack lands (E6, R12): the
        GM's number, else the chosen weapon's; a Taunt with no weapon deals its success
        margin as it stands now (R13, P5: :func:`~afdesk.encounter.damage.margin_damage`)."""
        if self._hits is not None:
            return self._hits
        return margin_damage(self.verdict_now(), self.d20) if self.rolled else 0

    @hits.setter
    def hits(self, value: int) -> None:
        self._hits = value

    @property
    def hits_from_margin(self) -> bool:
        """The damage is the success margin (a Taunt with no weapon, the GM has typed none)."""
        return self._hits is None

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
        if len(options) == 2 and options[0].defender != options[1].defender:
            # Another's retort cooperates with the target's own defense (P5, R11).
            lead, helper = sorted(options, key=lambda o: o.defender != self.plan.target)
            why = helping_refusal(lead, helper, self.plan.target)
            if why:
                raise IllegalOp(why)
            options = (lead, helper)
        elif len(options) == 2:
            guard, other = sorted(options, key=lambda o: o.via is not Via.GUARD)
            why = combinable(guard, other)
            if why:
                raise IllegalOp(why)
            options = (other, guard)  # the defense leads; the guard cooperates (E4)
        self.defense = tuple(options)
        self.defense_modifiers = {}
        if len(options) == 2 and options[0].defender == options[1].defender:
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
        """Spend one Momentum (R12): a marker on someone's next check (+2/-2; af-classic
        +1/-1, C3), +1/-1 damage on the attack, or a stunt."""
        side = Role(side)
        why = momentum_refusal(kind, dice, self.rules)
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
        from afdesk.encounter.contest.ops import ResolveContest

        if not self.rolled:
            raise IllegalOp("roll the check first")
        return ResolveContest(self.record(), override=override)


def _one_shot(m: Modifier) -> bool:
    return m.one_shot


def leave_overlap_flow(enc: Encounter, mover: str, opponent: str) -> ContestFlow:
    """The move check to leave an overlap, contested by one opponent there (E14)."""
    from afdesk.encounter.contest.assembly import assemble

    return ContestFlow(enc, assemble(enc, mover, CheckKind.LEAVE_OVERLAP, opponent))
