"""A long session of each of the other modes at the table, seeded: the chase, the dispute
and the infiltration played as a GM plays them, each through its own Ops, with undos and
redos among them (long_session.run drives them: ``step=`` one of :data:`DRIVERS`).

- The chase (rooftop chase sample, H1-H5): on each participant's turn its pursuit die
  (typed faces) and its chase check, a special action when a red gave one, the next turn;
  the pole's stage for the new round, the GM's head starts, knocked-out participants back
  in by the GM; at each exchange end the escapes and captures resolved (everyone escapes
  or captures as the totals allow), then a new exchange dealt: the chase goes on, the
  totals carried, as a GM runs the next leg of a long pursuit.
- The dispute (village council sample, P1-P9): on each turn the actor on a platform
  Convinces the audience (rolled, seeded) and passes the turn; the GM's tension, moves of
  the audience and stats among them; a dispute that ended (won at the reckoning, closed
  at an exchange end or broken by tension) is reopened by the GM with part of the
  winner's support back in the audience (or the tension lowered): the council goes on.
- The infiltration (smugglers' warehouse sample, N1-N8): unaware guardians take the watch
  step the app proposes, hidden intruders maneuver their decoys, revealed characters move
  as in battle; the GM eliminates decoys seen, turns guardians, marks objectives and
  obscured areas; a revealed intruder hides again with two decoys (E6), so the
  infiltration never runs out of intruders.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from afdesk.encounter import movement
from afdesk.encounter.chase.check import ChaseCheck
from afdesk.encounter.chase.ops import ResolveChase, RollPursuit, SetParticipant, can_capture
from afdesk.encounter.chase.order import acting
from afdesk.encounter.chase.special import Special, SpecialAction
from afdesk.encounter.chase.stage import KnockOut, SetStage
from afdesk.encounter.chase.state import chase_of
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.dispute.convince import DisputeConvince
from afdesk.encounter.dispute.ops import (
    AddTension,
    CloseDispute,
    MoveDisputant,
    SetDisputeStats,
    SettleDispute,
)
from afdesk.encounter.dispute.state import AUDIENCE, dispute_of
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.infiltration.ops import (
    ConfirmWatch,
    EliminateDecoy,
    MarkObjective,
    SetObscured,
)
from afdesk.encounter.infiltration.setup import MoveDecoys
from afdesk.encounter.infiltration.state import infiltration_of
from afdesk.encounter.infiltration.watch import decoy_reach, seen_decoys, watch_steps
from afdesk.encounter.model import Encounter
from afdesk.encounter.op import Op
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import AddState, SetDecoys, SetFacing, decoy_spots
from afdesk.encounter.state import Phase
from afdesk.rules.dice import RandomSource
from afdesk.rules.rulesets import ruleset_named
from afdesk.storage import samples
from tests.benchmarks import long_session

Change = tuple[str, list[Op]]

STAGES = ((), ("steep",), ("treacherous",), ("obscured",), ("chasm",), ("steep", "obscured"))
"""The stages the pole picks in the chase (H4). Occupied, which adds a pursuer to the
chase on the bad colour, only comes with the sample's prepared stages."""


def _next(enc: Encounter, rng: random.Random) -> Change:
    return "ops", long_session.next_ops(enc, rng)


def _undo_redo(rng: random.Random, undo: float, redo: float) -> str:
    r = rng.random()
    return "undo" if r < undo else "redo" if r < undo + redo else ""


# ------------------------------------------------------------------ the chase (H1-H5)


def chase_change(enc: Encounter, rng: random.Random) -> Change:
    """One of a chase GM's changes."""
    if kind := _undo_redo(rng, 0.12, 0.06):
        return kind, []
    chase = chase_of(enc)
    phase = enc.turn.phase
    if phase is Phase.EXCHANGE_END and not isinstance(enc.log[-1].op, ResolveChase):
        return "ops", [_resolve(enc, rng)]
    if phase is not Phase.TURNS:
        return _next(enc, rng)
    r = rng.random()
    out = [p for p in chase.participants if p.out]
    if r < 0.05 and out:  # the GM brings a knocked-out participant back in
        return "ops", [KnockOut(rng.choice(out).id, out=False)]
    if r < 0.1:  # a head start or a setback the GM gives
        p = rng.choice(chase.participants)
        return "ops", [SetParticipant(p.id, total=max(0, p.total + rng.choice((-2, -1, 1, 2))))]
    if r < 0.15 and enc.turn.index == 0 and chase.pole:  # the pole's stage for the round
        return "ops", [SetStage(rng.choice(STAGES), override=True)]
    pid = acting(enc)
    p = chase.participant(pid) if pid else None
    if p is None or p.out or p.score is not None:
        if p is not None and p.special and rng.random() < 0.6:
            return "ops", [_special(enc, rng, pid)]
        return "ops", [NextTurn()]
    if not p.colours:
        if p.forced_bad:  # Interference on the last check: no roll (H3)
            return "ops", [RollPursuit(pid, typed=True)]
        if p.extra_die:  # a Grant: both rolled, one chosen (H1)
            return "ops", [RollPursuit(pid, _faces(rng), True, _faces(rng), rng.randrange(2))]
        return "ops", [RollPursuit(pid, _faces(rng), typed=True)]
    success = rng.random() < 0.6
    interference = not success and rng.random() < 0.3
    return "ops", [ChaseCheck(pid, success, rng.randint(1, 4), interference)]


