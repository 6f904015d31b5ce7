"""A long session at the table, seeded: varied changes (turns, facings, states, counters,
fog; in the "wide" mix also moves, hits to grit and the GM's harm decision, hidden
characters' decoys, Momentum markers, snaps and actions; in the "editing" mix also the zone
editor's changes during play; the "states" mix piles states and markers on three
characters) with undos and redos among them, pushed through a document or
applied to the model alone (to give an encounter a long log before the window opens)."""

from __future__ import annotations

import gc
import os
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable

from afdesk.encounter import features, movement
from afdesk.encounter.combatant import StateKind
from afdesk.encounter.damage import hits_reach_grit
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.fog import tile_region
from afdesk.encounter.history import History
from afdesk.encounter.model import Encounter
from afdesk.encounter.op import Op
from afdesk.encounter.ops.damage import DecideHarm
from afdesk.encounter.ops.economy import TakeAction, UseSnap
from afdesk.encounter.ops.editor import PaintSegment, PlaceTile, RenameSegment, TurnTile
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.fog import SetFog
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.ops.roster import (
    AddMomentum,
    AddState,
    AdjustCounter,
    RemoveMomentum,
    RemoveState,
    SetDecoys,
    SetFacing,
    decoy_spots,
)
from afdesk.encounter.ops.zone import ReplaceTile, SetSegmentProps
from afdesk.encounter.state import Phase
from afdesk.encounter.zone import TILE, SegmentProps
from afdesk.storage import load, recovery, save
from afdesk.storage.journal import Journal

MIXES = {
    # weights of: turn, facing, state, counter, fog, undo, redo (then, "wide" only: move,
    # harm, decoys, momentum, snap or action; then "editing" only: a zone edit; then
    # "states" only: states and markers piled on three characters; zero weights leave a
    # mix's draws as they were)
    "table": (5, 3, 2, 2, 1, 2, 1, 0, 0, 0, 0, 0, 0, 0),
    "fights": (3, 1, 4, 4, 0, 3, 2, 0, 0, 0, 0, 0, 0, 0),
    "wide": (4, 1, 2, 1, 1, 3, 2, 3, 2, 1, 1, 2, 0, 0),
    "editing": (4, 1, 2, 1, 1, 3, 2, 3, 2, 1, 1, 2, 4, 0),
    "states": (2, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 6),
}

PILED_ON = ("huang", "gao", "bandit-1")
"""The characters the "states" mix piles states and markers on (the sample's)."""
PILED_STATES = (
    StateKind.BLEEDING,
    StateKind.BURNING,
    StateKind.BLINDED,
    StateKind.EXHAUSTED,
    StateKind.SHAKEN,
    StateKind.WOUNDED,
    StateKind.PREPARED,
    StateKind.CROUCHED,
)

SEGMENT_NAMES = ("Brush", "Rocks", "Pit")
"""The segments the "editing" mix paints (a few names, as a GM marks a few features)."""


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
    what = rng.choices(range(14), MIXES[mix])[0]
    if what == 5:
        return "undo", []
    if what == 6:
        return "redo", []
    if what == 0:
        return "ops", next_ops(enc, rng)
    if what == 13:
        return "ops", pile(enc, rng)
    on_map = [c for c in enc.roster() if c.on_map]
    if not on_map:  # everyone is out of the fight ("wide"): play on until undone
        return "ops", next_ops(enc, rng)
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
    if what == 4:
        tile = enc.zone.tile_at(1, 0)
        return "ops", [SetFog.of(tile_region(tile), not enc.fog.areas)]
    if what == 12:
        return "ops", [zone_edit(enc, rng)]
    return "ops", _wide(enc, rng, what, c)


def pile(enc: Encounter, rng: random.Random) -> list[Op]:
    """States and Momentum markers piling up on three characters, more put on than taken
    off (E3, E17, R12): the ongoing states wait on the decisions bar at their turns, and the
    Character dock shows a row for each."""
    ids = [i for i in PILED_ON if i in enc.combatants and not enc.combatants[i].exited]
    if not ids:
        return next_ops(enc, rng)
    c = enc.combatants[rng.choice(ids)]
    if rng.random() < 0.55:
        if c.momentum and rng.random() < 0.3:
            return [RemoveMomentum(c.id, rng.randrange(len(c.momentum)))]
        return [AddMomentum(c.id, rng.choice((2, -2)), rng.choice(("bench", "Gao", "Lan")))]
    kind = rng.choice(PILED_STATES)
    if c.state(kind) is not None and (kind is not StateKind.BLEEDING or rng.random() < 0.4):
        return [RemoveState(c.id, kind)]
    return [AddState(c.id, kind, 1 if kind is StateKind.BLEEDING else 0)]


