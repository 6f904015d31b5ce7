"""The Undo history dock: "Opened", then every step the GM can undo or redo, the current
one selected; clicking a row undoes or redoes to it.

Qt's QUndoView resets its whole model at every step, and its list then lays all its rows
out again: with the history at its bound (UNDO_LIMIT, 1,000 steps) each GM action cost
about 6 ms more while the dock was on screen, half again the action's own time in the third
hour. :class:`StepList` follows the stack one change at a time instead (a step added, the
oldest forgotten, the redo steps dropped, the current step moved), and the list's rows all
have one height, so an action costs the same whatever the history holds. The list also
follows the stack only while the dock can be seen."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, QStringListModel, Qt, Signal
from PySide6.QtGui import QPalette, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QListView,
    QStyledItemDelegate,
    QWidget,
)
from shiboken6 import Shiboken

_LOOK_FOR_OLDEST = 8
"""How far the list looks for the stack's oldest step among its own rows after the stack
forgot steps (one per step pushed at the bound); past that its rows are all replaced."""


class StepList(QStringListModel):
    """The rows of an undo stack: the empty label, then each step's text. A model Qt keeps
    (a list view asks a model's row count thousands of times as its selection moves:
    answered in Python, that cost more than QUndoView's resets)."""

    followed = Signal()
    """The rows follow the stack again (after each of its changes)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._stack: QUndoStack | None = None
        self._steps: list[object] = []
        """The stack's commands, oldest first (the objects: a step is known by identity)."""
        self.empty_label = ""
        self.following = False
        """True while the rows follow the stack: a current row the view moves meanwhile
        (its row removed) is not the GM choosing a step."""

    def stack(self) -> QUndoStack | None:
        return self._stack

    def set_stack(self, stack: QUndoStack | None) -> None:
        if stack is self._stack:
            return
        if self._stack is not None:
            self._stack.indexChanged.disconnect(self._follow)
            self._stack.destroyed.disconnect(self._gone)
        self._stack = stack
        if stack is not None:
            stack.indexChanged.connect(self._follow)
            stack.destroyed.connect(self._gone)
        self._read_all()

    def current(self) -> int:
        """The row of the current step (0: "Opened", nothing done)."""
        stack = self._stack
        return stack.index() if stack is not None and Shiboken.isValid(stack) else 0

    def _gone(self) -> None:
        self._stack = None
        self._read_all()

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        """Chosen, never edited (a double-click goes to a step, as in QUndoView)."""
        return super().flags(index) & ~Qt.ItemFlag.ItemIsEditable

    def _read_all(self) -> None:
        self._following(self._read)

    def _read(self) -> None:
        stack = self._stack
        n = stack.count() if stack is not None else 0
        self._steps = [stack.command(i) for i in range(n)] if stack is not None else []
        texts = [stack.text(i) for i in range(n)] if stack is not None else []
        self.setStringList([self.empty_label, *texts] if stack is not None else [])

    def _follow(self, _index: int = 0) -> None:
        """The stack changed: the rows that changed, and no others, follow it."""
        self._following(self._follow_rows)

    def _following(self, change) -> None:
        """Make ``change`` to the rows, :attr:`following` meanwhile; then say so."""
        self.following = True
        try:
            change()
        finally:
            self.following = False
        self.followed.emit()

    def _follow_rows(self) -> None:
        stack = self._stack
        if stack is None:
            return
        if not Shiboken.isValid(stack):  # a stack being destroyed clears itself first
            self._stack = None
            self._read()
            return
        n = stack.count()
        steps = self._steps
        first = stack.command(0) if n else None
        gone = next((k for k, s in enumerate(steps[:_LOOK_FOR_OLDEST]) if s is first), 0)
        if gone:  # the oldest steps forgotten at the bound
            self.removeRows(1, gone)
            del steps[:gone]
        # The steps both hold, oldest first: the stack changes only at its two ends, so a
        # step at the same place in both has all those before it in common too (none in
        # common when every step was dropped, or more forgotten than looked for).
        same = min(len(steps), n)
        while same and stack.command(same - 1) is not steps[same - 1]:
            same -= 1
        if same < len(steps):  # redo steps dropped by a new step
            self.removeRows(same + 1, len(steps) - same)
            del steps[same:]
        if n > same:  # the new steps
            self.insertRows(same + 1, n - same)
            for i in range(same, n):
                steps.append(stack.command(i))
                self.setData(self.index(i + 1), stack.text(i))
        if same:  # a step merged into the last one it kept changes its text
            at = self.index(same)
            text = stack.text(same - 1)
            if at.data() != text:
                self.setData(at, text)


class _RedoDimmed(QStyledItemDelegate):
    """The steps past the current one (those redo would do again) in the palette's
    disabled text colour, as an editor greys what undo took back."""

    def __init__(self, steps: StepList, parent: QObject) -> None:
        super().__init__(parent)
        self._steps = steps

    def initStyleOption(self, option, index) -> None:
        super().initStyleOption(option, index)
        if index.row() > self._steps.current():
            colour = option.palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
            option.palette.setColor(QPalette.ColorRole.Text, colour)


class UndoList(QListView):
    """The Undo history's list: a :class:`StepList` shown, its current step selected;
    choosing a row sets the stack's index (undoes or redoes to that step), as QUndoView
    does."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._steps = StepList(self)
        self.setModel(self._steps)
        self.setItemDelegate(_RedoDimmed(self._steps, self))
        self.setUniformItemSizes(True)  # the rows laid out by arithmetic, not one by one
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(False)
        self._steps.followed.connect(self._select_current)
        self.selectionModel().currentRowChanged.connect(self._chosen)
        self._selecting = False

    def stack(self) -> QUndoStack | None:
        return self._steps.stack()

    def setStack(self, stack: QUndoStack | None) -> None:
        self._steps.set_stack(stack)

    def setEmptyLabel(self, label: str) -> None:
        self._steps.empty_label = label

    def _select_current(self, *_args) -> None:
        if self._steps.stack() is None:
            return
        index = self._steps.index(self._steps.current())
        if index == self.currentIndex() and self.selectionModel().isSelected(index):
            return
        self._selecting = True
        try:
            self.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect
            )
        finally:
            self._selecting = False
        self.scrollTo(index)
        self.viewport().update()  # the rows undone or redone between: dimmed or not

    def _chosen(self, current: QModelIndex, _previous: QModelIndex) -> None:
        stack = self._steps.stack()
        if self._selecting or self._steps.following or stack is None or not current.isValid():
            return
        if current.row() != stack.index():
            stack.setIndex(current.row())


def follow(view: UndoList, dock: QDockWidget, stack: QUndoStack) -> None:
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


def _show(view: UndoList, shown: bool) -> None:
    stack = view._followed_stack if shown else None  # type: ignore[attr-defined]
    if view.stack() is not stack:
        view.setStack(stack)


__all__ = ["StepList", "UndoList", "follow", "on_screen"]