def _faces(rng: random.Random) -> tuple[int, ...]:
    """A pursuit die's typed faces (H1): now and then a red, then the die that moves."""
    return (rng.randint(1, 5),) if rng.random() < 0.85 else (6, rng.randint(1, 5))


def _special(enc: Encounter, rng: random.Random, pid: str) -> Op:
    """A red's special action (H1): screen, or grant someone an extra pursuit die."""
    others = [q.id for q in chase_of(enc).participants if q.id != pid and not q.out]
    if others and rng.random() < 0.5:
        return SpecialAction(pid, Special.GRANT, target=rng.choice(others))
    return SpecialAction(pid, Special.SCREEN)


def _resolve(enc: Encounter, rng: random.Random) -> Op:
    """The exchange end (H3): from the highest total down, each escapes or captures one of
    another side with a lower total."""
    chase = chase_of(enc)
    choices, taken = [], set()
    for p in sorted(chase.participants, key=lambda p: -p.total):
        if p.out or p.id in taken:
            continue
        prey = [
            q.id
            for q in chase.participants
            if q.id not in taken and not q.out and can_capture(enc, p.id, q.id)
        ]
        caught = rng.choice(prey) if prey and rng.random() < 0.5 else ""
        taken.update({p.id, caught} - {""})
        choices.append((p.id, caught))
    return ResolveChase(tuple(choices))


# ------------------------------------------------------------------ the dispute (P1-P9)


def dispute_change(enc: Encounter, rng: random.Random) -> Change:
    """One of a dispute GM's changes."""
    if kind := _undo_redo(rng, 0.12, 0.06):
        return kind, []
    d = dispute_of(enc)
    if d.over:
        return "ops", _reopen(enc, rng)
    phase = enc.turn.phase
    if phase is Phase.EXCHANGE_END and rng.random() < 0.3:
        conv = d.conventional()
        support = d.support()
        top = max(support.values())
        tied = [p for p, n in support.items() if n == top]
        pick = "" if len(tied) == 1 or (conv and conv.id in tied) else rng.choice(tied)
        return "ops", [CloseDispute(pick=pick)]
    if phase is not Phase.TURNS:
        return _next(enc, rng)
    r = rng.random()
    if r < 0.08:
        return "ops", [AddTension(1 if d.tension < d.threshold - 1 or rng.random() < 0.3 else -1)]
    if r < 0.2:  # the GM moves someone of the audience, or back to it (P3)
        e = rng.choice([e for e in d.entries if not e.character])
        side = AUDIENCE if e.side != AUDIENCE else rng.choice(d.platforms).id
        return "ops", [MoveDisputant(e.id, side, count=1)]
    if r < 0.25:
        e = rng.choice([e for e in d.entries if e.character])
        return "ops", [SetDisputeStats(e.id, wits=1 + (e.wits % 3))]
    actor = enc.combatants.get(enc.actor) if enc.actor else None
    e = d.entry(actor.id) if actor is not None else None
    if actor is None or e is None or e.side == AUDIENCE or not actor.economy.action:
        return "ops", [NextTurn()]
    dice = 2 + e.wits
    roll = ruleset_named(enc.ruleset).roll_check(
        dice, rng.choice((0, 0, 1)), source=RandomSource(rng.getrandbits(32))
    )
    return "ops", [DisputeConvince(actor.id, attack=roll)]