def zone_edit(enc: Encounter, rng: random.Random) -> Op:
    """One of the zone editor's changes during play (a GM override, E10): a tile placed,
    turned or replaced, a few areas painted into a segment or taken out of it (refused
    when none is in it: the run draws again), a segment given other properties or renamed.
    Each gives a tile a look it may not have had before."""
    t = rng.choice(enc.zone.tiles)
    r = rng.random()
    if r < 0.2:
        return PlaceTile(t.col, t.row, rng.choice(enc.zone.kinds))
    if r < 0.35:
        return TurnTile(t.col, t.row, rng.choice((1, 2, 3)), rng.random() < 0.3)
    if r < 0.5:
        return ReplaceTile(t.col, t.row, rng.choice(enc.zone.kinds).id)
    if r < 0.75:
        x, y = t.col * TILE, t.row * TILE
        areas = {(x + rng.randrange(TILE), y + rng.randrange(TILE)) for _ in range(3)}
        return PaintSegment(rng.choice(SEGMENT_NAMES), tuple(sorted(areas)), rng.random() < 0.3)
    if r < 0.9 and t.segments:
        props = SegmentProps(rough=rng.random() < 0.5, cover=rng.random() < 0.5)
        return SetSegmentProps(t.col, t.row, rng.randrange(len(t.segments)), props)
    names = sorted({s.name for tile in enc.zone.tiles for s in tile.segments})
    old = rng.choice(names)
    return RenameSegment(old, rng.choice([n for n in (*SEGMENT_NAMES, "Thicket") if n != old]))


def _wide(enc: Encounter, rng: random.Random, what: int, c) -> list[Op]:
    """The "wide" mix's changes (some are refused: the run draws again)."""
    actor = enc.combatants.get(enc.actor) if enc.turn.phase is Phase.TURNS else None
    if what == 7:  # the actor moves somewhere it can reach (a Maneuver if need be)
        if actor is None or not actor.on_map:
            return next_ops(enc, rng)
        budget = actor.economy.movement or movement.maneuver_ticks(actor)
        try:
            steps = movement.reachable(enc, actor.id, budget)
        except IllegalOp:  # in an overlap: its move check first (E14); the turn goes on
            return next_ops(enc, rng)
        places = sorted(a for a in steps if a != actor.area)
        if not places:
            return next_ops(enc, rng)
        path = movement.path_to(steps, rng.choice(places))
        face = rng.choice((0.0, 90.0, 180.0, 270.0))
        return [MoveCombatant(actor.id, tuple(path), face, maneuver=not actor.economy.movement)]
    if what == 8:  # hits up to grit, the GM's decision (down, out or nothing, E17), healed
        if hits_reach_grit(c):
            out = len([x for x in enc.roster() if x.on_map]) > 5  # most stay in the fight
            return [DecideHarm(c.id, rng.choice(("down", "nothing", "out" if out else "down")))]
        if c.hits >= c.grit:
            return [AdjustCounter(c.id, "hits", -c.hits)]
        # past the hits the GM last decided at: a decision again (damage.hits_reach_grit)
        return [AdjustCounter(c.id, "hits", max(c.grit, c.harm_call + 1) - c.hits)]
    if what == 9:  # a hidden character's decoys (E6)
        spots = decoy_spots(enc, c)
        if not c.hidden:
            return [AddState(c.id, StateKind.HIDDEN, 0)]
        return [SetDecoys(c.id, tuple(rng.sample(spots, min(2, len(spots)))))]
    if what == 10:  # a Momentum marker for the next check, or one taken off (R12)
        if len(c.momentum) > 2 or (c.momentum and rng.random() < 0.5):
            return [RemoveMomentum(c.id, 0)]
        return [AddMomentum(c.id, rng.choice((2, -2)), "bench")]
    if actor is None:  # a snap or a plain action of the actor's (E5, E6)
        return next_ops(enc, rng)
    if rng.random() < 0.5:
        snaps = [r for r in features.plain_snaps() if not features.snap_refusal(enc, actor, r.kind)]
        if snaps:
            return [UseSnap(actor.id, rng.choice(snaps).kind)]
    return [TakeAction(actor.id, rng.choice(features.plain_actions()).kind)]


