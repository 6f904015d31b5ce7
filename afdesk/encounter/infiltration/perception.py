"""The target's perception against a surprise attack (N7, E8): worked out here, recorded in
the :class:`~afdesk.encounter.infiltration.ops.SurpriseAttack` Op.

The target may spend its guard on a perception, a study check, which the attacker
contests with sneak (R9: rolled only against a success; a full tie goes to the higher
reflex card, E2). If the perception stands, the attack is contested normally, but never
by a dodge (E8) and not by the guard it spent; if it does not (or the target does not
try), nothing contests the attack, and landing it also leaves the target down (E17).
The perception comes before the attack's dice: it is what makes a defense possible.
Nothing here changes the encounter."""

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.contest.assembly import (
    DefenseKind,
    DefenseOption,
    Modifier,
    Plan,
    Via,
    _state_mods,
    higher_card,
    pools,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.modes import current_mode
from afdesk.rules.dice import DiceSource, Roll
from afdesk.rules.errors import RulesError
from afdesk.rules.rulesets import Ruleset, ruleset_named
from afdesk.rules.verdict import Verdict

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter
    from afdesk.rules.odds import ContestOdds

PERCEIVE = "Perceive (study, spends guard)"
"""The choice the check dialog offers the target of a surprise attack (N7)."""


class Perception(msgspec.Struct, frozen=True, omit_defaults=True):
    """The target's perception as rolled (N7): its study check with its modifiers, and
    the attacker's sneak contesting it (None: not rolled, the study failed, R9)."""

    study: Roll
    modifiers: tuple[Modifier, ...] = ()
    sneak: Roll | None = None
    sneak_modifiers: tuple[Modifier, ...] = ()
    higher_card: bool = False
    """Both hold a reflex card this round and the attacker's is higher: a full tie goes
    to its sneak (R9, E2)."""

    def verdict(self, rules: Ruleset | str) -> Verdict:
        r = ruleset_named(rules) if isinstance(rules, str) else rules
        return r.verdict(self.study, self.sneak, defense_wins_ties=self.higher_card)

    def stands(self, rules: Ruleset | str) -> bool:
        """The perception succeeded and the sneak did not stop it (R9)."""
        return self.verdict(rules).lands


def perception_refusal(enc: "Encounter", plan: Plan) -> str:
    """Why the target of ``plan`` cannot try a perception now ("" if it can): only
    against a surprise attack where N7 holds (an infiltration), with a dice-pool ruleset
    and its guard ready (E4)."""
    if not (plan.surprise and plan.target and current_mode(enc).surprise_leaves_down):
        return "a perception answers a surprise attack in an infiltration (N7)"
    rules = ruleset_named(enc.ruleset)
    if not rules.dice_pools:
        return f"{rules.name}: the target's TN and F are its defense; no perception roll (N7)"
    t = enc.combatant(plan.target)
    if t.economy.guards < 1:
        return f"{t.name}'s guard is used: a perception spends it (N7, E4)"
    return ""


def surprise_plan(enc: "Encounter", plan: Plan, perceived: bool) -> Plan:
    """``plan`` of a surprise attack where N7 holds: nothing contests it unless the
    target's perception stood (``perceived``); then it is contested normally, but never by
    a dodge (E8) and not by the guard the perception spent (E4)."""
    if not plan.surprise or not plan.target:
        return plan
    t = enc.combatant(plan.target)
    a = enc.combatant(plan.attacker)

    def closed(o: DefenseOption) -> DefenseOption:
        if not o.allowed:
            return o
        if not perceived:
            why = (
                f"nothing contests a surprise attack unless {t.name}'s perception stands "
                f"({PERCEIVE}, N7)"
            )
        elif o.via is Via.GUARD and t.economy.guards < 2:  # Defend's extra guard stays
            why = f"{t.name}'s guard went to its perception (N7, E4)"
        elif o.kind.base is DefenseKind.DODGE:
            why = "a dodge cannot answer a surprise attack (E8)"
        else:
            return o
        return msgspec.structs.replace(o, allowed=False, reason=why)

    note = (
        f"{t.name} perceived {a.name}: the attack is contested normally, but not by a dodge "
        "(N7, E8)"
        if perceived
        else f"{t.name} may spend its guard on a perception (study) that {a.name}'s sneak "
        f"contests; unless it stands nothing contests the attack, and landing it leaves "
        f"{t.name} down (N7)"
    )
    return msgspec.structs.replace(
        plan,
        defenses=tuple(closed(o) for o in plan.defenses),
        notes=(*plan.notes, note),
    )


class PerceptionCheck:
    """The perception in progress (N7): its pools, its exact odds, its dice."""

    def __init__(self, enc: "Encounter", plan: Plan) -> None:
        why = perception_refusal(enc, plan)
        if why:
            raise IllegalOp(why)
        self.rules = ruleset_named(enc.ruleset)
        self.target = enc.combatant(plan.target)
        self.attacker = enc.combatant(plan.attacker)
        mods = _state_mods(self.target, enc, "check", ("check", "study"))
        if plan.behind:
            mods.append(
                Modifier(
                    "flank",
                    "Behind the flank",
                    -2,
                    f"{self.attacker.name} acts from behind {self.target.name}'s flank",
                    "E8",
                )
            )
        self.modifiers = tuple(mods)
        # The attacker's one-shot bonuses (Prepared, Momentum markers) go to its attack.
        self.sneak_modifiers = tuple(
            msgspec.structs.replace(m, enabled=False) if m.one_shot else m
            for m in _state_mods(self.attacker, enc, "defense", ("defense", "sneak"))
        )
        self.higher_card = higher_card(enc, self.attacker.id, self.target.id)
        self.result: Perception | None = None

    def study_pools(self) -> tuple[int, int]:
        return pools(self.target.facet("study"), self.modifiers)

    def sneak_pools(self) -> tuple[int, int]:
        return pools(self.attacker.facet("sneak"), self.sneak_modifiers)

    def odds_query(self) -> "Callable[[], ContestOdds]":
        """The exact odds, to compute on any thread: ``p_attack_lands`` is the chance the
        perception stands against the sneak (R9). The odds are imported here, where asked
        for: loading a file never pays for them."""
        from afdesk.rules.odds import PoolSpec

        return functools.partial(
            self.rules.contest_odds,
            PoolSpec(*self.study_pools()),
            PoolSpec(*self.sneak_pools()),
            defense_wins_ties=self.higher_card,
        )

    def roll(self, source: DiceSource | None = None) -> Perception:
        """Roll the study, then the sneak against a success (R9)."""
        if self.result is not None:
            raise IllegalOp(f"{self.target.name}'s perception is already rolled (N7)")
        try:
            study = self.rules.roll_check(*self.study_pools(), source=source)
            sneak = None
            if self.rules.outcome(study).success:
                sneak, _ = self.rules.roll_opposition(*self.sneak_pools(), None, source=source)
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None
        self.result = Perception(
            study, self.modifiers, sneak, self.sneak_modifiers, self.higher_card
        )
        return self.result

    def text(self) -> str:
        """The perception's dice and what they came to, in plain words."""
        p = self.result
        if p is None:
            return ""
        return perception_text(self.target.name, self.attacker.name, p, self.rules)


def perception_text(target: str, attacker: str, p: Perception, rules: Ruleset | str) -> str:
    """ "Orc perceives (study [5,2]) against Ann's sneak [4]: stands (N7)"."""
    faces = ",".join(str(d.face) for d in p.study.main_pool)
    text = f"{target} tries to perceive {attacker} (study [{faces}])"
    if p.sneak is not None:
        sneak = ",".join(str(d.face) for d in p.sneak.main_pool)
        text += f" against {attacker}'s sneak [{sneak}]"
    v = p.verdict(rules)
    how = "stands" if v.lands else "is stopped" if v.succeeds else "fails"
    return f"{text}: the perception {how} (N7)"


def after_perception(enc: "Encounter", plan: Plan, p: Perception) -> Plan:
    """``plan`` once the target's perception ``p`` is rolled (N7): assembled again from
    the map, its defenses open if the perception stood (no dodge, E8; not the guard it
    spent, E4), closed if not; its notes say what the perception came to."""
    from afdesk.encounter.contest.assembly import assemble_on_map

    base = assemble_on_map(enc, plan.attacker, plan.action, plan.target, plan.facet, plan.weapon)
    stood = p.stands(enc.ruleset)
    new = surprise_plan(enc, base, perceived=stood)
    t, a = enc.combatant(plan.target), enc.combatant(plan.attacker)
    said = perception_text(t.name, a.name, p, enc.ruleset)
    if not stood:
        said += f": nothing contests the attack, and a hit leaves {t.name} down"
    notes = tuple(n for n in new.notes if "(N7" not in n)
    return msgspec.structs.replace(new, notes=(*notes, said))