def _reopen(enc: Encounter, rng: random.Random) -> list[Op]:
    """The GM lets an ended dispute go on (P9): tension lowered below the threshold, or
    part of the winner's support back in the audience."""
    d = dispute_of(enc)
    ops: list[Op] = [SettleDispute(reopen=True)]
    if d.outcome.how == "broken":
        return [*ops, AddTension(-max(1, d.tension - d.threshold + 2))]
    won = d.outcome.winner
    groups = [e for e in d.entries if not e.character and e.side == won]
    if groups:
        g = rng.choice(groups)
        ops.append(MoveDisputant(g.id, AUDIENCE, count=max(1, g.count // 2 + 1)))
    return ops


# ------------------------------------------------------------------ the infiltration (N1-N8)


def infiltration_change(enc: Encounter, rng: random.Random) -> Change:
    """One of an infiltration GM's changes."""
    if kind := _undo_redo(rng, 0.12, 0.06):
        return kind, []
    if enc.turn.phase is not Phase.TURNS:
        return _next(enc, rng)
    inf = infiltration_of(enc)
    r = rng.random()
    seen = sorted(seen_decoys(enc))
    if r < 0.1 and seen:  # a decoy in an opponent's clear line is eliminated (N4a)
        owner, area = rng.choice(seen)
        return "ops", [EliminateDecoy(owner, area)]
    if r < 0.15:
        o = rng.choice(inf.objectives)
        return "ops", [MarkObjective(o.id, not o.done)]
    if r < 0.2:
        areas = () if inf.obscured else ((rng.randrange(4), rng.randrange(4)),)
        return "ops", [SetObscured(areas)]
    if r < 0.27:
        g = enc.combatants[rng.choice(inf.guardians)]
        if g.on_map:
            return "ops", [SetFacing(g.id, rng.choice((0.0, 90.0, 180.0, 270.0)), override=True)]
    if r < 0.35:  # a revealed intruder hides again (E6), with two decoys
        shown = [enc.combatants[i] for i in inf.intruders if not enc.combatants[i].hidden]
        if shown:
            c = rng.choice(shown)
            spots = decoy_spots(enc, c)
            if len(spots) >= 2:
                return "ops", [
                    AddState(c.id, StateKind.HIDDEN, 0),
                    SetDecoys(c.id, tuple(rng.sample(spots, 2))),
                ]
    actor = enc.combatants.get(enc.actor) if enc.actor else None
    if actor is None or not actor.on_map:
        return "ops", [NextTurn()]
    steps = [s for s in watch_steps(enc) if s.id == actor.id]
    if steps:  # an unaware guardian's watch step, as the app proposes it (N3)
        return "ops", [ConfirmWatch(tuple(steps))]
    if inf.unaware(actor.id):  # no decoy to step toward: its turn passes (N3)
        return "ops", [NextTurn()]
    if not actor.economy.action or rng.random() < 0.3:
        return "ops", [NextTurn()]
    if actor.hidden:  # a Maneuver while hidden moves a decoy (N5)
        start = rng.choice(actor.decoys)
        try:
            reach = decoy_reach(enc, actor.id, (start[0], start[1]))
        except IllegalOp:
            return "ops", [NextTurn()]
        ends = sorted(a for a in reach if a != (start[0], start[1]))
        if not ends:
            return "ops", [NextTurn()]
        return "ops", [MoveDecoys(actor.id, (reach[rng.choice(ends)],))]
    return "ops", _move(enc, rng, actor)


def _move(enc: Encounter, rng: random.Random, actor) -> list[Op]:
    budget = actor.economy.movement or movement.maneuver_ticks(actor)
    try:
        steps = movement.reachable(enc, actor.id, budget)
    except IllegalOp:
        return [NextTurn()]
    places = sorted(a for a in steps if a != actor.area)
    if not places:
        return [NextTurn()]
    path = movement.path_to(steps, rng.choice(places))
    face = rng.choice((0.0, 90.0, 180.0, 270.0))
    return [MoveCombatant(actor.id, tuple(path), face, maneuver=not actor.economy.movement)]


# ------------------------------------------------------------------ the three


DRIVERS: dict[str, tuple[Callable[[], Encounter], Callable[..., Change]]] = {
    "chase": (samples.build_chase, chase_change),
    "dispute": (samples.build_council, dispute_change),
    "infiltration": (samples.build_warehouse, infiltration_change),
}
"""Each mode's sample and its GM's changes."""


def playing(mode: str) -> Encounter:
    """The mode's sample, dealt and its cards played: the first turn."""
    enc = DRIVERS[mode][0]()
    enc.apply(deal_hands(enc, random.Random(1)))
    enc.apply(play_cards(enc, rng=random.Random(2)))
    return enc


def model_only(enc: Encounter, mode: str, log_lines: int, seed: int = 11) -> None:
    """Grow ``enc``'s log to ``log_lines`` with the mode's seeded changes applied to the
    model alone (no undo: what an earlier session left in the file)."""
    step = DRIVERS[mode][1]
    rng = random.Random(seed)
    while len(enc.log) < log_lines:
        _kind, ops = step(enc, rng)
        for op in ops:
            try:
                enc.apply(op)
            except IllegalOp:
                break
