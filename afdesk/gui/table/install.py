"""The GM window's controls of the table's screen: the Table menu.

- Fog: the fog tool on the map (G), fog or reveal the whole zone.
- The players' view's reflex strip, its rolls, screen control and real size (see
  :mod:`afdesk.gui.table.screen` and :mod:`afdesk.gui.player_view`).

Installed by the main window in one line (``TableControl(window)``), like the chase view.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence

from afdesk.encounter.combatant import Side
from afdesk.encounter.fog import Region, fogged
from afdesk.encounter.ops.fog import SetFog
from afdesk.gui.follow import follow
from afdesk.gui.table.fog_tool import FogTool
from afdesk.gui.table.screen_control import ScreenControl
from afdesk.gui.table.settings import HIDDEN_TURN_CHOICES, NEXT_CHECK_CHOICES, TableSettings


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
        self._action(
            "Fog &regions…",
            self._fog_regions,
            tip="Every tile and segment, ticked where the players see fog (for preparing)",
        )
        self.menu.addSeparator()
        self._build_strip_and_rolls()
        self.menu.addSeparator()
        self.screen = ScreenControl(self, self.menu.addMenu("&Players' screen"))
        # The Help menu stays last.
        bar = window.menuBar()
        help_menu = next((a for a in bar.actions() if a.text().replace("&", "") == "Help"), None)
        if help_menu is not None:
            bar.insertAction(help_menu, self.menu.menuAction())

    def _build_strip_and_rolls(self) -> None:
        settings = TableSettings()
        self.strip_act = self._action(
            "Reflex &strip on the players' screen",
            self._strip_toggled,
            tip="This round's cards in play order under the players' map",
        )
        self.strip_act.setCheckable(True)
        self.strip_act.setChecked(settings.strip_shown)
        self.ticker_act = self._action(
            "&Event lines on the players' screen",
            self._ticker_toggled,
            tip="Moves, hits, down and out, reinforcements, mode changes and the end of an "
            "exchange, in short lines that fade (never anything GM-only)",
        )
        self.ticker_act.setCheckable(True)
        self.ticker_act.setChecked(settings.ticker_shown)
        hidden = self.menu.addMenu("&Hidden characters' turns show")
        group = QActionGroup(hidden)
        for key, words in HIDDEN_TURN_CHOICES.items():
            act = hidden.addAction(words)
            act.setCheckable(True)
            act.setChecked(settings.hidden_turn == key)
            act.setData(key)
            group.addAction(act)
            act.triggered.connect(lambda _c=False, k=key: self._hidden_turn(k))
        self.menu.addSeparator()
        self.next_menu = self.menu.addMenu("&Next check is")
        self.next_group = QActionGroup(self.next_menu)
        for key, words in NEXT_CHECK_CHOICES.items():
            act = self.next_menu.addAction(words)
            act.setCheckable(True)
            act.setData(key)
            self.next_group.addAction(act)
            act.triggered.connect(lambda _c=False, k=key: self._next_choice(k))
        self.next_menu.aboutToShow.connect(self._sync_next_menu)
        self._action(
            "Show the &last check to the table",
            self._show_last,
            "Ctrl+Shift+R",
            "Put the last check's dice and verdict on the players' screen after all",
        )
        sides = self.menu.addMenu("Rolls the table &sees by default")
        for side in Side:
            act = sides.addAction(f"{side.label} rolls")
            act.setCheckable(True)
            act.setChecked(settings.public_rolls(side))
            act.toggled.connect(lambda on, sd=side: TableSettings().set_public_rolls(sd, on))

    def _player_window(self):
        return getattr(self.window, "player_window", None)

    def _strip_toggled(self, on: bool) -> None:
        TableSettings().strip_shown = on
        pw = self._player_window()
        if pw is not None:
            pw.set_strip_shown(on)

    def _ticker_toggled(self, on: bool) -> None:
        TableSettings().ticker_shown = on
        pw = self._player_window()
        if pw is not None and not on:
            pw.ticker.clear()

    def _hidden_turn(self, key: str) -> None:
        TableSettings().hidden_turn = key
        pw = self._player_window()
        if pw is not None:
            pw.refresh_strip()

    def _gate(self):
        """The document's roll gate (:mod:`afdesk.gui.table.rolls`, imported when the GM
        first asks about the table's rolls, not when the menu is built)."""
        from afdesk.gui.table.rolls import gate_for

        return gate_for(self.doc)

    def _sync_next_menu(self) -> None:
        choice = self._gate().next_choice
        for act in self.next_group.actions():
            act.setChecked(act.data() == choice)

    def _next_choice(self, key: str) -> None:
        self._gate().next_choice = key
        self.window.show_message(f"The next check is {NEXT_CHECK_CHOICES[key]}")

    def _show_last(self) -> None:
        why = self._gate().show_last()
        if why:
            self.window.show_refusal(f"Not shown to the table: {why}")
        else:
            self.window.show_message("The last check is on the players' screen")

    def add(self, text: str, slot, shortcut: str | None = None, tip: str = "", menu=None):
        """An action of the Table menu (or of ``menu``, one of its submenus)."""
        return self._action(text, slot, shortcut, tip, menu)

    def _action(
        self, text: str, slot, shortcut: str | None = None, tip: str = "", menu=None
    ) -> QAction:
        act = QAction(text, self.window)
        if shortcut:
            act.setShortcut(QKeySequence(shortcut))
        if tip:
            act.setStatusTip(tip)
            act.setToolTip(tip)
        act.triggered.connect(slot)
        (menu or self.menu).addAction(act)
        return act

    @property
    def doc(self):
        return self.window.doc

    def _fog_tool_toggled(self, on: bool) -> None:
        self.window.map.set_tool("fog" if on else "move")
        screen = getattr(self, "screen", None)
        if on and screen is not None and screen.ping_act.isChecked():
            screen.ping_act.setChecked(False)

    def _fog_regions(self) -> None:
        from afdesk.gui.table.fog_regions import FogRegionsDialog

        dialog = FogRegionsDialog(self.doc, self.window.show_refusal, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        follow(self.window, dialog.close, now=False)  # it shows one document's fog
        dialog.show()
        self.regions_dialog = dialog

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
