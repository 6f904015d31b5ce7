"""Encounters for the storage tests: a random but legal GM, scripted sessions, and the
large encounter of the speed budget.

Everything here is built through Ops on a real :class:`Encounter`, so the states are ones
afdesk can reach at the table, dice and dealt cards included.
"""

from __future__ import annotations

import contextlib
import random

import msgspec

from afdesk.encounter.combatant import Combatant, Facet, Side, Speeds, StateKind
from afdesk.encounter.contest.assembly import CheckKind, assemble
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.economy import ActionKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import NEIGHBOURS
from afdesk.encounter.history import History
from afdesk.encounter.model import Encounter
from afdesk.encounter.op import Op
from afdesk.encounter.ops.economy import Screen, TakeAction
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import (
    AdjustRefereeShifts,
    ChangeMode,
    Rename,
    SetNotes,
    SetRuleset,
    SetSettings,
)
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import (
    AddCombatant,
    AddMomentum,
    AddState,
    AdjustCounter,
    PlaceCombatant,
    SetFacing,
    SetMarkers,
)
from afdesk.encounter.ops.zone import draw_extension
from afdesk.encounter.snapshot import LogEntry
from afdesk.encounter.state import Mode, Phase, Settings
from afdesk.encounter.zone import Edge
from afdesk.rules import RULESETS
from afdesk.rules.contest import Role
from afdesk.rules.dice import RandomSource
from afdesk.storage import samples as sample

# Text a GM might type, including what JSON must escape and what is not ASCII.
WORDS = (
    "bandit",
    "ford",
    "Chén",
    'the "toll"',
    "back\\slash",
    "line\nbreak",
    "tab\there",
    "☂",
    "emoji 🎲",
    "",
    "\u2028",
    "{not: json}",
)


def _text(rng: random.Random, n: int = 3) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, n)))


def random_combatant(enc: Encounter, rng: random.Random) -> Combatant:
    """A new character with random fields, placed somewhere in the zone (or off the map)."""
    n = len(enc.combatants)
    cid = f"c{n}-{rng.randrange(10**6)}"
    side = rng.choice(list(Side))
    band = sum(1 for c in enc.combatants.values() if c.side is Side.BAND)
    if side is Side.BAND and band >= 5:
        side = Side.OPPONENT  # 52 cards deal ten hands: five band members and four groups
    c0, r0, c1, r1 = enc.zone.area_bounds()
    area = None if rng.random() < 0.15 else (rng.randint(c0, c1), rng.randint(r0, r1))
    grit_max = rng.randint(1, 6)
    return Combatant(
        id=cid,
        name=(_text(rng, 2) + f" {n}").strip(),
        side=side,
        group={
            Side.BAND: "",
            Side.OPPONENT: rng.choice(("Bandits", "Archers")),
        }.get(side, "Crows"),
        area=area,
        facing=rng.choice((0.0, 45.0, 181.5, rng.uniform(0, 360), 359.99999999999994)),
        facets=tuple(
            Facet(name, rng.randint(0, 5))
            for name in ("fight", "move", "agility", "strength", "sneak", "study", "influence")
        ),
        speeds=Speeds(run=rng.randint(1, 4), fly=rng.choice((0, 0, 2))),
        reach=rng.randint(1, 2),
        weapon_range=rng.choice((0, 0, 4, 6)),
        grit=rng.randint(0, grit_max),
        grit_max=grit_max,
        shifts=rng.randint(0, 3),
        will=rng.randint(0, 2),
        notes=_text(rng),
    )


