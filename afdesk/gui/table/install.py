"""The GM window's controls of the table's screen (issue 17): the Table menu.

- Fog: the fog tool on the map (G), fog or reveal the whole zone.
- The players' view's reflex strip, its rolls, screen control and real size (see
  :mod:`afdesk.gui.table.screen` and :mod:`afdesk.gui.player_view`).

Installed by the main window in one line (``TableControl(window)``), like the chase view.
"""

from __future__ import annotations

from PySide6.QtGui import QAction, QKeySequence

from afdesk.encounter.fog import Region, fogged
from afdesk.encounter.ops.fog import SetFog
from afdesk.gui.table.fog_tool import FogTool


class TableControl:
    """The Table menu of ``window`` (kept on the window as ``table``)."""

    def __init__(self, window) -> None:
        self.window = window
        window.map.add_tool(FogTool(window.map))
        self.menu = window.menuBar().addMenu("&Table")
        self.menu.setObjectName("tableMenu")
        self.fog_tool = self._action(
            "&Fog tool",
            self._fog_tool_toggled,
            "G",
            "Click a segment or tile to hide or reveal it on the players' screen; "
            "Ctrl+drag brushes areas; H flips the selected region",
        )
        self.fog_tool.setCheckable(True)
        self._action("Fog the &whole zone", lambda: self._fog_all(True))
        self._action("&Reveal the whole zone", lambda: self._fog_all(False))
        # The Help menu stays last.
        bar = window.menuBar()
        help_menu = next((a for a in bar.actions() if a.text().replace("&", "") == "Help"), None)
        if help_menu is not None:
            bar.insertAction(help_menu, self.menu.menuAction())

    def _action(self, text: str, slot, shortcut: str | None = None, tip: str = "") -> QAction:
        act = QAction(text, self.window)
        if shortcut:
            act.setShortcut(QKeySequence(shortcut))
        if tip:
            act.setStatusTip(tip)
            act.setToolTip(tip)
        act.triggered.connect(slot)
        self.menu.addAction(act)
        return act

    @property
    def doc(self):
        return self.window.doc

    def _fog_tool_toggled(self, on: bool) -> None:
        self.window.map.set_tool("fog" if on else "move")

    def _fog_all(self, hidden: bool) -> None:
        enc = self.doc.encounter
        areas = tuple(a for t in enc.zone.tiles for a in t.areas())
        under = fogged(enc.zone, enc.fog)
        todo = tuple(a for a in areas if (a in under) != hidden)
        if not todo:
            self.window.show_message(
                "The whole zone is already " + ("fogged" if hidden else "clear")
            )
            return
        self.window.map.push([SetFog.of(Region("areas", "the whole zone", todo), hidden)])


__all__ = ["TableControl"]
