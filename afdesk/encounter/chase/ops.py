"""Ops of a chase (E16, H1-H5): setting participants up, the pursuit die, the check's
result, special actions, stage properties, knocked out, the exchange end.

Every step is an Op: undone exactly (the encounter records the chase part it changes),
journaled and logged like a play report ("Huang: green, agility success by 2, +4 (speed 2
+ margin 2), total 9").
"""

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.chase.order import pname, reflex_order
from afdesk.encounter.chase.state import ChaseState, Participant, Vehicle, Way
from afdesk.encounter.combatant import Side
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.op import Op
from afdesk.encounter.requires import name, require_phase
from afdesk.encounter.state import Phase
from afdesk.rules import RulesError, pursuit

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter
from afdesk.encounter.chase.check import (
    ChaseCheck,
    CrewCheck,
    EndStageEffect,
    HazardAttack,
    stage_speed,
)
from afdesk.encounter.chase.ops_base import _chase, _participant, _require_turn, _set
from afdesk.encounter.chase.special import CatchDecoy, EndSpecial, Special, SpecialAction
from afdesk.encounter.chase.stage import KnockOut, RollCountdown, SetCountdown, SetStage
from afdesk.encounter.chase.state import chase_of

__all__ = [
    "AddVehicle",
    "CatchDecoy",
    "ChaseCheck",
    "CrewCheck",
    "EndSpecial",
    "EndStageEffect",
    "HazardAttack",
    "KnockOut",
    "LeaveVehicle",
    "ResolveChase",
    "RollCountdown",
    "RollPursuit",
    "SetCountdown",
    "SetParticipant",
    "SetStage",
    "Special",
    "SpecialAction",
    "can_capture",
    "chase_sides",
    "stage_speed",
]


class SetParticipant(Op, frozen=True):
    """The GM sets a participant's chase total (a head start), way of moving or speed."""

    id: str
    total: int | None = None
    way: Way | None = None
    speed: int | None = None
    label = "Chase participant"

    def execute(self, enc: "Encounter") -> None:
        p = _participant(enc, self.id, "set up a participant")
        changes: dict[str, object] = {}
        if self.total is not None:
            if self.total < 0:
                raise IllegalOp(f"a chase total cannot be negative, got {self.total}")
            changes["total"] = self.total
        if self.way is not None:
            changes["way"] = self.way
        if self.speed is not None:
            if self.speed < 0:
                raise IllegalOp(f"a speed cannot be negative, got {self.speed}")
            changes["speed"] = self.speed
        if not changes:
            raise IllegalOp("nothing to change")
        _set(enc, msgspec.structs.replace(p, **changes))

    def describe(self, enc: "Encounter") -> str:
        bits = []
        if self.total is not None:
            bits.append(f"total {self.total}")
        if self.way is not None:
            bits.append(f"{self.way.value} ({self.way.facet})")
        if self.speed is not None:
            bits.append(f"speed {self.speed}")
        return f"{pname(enc, self.id)}: " + ", ".join(bits)


class AddVehicle(Op, frozen=True):
    """A vehicle joins the chase (H5): its commander holds the reflex hand, its helm's
    pursuit die moves it; commander, helm and crew leave the chase as single runners."""

    vehicle: Vehicle
    label = "Vehicle"

    def execute(self, enc: "Encounter") -> None:
        chase = _chase(enc, "add a vehicle")
        v = self.vehicle
        if not v.id or not v.name.strip():
            raise IllegalOp("a vehicle needs an id and a name")
        if (
            v.id in enc.combatants
            or chase.participant(v.id)
            or any(w.id == v.id for w in chase.vehicles)
        ):
            raise IllegalOp(f"the id {v.id!r} is taken")
        aboard = (v.commander, v.helm, *v.crew)
        for cid in aboard:
            enc.combatant(cid)
            if chase.vehicle_of(cid) is not None:
                raise IllegalOp(f"{name(enc, cid)} is already aboard a vehicle")
        if v.speed < 0:
            raise IllegalOp("a vehicle's speed cannot be negative")
        kept = tuple(p for p in chase.participants if p.id not in aboard)
        runner = Participant(v.id, way=Way.VEHICLE, speed=v.speed)
        enc.set_part(
            "chase",
            msgspec.structs.replace(
                chase, participants=(*kept, runner), vehicles=(*chase.vehicles, v)
            ),
        )

    def describe(self, enc: "Encounter") -> str:
        v = self.vehicle
        return (
            f"{v.name} joins the chase: {name(enc, v.commander)} commands, "
            f"{name(enc, v.helm)} at the helm (H5)"
        )