class RandomGM:
    """Proposes random Ops that fit the phase of play and keeps those the model accepts."""

    def __init__(self, enc: Encounter, rng: random.Random) -> None:
        self.enc = enc
        self.rng = rng

    # ------------------------------------------------------------------ proposals

    def _anyone(self) -> Combatant | None:
        roster = self.enc.roster()
        return self.rng.choice(roster) if roster else None

    def _setup_op(self) -> Op:
        enc, rng = self.enc, self.rng
        c = self._anyone()
        kind = rng.randrange(15)
        if kind <= 2 or c is None:
            return AddCombatant(random_combatant(enc, rng))
        if kind == 3:
            c0, r0, c1, r1 = enc.zone.area_bounds()
            area = (rng.randint(c0, c1), rng.randint(r0, r1))
            return PlaceCombatant(c.id, area, rng.choice((None, rng.uniform(-720, 720))))
        if kind == 4:
            return SetFacing(c.id, rng.uniform(0, 360), override=True)
        if kind == 5:
            return AddState(c.id, rng.choice(list(StateKind)), rng.randint(0, 3), _text(rng))
        if kind == 6:
            return SetMarkers(c.id, rng.choice((StateKind.BLEEDING, StateKind.BURNING)), 2)
        if kind == 7:
            counter = rng.choice(("grit", "hits", "shifts", "will"))
            return AdjustCounter(c.id, counter, rng.randint(-2, 3))
        if kind == 8:
            return AddMomentum(c.id, rng.choice((2, -2, -1)), _text(rng, 1))
        if kind == 9:
            return draw_extension(enc, rng.choice(list(Edge)), rng)
        if kind == 10:
            return rng.choice(
                (Rename(_text(rng) + " fight"), SetNotes(_text(rng, 6), _text(rng, 4)))
            )
        if kind == 11:
            colour = rng.choice(("blue", "green"))
            return SetSettings(Settings(colour, rng.randint(0, 4), rng.random() < 0.5))
        if kind == 12:
            if rng.random() < 0.5:
                return SetRuleset(rng.choice(RULESETS))
            return AdjustRefereeShifts(rng.randint(-1, 2))
        if kind == 13:
            return ChangeMode(rng.choice(list(Mode)))
        return deal_hands(enc, rng)

    def _turn_op(self) -> Op:
        enc, rng = self.enc, self.rng
        actor = enc.combatants.get(enc.actor or "")
        kind = rng.randrange(10)
        if actor is None or kind >= 8:
            return NextTurn()
        if kind <= 2:
            return self._contest(actor)
        if kind <= 4 and actor.area is not None:
            path = [actor.area]
            for _ in range(rng.randint(1, 3)):
                dc, dr = rng.choice(NEIGHBOURS)
                path.append((path[-1][0] + dc, path[-1][1] + dr))
            return MoveCombatant(actor.id, tuple(path), rng.uniform(0, 360), maneuver=True)
        if kind == 5:
            return TakeAction(actor.id, rng.choice((ActionKind.DEFEND, ActionKind.OTHER)))
        if kind == 6:
            return Screen(actor.id)
        return AddState(actor.id, StateKind.BLEEDING, rng.randint(1, 3))

    def _contest(self, actor: Combatant) -> Op:
        enc, rng = self.enc, self.rng
        foes = [c for c in enc.roster() if c.id != actor.id and c.on_map]
        target = rng.choice(foes) if foes else None
        plan = None
        if target is not None:
            plan = assemble(enc, actor.id, rng.choice((CheckKind.HACK, CheckKind.AIM)), target.id)
        if plan is None or not plan.allowed:
            plan = assemble(enc, actor.id, CheckKind.CHECK, facet="study")
        flow = ContestFlow(enc, plan)
        if rng.random() < 0.3 and enc.ruleset != "d20-degrees":
            flow.set_ventures(1)
        flow.roll_attack(RandomSource(rng.getrandbits(40)))
        if flow.attack is not None and plan.defenses and flow.attack_succeeded():
            allowed = [d for d in plan.defenses if d.allowed]
            if allowed:
                flow.choose_defense(allowed[0])
                flow.roll_defense(RandomSource(rng.getrandbits(40)))
        if enc.ruleset == "af-2.5.4" and flow.attack is not None and rng.random() < 0.3:
            with contextlib.suppress(IllegalOp):
                flow.spend(Role.ATTACKER, "add", source=RandomSource(rng.getrandbits(40)))
        return flow.op()

    def propose(self) -> Op:
        phase = self.enc.turn.phase
        if phase in (Phase.SETUP, Phase.EXCHANGE_END):
            return self._setup_op()
        if phase is Phase.CARDS:
            return play_cards(self.enc, rng=self.rng)
        if phase is Phase.TURNS:
            return self._turn_op()
        return Rename(f"Ended {self.rng.randrange(100)}")

    def step(self, tries: int = 50) -> tuple[Op, Op]:
        """Apply one legal random Op; returns it and its inverse."""
        for _ in range(tries):
            try:
                op = self.propose()
                return op, self.enc.apply(op)
            except IllegalOp:
                continue
        op = Rename(f"Fallback {self.rng.randrange(1000)}")
        return op, self.enc.apply(op)


