"""A word-wrapped label that works out its height for a text and a width once.

Qt asks a word-wrapped ``QLabel`` its height for the dock's width several times in every
layout pass (the size hint, the minimum, the geometry), and the label lays its text out
anew each time: the Character dock showing another character asked its labels 80-350
times, for a dozen texts. A ``FitLabel`` keeps the heights it answered, for each text and
width, until its font, style or margins change: the next character shown in turn asks
again and measures nothing (a switch there and back with six states and three markers on
one side took 10-17 ms, now 7.7-7.9).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QLabel, QWidget

KEPT = 32
"""Heights kept, each for a text and a width: the texts of the characters shown in turn
(the Character dock's title, facets, a state's row), the widths a dock passes when dragged
wider. More are measured again."""


class FitLabel(QLabel):
    """A ``QLabel`` with word wrap on, whose height for a text and a width is measured once
    (again when its font, style sheet or margins change)."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self._heights: dict[tuple, int] = {}
        self.setWordWrap(True)

    def heightForWidth(self, width: int) -> int:
        text = self.text()  # set by setText, setNum or clear: asked, not assumed
        if not text:  # nothing to lay out (and an empty label's height is set apart)
            return super().heightForWidth(width)
        # what else QLabel's answer reads that no event or setter here reports
        key = (text, width, self.minimumWidth(), self.alignment())
        height = self._heights.get(key)
        if height is None:
            if len(self._heights) >= KEPT:
                self._heights.clear()
            height = self._heights[key] = super().heightForWidth(width)
        return height

    def changeEvent(self, event: QEvent) -> None:
        # a font, style sheet or style of its own or from a parent: another height
        self._heights.clear()
        super().changeEvent(event)

    def setContentsMargins(self, *margins) -> None:
        self._heights.clear()
        super().setContentsMargins(*margins)

    def setMargin(self, margin: int) -> None:
        self._heights.clear()
        super().setMargin(margin)

    def setIndent(self, indent: int) -> None:
        self._heights.clear()
        super().setIndent(indent)

    def setTextFormat(self, fmt) -> None:
        self._heights.clear()
        super().setTextFormat(fmt)

    def setWordWrap(self, on: bool) -> None:
        self._heights.clear()
        super().setWordWrap(on)
