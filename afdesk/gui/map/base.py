"""The base of the map's items."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

CACHE = QGraphicsItem.CacheMode.DeviceCoordinateCache


class MapItem(QGraphicsRectItem):
    """A map item whose bounding rectangle lives in C++: a QGraphicsRectItem with no pen
    and no brush, painted by the subclass. Qt asks for bounding rectangles several times
    per item and frame; answering from Python costs milliseconds a frame with 1,000
    tokens. Subclasses implement ``paint`` and call :meth:`set_bounds` when they grow or
    shrink."""

    def __init__(self, cached: bool = True) -> None:
        super().__init__()
        self.setPen(Qt.PenStyle.NoPen)
        self.setBrush(Qt.BrushStyle.NoBrush)
        if cached:
            self.setCacheMode(CACHE)

    def set_bounds(self, rect: QRectF) -> None:
        """The rectangle the item paints in, in item coordinates."""
        if rect != self.rect():
            self.setRect(rect)
