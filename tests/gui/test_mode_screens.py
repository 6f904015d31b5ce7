"""Open modes in the GUI (E16): a mode's main view, its part of the players' screen and
its sample are one registration (afdesk.gui.modes); the main window and the players'
window ask the mode and never name one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QLabel

import afdesk.gui
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.state import Mode
from afdesk.gui import modes
from afdesk.gui.main_window import MainWindow
from afdesk.gui.player_view import PlayerWindow

GUI = Path(afdesk.gui.__file__).parent


class ToyBoard(QLabel):
    """A main view as a new mode would bring: it only shows the document's name."""

    def __init__(self, window) -> None:
        super().__init__()
        self.player = window is None
        self.doc = None
        self.attached = None

    def set_document(self, doc) -> None:
        self.doc = doc
        self.setText(doc.encounter.meta.name)


def _attach(board, window) -> None:
    board.attached = window


@pytest.fixture
def toy_mode(monkeypatch):
    """Infiltration (a mode whose folder may register nothing) given a toy board."""
    modes.registered()  # the real registrations first
    toy = modes.ModeScreens(
        Mode.INFILTRATION,
        board="toy board",
        make_board=ToyBoard,
        attach=_attach,
        strip=False,
        sample="smugglers-warehouse.afenc",
        sample_label="Toy sample",
    )
    monkeypatch.setitem(modes._SCREENS, Mode.INFILTRATION, toy)
    return toy


def test_a_registered_board_replaces_the_map_for_gm_and_players(qtbot, tmp_path, doc, toy_mode):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.set_document(doc)
    views = w.mode_views
    assert views.made(Mode.INFILTRATION) is None  # not made while the mode is not on
    assert views.stack.currentWidget() is w.map and not views.toggle.isEnabled()
    players = PlayerWindow(doc)
    qtbot.addWidget(players)
    players.show()
    assert players.strip.isVisibleTo(players)  # battle: the strip

    doc.push(ChangeMode(Mode.INFILTRATION, override=True))
    board = views.made(Mode.INFILTRATION)
    assert isinstance(board, ToyBoard) and views.stack.currentWidget() is board
    assert board.doc is doc and board.attached is w and not board.player
    assert views.toggle.isEnabled()
    views.flip()
    assert views.stack.currentWidget() is w.map  # the map one click away
    views.flip()
    assert views.stack.currentWidget() is board
    table = players.board(Mode.INFILTRATION)
    assert table.player and players.stack.currentWidget() is table
    assert not players.strip.isVisibleTo(players)  # the mode shows no strip

    doc.undo_stack.undo()  # back to battle: the map again, on both screens
    assert views.stack.currentWidget() is w.map and players.stack.currentWidget() is players.view
    assert "Open sample: Toy sample" in [a.text() for a in views.samples.values()]


def test_a_mode_without_a_board_cannot_be_asked_for_one(qtbot, tmp_path):
    w = MainWindow(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    with pytest.raises(ValueError, match="Battle mode has no board"):
        w.mode_views.board(Mode.BATTLE)
    with pytest.raises(ValueError, match="without a maker"):
        modes.register(modes.ModeScreens(Mode.BATTLE, board="a board"))


@pytest.mark.parametrize("name", ["main_window.py", "player_view.py", "central.py"])
def test_the_window_and_the_players_view_name_no_mode(name):
    text = (GUI / name).read_text(encoding="utf-8")
    named = re.findall(r"Mode\.(BATTLE|CHASE|DISPUTE|INFILTRATION)|\bchase\b", text, re.I)
    assert not named, f"{name} names a mode: {named}"
