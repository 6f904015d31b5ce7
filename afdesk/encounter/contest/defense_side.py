"""The defense side of a contested check in progress: its modifiers, Ventures, Advantage
and the GM's own modifiers (every modifier the attack can take, the defense can take: R1,
R4, R8, C3, C5), the reflex tie-break (R9, E2), and other opponents in an overlap contesting
the same move check (E14). A part of :class:`~afdesk.encounter.contest.flow.ContestFlow`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.contest.assembly import (
    CheckKind,
    ContestRecord,
    DefenseKind,
    DefenseOption,
    DefenseUse,
    Modifier,
    Plan,
    Via,
    assemble,
    higher_card,
    pools,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.modes import current_mode
from afdesk.rules.contest import Role, ShiftExchange
from afdesk.rules.dice import DiceSource, Roll
from afdesk.rules.errors import RulesError
from afdesk.rules.rulesets import Ruleset

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class DefenseSide:
    """What :class:`ContestFlow` does for the defense before and as it rolls."""

    enc: Encounter
    plan: Plan
    rules: Ruleset
    defense: tuple[DefenseOption, ...]
    defense_modifiers: dict[int, list[Modifier]]
    defense_roll: Roll | None
    defense_ventures: int
    defense_advantage: bool
    defense_disadvantage: bool
    advantage: bool
    disadvantage: bool
    also: list[DefenseUse]
    shift_exchange: ShiftExchange

    @property
    def rolled(self) -> bool:
        raise NotImplementedError

    def _losing_side(self) -> Role:
        raise NotImplementedError

    def attack_succeeded(self) -> bool:
        raise NotImplementedError

    def defense_mods(self, index: int, option: DefenseOption) -> list[Modifier]:
        return self.defense_modifiers.get(index, list(option.modifiers))

    def set_defense_enabled(self, index: int, key: str, enabled: bool) -> None:
        option = self.defense[index]
        mods = self.defense_mods(index, option)
        self.defense_modifiers[index] = [
            msgspec.structs.replace(m, enabled=enabled) if m.key == key else m for m in mods
        ]

    def _before_defense_roll(self, what: str) -> None:
        if self.defense_roll is not None:
            raise IllegalOp(f"the defense is rolled: {what} can no longer change")

    def add_defense_gm_modifier(self, label: str, dice: int, reason: str = "") -> None:
        """The GM's own modifier on the chosen defense, as on the attack (R1)."""
        self._before_defense_roll("its modifiers")
        if not self.defense:
            raise IllegalOp("choose a defense first")
        if dice == 0:
            raise IllegalOp("a modifier of 0 changes nothing")
        mods = self.defense_mods(0, self.defense[0])
        key = f"gm-{len([m for m in mods if m.gm])}"
        self.defense_modifiers[0] = [
            *mods,
            Modifier(key, label or "GM", dice, reason or "GM's call", "", True, True),
        ]

    def set_defense_ventures(self, n: int) -> None:
        """Ventures declared on the defense before it rolls (R8, C3)."""
        self._before_defense_roll("its Ventures")
        intf = self.defense_pools(0)[1] if self.defense else 0
        try:
            self.rules.check_ventures(intf, n)
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        self.defense_ventures = n

    def max_defense_ventures(self) -> int:
        """The most Ventures the rules allow on the chosen defense now (R8, C3)."""
        intf = self.defense_pools(0)[1] if self.defense else 0
        return self.rules.max_ventures(intf)

    def set_defense_advantage(self, advantage: bool, disadvantage: bool) -> None:
        """Advantage or Disadvantage on the defense (R4, C5)."""
        self._before_defense_roll("its Advantage")
        self.defense_advantage, self.defense_disadvantage = advantage, disadvantage

    def defense_pools(self, index: int = 0) -> tuple[int, int]:
        option = self.defense[index]
        return pools(option.dice, self.defense_mods(index, option))

    def others(self) -> list[str]:
        """Other opponents in the mover's overlap who may still contest the same move check
        to leave it (E14); empty for any other check."""
        if self.plan.action is not CheckKind.LEAVE_OVERLAP:
            return []
        a = self.enc.combatant(self.plan.attacker)
        if a.area is None:
            return []
        taken = {self.plan.target, *(d.defender for d in self.also)}
        return [c.id for c in self.enc.opponents_in(a.area, a) if c.id not in taken]

    def other_plan(self, opponent: str) -> Plan:
        """The defenses ``opponent`` could contest this move check with (E14)."""
        return assemble(self.enc, self.plan.attacker, CheckKind.LEAVE_OVERLAP, opponent)

    def contest_also(self, option: DefenseOption, source: DiceSource | None = None) -> None:
        """Another opponent in the overlap contests the same move check and rolls now: one
        move check, which each opponent there may contest (E14)."""
        if not self.rolled:
            raise IllegalOp("roll the check first")
        if option.defender not in self.others():
            raise IllegalOp(
                f"{self.enc.combatant(option.defender).name} is not another opponent in the "
                "overlap still free to contest this move check (E14)"
            )
        if not option.allowed:
            raise IllegalOp(option.reason)
        if not self.attack_succeeded():
            raise IllegalOp("the check failed: there is nothing to oppose (R9)")
        dice, intf = pools(option.dice, option.modifiers)
        try:
            roll, _helper = self.rules.roll_opposition(
                dice,
                intf,
                None,
                against_advantage=self.advantage and not self.disadvantage,
                source=source,
            )
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        self.also.append(
            DefenseUse(
                option.defender,
                option.kind,
                option.via,
                option.facet,
                option.modifiers,
                roll,
                higher_card=self.higher_card(option.defender),
            )
        )
        # A new result: the Shifts start again with the side it leaves losing (R10).
        self.shift_exchange = ShiftExchange(turn=self._losing_side())

    def higher_card(self, defender: str) -> bool:
        """The defender's reflex card beats the attacker's this round: a full tie goes to
        the defense (R9, E2)."""
        return higher_card(self.enc, defender, self.plan.attacker)

    def defense_wins_ties(self) -> bool:
        """A full tie goes to the chosen defense (its character's reflex card is the
        higher, R9, E2): the verdict and the odds shown take the same tie rule."""
        return bool(self.defense) and self.higher_card(self.defense[0].defender)

    # ------------------------------------------------- the defense rolls Shifts go on

    def defense_roll_at(self, defense: int) -> Roll | None:
        """The defense roll a Shift may go on: 0 the chosen defense's, ``k`` >= 1 the
        ``k``-th other opponent's contesting the same move check (E14, R10)."""
        if defense == 0:
            return self.defense_roll
        if not 1 <= defense <= len(self.also):
            raise IllegalOp(f"there is no defense {defense} to spend Shifts on")
        return self.also[defense - 1].roll

    def defender_at(self, defense: int) -> str | None:
        """Who rolled :meth:`defense_roll_at` ``defense`` (None: the chosen defense's)."""
        if defense == 0:
            return None
        self.defense_roll_at(defense)
        return self.also[defense - 1].defender

    def _put_defense_roll(self, defense: int, roll: Roll) -> None:
        if defense == 0:
            self.defense_roll = roll
        else:
            use = self.also[defense - 1]
            self.also[defense - 1] = msgspec.structs.replace(use, roll=roll)

    def _record_index(self, defense: int) -> str:
        """``defense``'s index among the record's defenses (the chosen one first once it
        is rolled)."""
        return str(defense - (0 if self.defense_roll is not None else 1))


