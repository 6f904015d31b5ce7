"""Ops on characters: join, leave, place, face, states, markers, counters (E11, E17, R12)."""

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.actor import require_actor
from afdesk.encounter.combatant import (
    MARKED_STATES,
    Combatant,
    MomentumMarker,
    Side,
    State,
    StateKind,
    bleeding_hits,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.facing import default_facing
from afdesk.encounter.geometry import (
    Area,
    adjacent,
    direction_name,
    neighbours,
    normalise_facing,
)
from afdesk.encounter.op import Op
from afdesk.encounter.reflex import hand_key
from afdesk.encounter.requires import area_text, name, require_area_in_zone, require_on_map
from afdesk.encounter.state import Phase
from afdesk.encounter.weapons import attack_refusal
from afdesk.encounter.words import plural
from afdesk.encounter.zone import Edge
from afdesk.rules.rulesets import ruleset_named

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def new_id(enc: "Encounter", name_: str) -> str:
    """A fresh, readable id for a character called ``name_``."""
    base = re.sub(r"[^a-z0-9]+", "-", name_.lower()).strip("-") or "character"
    cid, n = base, 2
    while cid in enc.combatants:
        cid, n = f"{base}-{n}", n + 1
    return cid


def _check_profile(c: Combatant) -> None:
    if not c.name.strip():
        raise IllegalOp("a character needs a name")
    for f in c.facets:
        if f.score < 0:
            raise IllegalOp(f"{c.name}'s {f.name} score cannot be negative")
    if min(c.speeds.run, c.speeds.climb, c.speeds.jump, c.speeds.swim, c.speeds.fly) < 0:
        raise IllegalOp(f"{c.name}'s speeds cannot be negative")
    if c.reach < 0 or c.weapon_range < 0:
        raise IllegalOp(f"{c.name}'s reach and weapon range cannot be negative")
    if min(c.grit, c.grit_max, c.hits, c.shifts, c.will) < 0:
        raise IllegalOp(f"{c.name}'s grit, hits, Shifts and Will cannot be negative")
    for a in c.attacks:
        why = attack_refusal(a)
        if why:
            raise IllegalOp(f"{c.name}: {why}")
    if len({a.name for a in c.attacks}) != len(c.attacks):
        raise IllegalOp(f"{c.name} has two attacks with the same name")


class AddCombatant(Op, frozen=True):
    """A character joins the encounter. Mid-exchange, a member of a group that already
    holds a hand acts on its card; anyone else waits for the next deal (E1, E2).

    ``face_others``: the GM left its facing to afdesk, and it faces the other side
    (:func:`default_facing`, E11). Recorded in the Op, so a replay gives the same facing;
    False (an older file's Op) keeps the combatant's own facing."""

    combatant: Combatant
    face_others: bool = False
    label = "Add character"

    def execute(self, enc: "Encounter") -> None:
        c = self.combatant
        if c.id in enc.combatants:
            raise IllegalOp(f"there is already a character with id {c.id!r}")
        twin = next((o for o in enc.roster() if c.link and o.link == c.link), None)
        if twin is not None:  # a link is one campaign character: once per encounter
            raise IllegalOp(f"{twin.name} is already this campaign character in the encounter")
        _check_profile(c)
        if c.area is not None:
            require_area_in_zone(enc, c.area, f"{c.name}'s area")
        facing = default_facing(enc, c) if self.face_others else normalise_facing(c.facing)
        enc.put(c.replace(facing=facing))
        if enc.reflex.hands and c.side is not Side.BAND:
            key = hand_key(c)
            hands = tuple(
                msgspec.structs.replace(h, members=(*h.members, c.id)) if h.id == key else h
                for h in enc.reflex.hands
            )
            enc.set_reflex(msgspec.structs.replace(enc.reflex, hands=hands))

    def describe(self, enc: "Encounter") -> str:
        c = self.combatant
        where = f" at {area_text(c.area)}" if c.area else ""
        return f"{c.name} ({c.side.value}) joins the encounter{where}"

    def title(self, enc: "Encounter") -> str:
        return f"Add {self.combatant.name}"


class RemoveCombatant(Op, frozen=True):
    """A character leaves the roster entirely (use ExitCombatant for leaving over an edge)."""

    id: str
    label = "Remove character"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        if enc.actor == c.id:
            raise IllegalOp(f"it is {c.name}'s turn: end the turn before removing {c.name}")
        enc.drop(c.id)
        if any(c.id in h.members for h in enc.reflex.hands):
            hands = tuple(
                msgspec.structs.replace(h, members=tuple(m for m in h.members if m != c.id))
                for h in enc.reflex.hands
            )
            enc.set_reflex(msgspec.structs.replace(enc.reflex, hands=hands))
        turn = enc.turn
        if c.id in turn.order:
            pos = turn.order.index(c.id)
            order = tuple(x for x in turn.order if x != c.id)
            # At ``index`` it can only be while someone else takes a hesitated action: its
            # turn is over, so the next turn is the one after it.
            index = turn.index - 1 if pos <= turn.index else turn.index
            enc.set_turn(msgspec.structs.replace(turn, order=order, index=index))

    def describe(self, enc: "Encounter") -> str:
        return f"{name(enc, self.id)} is removed from the encounter"

    def title(self, enc: "Encounter") -> str:
        return f"Remove {name(enc, self.id)}"


def grit_after_edit(old: Combatant, grit_max: int) -> int:
    """The grit left when the GM sets a character's maximum to ``grit_max``: a lower
    maximum lowers what is left; a character who had no grit track starts full."""
    return min(old.grit, grit_max) if old.grit_max else grit_max


class EditCombatant(Op, frozen=True):
    """The GM edits a character's record (name, facets, speeds, notes, ...)."""

    combatant: Combatant
    label = "Edit character"

    def execute(self, enc: "Encounter") -> None:
        old = enc.combatant(self.combatant.id)
        c = self.combatant
        if c.grit > c.grit_max:
            c = c.replace(grit=c.grit_max)  # a lower maximum lowers what is left
        _check_profile(c)
        if c.area is not None and c.area != old.area:
            require_area_in_zone(enc, c.area, f"{c.name}'s area")
        enc.put(c.replace(facing=normalise_facing(c.facing)))

    def describe(self, enc: "Encounter") -> str:
        return f"GM edits {name(enc, self.combatant.id)}"

    def title(self, enc: "Encounter") -> str:
        return f"Edit {name(enc, self.combatant.id)}"


class PlaceCombatant(Op, frozen=True):
    """The GM places a character anywhere in the zone, outside the movement rules (setup,
    or an explicit override that the log shows)."""

    id: str
    area: Area
    facing: float | None = None
    label = "Place"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        if c.exited:
            c = c.replace(exited="")
        require_area_in_zone(enc, self.area, f"{c.name}'s new area")
        facing = c.facing if self.facing is None else normalise_facing(self.facing)
        c = c.with_economy(exit_free=False, exit_to=None)  # a new place: no old overlap
        enc.put(c.replace(area=tuple(self.area), facing=facing))

    def describe(self, enc: "Encounter") -> str:
        override = "" if enc.turn.phase is Phase.SETUP else " (GM override)"
        return f"{name(enc, self.id)} is placed at {area_text(self.area)}{override}"

    def title(self, enc: "Encounter") -> str:
        return f"Place {name(enc, self.id)}"


class SetFacing(Op, frozen=True):
    """A character picks a facing: any angle (E11). During an exchange that is for the
    character whose turn it is; anyone else needs an explicit GM override."""

    id: str
    facing: float
    override: bool = False
    label = "Face"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        require_on_map(c, "turn")
        if enc.turn.phase is Phase.TURNS and not self.override:
            require_actor(enc, c.id, "change facing")
        enc.put(c.replace(facing=normalise_facing(self.facing)))

    def describe(self, enc: "Encounter") -> str:
        f = normalise_facing(self.facing)
        suffix = " (GM override)" if self.override else ""
        return f"{name(enc, self.id)} faces {direction_name(f)} ({f:.0f}°){suffix}"

    def title(self, enc: "Encounter") -> str:
        return f"Face {name(enc, self.id)}"


class ExitCombatant(Op, frozen=True):
    """A character leaves the encounter over an edge of the zone (E9)."""

    id: str
    edge: Edge
    note: str = ""
    override: bool = False
    """Leave over an edge whose rule extends the zone instead (a GM override)."""
    label = "Exit"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        require_on_map(c, "leave the zone")
        rule = enc.zone.edge_rule(self.edge)
        if rule.blocked:  # no override leaves over a blocked edge
            raise IllegalOp(f"the {self.edge.value} edge is blocked: nobody leaves that way (E9)")
        if not rule.exits and not self.override:
            raise IllegalOp(
                f"the {self.edge.value} edge does not exit the encounter: moving off it "
                "extends the zone (E9); exit anyway only as a GM override"
            )
        c0, r0, c1, r1 = enc.zone.area_bounds()
        assert c.area is not None  # require_on_map
        col, row = c.area
        at_edge = {
            Edge.NORTH: row == r0,
            Edge.SOUTH: row == r1,
            Edge.WEST: col == c0,
            Edge.EAST: col == c1,
        }[self.edge]
        if not at_edge:
            raise IllegalOp(f"{c.name} is not at the {self.edge.value} edge: move there first (E9)")
        note = self.note or rule.note or f"left {self.edge.value}"
        c = c.without_state(StateKind.HESITATING)  # a kept action leaves with them
        enc.put(c.replace(area=None, exited=note, decoys=()))

    def describe(self, enc: "Encounter") -> str:
        rule = enc.zone.edge_rule(self.edge)
        note = self.note or rule.note
        tail = f": {note}" if note else ""
        suffix = " (GM override)" if self.override else ""
        who = name(enc, self.id)
        return f"{who} leaves the encounter over the {self.edge.value} edge{tail}{suffix}"

    def title(self, enc: "Encounter") -> str:
        return f"Exit {name(enc, self.id)}"


def _stalls(c: Combatant, kind: StateKind) -> bool:
    """Knocked down while flying, a character stalls (-2 until it recovers, E14)."""
    return kind is StateKind.DOWN and c.has(StateKind.FLYING) and not c.has(StateKind.STALL)


class AddState(Op, frozen=True):
    """A character gets a state (E17). A state it already has that takes no markers costs
    1 grit instead; a marked state (bleeding, burning) gains the markers."""

    id: str
    kind: StateKind
    markers: int = 0
    note: str = ""
    until: int | None = None
    label = "Add state"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        if self.markers < 0:
            raise IllegalOp("markers cannot be negative")
        old = c.state(self.kind)
        if old is not None:
            if self.kind in MARKED_STATES:
                c = c.with_state(
                    msgspec.structs.replace(old, markers=old.markers + max(self.markers, 1))
                )
            else:
                c = c.replace(grit=max(c.grit - 1, 0))
        else:
            markers = self.markers or (1 if self.kind in MARKED_STATES else 0)
            c = c.with_state(State(self.kind, markers, self.until, self.note))
            if _stalls(c, self.kind):
                c = c.with_state(State(StateKind.STALL, note="knocked down while flying"))
        enc.put(c)

    def describe(self, enc: "Encounter") -> str:
        c = enc.combatants.get(self.id)
        who = name(enc, self.id)
        if c is not None and c.has(self.kind):
            if self.kind in MARKED_STATES:
                return f"{who} gets more {self.kind.value} (+{max(self.markers, 1)})"
            return f"{who} is already {self.kind.value}: it costs 1 grit instead (E17)"
        extra = f" {self.markers}" if self.markers else ""
        if c is not None and _stalls(c, self.kind):
            extra += " and stalls while flying: -2 on all checks until recovered (E14)"
        return f"{who} is now {self.kind.value}{extra}"

    def title(self, enc: "Encounter") -> str:
        return f"{self.kind.label} on {name(enc, self.id)}"


class RemoveState(Op, frozen=True):
    id: str
    kind: StateKind
    label = "Remove state"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        if not c.has(self.kind):
            raise IllegalOp(f"{c.name} is not {self.kind.value}")
        if self.kind is StateKind.HIDDEN:
            c = c.replace(decoys=())
        enc.put(c.without_state(self.kind))

    def describe(self, enc: "Encounter") -> str:
        return f"{name(enc, self.id)} is no longer {self.kind.value}"

    def title(self, enc: "Encounter") -> str:
        return f"Remove {self.kind.value} from {name(enc, self.id)}"


class SetMarkers(Op, frozen=True):
    """Set the markers of a state a character has (0 removes the state)."""

    id: str
    kind: StateKind
    markers: int
    label = "Markers"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        st = c.state(self.kind)
        if st is None:
            raise IllegalOp(f"{c.name} is not {self.kind.value}")
        if self.markers < 0:
            raise IllegalOp("markers cannot be negative")
        if self.markers == 0 and self.kind in MARKED_STATES:
            enc.put(c.without_state(self.kind))
        else:
            enc.put(c.with_state(msgspec.structs.replace(st, markers=self.markers)))

    def describe(self, enc: "Encounter") -> str:
        return f"{name(enc, self.id)}: {self.kind.value} markers set to {self.markers}"

    def title(self, enc: "Encounter") -> str:
        return f"{self.kind.label} markers of {name(enc, self.id)}"


def step_markers(c: Combatant, kind: StateKind, delta: int) -> SetMarkers:
    """One marker more or less on ``c``'s state ``kind``: never below none, where a marked
    state (bleeding, burning) ends (E17)."""
    st = c.state(kind)
    markers = st.markers if st is not None else 0
    return SetMarkers(c.id, kind, max(markers + delta, 0))


ONGOING = (StateKind.BLEEDING, StateKind.BURNING, StateKind.BLINDED)
"""Ongoing states a character resolves once on each of its own turns (E3, E17)."""


def ongoing_refusal(enc: "Encounter", c: Combatant, kind: StateKind) -> str:
    """Why ``c`` cannot resolve its ``kind`` state now, or "" (E3): once on each of its own
    turns, while it has the state."""
    if kind not in ONGOING:
        return f"{kind.value} is not an ongoing state resolved each turn (E3)"
    st = c.state(kind)
    if st is None or (kind is StateKind.BLEEDING and st.markers <= 0):
        return f"{c.name} is not {kind.value}"
    if enc.turn.phase is Phase.TURNS and enc.turn.actor != c.id:
        return f"{c.name} resolves {kind.value} on {c.name}'s own turn (E3)"
    if str(kind) in c.economy.resolved:
        return f"{c.name} has already resolved {kind.value} this turn: once a turn (E3)"
    return ""


class TickBleeding(Op, frozen=True):
    """On the character's turn, resolve an ongoing state once (E3, E17). Bleeding: suffer
    hits equal to half the markers (rounded up), then remove one marker. Burning: the hits
    the GM rolled for the fire. Blinded: the GM narrates it; it is marked resolved."""

    id: str
    state: StateKind = StateKind.BLEEDING
    hits: int = 0
    """Burning: the hits the fire deals this turn."""
    label = "Bleed"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        why = ongoing_refusal(enc, c, self.state)
        if why:
            raise IllegalOp(why)
        if self.hits < 0:
            raise IllegalOp("hits cannot be negative")
        st = c.state(self.state)
        assert st is not None
        if self.state is StateKind.BLEEDING:
            c = c.replace(hits=c.hits + bleeding_hits(st.markers))
            if st.markers <= 1:
                c = c.without_state(StateKind.BLEEDING)
            else:
                c = c.with_state(msgspec.structs.replace(st, markers=st.markers - 1))
        else:
            c = c.replace(hits=c.hits + self.hits)
        if enc.turn.phase is Phase.TURNS:
            c = c.with_economy(resolved=(*c.economy.resolved, str(self.state)))
        enc.put(c)

    def describe(self, enc: "Encounter") -> str:
        c = enc.combatants.get(self.id)
        who = name(enc, self.id)
        if self.state is not StateKind.BLEEDING:
            hits = f": {plural(self.hits, 'hit')}" if self.hits else ""
            return f"{who} resolves {self.state.value}{hits} (E3)"
        st = c.state(StateKind.BLEEDING) if c else None
        m = st.markers if st else 0
        return f"{who} bleeds: {plural(bleeding_hits(m), 'hit')}, bleeding {m} -> {m - 1}"

    def title(self, enc: "Encounter") -> str:
        verb = "Bleed" if self.state is StateKind.BLEEDING else f"Resolve {self.state.value}:"
        return f"{verb} {name(enc, self.id)}"


COUNTERS = ("grit", "grit_max", "hits", "shifts", "will")


class AdjustCounter(Op, frozen=True):
    """Change a character's grit, hits, Shifts or Will by ``delta``."""

    id: str
    counter: str
    delta: int
    label = "Adjust"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        if self.counter not in COUNTERS:
            raise IllegalOp(f"{self.counter!r} is not one of " + ", ".join(COUNTERS))
        value = getattr(c, self.counter) + self.delta
        if value < 0:
            raise IllegalOp(
                f"{c.name} has {getattr(c, self.counter)} {self.counter.replace('_', ' ')}: "
                f"cannot take away {-self.delta}"
            )
        enc.put(c.replace(**{self.counter: value}))

    def describe(self, enc: "Encounter") -> str:
        what = self.counter.replace("_", " ")
        return f"{name(enc, self.id)}: {what} {self.delta:+d}"

    def title(self, enc: "Encounter") -> str:
        return f"{self.counter.capitalize()} of {name(enc, self.id)}"


class AddMomentum(Op, frozen=True):
    """Place a Momentum marker for a character's next check (R12)."""

    id: str
    dice: int
    source: str = ""
    label = "Momentum marker"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        why = ruleset_named(enc.ruleset).marker_refusal(self.dice)  # R12, C3
        if why:
            raise IllegalOp(why)
        enc.put(c.replace(momentum=(*c.momentum, MomentumMarker(self.dice, self.source))))

    def describe(self, enc: "Encounter") -> str:
        src = f" from {self.source}" if self.source else ""
        return f"{name(enc, self.id)} gets a {self.dice:+d} marker for the next check{src}"

    def title(self, enc: "Encounter") -> str:
        return f"Marker on {name(enc, self.id)}"


class RemoveMomentum(Op, frozen=True):
    id: str
    index: int
    label = "Remove marker"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        if not 0 <= self.index < len(c.momentum):
            raise IllegalOp(f"{c.name} has no Momentum marker number {self.index + 1}")
        enc.put(c.replace(momentum=c.momentum[: self.index] + c.momentum[self.index + 1 :]))

    def describe(self, enc: "Encounter") -> str:
        return f"A Momentum marker is removed from {name(enc, self.id)}"


class SetDecoys(Op, frozen=True):
    """Place a hidden character's decoys (E6 Hide: two, in adjacent areas)."""

    id: str
    decoys: tuple[Area, ...]
    label = "Decoys"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        require_on_map(c, "place decoys")
        if not c.hidden:
            raise IllegalOp(f"{c.name} is not hidden")
        check_decoys(enc, c, self.decoys)
        enc.put(c.replace(decoys=tuple(tuple(d) for d in self.decoys)))

    def describe(self, enc: "Encounter") -> str:
        where = ", ".join(area_text(d) for d in self.decoys)
        return f"{name(enc, self.id)}'s decoys: {where or 'none'}"


def decoy_spots(enc: "Encounter", c: Combatant) -> list[Area]:
    """Where ``c`` hiding may put its decoys: the areas next to it inside the zone (E6)."""
    if c.area is None:
        return []
    return [n for n in neighbours(c.area) if enc.zone.contains(n)]


def hide_decoy_count(enc: "Encounter", c: Combatant) -> int:
    """How many decoys Hide places: two, fewer only where fewer adjacent areas exist (E6)."""
    return min(2, len(decoy_spots(enc, c)))


def check_decoys(
    enc: "Encounter", c: Combatant, decoys: Sequence[Area], *, hiding: bool = False
) -> None:
    """Refuse decoys that break E6. ``hiding``: the Hide action places exactly two (fewer
    only where fewer adjacent areas exist); the GM may place fewer later (a Look or a
    Creep removes some)."""
    if hiding:
        want = hide_decoy_count(enc, c)
        if len(decoys) != want:
            where = (
                ""
                if want == 2
                else f" ({want} adjacent area{'' if want == 1 else 's'} inside the zone)"
            )
            raise IllegalOp(
                f"{c.name} hides with exactly {want} decoy{'' if want == 1 else 's'} in "
                f"adjacent areas{where}, not {len(decoys)} (E6)"
            )
    if len(decoys) > 2:
        raise IllegalOp("a hidden character has at most 2 decoys (E6)")
    if len({tuple(d) for d in decoys}) != len(decoys):
        raise IllegalOp("the two decoys go in two different areas (E6)")
    for d in decoys:
        require_area_in_zone(enc, d, "a decoy")
        if c.area is None or not adjacent(c.area, (d[0], d[1])):
            raise IllegalOp(f"decoy {area_text(d)} is not next to {c.name} (E6: adjacent areas)")


class RemoveDecoy(Op, frozen=True):
    """A decoy is eliminated (Look, E5) or lost (Creep, E5)."""

    id: str
    area: Area
    label = "Remove decoy"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        enc.put(c.without_decoy((self.area[0], self.area[1])))

    def describe(self, enc: "Encounter") -> str:
        return f"{name(enc, self.id)} loses the decoy at {area_text(self.area)}"