def run(
    push: Callable[[list[Op]], str],
    undo: Callable[[], bool],
    redo: Callable[[], bool],
    enc: Encounter,
    changes: int,
    seed: int,
    mix: str = "table",
    step: Callable[[Encounter, random.Random], tuple[str, list[Op]]] | None = None,
) -> int:
    """``changes`` seeded changes through ``push`` / ``undo`` / ``redo`` (each says whether
    it did something); a refused step is not counted. Returns the log's length. ``step``
    draws the changes instead of ``mix`` (another mode's: tests/benchmarks/mode_session)."""
    rng = random.Random(seed)
    done = 0
    while done < changes:
        kind, ops = step(enc, rng) if step is not None else change(enc, rng, mix)
        if kind == "undo":
            done += undo()
        elif kind == "redo":
            done += redo()
        else:
            done += push(ops) == ""
    return len(enc.log)


def journaled(enc: Encounter, changes: int, name: str = "Three hours", **session) -> bytes:
    """:func:`run` on ``enc`` alone (``session``: its seed, mix or step) through a History
    the crash journal follows, as the window's document does; the journal's bytes."""
    history = History(enc)
    journal = Journal.start(name, base=enc.state()).follow(history)

    def push(ops: list[Op]) -> str:
        try:
            history.push(ops)
        except IllegalOp as exc:
            return str(exc)
        return ""

    def step(can: Callable[[], bool], do: Callable[[], object]) -> Callable[[], bool]:
        return lambda: can() and (do() is not None)

    run(
        push,
        step(history.can_undo, history.undo),
        step(history.can_redo, history.redo),
        enc,
        changes,
        **session,
    )
    journal.flush()
    data = journal.path.read_bytes()
    journal.close()
    return data


def recovery_figures(enc: Encounter, tmp_path, **session) -> tuple[str, float]:
    """The recovery of a three-hour journal of ``enc`` (13,800 changes of ``session``, see
    :func:`journaled`), which must rebuild the encounter exactly: its CPU seconds (median
    of three) in words beside the load of the file it rebuilds, and the seconds."""
    data = journaled(enc, 13_800, **session)
    path = tmp_path / "after.afenc"
    save(path, enc.state())

    def cpu(fn: Callable[[], object]) -> float:
        times = []
        for _ in range(3):
            start = time.process_time()
            fn()
            times.append(time.process_time() - start)
        return statistics.median(times)

    replay = cpu(lambda: recovery.replay_journal(data, "bench"))
    floor = cpu(lambda: load(path))
    assert recovery.replay_journal(data, "bench").state == enc.state()
    lines = data.count(b"\n") - 1
    words = (
        f"recovery of {lines} journal lines ({len(data) / 1e6:.2f} MB): "
        f"{replay * 1e3:.0f} ms CPU; the load of the file it rebuilds ({len(enc.log)} log "
        f"lines): {floor * 1e3:.0f} ms: {replay / floor:.1f}x"
    )
    return words, replay


def through_window(doc, changes: int, settle: Callable[[], None], pushed=None, **session) -> None:
    """:func:`run` through a window's document (``session``: its seed, mix or step), the
    window's events handled by ``settle`` after each push, undo and redo; ``pushed(ops,
    reason)`` hears of each push."""

    def push(ops: list[Op]) -> str:
        reason = doc.push_many(ops)
        settle()
        if pushed is not None:
            pushed(ops, reason)
        return reason

    run(
        push,
        stepper(doc.undo_stack.canUndo, doc.undo, settle),
        stepper(doc.undo_stack.canRedo, doc.redo, settle),
        doc.encounter,
        changes,
        **session,
    )


def model_only(enc: Encounter, log_lines: int, seed: int = 11) -> None:
    """Grow ``enc``'s log to ``log_lines`` with seeded changes applied to the model alone
    (no undo: what an earlier session left in the file)."""
    rng = random.Random(seed)
    while len(enc.log) < log_lines:
        _kind, ops = change(enc, rng, "table")
        for op in ops:
            try:
                enc.apply(op)
            except IllegalOp:
                break


def rss_mb() -> float:
    """The process's resident memory now (Linux), after a full collection."""
    gc.collect()
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def stepper(can: Callable[[], bool], do: Callable[[], object], settle: Callable[[], None]):
    """An undo or redo for :func:`run` through a window: False when ``can()`` says there
    is none, else ``do()`` and then ``settle()`` (the window's events processed)."""

    def step() -> bool:
        if not can():
            return False
        do()
        settle()
        return True

    return step


