"""Assembling a contested check from the map and the model (E4-E8, E12-E14, E17, R12).

:func:`assemble` derives everything the contest dialog shows: the attacker's dice, every
modifier with its reason and rule id, and every defense the target could use now with the
reason when it cannot. The GM may switch any modifier off or add one; the resolved contest
is a :class:`ContestRecord` inside one ``ResolveContest`` Op.
"""

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter import features
from afdesk.encounter.actor import spend_refusal
from afdesk.encounter.checks import (
    CHECK_SPECS,
    DEFENSE_FACET,
    GUARD_ONLY,
    CheckKind,
    CheckSpec,
    DefenseKind,
    Via,
)
from afdesk.encounter.combatant import Combatant, opposed
from afdesk.encounter.damage import parry_reach, reach_and_range
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import Area, crossed_areas, distance, in_front
from afdesk.encounter.modes import current_mode
from afdesk.encounter.reflex import Card
from afdesk.rules.contest import Role, verdict
from afdesk.rules.d20 import D20Check
from afdesk.rules.dice import Roll, pool_sizes
from afdesk.rules.rulesets import Ruleset, ruleset_named
from afdesk.rules.verdict import Verdict

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class Modifier(msgspec.Struct, frozen=True, omit_defaults=True):
    """A bonus (+N dice) or penalty (-N: N Interference dice, R1) with its reason."""

    key: str
    label: str
    dice: int
    reason: str = ""
    rule: str = ""
    enabled: bool = True
    gm: bool = False
    """Added by the GM rather than derived."""
    marker: int | None = None
    """The index of the Momentum marker (R12) the check uses up; only the check that uses
    it counts it. A state's one-shot bonus (Prepared, E5) is used up by its ``key`` (its
    row says so, afdesk.encounter.features); files written before the rows hold -1 here
    for Prepared, read the same way."""

    @property
    def one_shot(self) -> bool:
        """Used up by the check that counts it: a Momentum marker (R12), or a state's bonus
        its row says is used up (Prepared, E5)."""
        return self.marker is not None or bool(features.consumed_state(self.key))

    def text(self) -> str:
        rule = f" ({self.rule})" if self.rule else ""
        return f"{self.dice:+d} {self.label}{rule}"


class DefenseOption(msgspec.Struct, frozen=True, omit_defaults=True):
    """A defense the target could use against this check, now."""

    defender: str
    kind: DefenseKind
    via: Via
    facet: str
    dice: int
    modifiers: tuple[Modifier, ...] = ()
    allowed: bool = True
    reason: str = ""


class Plan(msgspec.Struct, frozen=True, omit_defaults=True):
    """Everything derived for one contested check, before rolling."""

    attacker: str
    action: CheckKind
    facet: str
    dice: int
    target: str = ""
    modifiers: tuple[Modifier, ...] = ()
    defenses: tuple[DefenseOption, ...] = ()
    allowed: bool = True
    reason: str = ""
    distance: int = 0
    behind: bool = False
    """The attacker stands behind the target's flank (E11)."""
    cover: tuple[Area, ...] = ()
    surprise: bool = False
    notes: tuple[str, ...] = ()
    weapon: str = ""
    """The attack chosen from the attacker's sheet ("": its own reach and weapon range)."""

    def usable_defenses(self) -> list[DefenseOption]:
        return [d for d in self.defenses if d.allowed]


# ------------------------------------------------------------------------------- records


class DefenseUse(msgspec.Struct, frozen=True, omit_defaults=True):
    """A defense as used: its dice, and a guard cooperating with it (E4, R11)."""

    defender: str
    kind: DefenseKind
    via: Via
    facet: str
    modifiers: tuple[Modifier, ...] = ()
    roll: Roll | None = None
    helper: "DefenseUse | None" = None
    higher_card: bool = False
    """Both hold a reflex card this round and the defender's is higher: a full tie goes
    to this defense (R9, E2)."""


class ShiftSpend(msgspec.Struct, frozen=True, omit_defaults=True):
    """A Shift (R10) or Will (C4) spent: by whom, on which roll, how."""

    side: Role
    payer: str
    """A character id, or "referee" for the referee's pool."""
    kind: str
    """"add" (2 dice), "retry" (chosen dice) or "will" (af-classic)."""
    roll: str = "attack"
    """"attack" or the index of the defense ("0", "1", ...)."""
    indices: tuple[int, ...] = ()