# ------------------------------------------------------------ a retort for another (P5)


def helping_refusal(lead: DefenseOption, helper: DefenseOption, target: str) -> str:
    """Why ``helper``, another character's defense, cannot cooperate (R11) with ``lead``
    against a check aimed at ``target`` ("" if it can): only a retort answers for someone
    else, and it cooperates with the target's own insight (P5, E4, E8)."""
    if lead.defender != target:
        return "another's retort cooperates with the target's own defense (P5, R11)"
    if helper.kind is not DefenseKind.RETORT:
        return (
            f"{helper.kind.label} protects only its user (E8); only a retort answers for "
            "another (P5)"
        )
    if lead.kind.base is not DefenseKind.INSIGHT:
        return f"a retort cooperates with the target's insight, not a {lead.kind.value} (P5, R11)"
    return ""


def defenders_refusal(enc: Encounter, r: ContestRecord) -> str:
    """Why the record's defenses are not the target's own or a retort on its behalf ("" if
    they are): another character answers a check aimed at someone else only with a retort,
    against a social check, with its guard or its Quip, where the mode lets it (P5, E4, E8).
    Every opponent in an overlap contests a move check to leave it (E14)."""
    if r.action is CheckKind.LEAVE_OVERLAP:
        return ""
    for d in r.defenses:
        if d.defender != r.target:
            why = _for_another(enc, r, d)
            if why:
                return why
        h = d.helper
        if h is not None and h.defender != d.defender:
            lead = DefenseOption(d.defender, d.kind, d.via, d.facet, 0)
            helper = DefenseOption(h.defender, h.kind, h.via, h.facet, 0)
            why = helping_refusal(lead, helper, r.target) or _for_another(enc, r, h)
            if why:
                return why
    return ""


def _for_another(enc: Encounter, r: ContestRecord, d: DefenseUse) -> str:
    c = enc.combatants.get(d.defender)
    who = c.name if c is not None else repr(d.defender)
    if d.kind is not DefenseKind.RETORT:
        return (
            f"{who}'s {d.kind.label.lower()} protects only {who} (E8); only a retort answers "
            "a check aimed at another (P5)"
        )
    if not r.action.spec.social:
        return f"a retort answers social checks only, not a {r.action.label} (E8)"
    if d.via not in (Via.GUARD, Via.QUIP):
        return f"{who} retorts for another with its guard or its Quip's retort (P5, E4)"
    return current_mode(enc).retort_refusal(enc, r.attacker, r.target, d.defender)
