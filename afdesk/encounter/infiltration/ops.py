"""The infiltration's Ops (N1, N3-N6, N8): roles, objectives, watch steps, the alarm,
decoys eliminated, reveals, who left. Each checks first and raises :class:`IllegalOp`
with the reason and the rule id."""

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter import economy
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.ops import ResolveContest, _consume
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import adjacent, normalise_facing
from afdesk.encounter.infiltration.perception import Perception, perception_text
from afdesk.encounter.infiltration.state import (
    Departure,
    InfiltrationState,
    Objective,
    infiltration_of,
)
from afdesk.encounter.infiltration.watch import WATCHED, WatchStep, watch_refusal
from afdesk.encounter.op import Op
from afdesk.encounter.requires import area_text, name, require_area_in_zone
from afdesk.encounter.state import Mode, Phase
from afdesk.rules.errors import RulesError
from afdesk.rules.rulesets import ruleset_named

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
    from afdesk.encounter.contest.assembly import ContestRecord
    from afdesk.encounter.interface import Encounter
    from afdesk.rules.verdict import Verdict

EDGES = ("north", "east", "south", "west")


def _inf(enc: "Encounter", doing: str) -> InfiltrationState:
    if enc.mode is not Mode.INFILTRATION:
        raise IllegalOp(f"cannot {doing}: the encounter is a {enc.mode.value}, not an infiltration")
    inf: InfiltrationState = infiltration_of(enc)
    return inf


class SetRoles(Op, frozen=True):
    """Who intrudes and who guards (N1); player characters may be either."""

    intruders: tuple[str, ...]
    guardians: tuple[str, ...]
    label = "Roles"

    def execute(self, enc: "Encounter") -> None:
        inf = _inf(enc, "set the roles")
        both = set(self.intruders) & set(self.guardians)
        if both:
            raise IllegalOp(
                f"{', '.join(name(enc, c) for c in sorted(both))} cannot be both intruder "
                "and guardian (N1)"
            )
        for cid in (*self.intruders, *self.guardians):
            enc.combatant(cid)  # refuses an unknown id
        if len(set(self.intruders)) != len(self.intruders) or len(set(self.guardians)) != len(
            self.guardians
        ):
            raise IllegalOp("each character is named once among the roles (N1)")
        new = msgspec.structs.replace(
            inf,
            intruders=self.intruders,
            guardians=self.guardians,
            alerted=tuple(g for g in inf.alerted if g in self.guardians),
        )
        if new == inf:
            raise IllegalOp("the roles are already so")
        enc.set_part("infiltration", new)

    def describe(self, enc: "Encounter") -> str:
        who = ", ".join(name(enc, c) for c in self.intruders) or "nobody"
        guards = ", ".join(name(enc, c) for c in self.guardians) or "nobody"
        return f"Intruders: {who}; guardians: {guards} (N1)"


class SetObjective(Op, frozen=True):
    """Add or change an objective (N1): an area or segment with a text and a done mark."""

    objective: Objective
    label = "Objective"

    def execute(self, enc: "Encounter") -> None:
        inf = _inf(enc, "set an objective")
        o = self.objective
        if not o.id or not o.text.strip():
            raise IllegalOp("an objective needs an id and a text (N1)")
        if o.area is not None:
            require_area_in_zone(enc, o.area, f"objective {o.text!r}")
        old = inf.objective(o.id)
        if old == o:
            raise IllegalOp(f"objective {o.text!r} is already so")
        objectives = (
            (*inf.objectives, o)
            if old is None
            else tuple(o if q.id == o.id else q for q in inf.objectives)
        )
        enc.set_part("infiltration", msgspec.structs.replace(inf, objectives=objectives))

    def describe(self, enc: "Encounter") -> str:
        o = self.objective
        where = f" at {area_text(o.area)}" if o.area is not None else ""
        where += f" ({o.segment})" if o.segment else ""
        return f"Objective{where}: {o.text}{' (done)' if o.done else ''} (N1)"


