"""Ops of a chase (E16, H1-H5): setting participants up, the pursuit die, the check's
result, special actions, stage properties, knocked out, the exchange end.

Every step is an Op: undone exactly (the encounter records the chase part it changes),
journaled and logged like a play report ("Huang: green, agility success by 2, +4 (speed 2
+ margin 2), total 9").
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.chase.order import pname, reflex_order
from afdesk.encounter.chase.state import ChaseState, Countdown, Participant, Vehicle, Way
from afdesk.encounter.combatant import State, StateKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.base import Op, name, require_phase
from afdesk.encounter.state import Mode, Phase
from afdesk.rules import RulesError, pursuit
from afdesk.rules.pursuit import stages

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def _chase(enc: Encounter, doing: str) -> ChaseState:
    if enc.mode is not Mode.CHASE:
        raise IllegalOp(f"cannot {doing}: the encounter is a {enc.mode.value}, not a chase")
    chase: ChaseState = enc.chase
    return chase


def _participant(enc: Encounter, pid: str, doing: str) -> Participant:
    p = _chase(enc, doing).participant(pid)
    if p is None:
        raise IllegalOp(f"cannot {doing}: {pname(enc, pid)} is not in the chase")
    return p


def _require_turn(enc: Encounter, p: Participant, doing: str) -> None:
    """It is this participant's turn: its own, or for a vehicle one of its crew's (H5)."""
    require_phase(enc, Phase.TURNS, doing=doing)
    actor = enc.actor
    crew: tuple[str, ...] = (p.id,)
    for v in enc.chase.vehicles:
        if v.id == p.id:
            crew = (v.commander, v.helm, *v.crew)
    if actor not in crew:
        who = name(enc, actor) if actor else "nobody"
        raise IllegalOp(f"cannot {doing}: it is {who}'s turn, not {pname(enc, p.id)}'s")
    if p.out:
        raise IllegalOp(f"cannot {doing}: {pname(enc, p.id)} is out of the chase (H3)")


def _set(enc: Encounter, p: Participant) -> None:
    enc.set_part("chase", enc.chase.replace(p))


class SetParticipant(Op, frozen=True):
    """The GM sets a participant's chase total (a head start), way of moving or speed."""

    id: str
    total: int | None = None
    way: Way | None = None
    speed: int | None = None
    label = "Chase participant"

    def execute(self, enc: Encounter) -> None:
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

    def describe(self, enc: Encounter) -> str:
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

    def execute(self, enc: Encounter) -> None:
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

    def describe(self, enc: Encounter) -> str:
        v = self.vehicle
        return (
            f"{v.name} joins the chase: {name(enc, v.commander)} commands, "
            f"{name(enc, v.helm)} at the helm (H5)"
        )


class RollPursuit(Op, frozen=True):
    """The pursuit die of a participant's turn (H1): the faces rolled (or typed by the GM
    from physical dice), reds then the die that moves. After Interference the die is the
    bad colour without rolling (H3): then ``faces`` is empty."""

    id: str
    faces: tuple[int, ...] = ()
    typed: bool = False
    label = "Pursuit die"

    def _colours(self, enc: Encounter, p: Participant) -> tuple[str, ...]:
        bad = enc.settings.bad_pursuit_colour
        if p.forced_bad:
            if self.faces:
                raise IllegalOp(
                    f"{pname(enc, p.id)}'s pursuit die is {bad} without rolling: "
                    "Interference on the last check (H3)"
                )
            return (bad,)
        try:
            colours = tuple(pursuit.colour(f) for f in self.faces)
            pursuit.turns._colours(colours)
        except RulesError as exc:
            raise IllegalOp(f"pursuit die faces {list(self.faces)}: {exc}") from None
        return colours

    def execute(self, enc: Encounter) -> None:
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
                faces=self.faces,
                forced_bad=False,
                extra_die=False,
                special=p.special + reds,
            ),
        )

    def describe(self, enc: Encounter) -> str:
        p = enc.chase.participant(self.id)
        try:
            colours = self._colours(enc, p) if p else ()
        except IllegalOp:
            colours = ()
        how = " (typed)" if self.typed else ""
        forced = " (Interference: no roll, H3)" if p is not None and p.forced_bad else ""
        reds = len(colours) - 1
        extra = f", {reds} special action(s)" if reds > 0 else ""
        return f"{pname(enc, self.id)}: pursuit die {', '.join(colours)}{how}{forced}{extra}"


