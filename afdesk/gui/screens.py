"""Fitting the window and its dialogs to the GM's screen (a 1280x720 laptop), and
the GM's documents folder.

:func:`available` is the one place that asks which part of the screen may be used; the
window opens inside it and every dialog is at most as tall, its content scrolling and its
action buttons always in view.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QAbstractScrollArea, QFrame, QScrollArea, QWidget

if TYPE_CHECKING:
    from PySide6.QtWidgets import QDialog

TITLE_BAR = 40
"""Room left for the window manager's title bar above a dialog or the window."""

FRAME = 8
"""Room left for the window's frame at its sides."""

SMALL = QSize(1400, 820)
"""Below this available size the docks share space (tabs) and the log is short."""


_KEPT: dict[int, QScreen] = {}
"""The newest Python wrapper of each screen :func:`screen_of` handed out, by C++ address."""


def screen_of(widget: QWidget) -> QScreen | None:
    """``widget.screen()``, safe from the garbage collector: always ask for a widget's
    screen through here, never with ``widget.screen()`` (tests/gui/test_screen_of.py).

    PySide6 makes the QScreen wrapper that ``QWidget.screen()`` returns a child of the
    widget's wrapper. When that widget is freed by the cycle collector (most of afdesk's
    widgets are in a cycle through their connected slots) and nothing else holds the
    wrapper, shiboken deletes the application's QScreen with it; the next widget that asks
    for its screen (a polish, a font change) then crashes, in whatever code happens to run
    after that collection. Held here, the wrapper is only invalidated with the widget and
    the screen lives on."""
    screen = widget.screen()
    if screen is not None:
        _KEPT[shiboken6.getCppPointer(screen)[0]] = screen
    return screen


def available(widget: QWidget | None = None) -> QRect:
    """The part of ``widget``'s screen (the primary one without it) that windows may use."""
    screen = screen_of(widget) if widget is not None else None
    screen = screen or QGuiApplication.primaryScreen()
    return screen.availableGeometry() if screen is not None else QRect(0, 0, 1280, 720)


def documents_folder() -> Path:
    """The GM's documents folder, where a first Save As starts (the home folder if the
    desktop names none)."""
    from PySide6.QtCore import QStandardPaths  # made when first used

    where = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(where) if where else Path.home()


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


def fit_window(window, right_docks: list, log_dock) -> None:
    """Open ``window`` at most as large as the screen's available part; on a small
    screen the ``right_docks`` share the right-hand side as tabs (the first in front) and
    the log is short, leaving the map the middle."""
    area = available(window)
    window.resize(min(1500, area.width() - FRAME), min(950, area.height() - TITLE_BAR))
    if is_small(area):
        first, *others = right_docks
        for dock in others:
            window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
            window.tabifyDockWidget(first, dock)
        first.raise_()
        window.resizeDocks([log_dock], [150], Qt.Orientation.Vertical)
        window.resizeDocks([first], [340], Qt.Orientation.Horizontal)


def clamp_window(window) -> None:
    """Shrink ``window`` (a layout saved on a larger screen) to the available part."""
    area = available(window)
    width, height = area.width() - FRAME, area.height() - TITLE_BAR
    if window.width() > width or window.height() > height:
        window.resize(min(window.width(), width), min(window.height(), height))


def _scroll_area_of(w: QWidget, top: QWidget) -> QScrollArea | None:
    """The scroll area between ``w`` and ``top`` that ``w`` scrolls in, if any."""
    p = w.parentWidget()
    while p is not None and p is not top:
        if isinstance(p, QScrollArea):
            return p
        p = p.parentWidget()
    return None


def reading_order(top: QWidget) -> list[QWidget]:
    """The widgets of ``top`` that Tab reaches (shown, enabled, taking Tab focus), in the
    order the eye reads them: rows from top to bottom, each from left to right (a widget
    whose middle lies within a row's first widget belongs to that row); a scroll area's
    content, in its own reading order, where the scroll area is."""

    def rect(w: QWidget) -> QRect:
        return QRect(w.mapTo(top, QPoint(0, 0)), w.size())

    found = [
        w
        for w in top.findChildren(QWidget)
        if w.isVisibleTo(top)
        and _scroll_area_of(w, top) is None
        and (
            (isinstance(w, QScrollArea) and w.widget() is not None)
            or (
                w.isEnabled()
                and w.focusPolicy() & Qt.FocusPolicy.TabFocus
                and w.focusProxy() is None
                and not isinstance(w, QAbstractScrollArea)
            )
        )
    ]
    found.sort(key=lambda w: rect(w).center().y())
    rows: list[tuple[QRect, list[QWidget]]] = []
    for w in found:
        middle = rect(w).center().y()
        if rows and rows[-1][0].top() <= middle <= rows[-1][0].bottom():
            rows[-1][1].append(w)
        else:
            rows.append((rect(w), [w]))
    out: list[QWidget] = []
    for _row, ws in rows:
        for w in sorted(ws, key=lambda w: rect(w).x()):
            if isinstance(w, QScrollArea):
                if w.isEnabled() and w.focusPolicy() & Qt.FocusPolicy.TabFocus:
                    out.append(w)  # itself first: the keys then scroll it
                out += reading_order(w.widget())
            else:
                out.append(w)
    return out


def follow_reading_order(top: QWidget) -> None:
    """Make Tab in ``top`` follow :func:`reading_order` (widgets made after the others, as
    a rebuilt panel's, would otherwise come last)."""
    chain = reading_order(top)
    for before, after in itertools.pairwise(chain):
        QWidget.setTabOrder(before, after)