class MarkObjective(Op, frozen=True):
    """Mark an objective done or not done (N1, N8)."""

    id: str
    done: bool = True
    label = "Objective done"

    def execute(self, enc: "Encounter") -> None:
        inf = _inf(enc, "mark an objective")
        o = inf.objective(self.id)
        if o is None:
            raise IllegalOp(f"the infiltration has no objective {self.id!r} (N1)")
        if o.done == self.done:
            raise IllegalOp(f"{o.text!r} is {'already' if o.done else 'not'} done")
        new = msgspec.structs.replace(o, done=self.done)
        enc.set_part(
            "infiltration",
            msgspec.structs.replace(
                inf, objectives=tuple(new if q.id == o.id else q for q in inf.objectives)
            ),
        )

    def describe(self, enc: "Encounter") -> str:
        o = infiltration_of(enc).objective(self.id)
        text = o.text if o is not None else self.id
        return f"Objective {'done' if self.done else 'not done'}: {text} (N1)"


class ConfirmWatch(Op, frozen=True):
    """The GM confirms watch steps (N3), one or several at once: each unaware guardian
    moves one area (a watch step costs 1 whatever the terrain) and takes the facing."""

    steps: tuple[WatchStep, ...]
    label = "Watch"

    def execute(self, enc: "Encounter") -> None:
        _inf(enc, "confirm a watch step")
        if not self.steps:
            raise IllegalOp("no watch step to confirm (N3)")
        seen: set[str] = set()
        for s in self.steps:
            c = enc.combatant(s.id)
            if s.id in seen:
                raise IllegalOp(f"{c.name} takes one watch step, not two (N3)")
            seen.add(s.id)
            why = watch_refusal(enc, s.id)
            if why:
                raise IllegalOp(why)
            if c.area is None or c.exited:
                raise IllegalOp(f"{c.name} is not on the map (N3)")
            if c.has(StateKind.DOWN):
                raise IllegalOp(f"{c.name} is down: speed 0, no watch step (N3, E17)")
            target = (s.area[0], s.area[1])
            require_area_in_zone(enc, target, f"{c.name}'s watch step")
            if not adjacent((c.area[0], c.area[1]), target):
                raise IllegalOp(
                    f"{c.name}'s watch step to {area_text(target)} is not one area (N3)"
                )
            done = (*c.economy.resolved, WATCHED)  # one watch step a turn (N3)
            enc.put(
                c.replace(area=target, facing=normalise_facing(s.facing)).with_economy(
                    resolved=done
                )
            )
            enter_decoys(enc, s.id, target)

    def describe(self, enc: "Encounter") -> str:
        steps = "; ".join(f"{name(enc, s.id)} to {area_text(s.area)}" for s in self.steps)
        lost = [w for s in self.steps for w in decoys_entered(enc, s.id, [(s.area[0], s.area[1])])]
        gone = f"; eliminated: {', '.join(lost)} (N4b)" if lost else ""
        return f"Watch: {steps} (N3){gone}"


def enter_decoys(enc: "Encounter", guardian: str, area: tuple[int, int]) -> None:
    """N4b: a guardian entering a decoy's area eliminates it (the last one reveals its
    owner there, N5, and raises the alarm, N6)."""
    inf: InfiltrationState = infiltration_of(enc)
    if guardian not in inf.guardians:
        return
    for owner in inf.opponents(guardian):
        o = enc.combatants.get(owner)
        if o is None or not o.hidden or area not in o.decoys:
            continue
        o = o.without_decoy(area)
        if not o.decoys:
            o = o.without_state(StateKind.HIDDEN).replace(area=area)
            inf = _revealed(enc, inf, owner)
            enc.set_part("infiltration", inf)
        enc.put(o)


def decoys_entered(enc: "Encounter", guardian: str, areas: "list[tuple[int, int]]") -> list[str]:
    """The words for the decoys a guardian entering ``areas`` would eliminate (N4b)."""
    inf: InfiltrationState = infiltration_of(enc)
    if guardian not in inf.guardians:
        return []
    return [
        f"{name(enc, o)}'s decoy at {area_text(a)}"
        for a in areas
        for o in inf.opponents(guardian)
        if o in enc.combatants
        and enc.combatants[o].hidden
        and (a[0], a[1]) in enc.combatants[o].decoys
    ]


