"""Pieces of the table's screen: the hold card the players see while the GM
rearranges, the ping that pulses an area on the TV, and the frame on the GM's map that
shows what the TV shows."""

from __future__ import annotations

from PySide6.QtCore import QEasingCurve, QRectF, Qt, QVariantAnimation
from PySide6.QtGui import QColor, QFont, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPolygonItem, QGraphicsRectItem, QWidget

from afdesk.gui import mapgeom
from afdesk.gui.table.settings import HOLDS


class HoldCard(QWidget):
    """What the players see on Hold: the encounter's name on a dark card, or black."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("holdCard")
        self.kind = "black"
        self.title = ""

    def set_card(self, kind: str, title: str) -> None:
        self.kind, self.title = kind, title
        self.update()

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("#000000"))
        if self.kind != "title":
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        h = self.height()
        f = QFont(self.font())
        f.setBold(True)
        f.setPixelSize(max(24, int(h * 0.08)))
        p.setFont(f)
        p.setPen(QColor("#f2e6c8"))
        box = QRectF(self.rect()).adjusted(40, 0, -40, -h * 0.1)
        flags = Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap
        p.drawText(box, flags, self.title)
        f.setBold(False)
        f.setPixelSize(max(14, int(h * 0.035)))
        p.setFont(f)
        p.setPen(QColor("#9aa3ad"))
        below = QRectF(self.rect()).adjusted(40, h * 0.6, -40, 0)
        p.drawText(below, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, "a moment…")


class PingItem(QGraphicsRectItem):
    """An area pulsing three times on the players' map, then gone (a GUI animation)."""

    PULSES = 3
    MS = 1800

    def __init__(self, area) -> None:
        x, y, w, h = mapgeom.area_rect(area)
        super().__init__(QRectF(x, y, w, h))
        self.area = tuple(area)
        self.setZValue(25.0)  # above the fog and the tokens, under the legend
        self.setPen(Qt.PenStyle.NoPen)
        self.phase = 0.0
        self.animation = QVariantAnimation()
        self.animation.setStartValue(0.0)
        self.animation.setEndValue(float(self.PULSES))
        self.animation.setDuration(self.MS)
        self.animation.setEasingCurve(QEasingCurve.Type.Linear)
        self.animation.valueChanged.connect(self._step)
        self.animation.finished.connect(self._done)

    def start(self) -> None:
        self.animation.start()

    def _step(self, value) -> None:
        self.phase = float(value) % 1.0
        self.update()

    def _done(self) -> None:
        scene = self.scene()
        if scene is not None:
            scene.removeItem(self)

    def boundingRect(self) -> QRectF:
        grow = mapgeom.AREA * 0.6
        return self.rect().adjusted(-grow, -grow, grow, grow)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        grow = mapgeom.AREA * 0.55 * self.phase
        alpha = int(255 * (1.0 - self.phase))
        ring = QColor(255, 213, 74, alpha)
        painter.setPen(QPen(ring, 8))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(self.rect().adjusted(-grow, -grow, grow, grow))
        painter.setPen(QPen(QColor("#ffd54a"), 5))
        painter.setBrush(QColor(255, 213, 74, 90))
        painter.drawRect(self.rect().adjusted(4, 4, -4, -4))


class TvFrameItem(QGraphicsPolygonItem):
    """On the GM's map: the outline of what the players' screen shows now."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(28.0)
        pen = QPen(QColor("#ffd54a"), 3, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)  # the same width at any zoom
        self.setPen(pen)
        self.setBrush(Qt.BrushStyle.NoBrush)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, False)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setToolTip("What the players' screen shows")

    def sync(self, polygon: QPolygonF | None) -> None:
        if polygon is None or polygon.isEmpty():
            self.setVisible(False)
            return
        if polygon != self.polygon():
            self.setPolygon(polygon)
        self.setVisible(True)


__all__ = ["HOLDS", "HoldCard", "PingItem", "TvFrameItem"]
