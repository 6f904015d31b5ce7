"""The chase check of a turn and what follows it (H2-H5): the result applied (rolled under
the encounter's ruleset with Shifts spent both ways, or typed by the GM from physical dice),
the stage's effects acting on the encounter (H4), a vehicle's crew members' own checks (H5),
and the hazards and drowning the stage left behind.
"""

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.chase.ops_base import _participant, _require_turn, _set
from afdesk.encounter.chase.order import pname
from afdesk.encounter.chase.state import ChaseState, Participant, chase_of
from afdesk.encounter.combatant import Combatant, State, StateKind
from afdesk.encounter.contest.assembly import ShiftSpend
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.op import Op
from afdesk.encounter.requires import name
from afdesk.encounter.state import Meta
from afdesk.rules import RulesError, pursuit
from afdesk.rules.d20 import D20Check
from afdesk.rules.dice import Roll
from afdesk.rules.pursuit import stages
from afdesk.rules.rulesets import ruleset_named

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def stage_speed(enc: "Encounter", p: Participant) -> int:
    """The speed a turn uses: the participant's, or on a Steep or Fluid stage the
    character's climb or swim speed, on a stage both Steep and Fluid the lower of the two
    (H4; a vehicle keeps its own)."""
    kinds = stages.speed_kinds(chase_of(enc).stage, "run")
    c = enc.combatants.get(p.id)
    if kinds == ("run",) or c is None:
        return p.speed
    return min(int(getattr(c.speeds, kind)) for kind in kinds)


def _checkers(enc: "Encounter", p: Participant) -> tuple[str, ...]:
    """The character whose grit and body a participant's check costs: itself, or for a
    vehicle its helm, whose check moves it (H5; the other crew check with CrewCheck)."""
    if p.id in enc.combatants:
        return (p.id,)
    for v in chase_of(enc).vehicles:
        if v.id == p.id and v.helm in enc.combatants:
            return (v.helm,)
    return ()


def _verify(enc: "Encounter", op: "ChaseCheck | CrewCheck") -> str:
    """A rolled check must come to the success, margin and Interference the Op applies
    (the encounter's ruleset reads the roll, H3, R13); returns the roll in words."""
    roll: Roll | D20Check | None = op.roll if op.roll is not None else op.d20
    if roll is None:
        return ""
    from afdesk.rules.pursuit.checks import read_check  # the odds, once a check is read

    try:
        r = read_check(ruleset_named(enc.ruleset), roll)
    except RulesError as exc:
        raise IllegalOp(f"the chase check's roll: {exc}") from None
    if (r.success, r.margin, r.interference) != (op.success, op.margin, op.interference):
        raise IllegalOp(
            f"the roll comes to {'success' if r.success else 'failure'} by {r.margin}"
            + (" with Interference unspent" if r.interference else "")
            + ", not what was applied"
        )
    return r.text


def _pay(enc: "Encounter", spends: tuple[ShiftSpend, ...]) -> None:
    """Shifts (R10) or Will (C4) spent on the check, by the character or the referee."""
    meta: Meta = enc.meta
    people: dict[str, Combatant] = {}
    for s in spends:
        if s.payer == "referee":
            if meta.referee_shifts < 1:
                raise IllegalOp("the referee has no Shifts left (R10)")
            meta = msgspec.structs.replace(meta, referee_shifts=meta.referee_shifts - 1)
            continue
        c = people.get(s.payer) or enc.combatant(s.payer)
        if s.kind == "will":
            if c.will < 1:
                raise IllegalOp(f"{c.name} has no Will left (C4)")
            c = c.replace(will=c.will - 1)
        else:
            if c.shifts < 1:
                raise IllegalOp(f"{c.name} has no Shifts left (R10)")
            c = c.replace(shifts=c.shifts - 1)
        people[s.payer] = c
    if meta != enc.meta:
        enc.set_meta(meta)
    for c in people.values():
        enc.put(c)


