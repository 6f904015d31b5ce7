"""The pan tool: drag the map (Alt and the left button on empty ground lend it the move
tool's press; the middle button pans with any tool)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent

from afdesk.gui.map.tools.base import MapTool


class PanTool(MapTool):
    """Drag to pan. :attr:`moved` tells whoever lent the press whether it became a pan
    (a click on empty ground without moving clears the GM's selection)."""

    name = "pan"

    def __init__(self, view) -> None:
        super().__init__(view)
        self._last: QPoint | None = None
        self.moved = False

    def mouse_pressed(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() not in (Qt.MouseButton.LeftButton, Qt.MouseButton.MiddleButton):
            return False
        self._last = event.position().toPoint()
        self.moved = event.button() == Qt.MouseButton.MiddleButton
        return True

    def mouse_moved(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._last is None:
            return False
        point = event.position().toPoint()
        delta = point - self._last
        if delta.manhattanLength() > 0:
            self.view.pan_by(delta.x(), delta.y())
            self._last = point
            self.moved = True
        return True

    def mouse_released(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._last is None:
            return False
        self._last = None
        return True

    def panning(self) -> bool:
        return self._last is not None

    def cancel(self) -> bool:
        """A pan stops; there is nothing to take back, so Escape goes on (deselects)."""
        self._last = None
        return False