def settle() -> None:
    """The window's events processed, then the widgets a view let go of (``deleteLater``)
    destroyed, as the app's event loop does each time control returns to it: called
    outside ``exec()``, ``processEvents`` never destroys them, so a view that replaces a
    widget would seem to keep every one it ever made."""
    from PySide6.QtCore import QCoreApplication, QEvent

    QCoreApplication.processEvents()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def ms(fn) -> tuple[float, float]:
    """Wall and UI-thread CPU milliseconds of ``fn()`` and the events it caused."""
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    wall, cpu = time.perf_counter(), time.thread_time()
    fn()
    app.processEvents()
    return (time.perf_counter() - wall) * 1e3, (time.thread_time() - cpu) * 1e3


def measure(*subjects, own: Callable | None = None) -> list[dict[str, float]]:
    """The figures of each (window, document, seed), measured in turn sample by sample
    (the machine's speed, which changes over a minute, then weighs on all of them alike):
    "action" (NextTurn pushed, repainted), "history" (the same with the Undo history in
    front), "step" (an undo or a redo), "key" (a key in the Log's filter) and, given
    ``own(k, window, doc) -> (wall, cpu)``, "own" (a mode's own action: one of its Ops)."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    got = [defaultdict(list) for _ in subjects]
    rngs = [random.Random(seed) for _, _, seed in subjects]

    def in_turn(name: str, rounds: int, sample) -> None:
        for i in range(rounds):
            order = list(enumerate(subjects))
            if i % 2:
                order.reverse()
            for k, (window, doc, _seed) in order:
                wall, cpu = sample(k, window, doc)
                got[k][name].append(cpu)
                got[k][name + "_wall"].append(wall)

    def action(k, _window, doc):
        enc = doc.encounter
        while enc.turn.phase is not Phase.TURNS:
            assert doc.push(next_ops(enc, rngs[k])[0]) == ""
            app.processEvents()
        return ms(lambda: doc.push(NextTurn()))

    in_turn("warm-up", 5, action)
    in_turn("action", 40, action)
    if own is not None:
        in_turn("warm-up", 3, own)
        in_turn("own", 40, own)
    # The same with the Undo history in front of the Log (its list at the history's
    # bound, 1,000 steps, in the third hour), then the Log in front again.
    for window, _doc, _seed in subjects:
        window.history_dock.raise_()
    app.processEvents()
    in_turn("warm-up", 3, action)
    in_turn("history", 20, action)
    for window, _doc, _seed in subjects:
        window.log_dock.raise_()
    app.processEvents()
    in_turn("step", 15, lambda _k, _w, doc: ms(doc.undo))
    in_turn("step", 15, lambda _k, _w, doc: ms(doc.redo))
    for _ in range(3):
        for ch in "faces\b\b\b\b\b":
            in_turn(
                "key",
                1,
                lambda _k, w, _d, ch=ch: ms(lambda: QTest.keyClick(w.log_panel.search, ch)),
            )
    out = []
    for (window, doc, _seed), figures in zip(subjects, got, strict=True):
        assert window.log_panel.search.text() == ""
        out.append(
            {
                **{f"{k}": statistics.median(v) for k, v in figures.items()},
                **{f"{k}_worst": max(v) for k, v in figures.items()},
                "log": len(doc.encounter.log),
            }
        )
    return out


def open_window(qtbot, tmp_path, name: str, doc):
    """A whole window at 1600x900 showing ``doc``, with the players' view open."""
    from PySide6.QtCore import QSettings

    from afdesk.gui.main_window import MainWindow

    window = MainWindow(QSettings(str(tmp_path / f"{name}.ini"), QSettings.Format.IniFormat))
    window.maybe_save = lambda: True
    qtbot.addWidget(window)
    window.resize(1600, 900)
    window.show()
    window.complete()
    window.set_document(doc)
    window.show_player_view()
    qtbot.addWidget(window.player_window)
    from tests.gui.conftest import wait_exposed

    wait_exposed(qtbot, window.player_window)
    for dock in (window.reflex_dock, window.combatant_dock, window.log_dock):
        assert dock.isVisible()
    return window


def report(start: dict, late: dict, changes: int, measures: tuple[tuple[str, str], ...]) -> None:
    """Print each of ``measures`` (key, words) in the first minute and the third hour
    (:func:`measure`'s figures after ``changes`` changes), with the ratio, and the memory."""
    for key, words in measures:
        print(
            f"{words}: first minute median {start[key]:.1f} (worst {start[key + '_worst']:.1f}),"
            f" after {changes} changes and {late['log']:.0f} log lines median "
            f"{late[key]:.1f} (worst {late[key + '_worst']:.1f}): "
            f"{late[key] / start[key]:.2f}x"
        )
    print(
        f"memory: {start['memory']:.0f} MB, then {late['memory']:.0f} MB: "
        f"{late['memory'] / start['memory']:.2f}x"
    )