class RaiseAlarm(Op, frozen=True):
    """The alarm (N6): from their next turn every guardian takes normal turns (E3)."""

    label = "Alarm"

    def execute(self, enc: "Encounter") -> None:
        inf = _inf(enc, "raise the alarm")
        if inf.alarm:
            raise IllegalOp("the alarm is already raised (N6)")
        enc.set_part("infiltration", alarm_raised(enc, inf))

    def describe(self, enc: "Encounter") -> str:
        return "The alarm is raised: guardians take normal turns from their next turn (N6)"


def alarm_raised(enc: "Encounter", inf: InfiltrationState) -> InfiltrationState:
    """``inf`` with the alarm raised (N6): "from their next turn" every guardian takes
    normal turns, so a guardian whose turn is still to come this round is alerted now, and
    one whose turn this round has begun or passed is alerted when the round ends (the
    mode's Next turn). Between rounds every guardian is alerted at once."""
    t = enc.turn
    done = set(t.order[: t.index + 1]) if t.phase is Phase.TURNS else set()
    alerted = tuple(g for g in inf.guardians if g in inf.alerted or g not in done)
    return msgspec.structs.replace(inf, alarm=True, alerted=alerted)


def _revealed(enc: "Encounter", inf: InfiltrationState, cid: str) -> InfiltrationState:
    """The alarm rises the first time an intruder is revealed (N6)."""
    if cid in inf.intruders and not inf.alarm:
        return alarm_raised(enc, inf)
    return inf


class EliminateDecoy(Op, frozen=True):
    """A decoy is eliminated (N4: seen, entered, Looked at or lost to a Fumble); when the
    last one goes its owner is revealed there (N5)."""

    id: str
    area: tuple[int, int]
    label = "Decoy eliminated"

    def execute(self, enc: "Encounter") -> None:
        inf = _inf(enc, "eliminate a decoy")
        c = enc.combatant(self.id)
        if not c.hidden:
            raise IllegalOp(f"{c.name} is not hidden (N4)")
        area = (self.area[0], self.area[1])
        c = c.without_decoy(area)
        if not c.decoys:
            c = c.without_state(StateKind.HIDDEN).replace(area=area)
            enc.set_part("infiltration", _revealed(enc, inf, c.id))
        enc.put(c)

    def describe(self, enc: "Encounter") -> str:
        c = enc.combatants.get(self.id)
        text = f"{name(enc, self.id)}'s decoy at {area_text(self.area)} is eliminated (N4)"
        if c is not None and tuple(c.decoys) == ((self.area[0], self.area[1]),):
            text += f"; {c.name} is revealed there (N5)"
        return text


class Reveal(Op, frozen=True):
    """A hidden character is revealed at one of its decoys (N5, N7) and takes a facing
    (E11); the first intruder revealed raises the alarm (N6)."""

    id: str
    area: tuple[int, int]
    facing: float | None = None
    label = "Reveal"

    def execute(self, enc: "Encounter") -> None:
        inf = _inf(enc, "reveal a character")
        c = enc.combatant(self.id)
        if not c.hidden:
            raise IllegalOp(f"{c.name} is not hidden (N5)")
        area = (self.area[0], self.area[1])
        if area not in c.decoys:
            raise IllegalOp(f"{c.name} has no decoy at {area_text(area)}: reveal it at one (N5)")
        facing = c.facing if self.facing is None else normalise_facing(self.facing)
        enc.put(c.without_state(StateKind.HIDDEN).replace(area=area, decoys=(), facing=facing))
        new = _revealed(enc, inf, c.id)
        if new != inf:
            enc.set_part("infiltration", new)

    def describe(self, enc: "Encounter") -> str:
        inf = infiltration_of(enc)
        text = f"{name(enc, self.id)} is revealed at {area_text(self.area)} (N5)"
        if self.id in inf.intruders and not inf.alarm:
            text += "; the alarm is raised (N6)"
        return text


