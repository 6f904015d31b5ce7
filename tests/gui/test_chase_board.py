"""The chase board in the window: it replaces the map while the encounter is a
chase, the GM rolls or types the pursuit dice and applies checks from it, the exchange end
resolves there; three exchanges of the rooftop sample, then undo back to the exact start;
one lane repaints when one total changes."""

from __future__ import annotations

import random

import msgspec
import pytest
from PySide6.QtCore import QSettings

from afdesk.encounter.chase.ops import SetParticipant
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.reflex import deal_hands, play_cards
from afdesk.encounter.state import Mode, Phase
from afdesk.gui.chase.board import ChaseBoard
from afdesk.gui.chase.controls import parse_faces
from afdesk.gui.document import EncounterDocument
from afdesk.gui.main_window import MainWindow
from afdesk.storage import samples
from tests.gui.odds_wait import ODDS_MS


@pytest.fixture
def window(qtbot):
    w = MainWindow(QSettings())
    qtbot.addWidget(w)
    w.maybe_save = lambda: True
    w.rng = random.Random(14)
    w.resize(1280, 720)
    w.mode_views.samples[Mode.CHASE].trigger()
    return w


def _deal_and_play(doc, seed):
    enc = doc.encounter
    if enc.turn.phase in (Phase.SETUP, Phase.EXCHANGE_END):
        assert not doc.push(deal_hands(enc, random.Random(seed)))
    assert not doc.push(play_cards(enc, rng=random.Random(seed + 100)))


def _play_turns(window, k, shot=None):
    doc, controls = window.doc, window.mode_views.board(Mode.CHASE).controls
    while doc.encounter.turn.phase is Phase.TURNS:
        pid = controls.who.currentData()
        p = doc.encounter.chase.participant(pid)
        actor = doc.encounter.actor
        mine = pid == actor or any(
            v.id == pid and actor == v.commander for v in doc.encounter.chase.vehicles
        )
        if mine and p is not None and not p.out and not p.colours:
            if k % 4 == 0 and not p.forced_bad:
                controls.faces.setText("6 3")  # physical dice typed in
            assert controls.do_roll(), controls.message.text()
            controls.success.setChecked(k % 3 != 0)
            controls.margin.setValue(1 + k % 2)
            controls.interference.setChecked(k % 5 == 0)
            assert controls.do_check(), controls.message.text()
            if shot is not None and doc.encounter.turn.index == 2:
                window.grab().save(shot)  # mid-round: dice on the board
        k += 1
        window.act_next.trigger()
    return k


def test_the_board_replaces_the_map_in_a_chase_and_plays_three_exchanges(window, tmp_path, qtbot):
    view = window.mode_views
    doc = window.doc
    assert doc.encounter.mode is Mode.CHASE
    assert view.stack.currentWidget() is view.board(Mode.CHASE)
    view.flip()
    assert view.stack.currentWidget() is window.map  # the map, one click away
    view.flip()
    start = doc.encounter.state()
    k = 0
    for exchange in range(3):
        for rnd in range(5):
            _deal_and_play(doc, 10 * exchange + rnd)
            if exchange == 0 and rnd == 1:
                # mid-round: a couple of turns played
                controls = view.board(Mode.CHASE).controls
                assert controls.odds.text().startswith(("agility", "machinery"))
                qtbot.waitUntil(lambda c=controls: "success" in c.odds.text(), timeout=ODDS_MS)
            mid = str(tmp_path / "mid.png") if (exchange, rnd) == (0, 2) else None
            k = _play_turns(window, k, mid)
        assert doc.encounter.turn.phase is Phase.EXCHANGE_END
        controls = view.board(Mode.CHASE).controls
        assert controls.choices and not controls.resolve.isHidden()
        # the leader captures the lowest if it can, everyone else escapes
        first = next(iter(controls.choices.values()))
        if first.count() > 1:
            first.setCurrentIndex(first.count() - 1)
        assert controls.do_resolve(), controls.message.text()
        results = {p.id: p.result for p in doc.encounter.chase.participants}
        assert all(results.values())
        if first.count() > 1:
            assert view.board(Mode.CHASE).column.captures
    assert doc.encounter.log[-1].text.startswith("Exchange end:")
    window.grab().save(str(tmp_path / "end.png"))
    window.resize(1920, 1080)
    window.grab().save(str(tmp_path / "end-1080.png"))
    # undo every step: the exact start
    while doc.undo_stack.canUndo():
        doc.undo_stack.undo()
    assert doc.encounter.state() == start


