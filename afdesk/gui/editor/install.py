"""Put the zone editor into the main window: the edit tool on the map, the tile
palette and the editor's dock, and View > Zone editor (Ctrl+Shift+E) to switch the map into
edit mode. The window only calls :func:`install`.

While the editor is open its keys win (R turns the selected tile, Shift+R turns it back, M
mirrors it): the window's actions on the same keys (R: shade rear arcs, M: keyboard to the
map) wait, disabled, until it closes, so no key is ever ambiguous."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QMainWindow

from afdesk.gui.follow import follow

if TYPE_CHECKING:  # imported when the editor first opens
    from afdesk.gui.editor.palette import TilePalette
    from afdesk.gui.editor.panel import ZoneEditorPanel

EDITOR_WIDTH = 340
"""The editor's dock is given this many pixels when it opens (its buttons fit)."""


class ZoneEditor:
    """The editor's parts in one window. The action is there from the start; the map's
    edit tool, the palette, the panel and their docks are made when the editor first
    opens (or one of them is asked for): a GM who only plays never needs them (the tool
    and the zone editor's Ops it imports cost the start about 1.5 ms)."""

    def __init__(self, window: QMainWindow) -> None:
        self.window = window
        self._parts: tuple[TilePalette, ZoneEditorPanel, QDockWidget, QDockWidget] | None = None
        self.doc = None
        self.action = QAction("&Zone editor", window)
        self.action.setCheckable(True)
        self.action.setShortcut(QKeySequence("Ctrl+Shift+E"))
        self.action.setStatusTip("Edit the zone: tiles, segments, edges (an edit mode of the map)")
        self.action.toggled.connect(self.set_open)
        window.addAction(self.action)
        for act in window.menuBar().actions():
            if act.text() == "&View" and act.menu() is not None:
                act.menu().addSeparator()
                act.menu().addAction(self.action)
        self.keys = [
            self._key("Turn the selected tile 90°", "R", lambda: self.panel.turn(1)),
            self._key("Turn the selected tile back (270°)", "Shift+R", lambda: self.panel.turn(3)),
            self._key("Mirror the selected tile", "M", lambda: self.panel.turn(0, mirror=True)),
        ]
        self._waiting: list[QAction] = []
        """The window's actions on the editor's keys, disabled while it is open."""
        from afdesk.gui.editor.art_menu import MapArtMenu

        self.art = MapArtMenu(window, self.selected_slot)
        """Map art: Encounter > Import map art..., Clear map art, View > Show map art."""
        follow(window, self.set_document)  # type: ignore[attr-defined]

    @property
    def palette(self) -> TilePalette:
        return self._made()[0]

    @property
    def panel(self) -> ZoneEditorPanel:
        return self._made()[1]

    @property
    def palette_dock(self) -> QDockWidget:
        return self._made()[2]

    @property
    def panel_dock(self) -> QDockWidget:
        return self._made()[3]

    def _made(self) -> tuple[TilePalette, ZoneEditorPanel, QDockWidget, QDockWidget]:
        if self._parts is not None:
            return self._parts
        from afdesk.gui.editor.palette import TilePalette
        from afdesk.gui.editor.panel import ZoneEditorPanel
        from afdesk.gui.map.tools.editor import EditTool

        window = self.window
        view = window.map  # type: ignore[attr-defined]
        view.add_tool(EditTool(view))  # the panel drives it (and the palette's drops)
        palette = TilePalette()
        panel = ZoneEditorPanel(window.map, rng=None)  # type: ignore[attr-defined]
        panel.palette_kinds = palette.kinds  # type: ignore[method-assign]
        palette.picked.connect(self.pick)
        palette.selected_tile = self.selected_tile  # type: ignore[method-assign]
        panel.palette_choice = self.palette_choice  # type: ignore[method-assign]
        palette.tiles.currentItemChanged.connect(lambda *_a: panel.show_palette_choice())
        # The palette tabbed with the Character dock (in front while editing), the editor's
        # dock in the left column with Reflex and Reserves (shown while editing).
        palette_dock = self._dock("Tile palette", "paletteDock", palette)
        panel_dock = self._dock("Zone editor", "zoneEditorDock", panel)
        window.tabifyDockWidget(window.combatant_dock, palette_dock)  # type: ignore[attr-defined]
        window.combatant_dock.raise_()  # type: ignore[attr-defined]
        self._parts = (palette, panel, palette_dock, panel_dock)
        for dock in (palette_dock, panel_dock):
            window.restoreDockWidget(dock)  # where the GM put it (the saved layout)
            # Shown while editing only: at 1280x720 the right column's tabs have no room
            # for a palette the GM does not use during play.
            dock.hide()
        panel.edit_box.toggled.connect(self.action.setChecked)
        body = panel.edit_box.parentWidget().layout()
        body.insertWidget(body.count() - 1, self.art.box())  # above the closing stretch
        if self.doc is not None:
            self._show_document()
        return self._parts

    def _dock(self, title: str, name: str, widget) -> QDockWidget:
        dock = QDockWidget(title, self.window)
        dock.setObjectName(name)
        dock.setWidget(widget)
        area = Qt.DockWidgetArea.RightDockWidgetArea
        if name == "zoneEditorDock":
            area = Qt.DockWidgetArea.LeftDockWidgetArea
        self.window.addDockWidget(area, dock, Qt.Orientation.Vertical)
        return dock

    def _key(self, text: str, key: str, slot) -> QAction:
        act = QAction(text, self.window)
        act.setShortcut(QKeySequence(key))
        act.setEnabled(False)  # only while editing
        act.triggered.connect(lambda _c=False: slot())
        self.window.addAction(act)
        return act

    def _take_keys(self, on: bool) -> None:
        """The editor's keys win while it is open (see the module)."""
        if on:
            mine = {seq for act in self.keys for seq in act.shortcuts()}
            for act in self.window.findChildren(QAction):
                if act in self.keys or not act.isEnabled():
                    continue
                if any(seq in mine for seq in act.shortcuts()):
                    act.setEnabled(False)
                    self._waiting.append(act)
        else:
            for act in self._waiting:
                act.setEnabled(True)
            self._waiting = []
        for act in self.keys:
            act.setEnabled(on)

    def palette_choice(self):
        """The tile kind selected in the palette (None if none is)."""
        from afdesk.gui.editor.palette import KIND_ROLE

        item = self.palette.tiles.currentItem()
        return item.data(KIND_ROLE) if item is not None else None

    def set_document(self, doc) -> None:
        self.doc = doc
        if self._parts is not None:  # else they are made with the document shown
            self._show_document()

    def _show_document(self) -> None:
        self.palette.set_document(self.doc)
        self.panel.set_document(self.doc)
        self.panel.rng = self.window.rng  # type: ignore[attr-defined]

    def set_open(self, on: bool) -> None:
        """Open the editor (the map's edit mode, the palette and the dock) or close it."""
        if not on and self._parts is None:
            return  # never opened: nothing to close
        self.panel.set_editing(on)
        if on != bool(self.keys[0].isEnabled()):
            self._take_keys(on)
        if on:
            self.panel.rng = self.window.rng  # type: ignore[attr-defined]
            for dock in (self.palette_dock, self.panel_dock):
                dock.show()
                dock.raise_()
            self.window.resizeDocks([self.panel_dock], [EDITOR_WIDTH], Qt.Orientation.Horizontal)
            reserves = getattr(self.window, "reserves_dock", None)
            if reserves is not None and reserves.isVisible():  # the editor gets the room
                self.window.resizeDocks(
                    [self.panel_dock, reserves], [520, 300], Qt.Orientation.Vertical
                )
        elif self._parts is not None:
            for dock in (self.palette_dock, self.panel_dock):
                dock.hide()

    def is_open(self) -> bool:
        return self._parts is not None and self.panel.editing()

    def selected_slot(self) -> tuple[int, int] | None:
        """The tile place selected in the editor (None if the editor never opened or no
        slot is selected)."""
        return self.panel.slot() if self._parts is not None else None

    def selected_tile(self):
        """The tile selected on the map (None if no slot is)."""
        slot = self.panel.slot()
        doc = self.panel.doc
        return doc.encounter.zone.tile_at(*slot) if slot is not None and doc else None

    def pick(self, kind) -> bool:
        """The palette's tile picked for the selected slot."""
        slot = self.panel.slot()
        view = self.window.map  # type: ignore[attr-defined]
        if slot is None:
            view.refuse("Select a slot on the map first (zone editor, tiles).")
            return False
        return view.tool("edit").place(slot, kind)


def install(window: QMainWindow) -> ZoneEditor:
    return ZoneEditor(window)