class ChaseCheck(Op, frozen=True):
    """The chase check's result applied (H2-H4): the round's speed, what the total gains,
    grit lost, out on a speed of 0 or less, the stage's effects, and the next pursuit die
    forced to the bad colour when Interference was left unspent (``interference``)."""

    id: str
    success: bool
    margin: int
    interference: bool = False
    facet: str = ""
    label = "Chase check"

    def _turn(self, enc: Encounter, p: Participant) -> pursuit.PursuitTurn:
        try:
            return pursuit.turn(
                stage_speed(enc, p),
                p.colours,
                self.success,
                self.margin,
                bad=enc.settings.bad_pursuit_colour,
            )
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None

    def execute(self, enc: Encounter) -> None:
        p = _participant(enc, self.id, "apply a chase check")
        _require_turn(enc, p, "apply a chase check")
        if not p.colours:
            raise IllegalOp(f"{pname(enc, p.id)} rolls the pursuit die before checking (H1)")
        if p.score is not None:
            raise IllegalOp(f"{pname(enc, p.id)} has checked this round")
        if self.margin < 1:
            raise IllegalOp(f"a check's margin is at least 1 (R13), got {self.margin}")
        t = self._turn(enc, p)
        bad = p.colours[-1] == enc.settings.bad_pursuit_colour
        total = p.total + t.added
        fx = stages.stage_effects(
            enc.chase.stage,
            bad=bad,
            success=self.success,
            margin=self.margin,
            interference=self.interference,
            teetering=p.teetering,
            total=total,
        )
        _set(
            enc,
            msgspec.structs.replace(
                p,
                total=total + fx.total_delta,
                score=t.score,
                margin=self.margin,
                success=self.success,
                round_speed=t.speed,
                grit_lost=p.grit_lost + t.grit_lost,
                out=t.out,
                forced_bad=self.interference and not self.success,
                teetering=fx.teeter and not fx.fall,
            ),
        )
        for cid in _checkers(enc, p):
            c = enc.combatants[cid]
            c = msgspec.structs.replace(c, grit=max(0, c.grit - t.grit_lost), hits=c.hits + fx.hits)
            if fx.burn:
                c = c.with_state(State(StateKind.BURNING, markers=fx.burn))
            enc.put(c)

    def describe(self, enc: Encounter) -> str:
        p = enc.chase.participant(self.id)
        if p is None or not p.colours:
            return f"{pname(enc, self.id)}: chase check"
        t = self._turn(enc, p)
        colour = p.colours[-1]
        way = self.facet or p.way.facet
        what = (
            f"{way} success by {self.margin}" if self.success else f"{way} failed by {self.margin}"
        )
        if self.success:
            how = f"+{t.added} (speed {t.speed} + margin {self.margin})"
        elif colour == enc.settings.bad_pursuit_colour:
            how = f"+{t.added} (half speed {stage_speed(enc, p) // 2} - margin {self.margin})"
        else:
            how = f"+{t.added} (half speed)"
        fx = stages.stage_effects(
            enc.chase.stage,
            bad=colour == enc.settings.bad_pursuit_colour,
            success=self.success,
            margin=self.margin,
            interference=self.interference,
            teetering=p.teetering,
            total=p.total + t.added,
        )
        total = p.total + t.added + fx.total_delta
        bits = [f"{pname(enc, self.id)}: {colour}, {what}, {how}"]
        if fx.describe():
            bits.append(fx.describe())
        bits.append(f"total {total}")
        if t.grit_lost:
            bits.append(f"grit -{t.grit_lost}")
        if t.out:
            bits.append("out of the chase (speed <= 0, H3)")
        if self.interference and not self.success:
            bits.append(f"next pursuit die {enc.settings.bad_pursuit_colour}")
        return ", ".join(bits)


def stage_speed(enc: Encounter, p: Participant) -> int:
    """The speed a turn uses: the participant's, or on a Steep or Fluid stage the
    character's climb or swim speed (H4; a vehicle keeps its own)."""
    kind = stages.speed_kind(enc.chase.stage, "run")
    c = enc.combatants.get(p.id)
    if kind == "run" or c is None:
        return p.speed
    return int(getattr(c.speeds, kind))


