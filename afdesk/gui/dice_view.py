"""Dice drawn as dice, from a roll record: check and Interference dice, explosions, retries,
dice added by Shifts, and cancelled dice struck through (R2-R4, R10)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from afdesk.rules.dice import Die, Pool, Roll

POOL_COLOURS = {
    Pool.CHECK: QColor("#f4f1e8"),
    Pool.OPPOSITION: QColor("#dfe9f7"),
    Pool.HELPER: QColor("#e4f2df"),
    Pool.INTERFERENCE: QColor("#3b3b3b"),
}
PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.22), (0.75, 0.22), (0.25, 0.5), (0.75, 0.5), (0.25, 0.78), (0.75, 0.78)],
}


def die_tooltip(die: Die) -> str:
    parts = [f"{die.face} ({die.pool.value})"]
    if die.face >= 4 and die.pool is not Pool.INTERFERENCE:
        parts.append("a Win")
    if die.exploded:
        parts.append("exploded: rolled an extra die")
    if die.from_explosion:
        parts.append("from an explosion")
    if die.retried_from is not None:
        parts.append(f"retried ({die.retry_reason}), was {die.retried_from}")
    if die.added_by:
        parts.append(f"added by {die.added_by}")
    if die.cancelled_by is not None:
        parts.append("cancelled by Interference")
    return "; ".join(parts)


class DiceView(QWidget):
    """One roll's dice in a row: pool dice, then a gap, then the Interference dice."""

    def __init__(self, parent: QWidget | None = None, size: int = 34) -> None:
        super().__init__(parent)
        self._roll: Roll | None = None
        self._spent: set[int] = set()
        self._size = size
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMouseTracking(True)

    def set_roll(self, roll: Roll | None) -> None:
        self._roll = roll
        self.updateGeometry()
        self.update()
        self.setToolTip(self._summary())

    def roll(self) -> Roll | None:
        return self._roll

    def _layout(self) -> list[tuple[QRectF, int, Die]]:
        if self._roll is None:
            return []
        s = self._size
        gap = s * 0.25
        x = 2.0
        out = []
        main = [(i, d) for i, d in enumerate(self._roll.dice) if d.pool is not Pool.INTERFERENCE]
        intf = [(i, d) for i, d in enumerate(self._roll.dice) if d.pool is Pool.INTERFERENCE]
        for i, d in main:
            out.append((QRectF(x, 4, s, s), i, d))
            x += s + gap
        if intf:
            x += s * 0.6
        for i, d in intf:
            out.append((QRectF(x, 4, s, s), i, d))
            x += s + gap
        return out

    def sizeHint(self) -> QSize:
        layout = self._layout()
        width = int(layout[-1][0].right() + 6) if layout else 60
        return QSize(width, self._size + 14)

    def minimumSizeHint(self) -> QSize:
        return QSize(60, self._size + 14)

    def _summary(self) -> str:
        if self._roll is None:
            return ""
        return "\n".join(die_tooltip(d) for d in self._roll.dice)

    def event(self, ev):
        if ev.type() == ev.Type.ToolTip:
            for rect, _i, die in self._layout():
                if rect.contains(QPointF(ev.pos())):
                    self.setToolTip(die_tooltip(die))
                    break
            else:
                self.setToolTip(self._summary())
        return super().event(ev)

    def paintEvent(self, _ev) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self._roll is None:
            p.setPen(self.palette().color(self.foregroundRole()))
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignVCenter, "  not rolled")
            return
        self._spent = {d.cancelled_by for d in self._roll.dice if d.cancelled_by is not None}
        for rect, i, die in self._layout():
            self._paint_die(p, rect, i, die)
        p.end()

    def _paint_die(self, p: QPainter, rect: QRectF, index: int, die: Die) -> None:
        fill = QColor(POOL_COLOURS.get(die.pool, QColor("#eeeeee")))
        dark = die.pool is Pool.INTERFERENCE
        spent = die.cancelled_by is not None or index in self._spent
        faded = die.face <= 3 or spent
        if faded:
            fill = fill.lighter(115) if dark else fill.darker(112)
        edge = QColor("#c08a00") if die.added_by else QColor("#222222")
        p.setPen(QPen(edge, 2.4 if die.added_by else 1.4))
        p.setBrush(fill)
        p.drawRoundedRect(rect, rect.width() * 0.18, rect.width() * 0.18)
        pip = QColor("#f5f5f5") if dark else QColor("#1d1d1d")
        if die.face >= 4 and not dark and die.cancelled_by is None:
            pip = QColor("#a01010") if die.face == 6 else QColor("#1d1d1d")
        if faded:
            # Faded by blending with the face, not by transparency: a pip drawn over the
            # strike must hide it (a cancelled 5 read as a 4).
            pip = _blend(pip, fill, 0.45)
        if spent:
            # The strike goes under the pips, so every pip still reads (R4).
            p.setPen(QPen(QColor("#d01010"), 2.6))
            p.drawLine(rect.topLeft() + QPointF(3, 3), rect.bottomRight() - QPointF(3, 3))
        p.setPen(QPen(fill, 1.6) if spent else Qt.PenStyle.NoPen)
        p.setBrush(pip)
        r = rect.width() * 0.085
        for fx, fy in PIPS.get(die.face, []):
            p.drawEllipse(
                QPointF(rect.x() + fx * rect.width(), rect.y() + fy * rect.height()), r, r
            )
        if die.exploded:
            p.setPen(QPen(QColor("#d24b00"), 2))
            p.drawText(
                QRectF(rect.right() - 9, rect.top() - 9, 14, 14),
                Qt.AlignmentFlag.AlignCenter,
                "✸",
            )
        if die.retried_from is not None:
            font = QFont(self.font())
            font.setPointSizeF(max(6.0, font.pointSizeF() * 0.75))
            p.setFont(font)
            p.setPen(QColor("#555555") if not dark else QColor("#dddddd"))
            p.drawText(
                QRectF(rect.x(), rect.bottom() - 1, rect.width(), 10),
                Qt.AlignmentFlag.AlignCenter,
                f"was {die.retried_from}",
            )


def _blend(a: QColor, b: QColor, t: float) -> QColor:
    """``a`` moved ``t`` of the way towards ``b``."""
    return QColor(
        round(a.red() + (b.red() - a.red()) * t),
        round(a.green() + (b.green() - a.green()) * t),
        round(a.blue() + (b.blue() - a.blue()) * t),
    )