class MarkLeft(Op, frozen=True):
    """An intruder left the encounter by an edge (N8, E9): the app records who got out."""

    id: str
    edge: str
    label = "Left"

    def execute(self, enc: "Encounter") -> None:
        inf = _inf(enc, "record who left")
        c = enc.combatant(self.id)
        if self.id not in inf.intruders:
            raise IllegalOp(f"{c.name} is not an intruder (N8)")
        if self.edge not in EDGES:
            raise IllegalOp(f"{self.edge!r} is not an edge: north, east, south or west (E9)")
        if any(d.id == self.id for d in inf.left):
            raise IllegalOp(f"{c.name} has already left (N8)")
        gone = Departure(self.id, self.edge, enc.turn.exchange)
        enc.set_part("infiltration", msgspec.structs.replace(inf, left=(*inf.left, gone)))

    def describe(self, enc: "Encounter") -> str:
        return f"{name(enc, self.id)} got out by the {self.edge} edge (N8)"


class SetObscured(Op, frozen=True):
    """The GM marks areas with a visibility penalty: they block clear lines (N4a)."""

    areas: tuple[tuple[int, int], ...]
    label = "Obscured areas"

    def execute(self, enc: "Encounter") -> None:
        inf = _inf(enc, "mark obscured areas")
        areas = tuple((a[0], a[1]) for a in self.areas)
        for a in areas:
            require_area_in_zone(enc, a, "an obscured area")
        if areas == inf.obscured:
            raise IllegalOp("those areas are already the obscured ones")
        enc.set_part("infiltration", msgspec.structs.replace(inf, obscured=areas))

    def describe(self, enc: "Encounter") -> str:
        return f"Obscured areas: {', '.join(area_text(a) for a in self.areas) or 'none'} (N4a)"


FUMBLED = "fumbled: loses a decoy, its owner picks which (N4d)"
"""The note a fumble while hidden leaves on the hidden state until the owner picks the
decoy that goes (N4d, R6): the pending decision reads it, :class:`LoseDecoy` clears it."""


def owes_decoy(c: "Combatant") -> bool:
    """Whether ``c`` fumbled a check while hidden and has not yet lost the decoy (N4d)."""
    st = c.state(StateKind.HIDDEN)
    return st is not None and st.note == FUMBLED


def hidden_fumblers(enc: "Encounter", record: "ContestRecord", v: "Verdict") -> list[str]:
    """Who fumbled this check while hidden (N4d, R6): its roller, when hidden (not an
    attack from hiding, which reveals it, N7), and each hidden defender whose roll
    fumbled (a sneak against a Look)."""
    out: list[str] = []
    a = enc.combatants.get(record.attacker)
    if (
        a is not None
        and a.hidden
        and not record.action.spec.attack
        and v.attack is not None
        and v.attack.fumble
    ):
        out.append(a.id)
    rules = ruleset_named(enc.ruleset)
    for d in record.defenses:
        c = enc.combatants.get(d.defender)
        if c is None or not c.hidden or d.roll is None or not rules.dice_pools:
            continue
        if rules.outcome(d.roll).fumble and c.id not in out:
            out.append(c.id)
    return out


def owe_decoy(enc: "Encounter", cid: str) -> None:
    """Note on ``cid``'s hidden state that a fumble costs it a decoy (N4d)."""
    c = enc.combatant(cid)
    if not c.hidden or not c.decoys:
        return
    states = tuple(
        msgspec.structs.replace(s, note=FUMBLED) if s.kind == StateKind.HIDDEN else s
        for s in c.states
    )
    enc.put(c.replace(states=states))