class MomentumUse(msgspec.Struct, frozen=True, omit_defaults=True):
    """Momentum spent after the check (R12): a marker on a character, damage, a stunt."""

    side: Role
    kind: str
    """"marker", "damage" or "stunt"."""
    target: str = ""
    dice: int = 0
    note: str = ""


class ContestRecord(msgspec.Struct, frozen=True, omit_defaults=True):
    """A resolved contested or plain check: every choice and every die."""

    attacker: str
    action: CheckKind
    facet: str
    target: str = ""
    uses: str = "action"
    modifiers: tuple[Modifier, ...] = ()
    ventures: int = 0
    advantage: bool = False
    disadvantage: bool = False
    attack: Roll | None = None
    d20: D20Check | None = None
    defenses: tuple[DefenseUse, ...] = ()
    spends: tuple[ShiftSpend, ...] = ()
    momentum_uses: tuple[MomentumUse, ...] = ()
    decoy: Area | None = None
    """Look: the decoy checked; Creep: the decoy lost on a failure."""
    decoys: tuple[Area, ...] = ()
    """Hide: where the two decoys go (E6)."""
    hits: int = 0
    """The attack's damage (the chosen weapon's, or the GM's number) before Momentum: a
    landed attack deals it plus Momentum spent on damage (E6, R12)."""
    note: str = ""
    weapon: str = ""
    """The attack chosen from the attacker's sheet."""
    physical: tuple[str, ...] = ()
    """Rolls whose faces the GM typed from physical dice: "attack", "defense"."""

    def verdict(self, ruleset: Ruleset | str) -> Verdict:
        """What the check came to; stopped if any defense stops it (R9, C2)."""
        rules = ruleset_named(ruleset) if isinstance(ruleset, str) else ruleset
        if self.d20 is not None:
            return verdict(rules.name, self.d20)  # a d20 check is its own verdict (D2)
        if self.attack is None:
            raise IllegalOp("the check has not been rolled")
        results = [
            rules.verdict(self.attack, d.roll, defense_wins_ties=d.higher_card)
            for d in self.defenses
            if d.roll
        ]
        if not results:
            return rules.verdict(self.attack)
        stopping = [v for v in results if v.stopped]
        return stopping[0] if stopping else results[0]


# ----------------------------------------------------------------------------- assembly


def _state_mods(
    c: Combatant, enc: "Encounter", role: str, checks: tuple[str, ...], facts: tuple[str, ...] = ()
) -> list[Modifier]:
    """Modifiers a character brings to a check it makes (``role`` "attack": ``checks`` is
    ("check", its kind)) or defends with (``role`` "defense": ("defense", the defense)):
    what its states' rows grant (afdesk.encounter.features: Prepare E5, down E17, stall E14,
    Crouch E5, ...), its Momentum markers (R12) and a hesitated action (E6)."""
    mods = []
    for row, bonus in features.bonuses(c, checks, facts):
        mods.append(
            Modifier(
                bonus.key or str(row.kind),
                bonus.label or row.label,
                bonus.dice,
                bonus.why.format(name=c.name),
                row.rule,
            )
        )
    for i, m in enumerate(c.momentum):
        src = f" from {m.source}" if m.source else ""
        # Distract gives one Interference (E5), not Momentum; its marker says whose
        # distraction it is (af-classic's Momentum markers are -1 too, C3).
        distracted = m.dice == -1 and m.source.endswith(DISTRACTION)
        mods.append(
            Modifier(
                f"momentum-{i}",
                "Distracted" if distracted else "Momentum" if m.dice > 0 else "Interference",
                m.dice,
                f"marker on {c.name}{src}, used by this check",
                "E5" if distracted else "R12",
                marker=i,
            )
        )
    if role == "attack" and enc.turn.interjection == c.id:
        mods.append(
            Modifier("hesitate", "Hesitated", -2, f"{c.name} acts on a hesitated action", "E6")
        )
    return mods


def assemble(
    enc: "Encounter",
    attacker_id: str,
    action: CheckKind | str,
    target_id: str = "",
    facet: str = "",
    weapon: str = "",
) -> Plan:
    """Derive the contested check of ``attacker`` doing ``action`` to ``target`` with the
    attack ``weapon`` from its sheet (its reach and range, E12); the mode may assemble it
    its own way (a dispute, P1-P5)."""
    action = CheckKind(action)
    own = current_mode(enc).assemble(enc, attacker_id, action, target_id, facet, weapon)
    return own or assemble_on_map(enc, attacker_id, action, target_id, facet, weapon)


