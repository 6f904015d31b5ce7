"""The chase's parts of the GM's window: the board's dice and the countdown's fallen rows
on the map (H4). The board itself is shown by :mod:`afdesk.gui.central`, as every mode's
main view is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from afdesk.gui.chase.map_rows import FallenRows
from afdesk.gui.follow import follow

if TYPE_CHECKING:
    from afdesk.gui.chase.board import ChaseBoard


def make_board(window) -> ChaseBoard:
    """The GM's chase board (``window`` given) or the players' (``window`` None): its
    module is imported then, not when the window installs the chase's map rows."""
    from afdesk.gui.chase.board import ChaseBoard

    board = ChaseBoard(player=window is None)
    if window is not None:
        board.setObjectName("chaseBoardView")
    else:  # the table's: its own light background, whatever the window's style
        board.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        board.setStyleSheet("#chaseBoard { background: #fafafa; }")
    return board


def attach(board: ChaseBoard, window) -> None:
    """The board's controls roll the window's dice."""
    if board.controls is not None:
        board.controls.rng = window.rng


def install(window) -> FallenRows:
    """A countdown's fallen rows drawn on the GM's map while a chase is on (H4)."""
    rows = FallenRows(window.map)
    follow(window, rows.set_document)
    return rows
