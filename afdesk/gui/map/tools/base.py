"""The map tool interface: the view forwards its input to the active tool."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, Protocol

from PySide6.QtCore import QPoint, QPointF, Qt, SignalInstance
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QGraphicsItem, QWidget

from afdesk.encounter.op import Op
from afdesk.gui.map.selection import Selection


class ToolHost(Protocol):
    """What a tool may use of the view it works in (the map view is one). Tools know this
    interface, not the view's class: the view creates its tools, so a tool importing the
    view would tie the two in a circle."""

    doc: Any
    """The :class:`~afdesk.gui.document.EncounterDocument` on the map."""
    map_scene: Any
    """The view's :class:`~afdesk.gui.map.scene.MapScene`."""
    player: bool
    rng: random.Random | None
    statusMessage: SignalInstance

    def viewport(self) -> QWidget: ...
    def items(self, pos: QPoint) -> list[QGraphicsItem]: ...
    def mapFromScene(self, pos: QPointF) -> QPoint: ...
    def tool(self, name: str) -> MapTool: ...
    def select(self, sel: Selection) -> None: ...
    def pan_by(self, dx: int, dy: int) -> None: ...
    def push(
        self,
        ops: Iterable[Op],
        text: str | None = None,
        hint: str = "",
        merge_key: str | None = None,
    ) -> bool: ...
    def refuse(self, reason: str, hint: str = "") -> None: ...


OVERRIDE = Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.ControlModifier


def is_override(modifiers) -> bool:
    """Shift (or Ctrl) held: the GM overrides the rules explicitly."""
    return bool(modifiers & OVERRIDE)


class MapTool:
    """One way of reading the GM's input on the map. While it is the view's active tool it
    receives every press, move (with or without a button: hover), release and key the view
    does not keep for itself (zoom, Tab); a handler returns True when it used the event.
    A tool may lend one gesture to another (the move tool lends a press on the facing knob
    to the facing tool) by forwarding that gesture's events."""

    name = ""
    """How the view knows it (``MapView.tool(name)``)."""
    cursor: Qt.CursorShape | None = None
    """The viewport's cursor while the tool is active (None: the default arrow)."""

    def __init__(self, view: ToolHost) -> None:
        self.view = view

    @property
    def doc(self):
        return self.view.doc

    @property
    def scene(self):
        return self.view.map_scene

    def activate(self) -> None:
        """The tool becomes active."""
        if self.cursor is not None:
            self.view.viewport().setCursor(self.cursor)

    def deactivate(self) -> None:
        """Another tool takes over: drop any gesture under way."""
        self.cancel()
        if self.cursor is not None:
            self.view.viewport().unsetCursor()

    def mouse_pressed(self, event: QMouseEvent, pos: QPointF) -> bool:
        return False

    def mouse_moved(self, event: QMouseEvent, pos: QPointF) -> bool:
        return False

    def mouse_released(self, event: QMouseEvent, pos: QPointF) -> bool:
        return False

    def key_pressed(self, event: QKeyEvent) -> bool:
        return False

    def cancel(self) -> bool:
        """Escape: drop the gesture under way; False if there was none."""
        return False
