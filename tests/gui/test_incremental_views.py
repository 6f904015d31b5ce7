"""Views kept up to date change by change show exactly what views built afresh
from the same encounter show: the docks, the map scenes, the players' strip (its pixels
too), the window's actions and the chase boards, after each of a run of varied Ops with
undo and redo, with the sample's 8 characters and with a crowd whose reflex cards overlap
on the strip."""

from __future__ import annotations

import random

import msgspec
import pytest
from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication, QGraphicsItem

from afdesk.encounter.chase.ops import SetParticipant
from afdesk.encounter.combatant import Combatant, Side, StateKind
from afdesk.encounter.fog import tile_region
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.fog import SetFog
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.reflex import DealHands, deal_hands, play_cards
from afdesk.encounter.ops.roster import (
    AddCombatant,
    AddState,
    RemoveCombatant,
    RemoveState,
    SetDecoys,
    SetFacing,
    decoy_spots,
)
from afdesk.encounter.state import Mode, Phase
from afdesk.gui import commands as cmd
from afdesk.gui.chase.board import ChaseBoard
from afdesk.gui.docks.combatant import CombatantPanel
from afdesk.gui.docks.history import on_screen
from afdesk.gui.docks.reflex import ReflexPanel
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.gui.map.scene import MapScene
from afdesk.gui.screens import screen_of
from afdesk.gui.table.strip import strip_state
from afdesk.storage import samples
from tests.benchmarks.test_map_bench import crowd
from tests.gui.conftest import wait_exposed

# --------------------------------------------------------------------------- what shows


def reflex_view(panel: ReflexPanel) -> dict:
    order = []
    for i in range(panel.order.count()):
        item = panel.order.item(i)
        order.append(
            (
                item.text(),
                item.data(0x0100),
                item.font().bold(),
                item.background().color().name(),
                item.background().style(),
                item.foreground().color().name(),
                item.foreground().style(),
            )
        )
    hands = [
        tuple(panel.hands.topLevelItem(i).text(c) for c in range(3))
        for i in range(panel.hands.topLevelItemCount())
    ]
    buttons = [
        (b.text(), b.isEnabled(), b.toolTip(), b.isVisibleTo(panel))
        for b in (
            panel.deal_button,
            panel.cards_button,
            panel.next_button,
            panel.trim_button,
            panel.next_exchange,
            panel.end_button,
            panel.hesitated,
        )
    ]
    return {
        "header": panel.header.text(),
        "order": order,
        "hands": hands,
        "buttons": buttons,
        "end": (panel.end_text.text(), panel.end_box.isVisibleTo(panel)),
    }


def combatant_view(panel: CombatantPanel) -> dict:
    labels = (panel.title, panel.subtitle, panel.facets, panel.notes, panel.prompts)
    return {
        "labels": [label.text() for label in labels],
        "counters": {k: v.text() for k, v in panel.counter_labels.items()},
        "toggles": [
            (t.text(), t.isChecked(), t.isEnabled())
            for t in (panel.guard, panel.snap, panel.action, panel.defend, panel.hesitate)
        ],
        "attack": (panel.attack_button.isEnabled(), panel.attack_button.toolTip()),
    }


ADDED_BY_THE_VIEW = {"TvFrameItem"}
"""Items a view adds to its scene (the players' screen's frame on the GM's map)."""


def scene_view(scene: MapScene) -> list:
    """Every item of a scene: its kind, place, size, depth, visibility and what it shows."""
    out = []
    for item in scene.items():
        kind = type(item).__name__
        if kind in ADDED_BY_THE_VIEW:
            continue
        # Ground the fog once covered is drawn in pieces, one per area, from then on: the
        # same ground, area by area.
        if kind == "TileItem":
            t = item.tile
            out += [repr(("ground", t.col, t.row, t.name, tuple(a))) for a in t.areas()]
            continue
        if kind == "TilePiece":
            t = item.tile
            out.append(repr(("ground", t.col, t.row, t.name, tuple(item.area))))
            continue
        if not item.isVisible():  # what a hidden item would draw does not show
            out.append(repr((kind, "hidden")))
            continue
        r = item.sceneBoundingRect()
        out.append(
            repr(
                (
                    type(item).__name__,
                    round(r.x(), 3),
                    round(r.y(), 3),
                    round(r.width(), 3),
                    round(r.height(), 3),
                    item.zValue(),
                    item.isVisible(),
                    getattr(item, "_key", None),
                    item.toolTip(),
                )
            )
        )
    return sorted(out)


