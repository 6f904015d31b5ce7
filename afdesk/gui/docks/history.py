"""The Undo history dock's list follows the document's undo stack only while the dock can
be seen: a QUndoView attached to a stack lays all its rows out again on every
step, tucked behind another tab or not, so each action cost more the longer the session."""

from __future__ import annotations

from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QDockWidget, QUndoView


def follow(view: QUndoView, dock: QDockWidget, stack: QUndoStack) -> None:
    """Show ``stack`` in ``view`` whenever ``dock`` is visible (from now on; the stack of
    an earlier call is forgotten), and no stack while it is hidden."""
    view._followed_stack = stack  # type: ignore[attr-defined]
    if not getattr(view, "_follows_dock", False):
        view._follows_dock = True  # type: ignore[attr-defined]
        dock.visibilityChanged.connect(lambda shown: _show(view, shown))
    _show(view, on_screen(dock))


def on_screen(dock: QDockWidget) -> bool:
    """Whether ``dock`` can be seen, as Qt's ``visibilityChanged`` tells it: shown, and not
    a tab behind another (those are moved off the window's area)."""
    box = dock.geometry()
    return dock.isVisible() and box.right() >= 0 and box.bottom() >= 0


def _show(view: QUndoView, shown: bool) -> None:
    stack = view._followed_stack if shown else None  # type: ignore[attr-defined]
    if view.stack() is not stack:
        view.setStack(stack)


__all__ = ["follow", "on_screen"]
