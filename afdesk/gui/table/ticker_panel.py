"""The event ticker on the players' screen: the last few things that happened (moves, hits,
down and out, reinforcements, mode changes, the end of an exchange; the words are
:mod:`afdesk.encounter.ticker`'s), in the lower left of the map, each line fading out
after some seconds.

Time comes from an injectable clock and lines go in :meth:`TickerPanel.expire`, which a
GUI timer calls; tests call it with their own clock and never wait.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QFrame, QLabel, QVBoxLayout, QWidget

from afdesk.encounter.ticker import TickerLine

MAX_LINES = 4
"""How many lines show at once: the oldest goes first."""

FADE = 1.5
"""A line fades out over its last this many seconds."""

TICK_MS = 100
"""How often the timer asks for the fading and the expiry while lines show."""

TEXT = (244, 244, 244)


class TickerPanel(QFrame):
    """The ticker floating over the players' map (see the module)."""

    def __init__(
        self, parent: QWidget, seconds: float = 8.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__(parent)
        self.setObjectName("tickerPanel")
        self.setStyleSheet(
            "#tickerPanel { background: rgba(12, 14, 18, 215); border-radius: 10px; }"
        )
        self.seconds = seconds
        """How long a line stays (the last :data:`FADE` of them fading)."""
        self.clock = clock
        self.lines: list[tuple[TickerLine, float]] = []
        """What shows, oldest first, each with when it came."""
        self._labels: list[QLabel] = []
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(16, 8, 16, 10)
        self._layout.setSpacing(2)
        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self.expire)
        self.hide()

    def texts(self) -> list[str]:
        """The lines showing, oldest first (tests read it)."""
        return [line.text for line, _at in self.lines]

    def add(self, lines: Iterable[TickerLine]) -> None:
        """Show ``lines`` (one action's), keeping the newest :data:`MAX_LINES`."""
        now = self.clock()
        self.lines = [*self.lines, *((line, now) for line in lines)][-MAX_LINES:]
        self._sync(now)

    def clear(self) -> None:
        self.lines = []
        self._sync(self.clock())

    def expire(self, now: float | None = None) -> None:
        """Drop the lines older than :attr:`seconds` and fade those about to go."""
        now = self.clock() if now is None else now
        self.lines = [(line, at) for line, at in self.lines if now - at < self.seconds]
        self._sync(now)

    def opacity(self, at: float, now: float) -> float:
        """1 for a fresh line, falling to 0 over its last :data:`FADE` seconds."""
        left = self.seconds - (now - at)
        return max(0.0, min(1.0, left / FADE))

    def _scale(self) -> float:
        parent = self.parentWidget()
        return max(0.6, min(1.6, (parent.height() if parent else 1080) / 1080))

    def _sync(self, now: float) -> None:
        while len(self._labels) < len(self.lines):
            label = QLabel(self)
            label.setObjectName("tickerLine")
            label.setWordWrap(True)  # a long line wraps rather than runs off
            self._layout.addWidget(label)
            self._labels.append(label)
        px = int(26 * self._scale())
        for i, label in enumerate(self._labels):
            if i >= len(self.lines):
                label.hide()
                continue
            line, at = self.lines[i]
            alpha = int(255 * self.opacity(at, now))
            r, g, b = TEXT
            label.setText(line.text)
            sheet = (
                f"font-size: {px}px; background: transparent; color: rgba({r}, {g}, {b}, {alpha});"
            )
            if label.styleSheet() != sheet:  # a new sheet polishes the label again: costly
                label.setStyleSheet(sheet)
            label.ensurePolished()  # its font as the style sheet sets it, for place()
            label.show()
        if not self.lines:
            self.timer.stop()
            self.hide()
            return
        if not self.timer.isActive():
            self.timer.start()
        self.place()
        self.show()
        self.raise_()

    def place(self) -> None:
        """The lower left corner of the map, clear of the strip and the roll panel."""
        parent = self.parentWidget()
        if parent is None:
            return
        area = getattr(parent, "map_area", lambda: parent.rect())()
        margin = int(20 * self._scale())
        widest = max(
            (
                label.fontMetrics().horizontalAdvance(label.text())
                for label in self._labels
                if label.isVisibleTo(self)
            ),
            default=0,
        )
        m = self._layout.contentsMargins()
        w = min(widest + m.left() + m.right() + 4, area.width() // 2)
        h = self.heightForWidth(w) if self.hasHeightForWidth() else self.sizeHint().height()
        self.setGeometry(area.x() + margin, max(area.y(), area.bottom() - h - margin), w, h)


__all__ = ["FADE", "MAX_LINES", "TickerPanel"]