def backing_store(widget) -> QImage:
    """What the screen holds of ``widget`` now (the pixels Qt last painted there)."""
    top = widget.window()
    at = widget.mapTo(top, widget.rect().topLeft())
    shot = screen_of(top).grabWindow(top.winId(), at.x(), at.y(), widget.width(), widget.height())
    return shot.toImage().convertToFormat(QImage.Format.Format_RGB32)


def fresh_picture(widget) -> QImage:
    return widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)


def same_legend_picture(view) -> None:
    """The legend beside the zone, as the screen shows it after the item caches were
    brought up to date change by change, is what it shows painted afresh (its cache
    dropped and painted whole, in the same view at the same place)."""
    for _ in range(5):  # the scene's dirty items, then the view's update request
        QApplication.processEvents()
    legend = view.map_scene.legend
    where = view.mapFromScene(legend.sceneBoundingRect()).boundingRect()
    where = where.intersected(view.viewport().rect())
    vp = view.viewport()
    top = vp.window()
    at = vp.mapTo(top, where.topLeft())
    shot = screen_of(top).grabWindow(top.winId(), at.x(), at.y(), where.width(), where.height())
    shown = shot.toImage().convertToFormat(QImage.Format.Format_RGB32)
    mode = legend.cacheMode()
    legend.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    legend.setCacheMode(mode)  # a new cache: painted whole at the next paint
    fresh = vp.grab(where).toImage().convertToFormat(QImage.Format.Format_RGB32)
    assert shown == fresh


def check_views(window: MainWindow, qtbot) -> None:
    doc = window.doc
    enc = doc.encounter
    QApplication.processEvents()
    # The docks against docks that never saw a change, on a document that has worked
    # nothing out yet (no remembered answer shared with the window's).
    other = EncounterDocument(enc, journal_factory=lambda d: None)
    other.physical_hands = set(doc.physical_hands)
    fresh_reflex = ReflexPanel()
    qtbot.addWidget(fresh_reflex)
    fresh_reflex.set_document(other)
    assert reflex_view(window.reflex_panel) == reflex_view(fresh_reflex)
    fresh_char = CombatantPanel()
    qtbot.addWidget(fresh_char)
    fresh_char.set_document(other)
    fresh_char.show_character(window.combatant_panel.cid)
    assert combatant_view(window.combatant_panel) == combatant_view(fresh_char)
    # The window's actions against the same fresh document.
    for act, command in window._bound:
        ok, reason = command.available(other, "")
        assert (act.isEnabled(), act.statusTip()) == (ok, reason or command.tip), command.id
    other.close(clean=True)
    # The map scenes, the GM's and the players'.
    for scene in (window.map.map_scene, window.player_window.view.map_scene):
        fresh = MapScene(doc, player=scene.player)
        assert scene_view(scene) == scene_view(fresh)
        fresh.detach()
    for view in (window.map, window.player_window.view):
        same_legend_picture(view)
    # The players' strip: its state, and the pixels on the screen against a fresh paint.
    pw = window.player_window
    assert pw.strip.state == strip_state(enc, pw.table.hidden_turn)
    if pw.strip.isVisible():
        # A long limit: the repaint comes at once unless the machine is starved, and a
        # 2 s limit on a shared 2-core machine left too little room.
        qtbot.waitUntil(lambda: backing_store(pw.strip) == fresh_picture(pw.strip), timeout=20000)
    # The players' chase board is brought up to date when asked.
    board = ChaseBoard(player=True)
    qtbot.addWidget(board)
    board.set_document(doc)
    for pid in board.column.lanes:
        assert pw.board(Mode.CHASE).lane(pid).data == board.lane(pid).data


@pytest.fixture(params=[0, 150], ids=["8 characters", "158 characters"])
def table(request, qtbot, tmp_path):
    enc = samples.build()
    if request.param:
        crowd(enc, request.param)
    enc.apply(deal_hands(enc, random.Random(1)))
    enc.apply(play_cards(enc, rng=random.Random(2)))
    window = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    window.maybe_save = lambda: True
    qtbot.addWidget(window)
    window.resize(1600, 900)
    window.show()
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    window.set_document(doc)
    window.show_player_view()
    qtbot.addWidget(window.player_window)
    wait_exposed(qtbot, window.player_window)
    # The players' window now opens to fit the (800x800 offscreen) screen; these checks
    # compare at the TV-like size they always used.
    window.player_window.resize(1280, 720)
    return window


