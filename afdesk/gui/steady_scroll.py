"""A scroll area's page that keeps its height while it shows one content after another.

The Character dock shows another character at each turn. When its page is taller than
the dock, a page that followed each character's height was resized at every turn, and a
resized page is painted again whole (every group box, button and wrapped label), its scroll
bar too: a character with a few states cost three times one whose page fit. Here the page
grows to the tallest content it has shown and keeps that height, the spare room blank at
its foot (where the page's stretch is), until the area's width changes (the labels wrap
anew) or :meth:`SteadyHeight.reset` is called (another document): only what changed is
painted. A change of the area's height alone (the decisions bar above the map showing or
going) keeps the page as it is."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QScrollArea


class SteadyHeight(QObject):
    """Keeps ``area``'s page (its widget, resizable) from shrinking back."""

    def __init__(self, area: QScrollArea) -> None:
        super().__init__(area)
        self._area = area
        area.widget().installEventFilter(self)

    def reset(self) -> None:
        """Let the page take its content's height again."""
        self._area.widget().setMinimumHeight(0)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            page = self._area.widget()
            if event.size().width() != event.oldSize().width():
                # The labels wrap anew: the page takes its content's height at this
                # width. (The page's width, not the area's: a scroll bar coming or going
                # leaves a page held wider than the area as it was.)
                self.reset()
            elif page.height() > page.minimumHeight():
                page.setMinimumHeight(page.height())
        return False


__all__ = ["SteadyHeight"]
