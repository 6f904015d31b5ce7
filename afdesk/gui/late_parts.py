"""The parts of the GM's window made when first needed, not at the start (a mixin of
:class:`~afdesk.gui.main_window.MainWindow`):

- the map view, made with the first document shown: the first frame draws the map's empty
  ground in its place (:mod:`afdesk.gui.map.blank`), so that it imports no model;
- the panels of the docks that may start behind another dock's tab (the Reflex dock, the
  Reserves, the Undo history), made when their dock is first on screen or the panel is
  first asked for; a panel once made follows the document shown, as the others do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from afdesk.gui.follow import follow

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDockWidget

    from afdesk.gui.document import EncounterDocument
    from afdesk.gui.map.view import MapView


class LateParts:
    """The map and the late panels of the window (see the module)."""

    _map: MapView | None = None
    _reflex_panel = None
    _reserves_panel = None
    _history_view = None

    @property
    def map(self) -> MapView:
        """The map view: made with the first document shown, or when first asked for
        (then showing an empty encounter)."""
        if self._map is None:
            self._make_map()
        return self._map

    def _make_map(self, doc: EncounterDocument | None = None, *, follows: bool = True) -> None:
        """The map view, showing ``doc``, in the place of the empty ground; the keyboard
        goes straight from the ground to the map (through no widget Qt made). With
        ``follows`` False the caller has it follow the documents shown after ``doc``
        (the window, which makes it as it is about to hand ``doc`` to every view: the
        map would build ``doc``'s scene a second time)."""
        from afdesk.gui.map.view import MapView
        from afdesk.gui.token_menu import install as install_token_menu

        if doc is None:
            from afdesk.encounter.model import Encounter
            from afdesk.gui.document import EncounterDocument

            doc = EncounterDocument(Encounter(), journal_factory=lambda d: None)
        view = self._map = MapView(doc)
        view.setObjectName("map")
        window = self  # a QMainWindow
        blank = window.centralWidget()
        had = blank is not None and blank.hasFocus()
        if had:
            blank.clearFocus()
        window.setCentralWidget(view)
        if had:
            view.setFocus(Qt.FocusReason.OtherFocusReason)
        install_token_menu(view)  # a token's right-click menu: its commands
        view.actionRequested.connect(window.perform)
        view.statusMessage.connect(window.show_message)
        window.ctx.dialog_opened = view.follow_check
        if follows:
            follow(window, view.set_document, now=False)  # it shows doc already

    @property
    def reflex_panel(self):
        """The Reflex dock's panel (behind the Character dock's tab on a small screen)."""
        from afdesk.gui.docks.reflex import ReflexPanel

        return self._late_panel("_reflex_panel", self.reflex_dock, ReflexPanel)

    @property
    def reserves_panel(self):
        """The Reserves dock's panel (it sits behind the Character dock's tab)."""
        from afdesk.gui.docks.reserves import ReservesPanel

        return self._late_panel("_reserves_panel", self.reserves_dock, ReservesPanel)

    @property
    def history(self):
        """The Undo history dock's list (it starts behind the Character dock's tab): it
        shows the document's undo stack while the dock is on screen."""
        return self._late_panel("_history_view", self.history_dock, _undo_view, "_show_history")

    def _late_panel(self, attr: str, dock: QDockWidget, make, shows: str = ""):
        """The panel ``attr`` of ``dock``, made now if it was not yet; it follows the
        document shown through its ``set_document`` (or the window's method ``shows``)."""
        panel = getattr(self, attr)
        if panel is None:
            panel = make(self.ctx)
            setattr(self, attr, panel)
            dock.setWidget(panel)
            follow(self, getattr(self, shows) if shows else panel.set_document)
        return panel

    def _late_docks(self) -> tuple[tuple[QDockWidget, str], ...]:
        return (
            (self.reflex_dock, "reflex_panel"),
            (self.reserves_dock, "reserves_panel"),
            (self.history_dock, "history"),
        )

    def _make_panels_when_shown(self) -> None:
        """Each late panel is made the first time its dock shows."""
        for dock, name in self._late_docks():
            dock.visibilityChanged.connect(lambda shown, n=name: shown and getattr(self, n))

    def _make_panels_on_screen(self) -> None:
        """The late panels whose dock is on screen now (the layout restored) are made."""
        from afdesk.gui.docks.history import on_screen

        for dock, name in self._late_docks():
            if on_screen(dock):
                getattr(self, name)

    def _late_panels_made(self) -> list:
        made = (self._reflex_panel, self._reserves_panel, self._history_view)
        return [p for p in made if p is not None]


def _undo_view(_ctx):
    from afdesk.gui.docks.history import UndoList

    view = UndoList()
    view.setEmptyLabel("Opened")
    return view