def assemble_on_map(
    enc: "Encounter", attacker_id: str, action: CheckKind, target_id: str, facet: str, weapon: str
) -> Plan:
    """:func:`assemble` from the characters' places on the map (E8, E11-E13)."""
    spec = action.spec
    attacker = enc.combatant(attacker_id)
    if weapon and not spec.attack:
        weapon = ""  # only attacks use a weapon
    reach, rng = reach_and_range(attacker, weapon)
    facet = facet or spec.facet
    if not facet:
        raise IllegalOp("a plain check needs a facet")
    spend = spend_refusal(enc, attacker.id, spec.uses, spec.label.lower(), str(action.value))
    mods = _state_mods(attacker, enc, "attack", ("check", str(action)))
    mods.extend(Modifier(*m) for m in current_mode(enc).check_modifiers(enc, attacker, action))
    notes: list[str] = []
    target = enc.combatant(target_id) if target_id else None
    if target is None:
        if spec.defenses and action not in (CheckKind.LEAVE_OVERLAP,):
            raise IllegalOp(f"{spec.label} needs a target")
        return Plan(
            attacker.id,
            action,
            facet,
            attacker.facet(facet),
            modifiers=tuple(mods),
            allowed=not spend,
            reason=spend,
            weapon=weapon,
        )
    if target.id == attacker.id:
        raise IllegalOp(f"{attacker.name} cannot {spec.label.lower()} themselves")
    allowed, reason = True, ""
    a_area, t_area = attacker.area, target.area
    if a_area is None or t_area is None:
        return Plan(
            attacker.id,
            action,
            facet,
            attacker.facet(facet),
            target.id,
            tuple(mods),
            allowed=False,
            reason="both characters must be on the map",
            weapon=weapon,
        )
    dist = distance(a_area, t_area)
    behind = not in_front(t_area, target.facing, a_area)
    surprise = attacker.hidden and spec.attack
    cover: tuple[Area, ...] = ()
    if spec.attack:  # a taunt is an attack line like any other (E13)
        cover_areas = [a for a, t in enc.terrain.items() if t.cover]
        cover = tuple(crossed_areas(a_area, t_area, cover_areas))
        if cover:
            where = ", ".join(f"({c}, {r})" for c, r in cover[:3])
            mods.append(
                Modifier(
                    "cover",
                    "Cover",
                    -2,
                    f"the line to {target.name} crosses cover at {where}",
                    "E13",
                )
            )
    if spec.attack:  # what the mode adds to every attack: an Obscured chase stage (H4)
        mods.extend(Modifier(*m) for m in current_mode(enc).attack_modifiers(enc))
    if action is CheckKind.HACK:
        if dist > reach:
            allowed = False
            with_ = f" with the {weapon}" if weapon else ""
            reason = (
                f"{target.name} is {dist} areas away; {attacker.name}'s reach{with_} is "
                f"{reach} (E12)"
            )
        elif dist > 1 and not in_front(a_area, attacker.facing, t_area):
            allowed = False
            reason = (
                f"a reach weapon only attacks in front of {attacker.name}'s flank, and "
                f"{target.name} is behind it (E12)"
            )
    elif action is CheckKind.AIM:
        if rng <= 0:
            what = f"the {weapon} is not ranged" if weapon else "weapon range 0"
            allowed, reason = False, f"{attacker.name} has no ranged weapon ({what})"
        elif dist > 2 * rng:
            allowed = False
            reason = f"{target.name} is {dist} areas away, beyond twice the weapon's range {rng}"
        elif dist > rng:
            mods.append(
                Modifier(
                    "range",
                    "Range",
                    -2,
                    f"{dist} areas is beyond the weapon's range of {rng} (up to double)",
                    "E12",
                )
            )
    elif action is CheckKind.LEAVE_OVERLAP:
        if t_area != a_area or not opposed(attacker.side, target.side):
            allowed = False
            reason = f"{target.name} is not an opponent in {attacker.name}'s overlap (E14)"
    elif action is CheckKind.LOOK and not target.hidden:
        allowed, reason = False, f"{target.name} is not hidden: there is nothing to look for"
    if spend and allowed:
        allowed, reason = False, spend
    if surprise:
        notes.append(f"{attacker.name} is hidden: a surprise attack cannot be dodged (E8)")
    if behind:
        notes.append(f"{attacker.name} is behind {target.name}'s flank (E11)")
    # Crouch: +2 only when the cover next to the target is on the line (E5).
    crouch_cover = any(distance(a, t_area) == 1 for a in cover)
    defenses = _defenses(enc, attacker, target, action, dist, behind, crouch_cover, surprise)
    return Plan(
        attacker=attacker.id,
        action=action,
        facet=facet,
        dice=attacker.facet(facet),
        target=target.id,
        modifiers=tuple(mods),
        defenses=tuple(defenses),
        allowed=allowed,
        reason=reason,
        distance=dist,
        behind=behind,
        cover=cover,
        surprise=surprise,
        notes=tuple(notes),
        weapon=weapon,
    )


