"""The map's place in the window's first frame: the empty ground of the GM's map, drawn
before the model is imported (the map's own modules import it). The window puts the map
view (:class:`afdesk.gui.map.view.MapView`) there with the first encounter it shows."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QWidget

GROUND = "#1d2126"
"""The GM's map background (:data:`afdesk.gui.map.theme.GM`; a test holds them equal)."""


class BlankMap(QWidget):
    """The empty ground where the map will be; it takes the keyboard as the map does, and
    hands it to the map that replaces it (:meth:`MainWindow.map`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("blankMap")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, QColor(GROUND))
        self.setPalette(palette)
        self.setAutoFillBackground(True)
