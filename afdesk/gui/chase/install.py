"""Put the chase board into the main window: the central view becomes a stack of the map
and the board (made when first needed), the board shown while the encounter is a chase
(the map one click away: View > Map / chase board, Ctrl+B), and File > Open chase
sample."""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QSizePolicy, QStackedWidget

from afdesk.encounter.state import Mode
from afdesk.gui.chase.board import ChaseBoard
from afdesk.gui.chase.map_rows import FallenRows


class ChaseView:
    """The window's chase parts (kept on the window as ``chase_view``)."""

    def __init__(self, window) -> None:
        self.window = window
        self._board: ChaseBoard | None = None
        self.stack = QStackedWidget()
        self.stack.setObjectName("centralStack")
        # Like the map it holds: the window's spare room goes to it, not to the docks
        # (the stack replaces the map after the first frame).
        self.stack.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        old = window.takeCentralWidget()
        self.stack.addWidget(old)
        window.setCentralWidget(self.stack)
        self.doc = None
        self.show_map = False
        self.rows = FallenRows(window.map)
        """A countdown's fallen rows drawn on the map (H4)."""
        self.toggle = QAction("Map / chase &board", window)
        self.toggle.setShortcut(QKeySequence("Ctrl+B"))
        self.toggle.setStatusTip("While a chase is on: switch between the chase board and the map")
        self.toggle.triggered.connect(self.flip)
        self.open_sample = QAction("Open chase &sample (rooftops)", window)
        self.open_sample.triggered.connect(self.open_chase_sample)
        self._add_to_menus()
        window.documentChanged.connect(self.set_document)
        if window.doc is not None:
            self.set_document(window.doc)

    def _add_to_menus(self) -> None:
        bar = self.window.menuBar()
        for act in bar.actions():
            menu = act.menu()
            if menu is None:
                continue
            title = act.text().replace("&", "")
            if title == "View":
                menu.addSeparator()
                menu.addAction(self.toggle)
            elif title == "File":
                first_sep = next((a for a in menu.actions() if a.isSeparator()), None)
                menu.insertAction(first_sep, self.open_sample)

    @property
    def board(self) -> ChaseBoard:
        """The chase board, made when first shown (the encounter becomes a chase) or asked
        for: a battle never needs it, so the start does not build it."""
        if self._board is None:
            self._board = ChaseBoard()
            self._board.setObjectName("chaseBoardView")
            self.stack.addWidget(self._board)
            if self.doc is not None:
                self._show_document()
        return self._board

    def set_document(self, doc) -> None:
        if self.doc is not None:
            self.doc.modeChanged.disconnect(self._mode_changed)
        self.doc = doc
        self.rows.set_document(doc)
        if self._board is not None:  # else it is made with the document shown
            self._show_document()
        doc.modeChanged.connect(self._mode_changed)
        self.show_map = False
        self._mode_changed()

    def _show_document(self) -> None:
        assert self._board is not None and self.doc is not None
        self._board.set_document(self.doc)
        self._board.controls.rng = self.window.rng

    def is_chase(self) -> bool:
        return self.doc is not None and self.doc.encounter.mode is Mode.CHASE

    def _mode_changed(self) -> None:
        self.toggle.setEnabled(self.is_chase())
        if self.is_chase() and not self.show_map:
            self.stack.setCurrentWidget(self.board)
        else:
            self.stack.setCurrentIndex(0)

    def flip(self) -> None:
        if self.is_chase():
            self.show_map = not self.show_map
            self._mode_changed()

    def open_chase_sample(self) -> None:
        from afdesk import paths
        from afdesk.encounter.model import Encounter
        from afdesk.gui.document import EncounterDocument
        from afdesk.storage import load

        if not self.window.maybe_save():
            return
        loaded = load(paths.chase_sample_encounter())
        self.window.set_document(EncounterDocument(Encounter.from_state(loaded.state)))