def higher_card(enc: "Encounter", defender: str, attacker: str) -> bool:
    """Whether both characters hold a reflex card this round and the defender's is the
    higher: the higher card wins full ties in contests (R9, E2). Members of one hand share
    its card, so between them the original stands."""
    r = enc.turn.round

    def card(cid: str) -> Card | None:
        h = enc.reflex.hand_of(cid)
        if h is None or r < 1 or len(h.played) < r:
            return None
        return h.played[r - 1]

    a, d = card(attacker), card(defender)
    return a is not None and d is not None and a.key < d.key


def candidates(enc: "Encounter", attacker_id: str, action: CheckKind | str) -> list[Combatant]:
    """Who ``attacker`` could do ``action`` to, opponents first, nearest first: an opponent
    in its overlap to leave (E14), a hidden character to look for (E5), anyone else on the
    map for the rest. Whether a particular one is allowed is :func:`assemble`'s to say."""
    action = CheckKind(action)
    a = enc.combatant(attacker_id)
    if a.area is None:
        return []
    out = []
    for c in enc.roster():
        if c.id == a.id or not c.on_map or c.in_reserve:
            continue
        if action is CheckKind.LEAVE_OVERLAP and (c.area != a.area or not opposed(a.side, c.side)):
            continue
        if action is CheckKind.LOOK and not c.hidden:
            continue
        out.append(c)
    here = a.area
    out.sort(key=lambda c: (not opposed(a.side, c.side), distance(here, c.area or here), c.name))
    return out


def _defenses(
    enc: "Encounter",
    attacker: Combatant,
    target: Combatant,
    action: CheckKind,
    dist: int,
    behind: bool,
    crouch_cover: bool,
    surprise: bool,
) -> list[DefenseOption]:
    spec = action.spec
    if not spec.defenses:
        return []
    if action in (CheckKind.LOOK, CheckKind.LEAVE_OVERLAP):
        kinds = [DefenseKind(k) for k in spec.defenses]
    else:
        # Every defense is listed, the ones that cannot answer with the reason (E8).
        kinds = [DefenseKind.DODGE, DefenseKind.PARRY, DefenseKind.INSIGHT]
    facts = ("cover",) if crouch_cover else ()
    out: list[DefenseOption] = []

    def option(kind: DefenseKind, via: Via, allowed: bool = True, reason: str = "") -> None:
        facet = DEFENSE_FACET[kind.base]
        checks = ("defense", str(kind.base), str(kind))
        mods = _state_mods(target, enc, "defense", checks, facts)
        if behind and kind.base is not DefenseKind.PARRY:
            # -2 on any contest that originates behind the flank: a dodge, an insight, a
            # guard, a sneak; a parry cannot be made from behind at all (E8).
            mods.append(
                Modifier(
                    "flank",
                    "Behind the flank",
                    -2,
                    f"{attacker.name} acts from behind {target.name}'s flank",
                    "E8",
                )
            )
        why = reason or _why_not(kind, attacker, target, action, dist, behind, surprise)
        out.append(
            DefenseOption(
                defender=target.id,
                kind=kind,
                via=via,
                facet=facet,
                dice=target.facet(facet),
                modifiers=tuple(mods),
                allowed=allowed and not why,
                reason=why,
            )
        )

    if action is CheckKind.LOOK:
        option(DefenseKind.SNEAK, Via.CONTEST)
        return out
    if action is CheckKind.LEAVE_OVERLAP:
        for kind in kinds:
            guard_reason = "" if target.economy.guards >= 1 else _guard_used(target)
            if features.has_defenses(target):
                option(kind, Via.DEFENSE)
            option(kind, Via.GUARD, not guard_reason, guard_reason)
        return out
    guard_reason = "" if target.economy.guards >= 1 else _guard_used(target)
    for kind in kinds:
        option(kind, Via.GUARD, not guard_reason, guard_reason)
    for kind in GUARD_ONLY:
        if kind.base in kinds:
            option(kind, Via.GUARD, not guard_reason, guard_reason)
    if features.has_defenses(target):
        for kind in kinds:
            option(kind, Via.DEFENSE)
    for kind, via in features.extra_defenses(target):  # Fend, Quip (E5, P5)
        option(kind, via)
    return out


