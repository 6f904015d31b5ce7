"""The middle of the GM's window: the map, or the current mode's main view (a board of
its own) while the encounter is in that mode, the map one click away
(View > Map / board, Ctrl+B); File > Open sample entries for every mode's sample; each
mode's extras (:mod:`afdesk.gui.modes`). Nothing here names a mode."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QSizePolicy, QStackedWidget, QWidget

from afdesk.gui import modes
from afdesk.gui.follow import Links, follow
from afdesk.gui.workspaces import names_dock

if TYPE_CHECKING:
    from afdesk.encounter.state import Mode
    from afdesk.gui.modes import ModeScreens


def open_mode_sample(window, mode: Mode) -> bool:
    """Open ``mode``'s bundled sample as a new unsaved encounter (asking first about
    unsaved changes); False if the GM kept the encounter shown or it could not open."""
    from afdesk import paths

    screens = modes.screens_for(mode)
    if not screens.sample:
        return False
    return bool(window.open_bundled(paths.resource_dir() / "encounters" / screens.sample))


class Extras(dict):
    """What each mode's ``install`` returned (map layers, docks), by mode: installed when
    the encounter shown is first in that mode, or when first asked for (a battle never
    builds the infiltration's dock or layer). A mode with no extras is a KeyError."""

    def __init__(self, window) -> None:
        super().__init__()
        self.window = window

    def __missing__(self, mode: Mode) -> object:
        install = modes.screens_for(mode).install
        if install is None:
            raise KeyError(mode)
        made = self[mode] = install(self.window)
        return made

    def install(self, mode: Mode) -> object:
        """``mode``'s extras, installed now if they were not yet."""
        return self[mode]

    def installed(self, mode: Mode) -> bool:
        """Whether ``mode``'s extras are made (asking does not make them)."""
        return dict.__contains__(self, mode)


class ModeViews:
    """The window's central stack and the modes' parts (kept as ``window.mode_views``)."""

    def __init__(self, window, saved_layout: bytes | None = None) -> None:
        """``saved_layout``: the window's layout as saved, if any; a mode's extras whose
        docks it places are installed now, while that layout can still place them
        (:attr:`ModeScreens.docks`)."""
        self.window = window
        self._boards: dict[Mode, QWidget] = {}
        self.extras = Extras(window)
        """What each mode's ``install`` returned (map layers, docks), made when needed."""
        self.stack = QStackedWidget()
        self.stack.setObjectName("centralStack")
        # Like the map it holds: the window's spare room goes to it, not to the docks
        # (the stack replaces the map after the first frame).
        self.stack.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        old = window.takeCentralWidget()
        self.stack.addWidget(old)
        window.setCentralWidget(self.stack)
        self.doc = None
        self._links = Links()
        self.show_map = False
        self.toggle = QAction("Map / &board", window)
        self.toggle.setShortcut(QKeySequence("Ctrl+B"))
        self.toggle.setStatusTip(
            "While the encounter's mode has a board of its own: switch between the board "
            "and the map"
        )
        self.toggle.triggered.connect(self.flip)
        self.samples: dict[Mode, QAction] = {}
        for screens in modes.registered():
            if screens.sample:
                act = QAction(f"Open sample: {screens.sample_label}", window)
                act.setStatusTip(f"The bundled {screens.mode.label.lower()} sample, unsaved")
                act.triggered.connect(lambda _=False, m=screens.mode: open_mode_sample(window, m))
                self.samples[screens.mode] = act
            placed = saved_layout is not None and any(
                names_dock(saved_layout, dock) for dock in screens.docks
            )
            if screens.install is not None and placed:
                self.extras.install(screens.mode)  # now (see __init__)
        self._add_to_menus()
        follow(window, self.set_document)

    def _add_to_menus(self) -> None:
        for act in self.window.menuBar().actions():
            menu = act.menu()
            if menu is None:
                continue
            title = act.text().replace("&", "")
            if title == "View":
                menu.addSeparator()
                menu.addAction(self.toggle)
            elif title == "File":
                first_sep = next((a for a in menu.actions() if a.isSeparator()), None)
                for sample in self.samples.values():
                    menu.insertAction(first_sep, sample)

    # ------------------------------------------------------------------ boards

    def screens(self) -> ModeScreens | None:
        """What the shown encounter's mode shows (None with no encounter)."""
        if self.doc is None:
            return None
        return modes.screens_for(self.doc.encounter.mode)

    def board(self, mode: Mode) -> QWidget:
        """``mode``'s main view in the GM's window, made when first shown or asked for (a
        battle never needs a board, so the start builds none)."""
        board = self._boards.get(mode)
        if board is None:
            screens = modes.screens_for(mode)
            if screens.make_board is None:
                raise ValueError(f"the {mode.label} mode has no board: the map is its view")
            board = screens.make_board(self.window)
            self._boards[mode] = board
            self.stack.addWidget(board)
            if self.doc is not None:
                self._show_document(mode, board)
        return board

    def made(self, mode: Mode) -> QWidget | None:
        """``mode``'s board if it has been made (None if not yet)."""
        return self._boards.get(mode)

    def set_document(self, doc) -> None:
        self.doc = doc
        for mode, board in self._boards.items():  # the others are made with doc shown
            self._show_document(mode, board)
        self._links.clear()
        self._links.connect(doc.modeChanged, self._mode_changed)
        self.show_map = False
        self._mode_changed()

    def _show_document(self, mode: Mode, board: QWidget) -> None:
        board.set_document(self.doc)  # type: ignore[attr-defined]
        attach = modes.screens_for(mode).attach
        if attach is not None:
            attach(board, self.window)

    def has_board(self) -> bool:
        """The shown encounter's mode has a main view of its own."""
        screens = self.screens()
        return screens is not None and screens.make_board is not None

    def _mode_changed(self) -> None:
        self.toggle.setEnabled(self.has_board())
        screens = self.screens()
        if screens is not None and screens.install is not None:
            self.extras.install(screens.mode)  # the mode's extras, once it is on
        if screens is not None and screens.make_board is not None and not self.show_map:
            self.stack.setCurrentWidget(self.board(screens.mode))
        else:
            self.stack.setCurrentIndex(0)

    def flip(self) -> None:
        """Between the mode's board and the map (nothing while the map is the view)."""
        if self.has_board():
            self.show_map = not self.show_map
            self._mode_changed()
