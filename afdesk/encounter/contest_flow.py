"""Running one contested check, step by step, for the dialog and for scripted play.

Choose (modifiers, Venture, Advantage), see the odds, roll the attack, choose the defense
after seeing the result (E4), roll it, spend Shifts in turn (R10) with the odds of each
choice, spend Momentum (R12), then :meth:`ContestFlow.op` is the one Op that records it all.
Nothing here changes the encounter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.combatant import Side as Team
from afdesk.encounter.contest import (
    Action,
    ContestRecord,
    DefenseOption,
    DefenseUse,
    Modifier,
    MomentumUse,
    Plan,
    ShiftSpend,
    Via,
    combinable,
    pools,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.rules import af254, classic, d20, odds
from afdesk.rules.contest import ShiftExchange, Side, Verdict, verdict
from afdesk.rules.contest import roll as rules_roll
from afdesk.rules.dice import DiceSource, Pool, Roll
from afdesk.rules.errors import RulesError

if TYPE_CHECKING:
    from afdesk.encounter.model import Encounter
    from afdesk.encounter.ops.check import ResolveContest


class ContestFlow:
    """One contested (or plain) check in progress."""

    def __init__(self, enc: Encounter, plan: Plan) -> None:
        if not plan.allowed:
            raise IllegalOp(plan.reason)
        self.enc = enc
        self.plan = plan
        self.ruleset = enc.ruleset
        self.modifiers: list[Modifier] = list(plan.modifiers)
        self.ventures = 0
        self.advantage = False
        self.disadvantage = False
        self.keywords: tuple[str, ...] = ()
        self.defense: tuple[DefenseOption, ...] = ()
        self.defense_modifiers: dict[int, list[Modifier]] = {}
        self.attack: Roll | None = None
        self.d20: d20.D20Check | None = None
        self.defense_roll: Roll | None = None
        self.helper_roll: Roll | None = None
        self.exchange = ShiftExchange()
        self.spends: list[ShiftSpend] = []
        self.momentum_uses: list[MomentumUse] = []
        self.decoy = None
        self.decoys: tuple = ()
        self.hits = 0
        """Damage the GM rolled, dealt if the attack lands (E6)."""
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
            if self.ruleset == classic.NAME:
                classic.check_ventures(n)
            else:
                af254.check_venture_allowed(intf, n)
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        self.ventures = n

    def max_ventures(self) -> int:
        """The most Ventures the rules allow on this check now (R8, C3)."""
        if self.ruleset == d20.NAME:
            return 0
        if self.ruleset == classic.NAME:
            return classic.MAX_VENTURES
        _dice, intf = self.attack_pools()
        n = 0
        while True:
            try:
                af254.check_venture_allowed(intf, n + 1)
            except RulesError:
                return n
            n += 1

    def interference_total(self) -> int:
        """Interference dice the check rolls: penalties plus those of its Ventures."""
        _dice, intf = self.attack_pools()
        return intf + (1 if self.ruleset == classic.NAME else 2) * self.ventures

    def set_advantage(self, advantage: bool, disadvantage: bool) -> None:
        self._before_roll("Advantage")
        self.advantage, self.disadvantage = advantage, disadvantage

    # ------------------------------------------------------------------------- pools

    def attack_pools(self) -> tuple[int, int]:
        """(dice, Interference) of the check, Ventures not included (R1)."""
        return pools(self.plan.dice, self.modifiers)

    def attack_spec(self) -> odds.PoolSpec:
        dice, intf = self.attack_pools()
        return odds.PoolSpec(dice, intf, self.ventures, self.advantage, self.disadvantage)

    def defense_mods(self, index: int, option: DefenseOption) -> list[Modifier]:
        return self.defense_modifiers.get(index, list(option.modifiers))

    def set_defense_enabled(self, index: int, key: str, enabled: bool) -> None:
        option = self.defense[index]
        mods = self.defense_mods(index, option)
        self.defense_modifiers[index] = [
            msgspec.structs.replace(m, enabled=enabled) if m.key == key else m for m in mods
        ]

    def defense_pools(self, index: int = 0) -> tuple[int, int]:
        option = self.defense[index]
        return pools(option.dice, self.defense_mods(index, option))

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

    def defense_spec(self) -> odds.PoolSpec | odds.Cooperation | None:
        if not self.defense:
            return None
        dice, intf = self.defense_pools(0)
        if len(self.defense) == 1:
            return odds.PoolSpec(dice, intf)
        h_dice, h_intf = self.defense_pools(1)
        helper = odds.PoolSpec(h_dice, h_intf + af254.helper_interference(2))
        return odds.Cooperation(odds.PoolSpec(dice, intf), (helper,))

    # -------------------------------------------------------------------------- odds

    def odds(self) -> odds.ContestOdds:
        """Exact odds right now: before rolling, or given what is already rolled."""
        if self.ruleset == d20.NAME:
            dist = self.degree_odds()
            p = float(sum(v for k, v in dist.items() if k >= d20.Degree.PASS))
            return odds.ContestOdds(p, 0.0, p)
        attacker = odds.CheckState.from_roll(self.attack) if self.attack else self.attack_spec()
        defender = self._defender_state()
        if self.ruleset == classic.NAME:
            return odds.classic_contest_odds(attacker, defender)
        return odds.contest_odds(attacker, defender)

    def _defender_state(self):
        if self.defense_roll is not None:
            return odds.CheckState.from_roll(self.defense_roll)
        if self.ruleset == classic.NAME and self.defense:
            dice, intf = self.defense_pools(0)
            return odds.PoolSpec(dice, intf)
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

    def degree_odds(self) -> dict[d20.Degree, float]:
        bonus, tn, f = self.d20_numbers()
        return odds.degree_odds(bonus, tn, f, keywords=self.keywords)

    # ----------------------------------------------------------------------- rolling

    def roll_attack(self, source: DiceSource | None = None) -> None:
        if self.rolled:
            raise IllegalOp("the check is already rolled")
        try:
            if self.ruleset == d20.NAME:
                bonus, tn, f = self.d20_numbers()
                self.d20 = d20.roll_d20(bonus, tn, f, keywords=self.keywords, source=source)
                return
            dice, intf = self.attack_pools()
            self.attack = rules_roll(
                self.ruleset,
                dice,
                intf,
                ventures=self.ventures,
                advantage=self.advantage,
                disadvantage=self.disadvantage,
                source=source,
            )
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        self.exchange = ShiftExchange(turn=Side.ATTACKER)

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
        if self.ruleset == d20.NAME:
            raise IllegalOp("d20-degrees has no defense roll: the TN and F are the defense")
        if not self.attack_succeeded():
            raise IllegalOp("the check failed: there is nothing to oppose (R9)")
        dice, intf = self.defense_pools(0)
        try:
            if self.ruleset == classic.NAME:
                against = self.advantage and not self.disadvantage
                roll = classic.roll_check(
                    dice, intf, pool=Pool.OPPOSITION, against_advantage=against, source=source
                )
                if len(self.defense) == 2:
                    h_dice, h_intf = self.defense_pools(1)
                    helper = classic.roll_check(
                        h_dice,
                        h_intf + classic.helper_interference(dice),
                        pool=Pool.HELPER,
                        source=source,
                    )
                    self.helper_roll = helper
                    roll = classic.cooperate(roll, [helper])
            else:
                extra = retries = 0
                if len(self.defense) == 2:
                    h_dice, h_intf = self.defense_pools(1)
                    self.helper_roll = af254.roll_check(
                        h_dice,
                        h_intf + af254.helper_interference(2),
                        pool=Pool.HELPER,
                        source=source,
                    )
                    extra, retries = af254.leader_adjustment([af254.outcome_of(self.helper_roll)])
                roll = af254.roll_check(dice, intf + extra, pool=Pool.OPPOSITION, source=source)
                fails = roll.fail_indices()[:retries]
                if fails:
                    roll = af254.retry_fails(roll, fails, retries, "cooperation", source)
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        self.defense_roll = roll
        self.exchange = ShiftExchange(turn=self._losing_side())

    def _losing_side(self) -> Side:
        v = self.verdict_now()
        return Side.ATTACKER if (not v.succeeds or v.stopped) else Side.DEFENDER

    # ------------------------------------------------------------------------ Shifts

    def payer(self, side: Side) -> str:
        """Who pays a Shift for a side: the character, or the referee's pool for opponents
        and denizens (R10)."""
        cid = self.plan.attacker if side is Side.ATTACKER else self._defender_id()
        c = self.enc.combatant(cid)
        return cid if c.side in (Team.BAND, Team.FOLLOWER) else "referee"

    def _defender_id(self) -> str:
        return self.defense[0].defender if self.defense else self.plan.target

    def shifts_left(self, side: Side) -> int:
        payer = self.payer(side)
        kind = "will" if self.ruleset == classic.NAME else None
        spent = sum(1 for s in self.spends if s.payer == payer and (s.kind == "will") == bool(kind))
        if payer == "referee":
            return self.enc.meta.referee_shifts - spent
        c = self.enc.combatant(payer)
        return (c.will if kind else c.shifts) - spent

    def shift_choices(self, side: Side) -> dict[str, odds.ContestOdds]:
        """The odds after each Shift choice of ``side``: "add" (2 dice), "retry" (every Fail
        not yet retried) — R10; af-classic: "will" (2 dice, C4)."""
        if self.ruleset == d20.NAME or not self.rolled:
            return {}
        if side is Side.DEFENDER and self.defense_roll is None:
            return {}
        own = self.attack if side is Side.ATTACKER else self.defense_roll
        state = odds.CheckState.from_roll(own)
        fails = [own.dice[i].face for i in own.fail_indices()]
        options = {"add": state.with_added_dice(2)}
        if self.ruleset == classic.NAME:
            options = {"will": state.with_added_dice(2)}
        elif fails:
            options["retry"] = state.with_retried(fails)
        out = {}
        for kind, st in options.items():
            if side is Side.ATTACKER:
                a, d = st, self._defender_state()
            else:
                a, d = odds.CheckState.from_roll(self.attack), st
            if self.ruleset == classic.NAME:
                out[kind] = odds.classic_contest_odds(a, d)
            else:
                out[kind] = odds.contest_odds(a, d)
        return out

    def spend_refusal(self, side: Side, kind: str = "") -> str:
        """Why ``side`` cannot spend now, or "" (R10, C4)."""
        side = Side(side)
        if self.ruleset == d20.NAME:
            return "d20-degrees has no Shifts"
        if self.shifts_left(side) < 1:
            what = "Will" if self.ruleset == classic.NAME else "Shifts"
            return f"no {what} left for the {side.value} (R10)"
        if self.exchange.done:
            return "both sides are satisfied: the Shifts are over for this check"
        if side is not self.exchange.turn:
            return f"it is the {self.exchange.turn.value}'s turn to spend Shifts or pass (R10)"
        roll = self.attack if side is Side.ATTACKER else self.defense_roll
        if roll is None:
            return f"the {side.value} has not rolled"
        if self.ruleset == classic.NAME:
            if kind and kind != "will":
                return "af-classic spends Will for 2 dice (C4)"
            if self.defense_roll is not None and side is Side.ATTACKER:
                return "Will is spent before the opposition is rolled (C4)"
        elif kind and kind not in ("add", "retry"):
            return f"unknown Shift {kind!r}: add or retry (R10)"
        elif kind == "retry" and not roll.fail_indices():
            return "there is no Fail left to retry"
        return ""

    def spend(
        self,
        side: Side,
        kind: str,
        indices: tuple[int, ...] = (),
        source: DiceSource | None = None,
    ) -> None:
        """Spend a Shift (or Will in af-classic) for ``side`` on its own roll. A refused
        spend changes nothing."""
        side = Side(side)
        why = self.spend_refusal(side, kind)
        if why:
            raise IllegalOp(why)
        target = "attack" if side is Side.ATTACKER else "0"
        roll = self.attack if side is Side.ATTACKER else self.defense_roll
        if self.ruleset == classic.NAME:
            new = classic.spend_will(roll, source)
        elif kind == "add":
            new = af254.shift_add(roll, source)
        else:
            indices = tuple(indices) or roll.fail_indices()
            try:
                new = af254.shift_retry(roll, indices, source)
            except RulesError as exc:
                raise IllegalOp(str(exc)) from None
        self.exchange = self.exchange.spend(side)
        if side is Side.ATTACKER:
            self.attack = new
        else:
            self.defense_roll = new
        self.spends.append(ShiftSpend(side, self.payer(side), kind, target, tuple(indices)))

    def pass_turn(self, side: Side) -> None:
        side = Side(side)
        try:
            self.exchange = self.exchange.pass_turn(side)
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None

    # ---------------------------------------------------------------------- results

    def verdict_now(self) -> Verdict:
        if self.d20 is not None:
            return verdict(self.ruleset, self.d20)
        if self.attack is None:
            raise IllegalOp("the check has not been rolled")
        return verdict(self.ruleset, self.attack, self.defense_roll)

    def momentum(self, side: Side) -> int:
        v = self.verdict_now()
        o = v.attack if side is Side.ATTACKER else v.defense
        return o.momentum if o else 0

    def momentum_left(self, side: Side) -> int:
        side = Side(side)
        return self.momentum(side) - sum(1 for u in self.momentum_uses if u.side is side)

    def use_momentum(self, side: Side, kind: str, target: str = "", dice: int = 0, note=""):
        """Spend one Momentum (R12): a +2/-2 marker on someone's next check, +1/-1 damage on
        the attack, or a stunt."""
        side = Side(side)
        if kind not in ("marker", "damage", "stunt"):
            raise IllegalOp(f"Momentum is spent on a marker, damage or a stunt, not {kind!r}")
        if kind == "damage" and dice not in (1, -1):
            raise IllegalOp("Momentum changes damage by +1 or -1 (R12)")
        used = sum(1 for u in self.momentum_uses if u.side is side)
        if used >= self.momentum(side):
            raise IllegalOp(f"the {side.value} has no Momentum left to spend (R12)")
        if kind == "marker" and dice not in (2, -2):
            raise IllegalOp("a Momentum marker is +2 or -2 (R12)")
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
                ),
            )
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
        )

    def op(self, *, override: bool = False) -> ResolveContest:
        from afdesk.encounter.ops.check import ResolveContest

        if not self.rolled:
            raise IllegalOp("roll the check first")
        return ResolveContest(self.record(), override=override)


def _one_shot(m: Modifier) -> bool:
    return m.marker is not None


def leave_overlap_flow(enc: Encounter, mover: str, opponent: str) -> ContestFlow:
    """The move check to leave an overlap, contested by one opponent there (E14)."""
    from afdesk.encounter.contest import assemble

    return ContestFlow(enc, assemble(enc, mover, Action.LEAVE_OVERLAP, opponent))
