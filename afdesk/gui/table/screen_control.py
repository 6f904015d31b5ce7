"""Screen control from the GM's window: Hold, Follow, Push, the frame on the
GM's map showing what the TV shows, turning the players' view, real size and the ping.

Everything here is about the players' window (``window.player_window``), which opens when
the GM first asks for any of it. None of it changes the encounter: these are views, not
Ops (the fog is the encounter's and goes through the document).
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, QTimer
from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import QMenu

from afdesk.gui.follow import follow
from afdesk.gui.table.fog_tool import PingTool
from afdesk.gui.table.settings import HOLDS, ROTATIONS

if TYPE_CHECKING:  # made, and imported, when the players' screen first shows the map
    from afdesk.gui.table.screen import TvFrameItem


class ScreenControl:
    """The "Players' screen" submenu and what it drives (kept on ``TableControl``)."""

    def __init__(self, table, menu: QMenu) -> None:
        self.table = table
        self.window = table.window
        self.following = False
        self.frame: TvFrameItem | None = None
        self._frame_scene = None
        self._camera = None
        self._follow_timer = QTimer()
        self._follow_timer.setSingleShot(True)
        self._follow_timer.setInterval(0)  # one push per event-loop turn: no flicker
        self._follow_timer.timeout.connect(self.push)
        self.window.map.add_tool(PingTool(self.window.map, self.ping))
        hold = menu.addMenu("&Hold")
        self.hold_group = QActionGroup(hold)
        for kind, words in HOLDS.items():
            act = hold.addAction(f"Show {words}")
            act.setCheckable(True)
            act.setChecked(kind == "")
            act.setData(kind)
            self.hold_group.addAction(act)
            act.triggered.connect(lambda _c=False, k=kind: self.hold(k))
        self.follow_act = table.add(
            "&Follow my map",
            self.set_follow,
            "Ctrl+Shift+F",
            "The players' screen pans and zooms with the GM's map",
            menu=menu,
        )
        self.follow_act.setCheckable(True)
        table.add(
            "&Push my view",
            self.push,
            "Ctrl+Shift+P",
            "Send what the GM's map shows to the players' screen, once",
            menu=menu,
        )
        table.add("Show the &whole map", self.fit, tip="The players see the whole map", menu=menu)
        turn = menu.addMenu("&Turn the players' view")
        self.turn_group = QActionGroup(turn)
        for degrees in ROTATIONS:
            act = turn.addAction(f"{degrees}°")
            act.setCheckable(True)
            act.setChecked(degrees == 0)
            self.turn_group.addAction(act)
            act.triggered.connect(lambda _c=False, d=degrees: self.turn(d))
        table.add(
            "&Real size…",
            self.real_size,
            tip="One area as one inch or 25 mm on the TV, for miniatures",
            menu=menu,
        )
        self.ping_act = table.add(
            "P&ing tool",
            self._ping_tool,
            "Ctrl+Shift+I",
            "Click an area on the map: it pulses on the players' screen",
            menu=menu,
        )
        self.ping_act.setCheckable(True)
        follow(self.window, self._document_changed)

    # ------------------------------------------------------------ the player window

    def player(self, open_it: bool = True):
        """The players' window (opened if ``open_it`` and not open yet)."""
        pw = getattr(self.window, "player_window", None)
        if (pw is None or not pw.isVisible()) and open_it:
            self.window.show_player_view()
            pw = self.window.player_window
        if pw is not None and pw.camera is not self._camera:
            self._camera = pw.camera
            pw.camera.changed.connect(self.sync_frame)
            pw.shownChanged.connect(self.sync_frame)
        return pw

    def gm_rect(self) -> QRectF:
        """What the GM's map shows now, in scene coordinates."""
        view = self.window.map
        return view.mapToScene(view.viewport().rect()).boundingRect()

    # -------------------------------------------------------------------- commands

    def hold(self, kind: str) -> None:
        self.player().hold(kind)
        for act in self.hold_group.actions():
            act.setChecked(act.data() == kind)
        self.sync_frame()
        self.window.show_message(f"The players' screen shows {HOLDS[kind]}")

    def push(self) -> None:
        """Send the GM's current view to the players' screen, once."""
        self.player().camera.show_rect(self.gm_rect())

    def fit(self) -> None:
        self.player().camera.fit()

    def set_follow(self, on: bool) -> None:
        self.following = bool(on)
        view = self.window.map
        signals = [
            view.horizontalScrollBar().valueChanged,
            view.verticalScrollBar().valueChanged,
            view.horizontalScrollBar().rangeChanged,
            view.verticalScrollBar().rangeChanged,
        ]
        for signal in signals:
            if on:
                signal.connect(self._follow_timer.start)
            else:
                with contextlib.suppress(RuntimeError, TypeError):
                    signal.disconnect(self._follow_timer.start)
        if self.follow_act.isChecked() != self.following:
            self.follow_act.setChecked(self.following)
        if on:
            self.push()

    def turn(self, degrees: int) -> None:
        self.player().camera.set_rotation(degrees)

    def ping(self, area) -> None:
        self.player().ping(area)

    def _ping_tool(self, on: bool) -> None:
        self.window.map.set_tool("ping" if on else "move")
        if on and self.table.fog_tool.isChecked():
            self.table.fog_tool.setChecked(False)

    def real_size(self) -> None:
        from afdesk.gui.table.realsize_dialog import RealSizeDialog

        pw = self.player()
        RealSizeDialog(pw, self.window).exec()

    # ------------------------------------------------------------------ the frame

    def _document_changed(self, *_args) -> None:
        """The GM's map has a new scene: the frame goes onto it (once there is something
        to draw)."""
        self.sync_frame()

    def _frame(self, make: bool) -> TvFrameItem | None:
        """The frame on the GM's map's current scene; made (``make``) when the players'
        screen first shows the map: until then there is nothing to draw, and its module
        (the ping's animation with it) is not imported."""
        scene = self.window.map.map_scene
        if scene is not self._frame_scene:
            # The old scene goes with its items: a new frame for the new one.
            self.frame = None
            self._frame_scene = scene
        if self.frame is None and make:
            from afdesk.gui.table.screen import TvFrameItem

            self.frame = TvFrameItem()
            self.frame.setVisible(False)
            scene.addItem(self.frame)
        return self.frame

    def sync_frame(self) -> None:
        """Draw on the GM's map what the players' screen shows (nothing if it is closed
        or holding)."""
        pw = self.player(open_it=False)
        shown = pw is not None and pw.isVisible() and not pw.held
        frame = self._frame(make=shown)
        if frame is None:
            return
        frame.sync(pw.camera.shown() if shown else None)


__all__ = ["ScreenControl"]
