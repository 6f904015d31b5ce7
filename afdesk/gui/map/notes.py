"""Notes on the map where the GM is looking: a refusal by the token that was refused, or
the facing offered after a move (E11); each stays until the GM's next action."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QGraphicsView, QLabel

STYLES = {
    "refusal": "background: #fff3f3; color: #8a0015; border: 2px solid #b00020;",
    "offer": "background: #fffbe6; color: #3d3000; border: 2px solid #c9a400;",
}


class MapNote(QLabel):
    """A label floating over the map's viewport beside a token."""

    def __init__(self, view: QGraphicsView, kind: str) -> None:
        super().__init__(view.viewport())
        self.view = view
        self.setObjectName(f"map-{kind}")
        self.setWordWrap(True)
        self.setStyleSheet(STYLES[kind] + " border-radius: 6px; padding: 6px; font-weight: bold;")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.hide()

    def show_by(self, text: str, cid: str, *, above: bool = False) -> None:
        """Show ``text`` below (or ``above``) the token of ``cid`` (the view's top left
        if it has none), kept inside the view."""
        view = self.view
        self.setText(text)
        self.setFixedWidth(min(380, max(160, view.viewport().width() - 16)))
        self.adjustSize()
        token = view.map_scene.tokens.get(cid)
        if token is not None:
            box = token.sceneBoundingRect()
            corner = box.topLeft() if above else box.bottomLeft()
            at = view.mapFromScene(corner)
            at = QPoint(at.x(), at.y() - self.height() - 6 if above else at.y() + 6)
        else:
            at = QPoint(8, 8)
        vp = view.viewport().rect()
        x = min(max(at.x(), 8), vp.width() - self.width() - 8)
        y = min(max(at.y(), 8), vp.height() - self.height() - 8)
        self.move(x, y)
        self.show()
        self.raise_()

    def shown_text(self) -> str:
        return self.text() if self.isVisible() else ""
