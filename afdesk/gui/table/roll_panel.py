"""The roll shown on the players' screen: a panel over the map with who rolled
what, the dice drawn as the check dialog draws them (:class:`afdesk.gui.dice_view.DiceView`:
explosions, retries, cancelled dice struck through), the result and the verdict. It goes
after a few seconds (a timer, GUI only) or at the next action."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from afdesk.gui.dice_view import DiceView
from afdesk.gui.table.rolls import ShownRoll

GOOD, BAD = "#7ee081", "#ff8a80"


class RollPanel(QFrame):
    """The last public roll, floating over the lower middle of the players' map."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("rollPanel")
        self.setStyleSheet(
            "#rollPanel { background: rgba(12, 14, 18, 238); border: 3px solid #ffd54a;"
            " border-radius: 14px; }"
            " #rollPanel QLabel { color: #f4f4f4; background: transparent; }"
        )
        self.roll: ShownRoll | None = None
        self.shown_count = 0
        """How many rolls this panel has shown (tests read it)."""
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.clear)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(22, 14, 22, 16)
        self._layout.setSpacing(6)
        self.hide()

    def _scale(self) -> float:
        """Sizes follow the screen: a 1080p TV gets 1.0."""
        parent = self.parentWidget()
        return max(0.6, min(1.6, (parent.height() if parent else 1080) / 1080))

    def show_roll(self, roll: ShownRoll, seconds: int) -> None:
        """Show ``roll`` for ``seconds`` (or until :meth:`clear`)."""
        self.roll = roll
        self.shown_count += 1
        self._rebuild()
        self.place()
        self.show()
        self.raise_()
        self.timer.start(seconds * 1000)

    def clear(self) -> None:
        self.timer.stop()
        self.roll = None
        self.hide()

    def texts(self) -> list[str]:
        """Every word the panel shows (tests read it)."""
        return [label.text() for label in self.findChildren(QLabel) if label.text()]

    def _label(self, text: str, px: int, bold: bool = False, colour: str = "") -> QLabel:
        label = QLabel(text, self)
        style = f"font-size: {px}px;" + (" font-weight: bold;" if bold else "")
        if colour:
            style += f" color: {colour};"
        label.setStyleSheet(style)
        return label

    def _rebuild(self) -> None:
        while self._layout.count():
            item = self._layout.takeAt(0)
            widget = item.widget()
            if widget is not None:
                widget.deleteLater()
            elif item.layout() is not None:
                inner = item.layout()
                while inner.count():
                    w = inner.takeAt(0).widget()
                    if w is not None:
                        w.deleteLater()
        roll = self.roll
        if roll is None:
            return
        k = self._scale()
        big, mid = int(38 * k), int(28 * k)
        self._layout.addWidget(self._label(f"{roll.who} {roll.what}", big, bold=True))
        self._dice_row("", roll.roll, roll.d20, mid, k)
        for d in roll.defenses:
            self._dice_row(f"{d.who} {d.what}", d.roll, "", mid, k)
        result = roll.result
        for tail in (", succeeds", ", lands", ", stopped"):
            result = result.removesuffix(tail)
        text = (
            roll.verdict if result.lower() == roll.verdict.lower() else f"{roll.verdict}: {result}"
        )
        verdict = self._label(text, big, bold=True, colour=GOOD if roll.good else BAD)
        self._layout.addWidget(verdict)

    def _dice_row(self, label: str, dice, d20: str, px: int, k: float) -> None:
        row = QHBoxLayout()
        row.setSpacing(int(12 * k))
        if label:
            row.addWidget(self._label(label, px))
        if d20:
            row.addWidget(self._label(d20, px, bold=True))
        elif dice is not None:
            view = DiceView(self, size=int(60 * k))
            view.set_roll(dice)
            view.setMinimumWidth(view.sizeHint().width())
            row.addWidget(view)
        row.addStretch(1)
        self._layout.addLayout(row)

    def place(self) -> None:
        """The lower right corner of the map, clear of the strip."""
        parent = self.parentWidget()
        if parent is None:
            return
        self.adjustSize()
        area = getattr(parent, "map_area", lambda: parent.rect())()
        w = min(self.sizeHint().width(), area.width() - 40)
        h = self.sizeHint().height()
        x = area.right() - w - int(24 * self._scale())
        y = area.bottom() - h - int(24 * self._scale())
        self.setGeometry(x, max(area.y(), y), w, h)


__all__ = ["RollPanel"]
