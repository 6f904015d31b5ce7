"""A long session at the table, seeded: varied changes (turns, facings, states, counters,
fog) with undos and redos among them, pushed through a document or applied to the model
alone (to give an encounter a long log before the window opens)."""

from __future__ import annotations

import random
from collections.abc import Callable

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.fog import tile_region
from afdesk.encounter.model import Encounter
from afdesk.encounter.op import Op
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.fog import SetFog
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import AddState, AdjustCounter, RemoveState, SetFacing
from afdesk.encounter.state import Phase

MIXES = {
    # weights of: turn, facing, state, counter, fog, undo, redo
    "table": (5, 3, 2, 2, 1, 2, 1),
    "fights": (3, 1, 4, 4, 0, 3, 2),
}


def next_ops(enc: Encounter, rng: random.Random) -> list[Op]:
    """What the GM's Next turn button does now: deal, play the cards, or the next turn."""
    phase = enc.turn.phase
    if phase is Phase.TURNS:
        return [NextTurn()]
    if phase is Phase.CARDS:
        return [play_cards(enc, rng=rng)]
    return [deal_hands(enc, rng)]


def change(enc: Encounter, rng: random.Random, mix: str) -> tuple[str, list[Op]]:
    """One seeded change: ("undo", []), ("redo", []) or ("ops", the Ops of one step)."""
    what = rng.choices(range(7), MIXES[mix])[0]
    if what == 5:
        return "undo", []
    if what == 6:
        return "redo", []
    if what == 0:
        return "ops", next_ops(enc, rng)
    on_map = [c for c in enc.roster() if c.on_map]
    c = rng.choice(on_map)
    if what == 1:
        return "ops", [SetFacing(c.id, rng.choice((0.0, 45.0, 135.0, 200.0)), override=True)]
    if what == 2:
        kind = rng.choice((StateKind.PREPARED, StateKind.BLEEDING, StateKind.HIDDEN))
        if c.state(kind) is not None and kind is not StateKind.BLEEDING:
            return "ops", [RemoveState(c.id, kind)]
        return "ops", [AddState(c.id, kind, 1 if kind is StateKind.BLEEDING else 0)]
    if what == 3:
        return "ops", [AdjustCounter(c.id, "grit", 1 if c.grit < 3 else -1)]
    tile = enc.zone.tile_at(1, 0)
    return "ops", [SetFog.of(tile_region(tile), not enc.fog.areas)]


def run(
    push: Callable[[list[Op]], str],
    undo: Callable[[], bool],
    redo: Callable[[], bool],
    enc: Encounter,
    changes: int,
    seed: int,
    mix: str = "table",
) -> int:
    """``changes`` seeded changes through ``push`` / ``undo`` / ``redo`` (each says whether
    it did something); a refused step is not counted. Returns the log's length."""
    rng = random.Random(seed)
    done = 0
    while done < changes:
        kind, ops = change(enc, rng, mix)
        if kind == "undo":
            done += undo()
        elif kind == "redo":
            done += redo()
        else:
            done += push(ops) == ""
    return len(enc.log)


def model_only(enc: Encounter, log_lines: int, seed: int = 11) -> None:
    """Grow ``enc``'s log to ``log_lines`` with seeded changes applied to the model alone
    (no undo: what an earlier session left in the file)."""
    from afdesk.encounter.errors import IllegalOp

    rng = random.Random(seed)
    while len(enc.log) < log_lines:
        _kind, ops = change(enc, rng, "table")
        for op in ops:
            try:
                enc.apply(op)
            except IllegalOp:
                break