def _hurt(enc: "Encounter", cid: str, grit: int, fx: stages.StageEffects) -> None:
    """Grit lost, hits (Dangerous), burn (Flaming) and a fall (Chasm, Steep) on one
    character (H3, H4)."""
    c = enc.combatants[cid]
    c = msgspec.structs.replace(c, grit=max(0, c.grit - grit), hits=c.hits + fx.hits)
    if fx.burn:
        c = c.with_state(State(StateKind.BURNING, markers=fx.burn))
    if fx.fall:
        c = c.with_state(
            State(StateKind.FALLING, markers=fx.fall, note=f"falls {fx.fall} area(s) (H4)")
        )
    enc.put(c)


def _effects(
    enc: "Encounter", op: "ChaseCheck | CrewCheck", p: Participant, total: int
) -> stages.StageEffects:
    return stages.stage_effects(
        chase_of(enc).stage,
        bad=bool(p.colours) and p.colours[-1] == enc.settings.bad_pursuit_colour,
        success=op.success,
        margin=op.margin,
        interference=op.interference,
        teetering=p.teetering,
        total=total,
    )


CREW_TEETER = "teetering aboard (Chasm, H4): a second teeter falls"
"""The note of a crew member's teeter, which a new stage ends (H4)."""


def steady_crew(enc: "Encounter", stage: tuple[stages.StageProperty, ...]) -> None:
    """A teeter lasts until the stage changes (H4): on a new stage the crew members' own
    teeters (their TEETER state from a crew check) end too."""
    chase: ChaseState = chase_of(enc)
    if stage == chase.stage:
        return
    for v in chase.vehicles:
        for cid in (v.commander, *v.crew):
            c = enc.combatants.get(cid)
            t = c.state(StateKind.TEETER) if c is not None else None
            if c is not None and t is not None and t.note == CREW_TEETER:
                enc.put(c.without_state(StateKind.TEETER))


def teetering_after(p: Participant, fx: stages.StageEffects) -> bool:
    """H4: a teeter lasts until the stage changes, whatever turns come between; the second
    teeter on the same stage falls, and the fall ends it."""
    if fx.teeter:
        return not p.teetering
    return p.teetering


def extra_pursuer(chase: ChaseState) -> tuple[ChaseState, str]:
    """Occupied on the bad colour (H4): another pursuer joins, tied with the front of the
    chase (its total is the highest total now)."""
    n = 1
    while chase.participant(f"pursuer-{n}") is not None:
        n += 1
    front = max((q.total for q in chase.participants), default=0)
    new = Participant(f"pursuer-{n}", total=front, label=f"Pursuer {n}")
    return (
        msgspec.structs.replace(chase, participants=(*chase.participants, new)),
        new.label,
    )