def _checkers(enc: Encounter, p: Participant) -> tuple[str, ...]:
    """The characters whose grit a participant's check costs: itself, or for a vehicle
    whoever is checking now (H5: every participating crew member checks)."""
    if p.id in enc.combatants:
        return (p.id,)
    actor = enc.actor
    return (actor,) if actor in enc.combatants else ()


class Special(enum.StrEnum):
    """The special actions of a red pursuit die (seed 001)."""

    SCREEN = "screen"
    COOPERATE = "cooperate"
    CONTEST = "contest"
    GRANT = "grant"
    ATTACK = "attack"
    HIDE = "hide"


class SpecialAction(Op, frozen=True):
    """Spend a special action (H1): screen; cooperate with or contest someone with the same
    or lower total; grant an extra pursuit die to anyone; attack someone with the same or
    lower total (a higher one with the range penalty); become hidden with two decoys."""

    id: str
    kind: Special
    target: str = ""
    label = "Special action"

    def execute(self, enc: Encounter) -> None:
        p = _participant(enc, self.id, "take a special action")
        if p.special < 1:
            raise IllegalOp(f"{pname(enc, p.id)} has no special action (a red pursuit die, H1)")
        chase: ChaseState = enc.chase
        p = msgspec.structs.replace(p, special=p.special - 1)
        if self.kind is Special.HIDE:
            p = msgspec.structs.replace(p, hidden=True, decoys=2)
        elif self.kind is not Special.SCREEN:
            target = chase.participant(self.target)
            if target is None or target.id == p.id:
                raise IllegalOp(f"{self.kind.value} needs another participant in the chase")
            higher = target.total > p.total
            if higher and self.kind in (Special.COOPERATE, Special.CONTEST):
                raise IllegalOp(
                    f"{pname(enc, p.id)} can only {self.kind.value} with someone whose total "
                    f"is the same or lower ({pname(enc, target.id)} has {target.total})"
                )
            if self.kind is Special.GRANT:
                chase = chase.replace(msgspec.structs.replace(target, extra_die=True))
        enc.set_part("chase", chase.replace(p))

    def describe(self, enc: Encounter) -> str:
        who = pname(enc, self.id)
        other = pname(enc, self.target) if self.target else ""
        p = enc.chase.participant(self.id)
        t = enc.chase.participant(self.target)
        return {
            Special.SCREEN: f"{who} screens: defenses until the next action (E7)",
            Special.COOPERATE: f"{who} cooperates with {other}",
            Special.CONTEST: f"{who} contests {other}",
            Special.GRANT: f"{who} grants {other} an extra pursuit die (roll both, choose)",
            Special.ATTACK: f"{who} attacks {other}"
            + (" at the range penalty" if p and t and t.total > p.total else ""),
            Special.HIDE: f"{who} hides: two decoys must be caught first",
        }[self.kind]


class SetStage(Op, frozen=True):
    """Stage properties (H4): the pole picks as many as its margin, at least 1, for the
    round (H3); ``ahead`` queues a stage the GM prepared; ``override`` lifts the count."""

    properties: tuple[str, ...]
    ahead: bool = False
    override: bool = False
    label = "Stage"

    def _props(self) -> tuple[stages.StageProperty, ...]:
        try:
            return stages.properties(self.properties)
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None

    def execute(self, enc: Encounter) -> None:
        chase = _chase(enc, "set the stage")
        props = self._props()
        if self.ahead:
            enc.set_part(
                "chase",
                msgspec.structs.replace(chase, stages_ahead=(*chase.stages_ahead, props)),
            )
            return
        limit = stages.property_count(chase.pole_margin)
        if chase.pole and not self.override and len(props) > limit:
            raise IllegalOp(
                f"the pole {pname(enc, chase.pole)} picks {limit} stage propert"
                f"{'y' if limit == 1 else 'ies'} (its margin, H3), not {len(props)}"
            )
        enc.set_part("chase", msgspec.structs.replace(chase, stage=props))

    def describe(self, enc: Encounter) -> str:
        names = ", ".join(p.label for p in self._props()) or "a simple stage"
        if self.ahead:
            return f"Stage prepared: {names}"
        pole = enc.chase.pole
        by = f" (picked by the pole, {pname(enc, pole)})" if pole else ""
        return f"Stage: {names}{by}"