def random_encounter(seed: int, steps: int, *, base: Encounter | None = None) -> Encounter:
    """An encounter after ``steps`` random legal Ops on the sample (or on ``base``)."""
    enc = base if base is not None else sample.build()
    gm = RandomGM(enc, random.Random(seed))
    for _ in range(steps):
        gm.step()
    return enc


class Session:
    """A live session the way the GUI runs it: the encounter's History, and a log of what
    happened ("do", op) / ("undo",) / ("redo",)."""

    def __init__(self, enc: Encounter) -> None:
        self.enc = enc
        self.history = History(enc)
        self.events: list[tuple] = []

    @property
    def undo_stack(self) -> list[tuple[Op, Op]]:
        """The (Op, inverse) pairs that can be undone, last on top."""
        return [c for step in self.history.steps[: self.history.index] for c in step.changes]

    @property
    def redo_stack(self) -> list[Op]:
        """The Ops that can be redone, next on top."""
        return [
            op for step in reversed(self.history.steps[self.history.index :]) for op in step.ops
        ]

    def do(self, op: Op) -> None:
        self.history.push(op)
        self.events.append(("do", op))

    def undo(self) -> None:
        self.history.undo()
        self.events.append(("undo",))

    def redo(self) -> None:
        self.history.redo()
        self.events.append(("redo",))


def random_session(enc: Encounter, seed: int, steps: int) -> Session:
    """``steps`` random actions: mostly new Ops, with undos and redos mixed in."""
    rng = random.Random(seed)
    gm = RandomGM(enc, rng)
    session = Session(enc)
    for _ in range(steps):
        r = rng.random()
        if r < 0.15 and session.undo_stack:
            session.undo()
        elif r < 0.25 and session.redo_stack:
            session.redo()
        else:
            # Propose against the live encounter, then apply through the session; an
            # illegal proposal is simply dropped.
            for _ in range(50):
                try:
                    op = gm.propose()
                    session.do(op)
                    break
                except IllegalOp:
                    continue
    return session


def big_state(combatants: int = 200, entries: int = 10_000, seed: int = 7):
    """The speed-budget encounter: ``combatants`` characters and a log of ``entries``
    realistic lines (contests with all their dice, moves, turns), built from real Ops.

    The log lines are recorded Ops of a played session, repeated to reach the size: a log
    that long would take hours of real play to produce.
    """
    rng = random.Random(seed)
    enc = sample.build()
    gm = RandomGM(enc, rng)
    played: list[LogEntry] = []
    while len(played) < 600:
        gm.step()
        entry = enc.log[-1]
        if entry.op.__class__.__name__ in ("ResolveContest", "MoveCombatant", "NextTurn"):
            played.append(entry)
    # The crowd joins after the played part: 52 cards deal at most ten hands.
    while len(enc.combatants) < combatants:
        enc.apply(AddCombatant(random_combatant(enc, rng)))
    log = list(enc.log)
    i = 0
    while len(log) < entries:
        log.append(played[i % len(played)])
        i += 1
    return msgspec.structs.replace(enc.state(), log=tuple(log[:entries]))
