"""The Undo history dock's list (afdesk.gui.docks.history): it shows exactly the undo stack,
row for row, through any mix of steps pushed, merged, undone, redone, dropped and forgotten
at the bound, and it follows the stack one change at a time (never reading it all again),
so a GM action costs the same with a thousand steps in the history as with one."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette, QUndoCommand, QUndoStack
from PySide6.QtWidgets import QStyleOptionViewItem

from afdesk.gui.docks.history import UndoList


class _Step(QUndoCommand):
    def __init__(self, text: str, merge: int = -1) -> None:
        super().__init__(text)
        self._merge = merge

    def id(self) -> int:
        return self._merge

    def mergeWith(self, other: QUndoCommand) -> bool:
        self.setText(f"{self.text()}+{other.text()}")
        return True

    def undo(self) -> None:
        pass

    def redo(self) -> None:
        pass


def _rows(view: UndoList) -> list[str]:
    model = view.model()
    return [model.index(r).data() for r in range(model.rowCount())]


def _stack_rows(stack: QUndoStack) -> list[str]:
    return ["Opened", *(stack.text(i) for i in range(stack.count()))]


@pytest.fixture
def shown(qtbot):
    stack = QUndoStack()
    stack.setUndoLimit(12)
    view = UndoList()
    view.setEmptyLabel("Opened")
    qtbot.addWidget(view)
    view.resize(300, 200)
    view.show()
    view.setStack(stack)
    yield view, stack
    view.setStack(None)


def _watch(view: UndoList) -> dict[str, int]:
    seen = {"resets": 0, "rows changed": 0}
    model = view.model()
    model.modelReset.connect(lambda: seen.__setitem__("resets", seen["resets"] + 1))
    for signal in (model.rowsInserted, model.rowsRemoved):
        signal.connect(
            lambda _p, first, last: seen.__setitem__(
                "rows changed", seen["rows changed"] + last - first + 1
            )
        )
    return seen


@pytest.mark.parametrize("seed", range(6))
def test_the_list_is_the_stack_row_for_row_through_any_mix_of_changes(shown, seed):
    view, stack = shown
    seen = _watch(view)
    rng = random.Random(seed)
    for n in range(400):
        what = rng.random()
        if what < 0.45:
            merge = 7 if rng.random() < 0.2 else -1  # merged into the step before
            stack.push(_Step(f"step {n}", merge))
        elif what < 0.7:
            stack.undo()
        elif what < 0.9:
            stack.redo()
        elif what < 0.97:
            stack.setIndex(rng.randint(0, stack.count()))
        else:
            stack.clear()
        assert _rows(view) == _stack_rows(stack)
        assert view.currentIndex().row() == stack.index()
    assert seen["resets"] == 0  # followed change by change, never read again whole


def test_at_the_bound_a_step_changes_two_rows_and_nothing_else(shown):
    view, stack = shown
    for n in range(30):  # the history at its bound (12 steps)
        stack.push(_Step(f"step {n}"))
    seen = _watch(view)
    for n in range(30, 40):
        stack.push(_Step(f"step {n}"))
    assert seen == {"resets": 0, "rows changed": 20}  # per step: the oldest out, one in
    assert _rows(view) == ["Opened", *(f"step {n}" for n in range(28, 40))]


def test_steps_past_the_current_one_are_dimmed(shown):
    view, stack = shown
    for n in range(4):
        stack.push(_Step(f"step {n}"))
    stack.setIndex(2)
    delegate, model = view.itemDelegate(), view.model()

    def colour(row: int):
        option = QStyleOptionViewItem()
        option.initFrom(view)
        delegate.initStyleOption(option, model.index(row))
        return option.palette.color(QPalette.ColorRole.Text)

    dim = view.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
    assert [colour(r) == dim for r in range(5)] == [False, False, False, True, True]
    stack.redo()
    assert [colour(r) == dim for r in range(5)] == [False, False, False, False, True]


def test_choosing_a_row_undoes_or_redoes_to_it(shown):
    view, stack = shown
    for n in range(5):
        stack.push(_Step(f"step {n}"))
    view.setCurrentIndex(view.model().index(2))
    assert stack.index() == 2
    view.setCurrentIndex(view.model().index(4))
    assert stack.index() == 4
    view.setCurrentIndex(view.model().index(0))
    assert stack.index() == 0 and _rows(view) == _stack_rows(stack)


def test_a_stack_that_goes_leaves_an_empty_list(qtbot):
    view = UndoList()
    qtbot.addWidget(view)
    stack = QUndoStack()
    stack.push(_Step("one"))
    view.setStack(stack)
    assert view.model().rowCount() == 2
    stack.deleteLater()
    qtbot.waitUntil(lambda: view.stack() is None)
    assert view.model().rowCount() == 0


def test_a_step_the_stack_drops_as_obsolete_while_it_moves_is_not_chosen_again(shown):
    """Undoing back over a step that makes itself obsolete, the stack drops it: the list
    loses the row its selection was on meanwhile, and the row Qt moves the selection to is
    not taken for the GM's choice (undoing again, inside the stack's own change)."""
    view, stack = shown
    done = []

    class Spent(_Step):
        def undo(self) -> None:
            done.append(self.text())
            self.setObsolete(True)

    for n in range(6):
        stack.push(Spent(f"step {n}") if n == 2 else _Step(f"step {n}"))
    stack.setIndex(0)
    assert done == ["step 2"]  # undone once, then dropped
    assert stack.index() == 0 and _rows(view) == _stack_rows(stack)
    assert view.currentIndex().row() == 0


def test_a_step_is_chosen_never_edited(shown):
    view, stack = shown
    stack.push(_Step("step 0"))
    model = view.model()
    assert not model.flags(model.index(1)) & Qt.ItemFlag.ItemIsEditable
    assert view.editTriggers() == view.EditTrigger.NoEditTriggers