def _steps(doc: EncounterDocument):
    """A run of varied changes (each a callable), undo and redo among them."""
    enc = doc.encounter
    rng = random.Random(5)

    def push(op_of):
        def step():
            op = op_of()
            reason = doc.push(op)
            assert reason == "", f"{op} refused: {reason}"

        return step

    def next_turn():
        t = enc.turn
        if t.phase is Phase.CARDS:
            assert doc.push(play_cards(enc, rng=rng)) == ""
        elif t.phase is not Phase.TURNS:
            assert doc.push(deal_hands(enc, rng)) == ""
            assert doc.push(play_cards(enc, rng=rng)) == ""
        else:
            assert doc.push(NextTurn()) == ""

    someone = next(c for c in enc.roster() if c.side is Side.OPPONENT and c.on_map)
    meadow = tile_region(enc.zone.tile_at(1, 0))
    newcomer = Combatant("newcomer", "Late Arrival", Side.BAND, area=(2, 2))
    return [
        next_turn,
        next_turn,
        push(lambda: SetFacing(enc.actor or someone.id, 135.0)),
        push(lambda: AddState(someone.id, StateKind.HIDDEN)),
        push(lambda: SetDecoys(someone.id, tuple(decoy_spots(enc, someone)[:2]))),
        next_turn,
        push(lambda: SetFog.of(meadow, True)),
        next_turn,
        doc.undo,
        doc.undo,
        doc.redo,
        push(lambda: AddState(someone.id, StateKind.BLEEDING, 2)),
        push(lambda: AddCombatant(newcomer)),
        next_turn,
        push(lambda: SetFog.of(meadow, False)),
        lambda: doc.select(someone.id),
        push(lambda: RemoveCombatant("newcomer")),
        doc.undo,
        next_turn,
        doc.undo,
        doc.undo,
        doc.redo,
    ]


def test_every_view_shows_what_a_fresh_one_shows(table, qtbot):
    check_views(table, qtbot)
    for step in _steps(table.doc):
        step()
        check_views(table, qtbot)


def test_the_turns_of_a_whole_round_and_the_next_deal(table, qtbot):
    doc = table.doc
    enc = doc.encounter
    rng = random.Random(8)
    for _ in range(12):
        if enc.turn.phase is Phase.TURNS:
            assert doc.push(NextTurn()) == ""
        elif enc.turn.phase is Phase.CARDS:
            assert doc.push(play_cards(enc, rng=rng)) == ""
        else:
            assert doc.push(deal_hands(enc, rng)) == ""
        check_views(table, qtbot)
    # To the end of the round: the strip says cards are being played, then the next round.
    while enc.turn.phase is Phase.TURNS:
        assert doc.push(NextTurn()) == ""
    check_views(table, qtbot)
    assert doc.push(play_cards(enc, rng=rng)) == ""
    check_views(table, qtbot)


# ------------------------------------------------------------------- remembered answers


def test_a_remembered_refusal_is_forgotten_when_the_encounter_changes(playing_doc):
    doc = playing_doc
    enc = doc.encounter
    assert doc.try_op(NextTurn()) == ""
    while enc.turn.phase is Phase.TURNS:
        assert doc.push(NextTurn()) == ""
    assert doc.try_op(NextTurn()) != ""  # play is at the cards now
    doc.undo()
    assert doc.try_op(NextTurn()) == ""
    doc.redo()
    assert doc.try_op(NextTurn()) == enc_refusal(doc, NextTurn())


def enc_refusal(doc, op) -> str:
    other = EncounterDocument(doc.encounter, journal_factory=lambda d: None)
    try:
        return other.try_op(op)
    finally:
        other.close(clean=True)


@pytest.mark.parametrize("phase_ops", [0, 1, 2, 3])
def test_a_deal_refused_for_the_phase_is_refused_for_it_whatever_the_hands(phase_ops):
    """deal_refusal asks with no hands out of dealing time: the model's answer is the
    same as for the whole roster's hands."""
    enc = samples.build()
    rng = random.Random(phase_ops)
    ops = [
        lambda: deal_hands(enc, rng),
        lambda: play_cards(enc, rng=rng),
        lambda: NextTurn(),
    ][:phase_ops]
    for make in ops:
        enc.apply(make())
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    full = deal_hands(enc, None)
    assert cmd.deal_refusal(doc) == doc._refusal(full)
    assert doc._refusal(DealHands((), ())) == doc._refusal(full) or not doc._refusal(full)


