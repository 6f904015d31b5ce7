"""Fitting the window and its dialogs to the GM's screen (issue 12: a 1280x720 laptop).

:func:`available` is the one place that asks which part of the screen may be used; the
window opens inside it and every dialog is at most as tall, its content scrolling and its
action buttons always in view.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QFrame, QScrollArea, QWidget

TITLE_BAR = 40
"""Room left for the window manager's title bar above a dialog or the window."""

FRAME = 8
"""Room left for the window's frame at its sides."""

SMALL = QSize(1400, 820)
"""Below this available size the docks share space (tabs) and the log is short."""


def available(widget: QWidget | None = None) -> QRect:
    """The part of ``widget``'s screen (the primary one without it) that windows may use."""
    screen = widget.screen() if widget is not None else None
    screen = screen or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1280, 720)


def is_small(area: QRect) -> bool:
    return area.width() < SMALL.width() or area.height() < SMALL.height()


def scrolled(content: QWidget) -> QScrollArea:
    """``content`` in a frameless vertical scroll area that never scrolls sideways."""
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setWidget(content)
    return area


def fit_dialog(dialog: QDialog, area: QRect | None = None) -> None:
    """Size ``dialog`` to its content, at most as tall and wide as ``area`` (the screen's
    available part) allows, and keep it inside it."""
    area = area if area is not None else available(dialog.parentWidget() or dialog)
    hint = dialog.sizeHint()
    scroll = dialog.findChild(QScrollArea, "dialogScroll")
    if scroll is not None and scroll.widget() is not None:
        # Qt caps a scroll area's own size hint: ask for the whole content instead.
        content = scroll.widget().sizeHint()
        hint.setHeight(hint.height() - scroll.sizeHint().height() + content.height() + 4)
        hint.setWidth(max(hint.width(), content.width() + 24))
    limit = area.height() - TITLE_BAR
    dialog.setMaximumHeight(limit)
    dialog.resize(
        min(max(hint.width(), dialog.minimumWidth()), area.width()), min(hint.height(), limit)
    )