def test_typed_faces_are_parsed_or_refused_with_a_message(window):
    assert parse_faces("6 2") == (6, 2) and parse_faces("6,6,1") == (6, 6, 1)
    with pytest.raises(ValueError, match="1 to 6"):
        parse_faces("7")
    doc = window.doc
    _deal_and_play(doc, 1)
    controls = window.mode_views.board(Mode.CHASE).controls
    controls.faces.setText("six")
    assert not controls.do_roll()
    assert "Typed faces" in controls.message.text()
    controls.faces.setText("6")  # a red alone: another die must follow (H1)
    assert not controls.do_roll()
    assert "red is followed" in controls.message.text()


def test_one_total_changes_one_lane_repaints(qtbot):
    doc = EncounterDocument(samples.build_chase(), journal_factory=lambda d: None)
    board = ChaseBoard()
    qtbot.addWidget(board)
    board.resize(1280, 600)
    board.set_document(doc)
    board.show()
    qtbot.waitUntil(lambda: all(n > 0 for n in board.paint_counts().values()))
    before = board.paint_counts()
    changed = []
    board.refresh = (lambda orig: lambda: changed.append(orig()) or changed[-1])(board.refresh)
    # Mei's total 2 -> 1: still below Huang's 3 (the lead) and above the runners' 0
    assert not doc.push(SetParticipant("mei", total=1))
    assert changed[-1] == ["mei"]
    qtbot.waitUntil(lambda: board.paint_counts()["mei"] > before["mei"])
    after = board.paint_counts()
    assert {pid for pid in after if after[pid] != before[pid]} == {"mei"}


def test_a_change_refreshes_the_board_once_whatever_its_signals(qtbot):
    """The third hour: a turn moving on changes the turn, the chase (a new round, H3) and
    characters (their economy), each with its signal; the board (the GM's and the
    players') follows them once, at the change's last signal, as it does one that
    changes only the chase. Out of a change's signals it refreshes at once."""
    from afdesk.encounter.ops.flow import NextTurn

    doc = EncounterDocument(samples.build_chase(), journal_factory=lambda d: None)
    boards = [ChaseBoard(), ChaseBoard(player=True)]
    refreshes = []
    for board in boards:
        qtbot.addWidget(board)
        board.set_document(doc)
        board.show()
        board.refresh = (lambda orig, b=board: lambda: refreshes.append(b) or orig())(board.refresh)
    assert not doc.push(deal_hands(doc.encounter, random.Random(1)))
    assert not doc.push(play_cards(doc.encounter, rng=random.Random(2)))
    while doc.encounter.turn.phase is Phase.TURNS:
        refreshes.clear()
        assert not doc.push(NextTurn())
        assert refreshes == boards
    refreshes.clear()
    assert not doc.push(SetParticipant("mei", total=1))
    assert refreshes == boards
    assert boards[0].lane("mei").data.participant.total == 1
    refreshes.clear()
    doc.chaseChanged.emit()  # out of a change: at once
    assert refreshes == boards


def test_the_player_board_hides_hidden_totals(qtbot):
    state = samples.build_chase().state()
    chase = state.chase
    mei = msgspec.structs.replace(chase.participant("mei"), hidden=True, decoys=2)
    enc = Encounter.from_state(msgspec.structs.replace(state, chase=chase.replace(mei)))
    doc = EncounterDocument(enc, journal_factory=lambda d: None)
    board = ChaseBoard(player=True)
    qtbot.addWidget(board)
    board.set_document(doc)
    assert board.controls is None
    assert board.lane("mei").data.show_total is False
    assert "total ?" in board.lane("mei").summary()
    gm = ChaseBoard()
    qtbot.addWidget(gm)
    gm.set_document(doc)
    assert gm.lane("mei").data.show_total is True


def test_switching_back_to_battle_shows_the_map(window):
    doc = window.doc
    assert not doc.push(ChangeMode(Mode.BATTLE, override=True))
    assert window.mode_views.stack.currentWidget() is window.map


def test_the_player_view_shows_the_player_board_in_a_chase(window, qtbot, tmp_path):
    from afdesk.gui.player_view import PlayerWindow

    pw = PlayerWindow(window.doc)
    qtbot.addWidget(pw)
    assert pw.stack.currentWidget() is pw.board(Mode.CHASE)
    assert pw.board(Mode.CHASE).controls is None and pw.board(Mode.CHASE).player
    assert set(pw.board(Mode.CHASE).column.lanes) == {
        p.id for p in window.doc.encounter.chase.participants
    }
    pw.grab().save(str(tmp_path / "player.png"))
    assert not window.doc.push(ChangeMode(Mode.BATTLE, override=True))
    assert pw.stack.currentWidget() is pw.view