class LeaveVehicle(Op, frozen=True):
    """The GM takes a character off a vehicle (H5: crew stay crew, across mode changes too,
    until then): it runs on its own again, on foot at its run speed, from the vehicle's
    total. Taking off the commander or the helm takes the vehicle out of the chase: everyone
    aboard runs on from its total."""

    who: str
    label = "Off the vehicle"

    def execute(self, enc: "Encounter") -> None:
        chase = _chase(enc, "take someone off a vehicle")
        v = chase.vehicle_of(self.who)
        if v is None:
            raise IllegalOp(f"{name(enc, self.who)} is aboard no vehicle")
        p = chase.participant(v.id)
        total = p.total if p is not None else 0
        whole = self.who in (v.commander, v.helm)
        off = tuple(dict.fromkeys((v.commander, v.helm, *v.crew))) if whole else (self.who,)
        runners = tuple(
            Participant(cid, total=total, way=Way.FOOT, speed=enc.combatant(cid).speeds.run)
            for cid in off
        )
        if whole:
            vehicles = tuple(w for w in chase.vehicles if w.id != v.id)
            kept = tuple(q for q in chase.participants if q.id != v.id)
        else:
            crew = tuple(c for c in v.crew if c != self.who)
            vehicles = tuple(
                msgspec.structs.replace(w, crew=crew) if w.id == v.id else w for w in chase.vehicles
            )
            kept = chase.participants
        enc.set_part(
            "chase",
            msgspec.structs.replace(chase, participants=(*kept, *runners), vehicles=vehicles),
        )

    def describe(self, enc: "Encounter") -> str:
        v = chase_of(enc).vehicle_of(self.who)
        if v is None:
            return f"{name(enc, self.who)} leaves a vehicle"
        if self.who in (v.commander, v.helm):
            return (
                f"{name(enc, self.who)} leaves {v.name}: it is out of the chase, everyone "
                "aboard runs on (H5)"
            )
        return f"{name(enc, self.who)} leaves {v.name} and runs on (H5)"


class RollPursuit(Op, frozen=True):
    """The pursuit die of a participant's turn (H1): the faces rolled (or typed by the GM
    from physical dice), reds then the die that moves. After Interference the die is the
    bad colour without rolling (H3): then ``faces`` is empty."""

    id: str
    faces: tuple[int, ...] = ()
    typed: bool = False
    other: tuple[int, ...] = ()
    """The second pursuit die an extra die (a Grant, H1) rolls: both are rolled."""
    chosen: int = 0
    """Which of the two counts: 0 ``faces``, 1 ``other`` (the participant chooses)."""
    label = "Pursuit die"

    def _run(self, faces: tuple[int, ...]) -> tuple[str, ...]:
        try:
            colours = tuple(pursuit.colour(f) for f in faces)
            pursuit.turns._colours(colours)
        except RulesError as exc:
            raise IllegalOp(f"pursuit die faces {list(faces)}: {exc}") from None
        return colours

    def _colours(self, enc: "Encounter", p: Participant) -> tuple[str, ...]:
        bad = enc.settings.bad_pursuit_colour
        if p.forced_bad:
            if self.faces or self.other:
                raise IllegalOp(
                    f"{pname(enc, p.id)}'s pursuit die is {bad} without rolling: "
                    "Interference on the last check (H3)"
                )
            return (bad,)
        first = self._run(self.faces)
        if not p.extra_die:
            if self.other or self.chosen:
                raise IllegalOp(f"{pname(enc, p.id)} has no extra pursuit die (H1: a Grant)")
            return first
        if not self.other:
            raise IllegalOp(
                f"{pname(enc, p.id)} has an extra pursuit die: roll both, then choose (H1)"
            )
        second = self._run(self.other)
        if self.chosen not in (0, 1):
            raise IllegalOp("choose the first (0) or the second (1) pursuit die")
        return second if self.chosen else first

    def execute(self, enc: "Encounter") -> None:
        p = _participant(enc, self.id, "roll the pursuit die")
        _require_turn(enc, p, "roll the pursuit die")
        if p.colours:
            raise IllegalOp(f"{pname(enc, p.id)} has rolled the pursuit die this round")
        colours = self._colours(enc, p)
        reds = len(colours) - 1
        _set(
            enc,
            msgspec.structs.replace(
                p,
                colours=colours,
                faces=self.other if self.chosen and p.extra_die else self.faces,
                forced_bad=False,
                extra_die=False,
                special=p.special + reds,
            ),
        )

    def describe(self, enc: "Encounter") -> str:
        p = chase_of(enc).participant(self.id)
        try:
            colours = self._colours(enc, p) if p else ()
        except IllegalOp:
            colours = ()
        how = " (typed)" if self.typed else ""
        forced = " (Interference: no roll, H3)" if p is not None and p.forced_bad else ""
        reds = len(colours) - 1
        extra = f", {reds} special action(s)" if reds > 0 else ""
        both = ""
        if self.other and p is not None and p.extra_die:
            rolled = [", ".join(pursuit.colour(f) for f in r) for r in (self.faces, self.other)]
            which = "second" if self.chosen else "first"
            both = f" (extra die: rolled {rolled[0]} and {rolled[1]}, chose the {which})"
        return f"{pname(enc, self.id)}: pursuit die {', '.join(colours)}{how}{forced}{both}{extra}"