class ChaseCheck(Op, frozen=True):
    """The chase check's result applied (H2-H4): the round's speed, what the total gains,
    grit lost, out on a speed of 0 or less, the stage's effects, and the next pursuit die
    forced to the bad colour when Interference was left unspent (``interference``).

    ``roll`` (dice pools) or ``d20`` is the check as rolled, after the Shifts or Will in
    ``spends``; the result must be what the encounter's ruleset reads from it. Without a
    roll the GM typed the result of physical dice."""

    id: str
    success: bool
    margin: int
    interference: bool = False
    facet: str = ""
    roll: Roll | None = None
    d20: D20Check | None = None
    spends: tuple[ShiftSpend, ...] = ()
    label = "Chase check"

    def _turn(self, enc: "Encounter", p: Participant) -> pursuit.PursuitTurn:
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

    def execute(self, enc: "Encounter") -> None:
        p = _participant(enc, self.id, "apply a chase check")
        _require_turn(enc, p, "apply a chase check")
        if not p.colours:
            raise IllegalOp(f"{pname(enc, p.id)} rolls the pursuit die before checking (H1)")
        if p.score is not None:
            raise IllegalOp(f"{pname(enc, p.id)} has checked this round")
        if self.margin < 1:
            raise IllegalOp(f"a check's margin is at least 1 (R13), got {self.margin}")
        _verify(enc, self)
        _pay(enc, self.spends)
        t = self._turn(enc, p)
        total = p.total + t.added
        fx = _effects(enc, self, p, total)
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
                teetering=teetering_after(p, fx),
                hazard=p.hazard + (1 if fx.hazard_attack else 0),
                drowning=p.drowning or fx.drown,
                helpers=(),
            ),
        )
        for cid in _checkers(enc, p):
            _hurt(enc, cid, t.grit_lost, fx)
        if fx.extra_pursuer:
            chase, _label = extra_pursuer(chase_of(enc))
            enc.set_part("chase", chase)

    def describe(self, enc: "Encounter") -> str:
        p = chase_of(enc).participant(self.id)
        if p is None or not p.colours:
            return f"{pname(enc, self.id)}: chase check"
        t = self._turn(enc, p)
        colour = p.colours[-1]
        way = self.facet or p.way.facet
        try:
            rolled = _verify(enc, self)
        except IllegalOp:
            rolled = ""
        what = (
            f"{way} success by {self.margin}" if self.success else f"{way} failed by {self.margin}"
        )
        if rolled:
            what += f" (rolled {rolled})"
        if self.success:
            how = f"+{t.added} (speed {t.speed} + margin {self.margin})"
        elif colour == enc.settings.bad_pursuit_colour:
            how = f"+{t.added} (half speed {stage_speed(enc, p) // 2} - margin {self.margin})"
        else:
            how = f"+{t.added} (half speed)"
        fx = _effects(enc, self, p, p.total + t.added)
        total = p.total + t.added + fx.total_delta
        bits = [f"{pname(enc, self.id)}: {colour}, {what}, {how}"]
        if self.spends:
            bits.append(_spends_text(enc, self.spends))
        if p.helpers:
            bits.append("with " + ", ".join(pname(enc, h) for h in p.helpers) + " cooperating")
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


def _spends_text(enc: "Encounter", spends: tuple[ShiftSpend, ...]) -> str:
    words = []
    for s in spends:
        who = "the referee" if s.payer == "referee" else name(enc, s.payer)
        words.append(f"{who} {'retries' if s.kind == 'retry' else 'adds 2 dice'}")
    return "Shifts: " + "; ".join(words)