class LoseDecoy(Op, frozen=True):
    """The owner of a hidden character that fumbled a check picks the decoy it loses
    (N4d, R6); its last decoy gone, it is revealed there (N5) and the first intruder
    revealed raises the alarm (N6)."""

    id: str
    area: tuple[int, int]
    label = "Decoy lost to a fumble"

    def execute(self, enc: "Encounter") -> None:
        inf = _inf(enc, "lose a decoy to a fumble")
        c = enc.combatant(self.id)
        if not c.hidden or not owes_decoy(c):
            raise IllegalOp(
                f"{c.name} has no fumble to pay for: a decoy goes to a fumble of its "
                "owner's check while hidden (N4d)"
            )
        area = (self.area[0], self.area[1])
        if area not in c.decoys:
            raise IllegalOp(f"{c.name} has no decoy at {area_text(area)} to lose (N4d)")
        c = c.without_decoy(area)
        states = tuple(
            msgspec.structs.replace(s, note="") if s.kind == StateKind.HIDDEN else s
            for s in c.states
        )
        c = c.replace(states=states)
        if not c.decoys:
            c = c.without_state(StateKind.HIDDEN).replace(area=area)
            new = _revealed(enc, inf, c.id)
            if new != inf:
                enc.set_part("infiltration", new)
        enc.put(c)

    def describe(self, enc: "Encounter") -> str:
        c = enc.combatants.get(self.id)
        who = name(enc, self.id)
        text = f"{who} loses the decoy at {area_text(self.area)} to the fumble (N4d)"
        if c is not None and tuple(c.decoys) == ((self.area[0], self.area[1]),):
            text += f"; {who} is revealed there (N5)"
            text += "; the alarm is raised (N6)" if _alarm_due(enc, self.id) else ""
        return text


def _alarm_due(enc: "Encounter", cid: str) -> bool:
    inf: InfiltrationState = infiltration_of(enc)
    return cid in inf.intruders and not inf.alarm


class HiddenActsFrom(Op, frozen=True):
    """A hidden character acts from one of its decoys (N5: it is at one of them, undecided
    until it acts or is revealed; N7: a surprise attack is made from either decoy's area,
    reach and range counted from there). It stays hidden at that decoy; the attack that
    follows reveals it there and its other decoy goes (E6)."""

    id: str
    area: tuple[int, int]
    label = "Act from a decoy"

    def execute(self, enc: "Encounter") -> None:
        _inf(enc, "act from a decoy")
        c = enc.combatant(self.id)
        if not c.hidden:
            raise IllegalOp(f"{c.name} is not hidden: it acts from where it stands (N5)")
        area = (self.area[0], self.area[1])
        if area not in c.decoys:
            raise IllegalOp(f"{c.name} has no decoy at {area_text(area)} to act from (N5)")
        if c.area is not None and (c.area[0], c.area[1]) == area:
            raise IllegalOp(f"{c.name} already acts from {area_text(area)}")
        enc.put(c.replace(area=area))

    def describe(self, enc: "Encounter") -> str:
        return f"{name(enc, self.id)} acts from the decoy at {area_text(self.area)} (N5, N7)"


class SurpriseAttack(ResolveContest, frozen=True):
    """A surprise attack with the target's perception (N7): the target spent its guard on
    a study check that the attacker's sneak contested. If it stood, the attack was
    contested normally, never by a dodge (E8); if not, nothing contested it and landing
    it leaves the target down (E17). Without a perception it is the plain check."""

    perception: Perception | None = None
    label = "Surprise attack"

    def execute(self, enc: "Encounter") -> None:
        _inf(enc, "make a surprise attack")
        r = self.record
        a = enc.combatant(r.attacker)
        if not (a.hidden and r.action.spec.attack and r.target):
            raise IllegalOp(f"{a.name} is not hidden: this is no surprise attack (N7)")
        p = self.perception
        if p is not None:
            if not ruleset_named(enc.ruleset).dice_pools:
                raise IllegalOp(f"{enc.ruleset}: no perception roll (N7)")
            t = enc.combatant(r.target)
            if t.economy.guards < 1:
                raise IllegalOp(f"{t.name}'s guard is used: a perception spends it (N7, E4)")
            enc.put(_consume(economy.use_guard(t), p.modifiers))
        super().execute(enc)

    def perceived(self, enc: "Encounter") -> bool:
        p = self.perception
        return p is not None and p.stands(enc.ruleset)

    def describe(self, enc: "Encounter") -> str:
        line = super().describe(enc)
        p = self.perception
        if p is None:
            return line
        r = self.record
        try:
            seen = perception_text(name(enc, r.target), name(enc, r.attacker), p, enc.ruleset)
        except (RulesError, IllegalOp):
            return line
        return f"{seen} — {line}"
