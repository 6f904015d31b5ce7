"""A countdown chase's fallen rows on the GM's map (H4): the rows the countdown die has
removed (:func:`afdesk.encounter.chase.countdown.fallen_rows`) hatched over, with a label,
while the encounter is a chase."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPen
from PySide6.QtWidgets import QGraphicsRectItem, QGraphicsSimpleTextItem

from afdesk.encounter.chase.countdown import fallen_rows
from afdesk.encounter.state import Mode
from afdesk.gui import mapgeom
from afdesk.gui.follow import Links


class FallenRows:
    """Keeps the hatched band of fallen rows on ``view``'s scene up to date."""

    def __init__(self, view) -> None:
        self.view = view
        self.doc = None
        self._links = Links()
        self.item: QGraphicsRectItem | None = None
        self.shown: tuple[int, int] | None = None
        """The rows drawn now (tests read it)."""

    def set_document(self, doc) -> None:
        self.doc = doc
        self.item = None  # the view's new scene holds none
        self._links.clear()
        for signal in (doc.chaseChanged, doc.zoneChanged, doc.modeChanged):
            self._links.connect(signal, self.sync)
        self.sync()

    def sync(self, *_args) -> None:
        enc = self.doc.encounter
        rows = fallen_rows(enc) if enc.mode is Mode.CHASE else None
        scene = self.view.map_scene
        if self.item is not None and self.item.scene() is not None:
            self.item.scene().removeItem(self.item)
        self.item = None
        self.shown = rows
        if rows is None:
            return
        c0, _r0, c1, _r1 = enc.zone.area_bounds()
        x, y, w, h = mapgeom.bounds_rect((c0, rows[0], c1, rows[1]))
        item = QGraphicsRectItem(QRectF(x, y, w, h))
        brush = QBrush(QColor(60, 20, 20, 150), Qt.BrushStyle.BDiagPattern)
        item.setBrush(brush)
        item.setPen(QPen(QColor("#8a0015"), 3, Qt.PenStyle.DashLine))
        item.setZValue(50)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        n = rows[1] - rows[0] + 1
        label = QGraphicsSimpleTextItem(
            f"Fallen away: {n} row{'s' if n > 1 else ''} (countdown, H4)", item
        )
        label.setBrush(QColor("#8a0015"))
        font = label.font()
        font.setPointSizeF(18)
        font.setBold(True)
        label.setFont(font)
        label.setPos(x + 8, y + 4)
        item.setToolTip("These rows of areas have fallen away (countdown die, H4)")
        scene.addItem(item)
        self.item = item
