"""The chase board at the table (H1-H4): the river ford (eight participants) switched to a
chase fits a 1280x720 screen with and without a countdown and at the exchange end, six
lanes show at once, lanes show sides and whose turn it is, the typed-result boxes start
empty for each participant, a knocked-out participant has no live buttons, an Occupied
stage's pursuer keeps its turn in "Turn of", and a capture names its captor."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings
from PySide6.QtWidgets import QApplication

from afdesk.encounter.chase.ops import (
    ChaseCheck,
    KnockOut,
    RollPursuit,
    SetCountdown,
    SetParticipant,
    SetStage,
)
from afdesk.encounter.chase.state import Countdown
from afdesk.encounter.ops.flow import NextTurn
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.state import Mode, Phase
from afdesk.gui import screens
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.storage import samples
from tests.gui.conftest import wait_exposed

LAPTOP = QRect(0, 0, 1280, 720)


@pytest.fixture
def laptop(monkeypatch):
    monkeypatch.setattr(screens, "available", lambda widget=None: QRect(LAPTOP))
    return LAPTOP


@pytest.fixture
def ford(qtbot, laptop):
    """The river ford in the window at 1280x720, switched to a chase."""
    doc = EncounterDocument(samples.build(), journal_factory=lambda d: None)
    w = MainWindow(QSettings())
    qtbot.addWidget(w)
    w.maybe_save = lambda: True
    w.set_document(doc)
    w.show()
    w.move(0, 0)
    wait_exposed(qtbot, w)
    assert not doc.push(ChangeMode(Mode.CHASE, override=True))
    QApplication.processEvents()
    return w


def _fits(w, *, whole_height: bool = True) -> None:
    """The window fits the screen's width; the board never asks for more than half its
    height (``whole_height``: and the window fits its height too)."""
    QApplication.processEvents()
    avail = screens.available(w)
    assert w.minimumSizeHint().width() <= avail.width()
    assert w.width() <= avail.width(), w.width()
    board = w.mode_views.board(Mode.CHASE)
    assert board.minimumSizeHint().height() <= avail.height() // 2
    if whole_height:
        assert w.minimumSizeHint().height() <= avail.height() - screens.TITLE_BAR
        assert w.height() <= avail.height(), w.height()
    assert board.isVisible()
    for b in (board.controls.roll, board.controls.check, board.controls.apply):
        assert QRect(b.mapTo(w, QPoint(0, 0)), b.size()).right() <= avail.width()


def _lanes_in_view(board) -> int:
    vp = board.lanes_scroll.viewport()
    return sum(
        vp.rect().contains(QRect(lane.mapTo(vp, QPoint(0, 0)), lane.size()))
        for lane in board.column.lanes.values()
    )


def test_the_ford_as_a_chase_fits_1280x720_with_six_lanes_in_view(ford):
    board = ford.mode_views.board(Mode.CHASE)
    assert len(board.column.lanes) == 8
    _fits(ford)
    assert _lanes_in_view(board) >= 6
    doc = ford.doc
    countdown = Countdown(exchanges=3, target="the far bank of the river ford", rows=True)
    assert not doc.push(SetCountdown(countdown))
    _fits(ford)
    assert "the far bank" in board.heading.text()
    assert _lanes_in_view(board) >= 6


def _play_round(doc, typed_faces=(2,)) -> None:
    """Every participant rolls typed faces and checks a success of 1, in reflex order."""
    enc = doc.encounter
    while enc.turn.phase is Phase.TURNS:
        pid = enc.actor
        p = enc.chase.participant(pid) if pid else None
        if p is not None and not p.out and p.score is None:
            assert not doc.push(RollPursuit(pid, typed_faces, typed=True))
            assert not doc.push(ChaseCheck(pid, True, 1, False))
        assert not doc.push(NextTurn())


def test_the_exchange_end_choices_wrap_and_fit_and_a_capture_names_its_captor(ford):
    doc = ford.doc
    assert not doc.push(SetParticipant("huang", total=20))  # a head start to capture from
    assert not doc.push(deal_hands(doc.encounter, random.Random(5)))
    while doc.encounter.turn.phase is not Phase.EXCHANGE_END:
        assert not doc.push(play_cards(doc.encounter, rng=random.Random(6)))
        _play_round(doc)
    c = ford.mode_views.board(Mode.CHASE).controls
    assert len(c.choices) == 8
    # The Reflex dock's exchange-end text (the GM notes) sets the window's height here, not
    # the board: the board keeps within half the screen's height.
    _fits(ford, whole_height=False)
    assert not c.apply.isVisible() and not c.odds.isVisible()  # no turn at the exchange end
    assert c.resolve.isVisible()
    assert QRect(c.resolve.mapTo(ford, QPoint(0, 0)), c.resolve.size()).right() <= 1280
    box = c.choices["huang"]
    box.setCurrentIndex(box.findData("gao"))
    assert c.do_resolve(), c.message.text()
    assert doc.encounter.chase.participant("gao").result == "captured by huang"
    tip = ford.mode_views.board(Mode.CHASE).lane("gao").toolTip()
    assert "CAPTURED BY GREEN-JADE HUANG" in tip and "CAPTURED BY HUANG" not in tip


def test_lanes_show_sides_and_whose_turn(ford):
    doc, board = ford.doc, ford.mode_views.board(Mode.CHASE)
    assert board.lane("huang").data.side == "band"
    assert board.lane("gao").data.side == "opponent"
    assert "band" in board.lane("huang").toolTip()
    assert "opponents" in board.lane("gao").toolTip()
    assert not any(lane.data.turn for lane in board.column.lanes.values())
    assert not doc.push(deal_hands(doc.encounter, random.Random(5)))
    assert not doc.push(play_cards(doc.encounter, rng=random.Random(6)))
    actor = doc.encounter.actor
    turns = [pid for pid, lane in board.column.lanes.items() if lane.data.turn]
    assert turns == [actor]
    assert "its turn" in board.lane(actor).toolTip()


def test_typed_result_boxes_start_empty_for_each_participant(ford):
    c = ford.mode_views.board(Mode.CHASE).controls
    c.who.setCurrentIndex(c.who.findData("huang"))
    c.success.setChecked(True)
    c.margin.setValue(4)
    c.interference.setChecked(True)
    c.who.setCurrentIndex(c.who.findData("chen"))
    assert not c.success.isChecked() and c.margin.value() == 1
    assert not c.interference.isChecked()


def test_a_knocked_out_participant_has_no_live_buttons(ford):
    doc, c = ford.doc, ford.mode_views.board(Mode.CHASE).controls
    assert not doc.push(KnockOut("chen"))
    c.who.setCurrentIndex(c.who.findData("chen"))
    for b in (c.roll, c.check, c.apply, c.faces, c.success, c.margin, *c.keep):
        assert not b.isEnabled(), b
    assert "Knocked out" in c.roll.toolTip()
    c.who.setCurrentIndex(c.who.findData("huang"))
    assert c.roll.isEnabled() and c.apply.isEnabled()


def test_an_occupied_stage_pursuer_keeps_its_turn_and_its_result(ford):
    """Occupied on the bad colour adds a pursuer (H4); it has no card, so the GM picks it in
    "Turn of" and its die and its check go to it, not back to the actor."""
    doc, c = ford.doc, ford.mode_views.board(Mode.CHASE).controls
    assert not doc.push(SetStage(("occupied",)))
    assert not doc.push(deal_hands(doc.encounter, random.Random(5)))
    assert not doc.push(play_cards(doc.encounter, rng=random.Random(6)))
    actor = doc.encounter.actor
    assert c.who.currentData() == actor
    bad = doc.encounter.settings.bad_pursuit_colour
    c.faces.setText("4" if bad == "blue" else "1")
    assert c.do_roll(), c.message.text()
    c.success.setChecked(True)
    assert c.do_check(), c.message.text()
    assert doc.encounter.chase.participant("pursuer-1") is not None
    c.who.setCurrentIndex(c.who.findData("pursuer-1"))
    c.faces.setText("2")
    assert c.do_roll(), c.message.text()
    assert c.who.currentData() == "pursuer-1"
    c.success.setChecked(True)
    c.margin.setValue(2)
    assert c.do_check(), c.message.text()
    assert doc.encounter.chase.participant("pursuer-1").score is not None
    assert doc.encounter.chase.participant(actor).margin != 2 or actor == "pursuer-1"
    lane = ford.mode_views.board(Mode.CHASE).lane("pursuer-1")
    assert lane.data.side == "" and "pursuer" in lane.toolTip()


def test_a_countdowns_fallen_rows_are_drawn_on_the_map(ford):
    """H4: the rows the countdown die removed are hatched on the GM's map, from the zone's
    top edge, and go when undone or when the encounter is no chase."""
    from afdesk.encounter.chase.ops import RollCountdown

    doc, rows = ford.doc, ford.mode_views.extras[Mode.CHASE]
    assert rows.shown is None
    assert not doc.push(SetCountdown(Countdown(rows=True)))
    assert rows.shown is None
    assert not doc.push(RollCountdown((6, 4)))  # red, then blue (bad): two rows
    _c0, r0, _c1, _r1 = doc.encounter.zone.area_bounds()
    assert rows.shown == (r0, r0 + 1)
    assert rows.item is not None and rows.item.scene() is ford.map.map_scene
    assert rows.item.rect().height() == 2 * 64.0
    doc.undo_stack.undo()
    assert rows.shown is None and rows.item is None
    doc.undo_stack.redo()
    assert rows.shown == (r0, r0 + 1)
    assert not doc.push(ChangeMode(Mode.BATTLE, override=True))
    assert rows.shown is None
