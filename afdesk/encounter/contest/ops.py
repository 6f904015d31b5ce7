"""Resolving checks: a contest with all its dice in one Op, and persevere (E4-E8, E14,
E15, R9-R12)."""

from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter import economy, features, movement
from afdesk.encounter.actor import require_actor
from afdesk.encounter.combatant import Combatant, MomentumMarker, State, StateKind
from afdesk.encounter.contest.assembly import (
    DISTRACTION,
    MOMENTUM_KINDS,
    CheckKind,
    ContestRecord,
    DefenseKind,
    DefenseOption,
    DefenseUse,
    Modifier,
    ShiftSpend,
    Via,
    combinable,
    momentum_refusal,
)
from afdesk.encounter.contest.defense_side import defenders_refusal
from afdesk.encounter.damage import (
    attack_named,
    hits_reach_grit,
    landed_hits,
    momentum_damage,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.modes import current_mode
from afdesk.encounter.op import Op
from afdesk.encounter.ops.roster import check_decoys
from afdesk.encounter.requires import name, require_phase
from afdesk.encounter.state import Meta, Phase
from afdesk.encounter.words import plural
from afdesk.rules.contest import Role
from afdesk.rules.d20 import D20Check
from afdesk.rules.dice import Roll
from afdesk.rules.errors import RulesError
from afdesk.rules.rulesets import d20_margin, ruleset_named
from afdesk.rules.verdict import Verdict

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def _consume(c: Combatant, modifiers: Iterable[Modifier]) -> Combatant:
    """The one-shot bonuses this check counted are gone: a state whose row says its bonus
    is used up (Prepared, E5) and the Momentum markers it used (R12)."""
    used: set[int] = set()
    for m in modifiers:
        if not m.enabled:
            continue
        state = features.consumed_state(m.key)
        if not state and m.marker == -1:  # written before the rows: -1 was Prepared (E5)
            state = StateKind.PREPARED
        if state:
            c = c.without_state(state)  # type: ignore[arg-type]
        elif m.marker is not None and m.marker >= 0:
            used.add(m.marker)
    keep = tuple(m for i, m in enumerate(c.momentum) if i not in used)
    if len(keep) != len(c.momentum):
        c = c.replace(momentum=keep)
    return c


def _defense_source(enc: "Encounter", d: DefenseUse, people: dict[str, Combatant]) -> None:
    c = people[d.defender]
    if d.via is Via.GUARD:
        people[d.defender] = economy.use_guard(c)
    elif d.via is Via.DEFENSE and not features.has_defenses(c):
        raise IllegalOp(f"{c.name} has no defense: Defend or Screen first (E6, E7)")
    elif (row := features.via_state(d.via)) is not None and not features.gives_defense(c, d.via):
        snap = next((s.label for s in features.SNAPS.values() if s.grants == row.kind), row.label)
        raise IllegalOp(f"{c.name} has not used {snap} this turn cycle ({row.rule})")


SURPRISE_DOWN = "surprise attack (N7)"
"""The note on the down state a surprise attack leaves (N7)."""


class ResolveContest(Op, frozen=True):
    """A contested (or plain) check as it happened: choices, every die, Shifts spent and
    Momentum used; applying it spends the action or snap, the guard, the Shifts and the
    markers it used, and does what the check achieved."""

    record: ContestRecord
    override: bool = False
    label = "Check"

    def execute(self, enc: "Encounter") -> None:
        r = self.record
        people: dict[str, Combatant] = {}
        attacker = enc.combatant(r.attacker)
        t = enc.turn
        if attacker.hidden and r.action.spec.attack and r.defenses:
            self._surprise_defenses(enc, attacker)
        if r.uses in ("action", "snap") and not self.override:
            require_phase(enc, Phase.TURNS, doing=f"{r.action.label.lower()} on a turn")
            require_actor(enc, attacker.id, r.action.label.lower(), str(r.action))
        if r.uses == "action":
            attacker = economy.use_action(attacker, str(r.action), t.exchange, t.round)
        elif r.uses == "snap":
            attacker = economy.use_snap(attacker)
        rules = ruleset_named(enc.ruleset)
        if not rules.dice_pools:
            if r.d20 is None:
                raise IllegalOp(f"a {rules.name} check needs its d20 roll")
        elif r.attack is None:
            raise IllegalOp("the check has not been rolled")
        if r.action is CheckKind.LEAVE_OVERLAP:
            _one_move_check(enc, attacker, r)
        people[attacker.id] = _consume(attacker, r.modifiers)
        why = defenders_refusal(enc, r)  # the target's own, or a retort for it (P5)
        if why:
            raise IllegalOp(why)
        for d in r.defenses:
            if d.defender not in people:
                people[d.defender] = enc.combatant(d.defender)
            if people[d.defender].exited:
                raise IllegalOp(f"{people[d.defender].name} has left the encounter")
            if d.roll is None:
                raise IllegalOp(f"{name(enc, d.defender)}'s {d.kind.value} has no dice")
            _defense_source(enc, d, people)
            people[d.defender] = _consume(people[d.defender], d.modifiers)
            if d.helper is not None:
                h = d.helper
                if h.defender != d.defender:  # another's retort helps (P5, R11)
                    if h.defender not in people:
                        people[h.defender] = enc.combatant(h.defender)
                    _defense_source(enc, h, people)
                    people[h.defender] = _consume(people[h.defender], h.modifiers)
                    continue
                if h.via is not Via.GUARD or d.via is Via.GUARD:
                    raise IllegalOp("only a guard cooperates with a defense (E4)")
                why = combinable(_as_option(h), _as_option(d))
                if why:
                    raise IllegalOp(why)
                _defense_source(enc, h, people)
        meta = enc.meta
        for s in r.spends:
            meta = self._pay(enc, s, people, meta)
        v = r.verdict(enc.ruleset)
        self._momentum(enc, v, people)
        self._effects(enc, v, people)
        for cid, asks in self.terrain_prompts(enc).items():
            c = people.get(cid) or enc.combatant(cid)
            people[cid] = c.with_economy(pending=(*c.economy.pending, *asks))
        if meta != enc.meta:
            enc.set_meta(meta)
        for c in people.values():
            enc.put(c)
        current_mode(enc).after_check(enc, r, v)  # a dispute's Convince, Taunt (P4, P5)

    def terrain_prompts(self, enc: "Encounter") -> dict[str, list[str]]:
        """Who fell on a Ledge or a Steep slope: a roll of this check with Interference
        that interfered (a Win on an Interference die) where its roller stands (E10)."""
        r = self.record
        rolls = [(r.attacker, r.attack)] + [(d.defender, d.roll) for d in r.defenses]
        out: dict[str, list[str]] = {}
        for cid, roll in rolls:
            if roll is None or cid not in enc.combatants:
                continue
            interfered = any(f >= 4 for f in roll.interference_faces)
            asks = movement.interference_prompts(enc, enc.combatant(cid), interfered)
            if asks:
                out.setdefault(cid, []).extend(asks)
        return out

    def _pay(
        self, enc: "Encounter", s: ShiftSpend, people: dict[str, Combatant], meta: Meta
    ) -> Meta:
        if s.payer == "referee":
            if meta.referee_shifts < 1:
                raise IllegalOp("the referee has no Shifts left (R10)")
            return msgspec.structs.replace(meta, referee_shifts=meta.referee_shifts - 1)
        if s.payer not in people:
            people[s.payer] = enc.combatant(s.payer)
        c = people[s.payer]
        if s.kind == "will":
            if c.will < 1:
                raise IllegalOp(f"{c.name} has no Will left (C4)")
            people[s.payer] = c.replace(will=c.will - 1)
        else:
            if c.shifts < 1:
                raise IllegalOp(f"{c.name} has no Shifts left (R10)")
            people[s.payer] = c.replace(shifts=c.shifts - 1)
        return meta

    def _momentum(self, enc: "Encounter", v: Verdict, people: dict[str, Combatant]) -> None:
        r = self.record
        if not r.momentum_uses:
            return
        earned = {Role.ATTACKER: 0, Role.DEFENDER: 0}
        if v.attack is not None:
            earned[Role.ATTACKER] = v.attack.momentum
        if v.defense is not None:
            earned[Role.DEFENDER] = v.defense.momentum
        spent = Counter(u.side for u in r.momentum_uses)
        for side, n in spent.items():
            if n > earned[side]:
                raise IllegalOp(
                    f"the {side.value} spends {n} Momentum but made {earned[side]} (R12)"
                )
        source = f"{name(enc, r.attacker)}'s {r.action.label.lower()}"
        for u in r.momentum_uses:
            why = momentum_refusal(u.kind, u.dice, enc.ruleset) if u.kind in MOMENTUM_KINDS else ""
            if why:
                raise IllegalOp(why)
            if u.kind == "marker":
                if u.target not in people:
                    people[u.target] = enc.combatant(u.target)
                c = people[u.target]
                people[u.target] = c.replace(momentum=(*c.momentum, MomentumMarker(u.dice, source)))

    def _effects(self, enc: "Encounter", v: Verdict, people: dict[str, Combatant]) -> None:
        r = self.record
        a = people[r.attacker]
        surprise = r.action.spec.attack and a.hidden
        if surprise:
            # E6 as the table plays it: an attack gives the attacker away, landed
            # or not; the decoys go with the hiding.
            a = people[a.id] = a.without_state(StateKind.HIDDEN).replace(decoys=())
            current_mode(enc).revealed(enc, a.id)  # the alarm in an infiltration (N6)
        if r.weapon:
            attack_named(a, r.weapon)  # the attack is on the attacker's sheet
        damage = landed_hits(r.hits, r.momentum_uses)  # E6, R12
        as_hits = current_mode(enc).damage_as_hits(enc, r)  # a dispute's Taunt: grit (P5)
        if v.lands and r.target and r.action.spec.attack and damage > 0 and as_hits:
            target = people.get(r.target) or enc.combatant(r.target)
            people[target.id] = target.replace(hits=target.hits + damage)
        if surprise and self._leaves_down(enc, v):
            target = people.get(r.target) or enc.combatant(r.target)
            people[target.id] = target.with_state(State(StateKind.DOWN, note=SURPRISE_DOWN))
        if r.action is CheckKind.LEAVE_OVERLAP:
            winners = []
            for d in r.defenses:
                if not v.succeeds or (
                    d.roll is not None and r.attack is not None and _stops(enc, r.attack, d)
                ):
                    winners.append(enc.combatant(d.defender))
            if not v.succeeds and not winners:
                winners = enc.opponents_in(a.area, a) if a.area else []
            if winners:
                if a.area is None:
                    # An overlap is an area: off the map there is none to leave (E14).
                    raise IllegalOp(f"{a.name} cannot leave an overlap: not on the map")
                exits = movement.front_exits(enc, a.area, winners)
                people[a.id] = a.with_economy(exit_free=False, exit_to=exits)
            else:
                people[a.id] = a.with_economy(exit_free=True, exit_to=None)
        elif r.action is CheckKind.LOOK and v.lands and r.target:
            target = people.get(r.target) or enc.combatant(r.target)
            if r.decoy is not None:
                people[target.id] = target.without_decoy((r.decoy[0], r.decoy[1]))
        elif r.action is CheckKind.HUSTLE:
            people[a.id] = economy.hustled(a, v.lands)
        elif r.action is CheckKind.CREEP:
            people[a.id] = economy.crept(a, v.lands, r.decoy)
        elif r.action is CheckKind.DISTRACT and v.lands and r.target:
            target = people.get(r.target) or enc.combatant(r.target)
            source = f"{a.name}{DISTRACTION}"
            people[target.id] = target.replace(
                momentum=(*target.momentum, MomentumMarker(-1, source))
            )
        elif r.action is CheckKind.HIDE and v.lands:
            check_decoys(enc, a, r.decoys, hiding=True)
            people[a.id] = a.with_state(State(StateKind.HIDDEN)).replace(
                decoys=tuple(tuple(d) for d in r.decoys)
            )

    def perceived(self, enc: "Encounter") -> bool:
        """Whether the target's perception stood against this surprise attack (N7): never
        here; a ``SurpriseAttack`` (an infiltration's Op) records one."""
        return False

    def _surprise_defenses(self, enc: "Encounter", attacker: Combatant) -> None:
        """A dodge never answers a surprise attack (E8); where N7 holds (an infiltration)
        nothing does unless the target's perception stood."""
        r = self.record
        if any(d.kind.base is DefenseKind.DODGE for d in r.defenses):
            raise IllegalOp("a dodge cannot answer a surprise attack (E8)")
        if current_mode(enc).surprise_leaves_down and not self.perceived(enc):
            raise IllegalOp(
                f"nothing contests {attacker.name}'s surprise attack: "
                f"{name(enc, r.target)} did not perceive {attacker.name} (N7)"
            )

    def _leaves_down(self, enc: "Encounter", v: Verdict) -> bool:
        """N7: in a mode where it does (an infiltration), a surprise attack that lands
        while the target's perception did not stand also leaves its target down (E17)."""
        r = self.record
        return (
            v.lands
            and bool(r.target)
            and not self.perceived(enc)
            and current_mode(enc).surprise_leaves_down
        )

    def describe(self, enc: "Encounter") -> str:
        r = self.record
        who = name(enc, r.attacker)
        spec = r.action.spec
        target = f" {name(enc, r.target)}" if r.target else ""
        try:
            v = r.verdict(enc.ruleset)
        except (RulesError, IllegalOp):  # the Op will be refused; the line is never shown
            return f"{who} {spec.verb}{target}"
        if r.d20 is not None:
            return f"{who} {spec.verb}{target}: {r.d20.describe()}{physical_text(r.physical)}"
        dice = _dice_text(r.attack)
        head = f"{who} {spec.verb}{target} ({r.facet}): {dice}"
        if r.weapon:
            head = f"{who} {spec.verb}{target} with the {r.weapon} ({r.facet}): {dice}"
        tail = physical_text(r.physical)
        damage = max(r.hits + momentum_damage(r.momentum_uses), 0)
        mode = current_mode(enc)
        if v.lands and r.target and r.action.spec.attack and mode.damage_as_hits(enc, r):
            tail += f" — {name(enc, r.target)} takes {plural(damage, 'hit')}"
            if momentum_damage(r.momentum_uses):
                tail += f" ({r.hits} damage, Momentum {momentum_damage(r.momentum_uses):+d}, R12)"
            hit = enc.combatants.get(r.target)
            if hit is not None and damage and hits_reach_grit(hit.replace(hits=hit.hits + damage)):
                tail += f": hits {hit.hits + damage} reach grit {hit.grit}, the GM decides"
        spent = [
            f"{'the referee' if s.payer == 'referee' else name(enc, s.payer)} "
            + {"add": "+2 dice", "retry": "a retry", "will": "Will"}.get(s.kind, s.kind)
            for s in r.spends
        ]
        if spent:
            tail += " (Shifts: " + ", ".join(spent) + ")"
        for asks in self.terrain_prompts(enc).values():
            tail += "".join(f" — {a}" for a in asks)
        attacker = enc.combatants.get(r.attacker)
        if spec.attack and attacker is not None and attacker.hidden:
            tail += f" — {who} attacked from hiding and is revealed (E6)"
            tail += current_mode(enc).reveal_note(enc, r.attacker)
            try:
                down = self._leaves_down(enc, r.verdict(enc.ruleset))
            except (RulesError, IllegalOp):
                down = False
            if down:
                tail += f"; {name(enc, r.target)} is left down (N7)"
        tail += mode.check_text(enc, r, v)
        if not r.defenses or not v.succeeds:
            return f"{head} — {v.explain()}{tail}"
        d = r.defenses[0]
        defender = name(enc, d.defender)
        via = "" if d.via is Via.GUARD else f" ({d.via.value})"
        if d.defender != r.target and r.target and r.action is not CheckKind.LEAVE_OVERLAP:
            via += f" for {name(enc, r.target)} (P5)"
        helper = f" with the guard's {d.helper.kind.value}" if d.helper else ""
        if d.helper is not None and d.helper.defender != d.defender:
            quip = " (quip)" if d.helper.via is Via.QUIP else ""
            helper = f" with {name(enc, d.helper.defender)}'s retort{quip} (P5)"
        return (
            f"{head} — {defender} {d.kind.verb}{via}{helper}: {_dice_text(d.roll)} — "
            f"{v.explain()}{tail}"
        )

    def title(self, enc: "Encounter") -> str:
        r = self.record
        target = f" {name(enc, r.target)}" if r.target else ""
        return f"{name(enc, r.attacker)} {r.action.spec.verb}{target}"


def _one_move_check(enc: "Encounter", mover: Combatant, r: ContestRecord) -> None:
    """Leaving an overlap is one move check, which each opponent there may contest once
    (E14): a second check this move, or a defense from anyone else, is refused."""
    e = mover.economy
    if e.exit_free or e.exit_to is not None:
        raise IllegalOp(
            f"{mover.name} has already made the one move check to leave this overlap; every "
            "opponent there contests that one check (E14)"
        )
    foes = {f.id for f in enc.opponents_in(mover.area, mover)} if mover.area else set()
    seen: set[str] = set()
    for d in r.defenses:
        if d.defender not in foes:
            raise IllegalOp(
                f"{name(enc, d.defender)} is not an opponent in {mover.name}'s overlap (E14)"
            )
        if d.defender in seen:
            raise IllegalOp(f"{name(enc, d.defender)} contests the move check only once (E14)")
        seen.add(d.defender)


def _stops(enc: "Encounter", attack: Roll, d: DefenseUse) -> bool:
    rules = ruleset_named(enc.ruleset)
    return rules.verdict(attack, d.roll, defense_wins_ties=d.higher_card).stopped


def _as_option(d: DefenseUse) -> DefenseOption:
    return DefenseOption(d.defender, d.kind, d.via, d.facet, 0)


def _dice_text(roll: Roll | None) -> str:
    if roll is None:
        return "no dice"
    check = ",".join(str(d.face) for d in roll.main_pool)
    intf = ",".join(str(d.face) for d in roll.interference)
    return f"[{check}]" + (f" vs Interference [{intf}]" if intf else "")


# ------------------------------------------------------------------------------ persevere


class PersevereResult(msgspec.Struct, frozen=True, omit_defaults=True):
    """One character's persevere check (E15)."""

    id: str
    roll: Roll | None = None
    d20: D20Check | None = None
    days: int = 0


class Persevere(Op, frozen=True):
    """After an encounter longer than one exchange, every character makes a strength check;
    the success margin must exceed the days since rest, or the character becomes exhausted;
    an already exhausted one loses grit equal to the failure margin (E15, R13)."""

    results: tuple[PersevereResult, ...]
    physical: bool = False
    """The faces were typed from physical dice."""
    label = "Persevere"

    def execute(self, enc: "Encounter") -> None:
        require_phase(enc, Phase.ENDED, doing="persevere")
        if enc.turn.exchanges_played <= 1:
            raise IllegalOp("persevere follows encounters longer than one exchange (E15)")
        if enc.turn.persevered:
            raise IllegalOp("everyone has already persevered for this encounter (E15)")
        if not self.results:
            raise IllegalOp("nobody is left in the encounter to persevere (E15)")
        party = {c.id for c in persevere_party(enc)}
        given = {res.id for res in self.results}
        if given != party:
            missing = ", ".join(name(enc, cid) for cid in sorted(party - given))
            extra = ", ".join(name(enc, cid) for cid in sorted(given - party))
            raise IllegalOp(
                "persevere is one strength check for every character still in the encounter "
                "(E15)"
                + (f"; missing: {missing}" if missing else "")
                + (f"; not taking part: {extra}" if extra else "")
            )
        seen = set()
        for res in self.results:
            if res.id in seen:
                raise IllegalOp(f"{name(enc, res.id)} perseveres twice")
            seen.add(res.id)
            c = enc.combatant(res.id)
            passed, fail_margin = persevere_passed(enc, res)
            if passed:
                continue
            if c.has(StateKind.EXHAUSTED):
                enc.put(c.replace(grit=max(c.grit - fail_margin, 0)))
            else:
                enc.put(c.with_state(State(StateKind.EXHAUSTED)))
        enc.set_turn(msgspec.structs.replace(enc.turn, persevered=True))

    def describe(self, enc: "Encounter") -> str:
        parts = []
        for res in self.results:
            try:
                passed, margin = persevere_passed(enc, res)
            except IllegalOp:
                continue
            c = enc.combatants.get(res.id)
            if passed:
                parts.append(f"{name(enc, res.id)} perseveres")
            elif c is not None and c.has(StateKind.EXHAUSTED):
                parts.append(f"{name(enc, res.id)} loses {margin} grit")
            else:
                parts.append(f"{name(enc, res.id)} is exhausted")
        tail = " — physical dice" if self.physical else ""
        return "Persevere: " + ("; ".join(parts) or "nobody") + tail


def persevere_party(enc: "Encounter") -> list[Combatant]:
    """Who perseveres: every character still in the encounter, denizens aside (E15)."""
    return [c for c in enc.roster() if not c.exited and c.side.value != "denizen"]


def persevere_passed(enc: "Encounter", res: PersevereResult) -> tuple[bool, int]:
    """(passed, failure margin) of a persevere check: the success margin must exceed the
    days since rest (E15, R13)."""
    if res.d20 is not None:
        margin = d20_margin(res.d20.degree)
        return margin >= 0 and margin > res.days, max(-margin, 0)
    if res.roll is None:
        raise IllegalOp(f"{name(enc, res.id)}'s persevere check has no dice")
    o = ruleset_named(enc.ruleset).outcome(res.roll)
    return o.success and o.success_margin > res.days, o.failure_margin


def physical_text(physical: tuple[str, ...]) -> str:
    """The log's mark for rolls typed from physical dice."""
    if not physical:
        return ""
    return " — physical dice (" + ", ".join(physical) + ")"