def chase_sides(enc: "Encounter") -> dict[str, str]:
    """Each participant's side, for captures (H3): a character's own, a vehicle's its
    commander's (H5); a pursuer a stage added (H4) has none, so it is of another side
    than everyone."""
    sides = {}
    for p in chase_of(enc).participants:
        c = enc.combatants.get(p.id)
        if c is None:
            v = next((v for v in chase_of(enc).vehicles if v.id == p.id), None)
            c = enc.combatants.get(v.commander) if v is not None else None
        if c is not None:
            # Followers run with the band (the sides of E4's opponents); denizens are a
            # side of their own.
            sides[p.id] = "band" if c.side is Side.FOLLOWER else c.side.value
    return sides


def can_capture(enc: "Encounter", captor: str, target: str) -> bool:
    """Whether ``captor`` may capture ``target`` at the exchange end, as far as who they are
    goes (H3): another participant of another side, with a lower total, no decoys left."""
    chase = chase_of(enc)
    p, q = chase.participant(captor), chase.participant(target)
    if p is None or q is None or p.id == q.id or q.total >= p.total or q.decoys:
        return False
    sides = chase_sides(enc)
    return not (sides.get(p.id) and sides.get(p.id) == sides.get(q.id))


class ResolveChase(Op, frozen=True):
    """The exchange end (H3): from the highest total down, each participant still in the
    chase escapes ("" here) or captures one with a lower total."""

    choices: tuple[tuple[str, str], ...]
    label = "Escape and capture"

    def _results(self, enc: "Encounter") -> dict[str, str]:
        chase = _chase(enc, "resolve the exchange end")
        totals = {p.id: p.total for p in chase.participants}
        # The last round's reflex order breaks ties (E2, H3), then the roster's.
        order = list(dict.fromkeys([*chase.reflex, *reflex_order(enc, chase), *totals]))
        choices = {pid: (t or None) for pid, t in self.choices}
        for p in chase.participants:
            if p.out and p.id in choices:
                raise IllegalOp(f"{pname(enc, p.id)} is out of the chase and makes no choice")
        sides = chase_sides(enc)
        for pid, caught in choices.items():
            side = sides.get(pid)
            if caught and side and side == sides.get(caught):
                raise IllegalOp(
                    f"{pname(enc, pid)} cannot capture {pname(enc, caught)}: both are on the "
                    f"{side} side; only a participant of another side can be captured (H3)"
                )
            target = chase.participant(caught) if caught else None
            if caught and target is not None and target.decoys:
                raise IllegalOp(
                    f"{pname(enc, pid)} cannot capture {pname(enc, caught)}: "
                    f"{target.decoys} decoy(s) must be caught first (H1: hidden)"
                )
        try:
            return pursuit.resolve_exchange_end(totals, order, choices, chase_sides(enc))
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None

    def execute(self, enc: "Encounter") -> None:
        require_phase(enc, Phase.EXCHANGE_END, doing="resolve escapes and captures")
        results = self._results(enc)
        chase: ChaseState = chase_of(enc)
        parts = tuple(
            msgspec.structs.replace(p, result=results.get(p.id, "")) for p in chase.participants
        )
        enc.set_part("chase", msgspec.structs.replace(chase, participants=parts))

    def describe(self, enc: "Encounter") -> str:
        try:
            results = self._results(enc)
        except IllegalOp:
            return "Escape and capture"
        words = []
        for pid, r in results.items():
            if r.startswith("captured by "):
                continue
            if r == "captor":
                caught = [q for q, s in results.items() if s == f"captured by {pid}"]
                words.append(f"{pname(enc, pid)} captures {pname(enc, caught[0])}")
            else:
                words.append(f"{pname(enc, pid)} {r}")
        return "Exchange end: " + "; ".join(words)