class CrewCheck(Op, frozen=True):
    """A vehicle's crew member checks on its turn (H5: every participating crew member
    checks and may suffer consequences; the helm's check, a :class:`ChaseCheck`, moves the
    vehicle). A failure costs the crew member grit equal to its margin (H3), and the stage
    acts on it (H4)."""

    vehicle: str
    crew: str
    success: bool
    margin: int
    interference: bool = False
    roll: Roll | None = None
    d20: D20Check | None = None
    spends: tuple[ShiftSpend, ...] = ()
    label = "Crew check"

    def execute(self, enc: "Encounter") -> None:
        p = _participant(enc, self.vehicle, "check as crew")
        _require_turn(enc, p, "check as crew")
        v = next((v for v in chase_of(enc).vehicles if v.id == p.id), None)
        if v is None or self.crew == v.helm or self.crew not in (v.commander, *v.crew):
            raise IllegalOp(
                f"{name(enc, self.crew)} is not crew of {pname(enc, p.id)} besides its helm "
                "(the helm's check moves it, H5)"
            )
        if self.crew in p.crew_checked:
            raise IllegalOp(f"{name(enc, self.crew)} has checked this round (H5)")
        if not p.colours:
            raise IllegalOp(f"{pname(enc, p.id)} rolls the pursuit die before checking (H1)")
        if self.margin < 1:
            raise IllegalOp(f"a check's margin is at least 1 (R13), got {self.margin}")
        _verify(enc, self)
        _pay(enc, self.spends)
        fx = self._effects(enc, p)
        _set(enc, msgspec.structs.replace(p, crew_checked=(*p.crew_checked, self.crew)))
        _hurt(enc, self.crew, 0 if self.success else self.margin, fx)
        if fx.teeter:  # the crew member's own teeter (H4), its TEETER state (E17)
            c = enc.combatants[self.crew]
            if c.has(StateKind.TEETER):
                c = c.without_state(StateKind.TEETER)  # the second teeter fell
            else:
                c = c.with_state(State(StateKind.TEETER, note=CREW_TEETER))
            enc.put(c)

    def _effects(self, enc: "Encounter", p: Participant) -> stages.StageEffects:
        """The stage on the crew member's own body (H4, H5): the vehicle's pursuit die, its
        own check, its own teeter; the total is the helm's, so nothing comes off it."""
        fx = stages.stage_effects(
            chase_of(enc).stage,
            bad=bool(p.colours) and p.colours[-1] == enc.settings.bad_pursuit_colour,
            success=self.success,
            margin=self.margin,
            interference=self.interference,
            teetering=enc.combatant(self.crew).has(StateKind.TEETER),
            total=p.total,
        )
        return fx._replace(total_delta=0)

    def describe(self, enc: "Encounter") -> str:
        what = "succeeds" if self.success else f"fails by {self.margin}, grit -{self.margin}"
        try:
            rolled = _verify(enc, self)
        except IllegalOp:
            rolled = ""
        tail = f" (rolled {rolled})" if rolled else ""
        p = chase_of(enc).participant(self.vehicle)
        stage = ""
        if p is not None and self.crew in enc.combatants:
            stage = self._effects(enc, p).describe()
        stage = f", {stage}" if stage else ""
        return (
            f"{name(enc, self.crew)} ({pname(enc, self.vehicle)}'s crew) {what}{tail}{stage} (H5)"
        )


class HazardAttack(Op, frozen=True):
    """An Attacking stage's hazard hits a participant (H4): the hits the GM rolled for it
    land on the character (a vehicle's helm), and the hazard is done."""

    id: str
    hits: int
    label = "Hazard attack"

    def execute(self, enc: "Encounter") -> None:
        p = _participant(enc, self.id, "resolve a hazard attack")
        if p.hazard < 1:
            raise IllegalOp(f"no hazard attacks {pname(enc, p.id)} (an Attacking stage, H4)")
        if self.hits < 0:
            raise IllegalOp(f"hits cannot be negative, got {self.hits}")
        _set(enc, msgspec.structs.replace(p, hazard=p.hazard - 1))
        for cid in _checkers(enc, p):
            c = enc.combatants[cid]
            enc.put(c.replace(hits=c.hits + self.hits))

    def describe(self, enc: "Encounter") -> str:
        return f"The hazard attacks {pname(enc, self.id)}: {self.hits} hit(s) (Attacking, H4)"


class EndStageEffect(Op, frozen=True):
    """A stage's lasting effect on a participant ends (H4): ``drowning`` (Fluid: it
    surfaces) or ``teetering`` (Chasm: it steadies)."""

    id: str
    effect: str
    label = "Stage effect ends"

    def execute(self, enc: "Encounter") -> None:
        p = _participant(enc, self.id, "end a stage effect")
        if self.effect not in ("drowning", "teetering"):
            raise IllegalOp(f"no stage effect {self.effect!r}: drowning or teetering (H4)")
        if not getattr(p, self.effect):
            raise IllegalOp(f"{pname(enc, p.id)} is not {self.effect}")
        _set(enc, msgspec.structs.replace(p, **{self.effect: False}))

    def describe(self, enc: "Encounter") -> str:
        verb = "surfaces: no longer drowning" if self.effect == "drowning" else "steadies"
        return f"{pname(enc, self.id)} {verb} (H4)"