class KnockOut(Op, frozen=True):
    """The GM knocks a participant out of the chase, or brings it back (H3)."""

    id: str
    out: bool = True
    label = "Knocked out"

    def execute(self, enc: Encounter) -> None:
        p = _participant(enc, self.id, "knock a participant out")
        if p.out == self.out:
            raise IllegalOp(f"{pname(enc, p.id)} is {'already' if p.out else 'not'} out")
        _set(enc, msgspec.structs.replace(p, out=self.out))

    def describe(self, enc: Encounter) -> str:
        verb = "is knocked out of" if self.out else "is back in"
        return f"{pname(enc, self.id)} {verb} the chase"


class ResolveChase(Op, frozen=True):
    """The exchange end (H3): from the highest total down, each participant still in the
    chase escapes ("" here) or captures one with a lower total."""

    choices: tuple[tuple[str, str], ...]
    label = "Escape and capture"

    def _results(self, enc: Encounter) -> dict[str, str]:
        chase = _chase(enc, "resolve the exchange end")
        totals = {p.id: p.total for p in chase.participants}
        # The last round's reflex order breaks ties (E2, H3), then the roster's.
        order = list(dict.fromkeys([*chase.reflex, *reflex_order(enc, chase), *totals]))
        choices = {pid: (t or None) for pid, t in self.choices}
        for p in chase.participants:
            if p.out and p.id in choices:
                raise IllegalOp(f"{pname(enc, p.id)} is out of the chase and makes no choice")
        try:
            return pursuit.resolve_exchange_end(totals, order, choices)
        except RulesError as exc:
            raise IllegalOp(str(exc)) from None

    def execute(self, enc: Encounter) -> None:
        require_phase(enc, Phase.EXCHANGE_END, doing="resolve escapes and captures")
        results = self._results(enc)
        chase: ChaseState = enc.chase
        parts = tuple(
            msgspec.structs.replace(p, result=results.get(p.id, "")) for p in chase.participants
        )
        enc.set_part("chase", msgspec.structs.replace(chase, participants=parts))

    def describe(self, enc: Encounter) -> str:
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


class SetCountdown(Op, frozen=True):
    """A countdown chase (H4): reach ``target`` within ``exchanges`` exchanges, and/or
    remove rows of areas each round by a pursuit die (``rows``)."""

    countdown: Countdown
    label = "Countdown"

    def execute(self, enc: Encounter) -> None:
        chase = _chase(enc, "set a countdown")
        c = self.countdown
        if c.exchanges < 0 or c.rows_removed < 0:
            raise IllegalOp("a countdown cannot be negative")
        enc.set_part("chase", msgspec.structs.replace(chase, countdown=c))

    def describe(self, enc: Encounter) -> str:
        c = self.countdown
        bits = []
        if c.exchanges:
            bits.append(f"reach {c.target or 'the goal'} within {c.exchanges} exchange(s)")
        if c.rows:
            bits.append("a pursuit die removes rows of areas each round")
        return "Countdown: " + ("; ".join(bits) or "none")


class RollCountdown(Op, frozen=True):
    """The countdown's pursuit die for a round (H4): one row of areas removed on the good
    colour, two on the bad; a red rolls again."""

    faces: tuple[int, ...]
    label = "Countdown die"

    def _rows(self, enc: Encounter) -> int:
        try:
            colours = tuple(pursuit.colour(f) for f in self.faces)
            pursuit.turns._colours(colours)
        except RulesError as exc:
            raise IllegalOp(f"countdown die faces {list(self.faces)}: {exc}") from None
        return 2 if colours[-1] == enc.settings.bad_pursuit_colour else 1

    def execute(self, enc: Encounter) -> None:
        chase = _chase(enc, "roll the countdown die")
        if not chase.countdown.rows:
            raise IllegalOp("this chase has no countdown of rows (H4)")
        c = msgspec.structs.replace(
            chase.countdown, rows_removed=chase.countdown.rows_removed + self._rows(enc)
        )
        enc.set_part("chase", msgspec.structs.replace(chase, countdown=c))

    def describe(self, enc: Encounter) -> str:
        try:
            rows = self._rows(enc)
        except IllegalOp:
            return "Countdown die"
        colours = ", ".join(pursuit.colour(f) for f in self.faces)
        done = enc.chase.countdown.rows_removed + rows
        return f"Countdown die {colours}: {rows} row(s) of areas fall away ({done} in all)"
