"""A word-wrapped label that works out its height for a text and a width once, and its
size hints once for a text.

Qt asks a word-wrapped ``QLabel`` its height for the dock's width several times in every
layout pass (the size hint, the minimum, the geometry), and the label lays its text out
anew each time: the Character dock showing another character asked its labels 80-350
times, for a dozen texts. A ``FitLabel`` keeps the heights it answered, for each text and
width, until its font, style or margins change: the next character shown in turn asks
again and measures nothing (a switch there and back with six states and three markers on
one side took 10-17 ms, now 7.7-7.9).

A new text also costs ``QLabel`` its size hints: three layouts of the text (at its
preferred width, on one line, at its narrowest word), and for rich text each of them
twice (the text is laid out again at the width it had). The Character dock and the
Reflex dock change texts at every turn, back to the ones of the character whose turn came
round again: the hints are kept for each text too (15% of a NextTurn's instructions at
the sample's eight characters, November 2026).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtWidgets import QLabel, QWidget

KEPT = 32
"""Heights kept, each for a text and a width, and hints, each for a text: the texts of the
characters shown in turn (the Character dock's title, facets, a state's row), the widths a
dock passes when dragged wider. More are measured again."""


class KeptLabel(QLabel):
    """A ``QLabel`` whose size hints for a text are measured once (again when its font,
    style sheet, margins or format change): a label whose text changes at every turn,
    back to texts it showed before (a character's grit, its name)."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        self._hints: dict[tuple, tuple[QSize, QSize]] = {}
        super().__init__(text, parent)

    def sizeHint(self) -> QSize:
        return QSize(self._kept_hints()[0])

    def minimumSizeHint(self) -> QSize:
        return QSize(self._kept_hints()[1])

    def _kept_hints(self) -> tuple[QSize, QSize]:
        """QLabel's size hint and minimum size hint for the text shown, measured once per
        text (and what else its measure reads that no event here reports); a label
        showing no text (a picture) is measured each time."""
        text = self.text()
        if not text or "&" in text:  # a picture; a mnemonic, measured as QLabel recalls
            return super().sizeHint(), super().minimumSizeHint()
        key = (text, *self._unreported())
        hints = self._hints.get(key)
        if hints is None:
            if len(self._hints) >= KEPT:
                self._hints.clear()
            # QLabel measures both at once; each is a copy (its own are overwritten)
            hints = self._hints[key] = (QSize(super().sizeHint()), QSize(super().minimumSizeHint()))
        return hints

    def _unreported(self) -> tuple:
        """What else QLabel's measure reads that no event or setter here reports: its
        answer is stretched to its minimum size, its preferred width bounded by its
        maximum, its text indented inside a frame. (Each read costs a layout's every ask
        a microsecond: the margin, the indent, word wrap and the format are followed
        through their setters below instead; Qt's property system, which afdesk does not
        use on labels, passes them by.)"""
        return (self.minimumSize(), self.maximumWidth(), self.alignment(), self.frameWidth())

    def _forget(self) -> None:
        self._hints.clear()

    def changeEvent(self, event: QEvent) -> None:
        # a font, style sheet or style of its own or from a parent: another measure
        self._forget()
        super().changeEvent(event)

    def setContentsMargins(self, *margins) -> None:
        self._forget()
        super().setContentsMargins(*margins)

    def setMargin(self, margin: int) -> None:
        self._forget()
        super().setMargin(margin)

    def setIndent(self, indent: int) -> None:
        self._forget()
        super().setIndent(indent)

    def setTextFormat(self, fmt) -> None:
        self._forget()
        super().setTextFormat(fmt)

    def setWordWrap(self, on: bool) -> None:
        self._forget()
        super().setWordWrap(on)


class FitLabel(KeptLabel):
    """A ``KeptLabel`` with word wrap on, whose height for a text and a width is also
    measured once."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        self._heights: dict[tuple, int] = {}
        super().__init__(text, parent)
        self.setWordWrap(True)

    def heightForWidth(self, width: int) -> int:
        text = self.text()  # set by setText, setNum or clear: asked, not assumed
        if not text or "&" in text:  # nothing to lay out (an empty label's height is set
            return super().heightForWidth(width)  # apart), or a mnemonic (see above)
        # what else QLabel's answer reads that no event or setter here reports (asked at
        # every layout: the fewest reads)
        key = (text, width, self.minimumSize(), self.alignment(), self.frameWidth())
        height = self._heights.get(key)
        if height is None:
            if len(self._heights) >= KEPT:
                self._heights.clear()
            height = self._heights[key] = super().heightForWidth(width)
        return height

    def _forget(self) -> None:
        self._heights.clear()
        super()._forget()