def _guard_used(target: Combatant) -> str:
    return f"{target.name}'s guard is used; it returns on {target.name}'s next turn (E4)"


def _why_not(
    kind: DefenseKind,
    attacker: Combatant,
    target: Combatant,
    action: CheckKind,
    dist: int,
    behind: bool,
    surprise: bool,
) -> str:
    """Why a defense cannot answer this check (E8), or "" if it can."""
    spec = action.spec
    base = kind.base
    if base is DefenseKind.DODGE:
        if spec.social:
            return "a dodge cannot answer a social attack (E8)"
        if surprise:
            return "a dodge cannot answer a surprise attack (E8)"
    if base is DefenseKind.PARRY:
        if spec.social:
            return "a parry cannot answer a social attack (E8)"
        if behind:
            return f"{attacker.name} is behind {target.name}'s flank: no parry (E8)"
        if dist > parry_reach(target):
            return (
                f"{attacker.name} is {dist} areas away, outside {target.name}'s reach of "
                f"{parry_reach(target)}: no parry (E8)"
            )
    if base is DefenseKind.INSIGHT and not spec.social:
        return "insight only answers social attacks (E8)"
    return ""


def combinable(guard: DefenseOption, defense: DefenseOption) -> str:
    """Why a guard and a defense cannot contest the same check together, or "" (E4).

    They must be different types of check; the guard then cooperates with the defense.
    """
    if guard.via is not Via.GUARD:
        return "the first choice must be the guard"
    if defense.via is Via.GUARD:
        return "only one guard"
    if guard.defender != defense.defender:
        return "both must be the same character's"
    if guard.kind.base is defense.kind.base:
        return (
            f"guard and defense must be different types of check (E4): both are "
            f"{guard.kind.base.value}"
        )
    return ""


def pools(dice: int, modifiers: tuple[Modifier, ...] | list[Modifier]) -> tuple[int, int]:
    """(dice, Interference) from a facet score and the enabled modifiers (R1)."""
    return pool_sizes(dice, [m.dice for m in modifiers if m.enabled])


MOMENTUM_KINDS = ("marker", "damage", "stunt")
DISTRACTION = "'s distraction"
"""How the source of Distract's -1 marker ends (E5): "Chen's distraction"."""


def momentum_refusal(kind: str, dice: int, rules: Ruleset | str) -> str:
    """Why one Momentum cannot be spent so under ``rules``, or "" (R12): a marker on
    someone's next check (the ruleset's size: +2/-2, af-classic +1/-1, C3), +1/-1 damage on
    the attack, or a stunt."""
    if kind not in MOMENTUM_KINDS:
        return f"Momentum is spent on a marker, damage or a stunt, not {kind!r}"
    if kind == "damage" and dice not in (1, -1):
        return "Momentum changes damage by +1 or -1 (R12)"
    if kind == "marker":
        return (ruleset_named(rules) if isinstance(rules, str) else rules).marker_refusal(dice)
    return ""


__all__ = [
    "CHECK_SPECS",
    "DEFENSE_FACET",
    "GUARD_ONLY",
    "CheckKind",
    "CheckSpec",
    "ContestRecord",
    "DefenseKind",
    "DefenseOption",
    "DefenseUse",
    "Modifier",
    "MomentumUse",
    "Plan",
    "ShiftSpend",
    "Via",
    "assemble",
    "assemble_on_map",
    "candidates",
    "combinable",
    "momentum_refusal",
    "pools",
]