def test_deal_refusal_follows_the_physical_hands(doc, monkeypatch):
    """The remembered answer is keyed on the physical hands: asked again with the same
    hands it is not worked out again; with another hand physical it is, for that hand."""
    asked = []
    refusal = doc._refusal

    def counting(op):
        asked.append(op)
        return refusal(op)

    monkeypatch.setattr(doc, "_refusal", counting)
    assert cmd.deal_refusal(doc) == ""
    assert cmd.deal_refusal(doc) == ""
    assert len(asked) == 1
    band = next(c.id for c in doc.encounter.roster() if c.side.value == "band")
    doc.physical_hands.add(band)
    assert cmd.deal_refusal(doc) == ""
    assert len(asked) == 2
    assert [h.id for h in asked[1].hands if h.physical] == [band]
    assert not any(h.physical for h in asked[0].hands)


# ------------------------------------------------------------------------- chase board


def test_a_board_nobody_sees_catches_up_when_it_shows(qtbot):
    doc = EncounterDocument(samples.build_chase(), journal_factory=lambda d: None)
    board = ChaseBoard(player=True)
    qtbot.addWidget(board)
    board.set_document(doc)
    assert doc.push(ChangeMode(Mode.BATTLE, override=True)) == ""
    # While a battle: Mei hides (the players' board shows her total as "?"), the turn moves.
    assert doc.push(AddState("mei", StateKind.HIDDEN)) == ""
    assert doc.push(deal_hands(doc.encounter, random.Random(1))) == ""

    def same_as_fresh():
        fresh = ChaseBoard(player=True)
        qtbot.addWidget(fresh)
        fresh.set_document(doc)
        assert board.heading.text() == fresh.heading.text()
        assert set(board.column.lanes) == set(fresh.column.lanes)
        for pid in fresh.column.lanes:
            assert board.column.lanes[pid].data == fresh.column.lanes[pid].data
        assert board.column.order == fresh.column.order

    board.show()  # shown while the encounter is a battle: brought up to date
    wait_exposed(qtbot, board)
    same_as_fresh()
    assert board.lane("mei").data.show_total is False
    board.hide()
    assert doc.push(RemoveState("mei", StateKind.HIDDEN)) == ""
    assert board.lane("mei").data.show_total is True  # asked: up to date
    assert doc.push(play_cards(doc.encounter, rng=random.Random(2))) == ""
    assert doc.push(ChangeMode(Mode.CHASE, override=True)) == ""  # a chase again
    same_as_fresh()


def test_the_board_follows_while_the_encounter_is_a_chase(qtbot):
    doc = EncounterDocument(samples.build_chase(), journal_factory=lambda d: None)
    board = ChaseBoard()
    qtbot.addWidget(board)
    board.set_document(doc)  # never shown
    state = doc.encounter.chase
    mei = state.participant("mei")
    assert doc.push(SetParticipant("mei", total=mei.total + 1)) == ""
    assert board.column.lanes["mei"].data.participant == msgspec.structs.replace(
        mei, total=mei.total + 1
    )


# ------------------------------------------------------------------------ undo history


def test_the_undo_history_shows_the_stack_whenever_its_dock_is_raised(table, qtbot):
    window = table
    doc = window.doc
    assert doc.push(NextTurn()) == ""
    assert not on_screen(window.history_dock)  # behind another tab (the Log's at 800x800)
    (in_front,) = window.tabifiedDockWidgets(window.history_dock)
    assert window.history.stack() is None
    window.history_dock.raise_()
    qtbot.waitUntil(lambda: on_screen(window.history_dock))
    assert window.history.stack() is doc.undo_stack
    model = window.history.model()
    assert model.rowCount() == doc.undo_stack.count() + 1  # "Opened", then every step
    assert window.history.currentIndex().row() == doc.undo_stack.index()
    assert doc.push(NextTurn()) == ""  # shown: follows step by step
    assert model.rowCount() == doc.undo_stack.count() + 1
    doc.undo()
    assert window.history.currentIndex().row() == doc.undo_stack.index()
    in_front.raise_()
    qtbot.waitUntil(lambda: window.history.stack() is None)
    # Another document: the list follows its stack when raised again.
    other = EncounterDocument(samples.build(), journal_factory=lambda d: None)
    window.set_document(other)
    assert other.push(deal_hands(other.encounter, random.Random(3))) == ""
    window.history_dock.raise_()
    qtbot.waitUntil(lambda: window.history.stack() is other.undo_stack)
    assert window.history.model().rowCount() == 2
