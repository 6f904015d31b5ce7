"""What the check dialog's panels share: the flow they show and how they report."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.contest.assembly import Modifier
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.errors import IllegalOp


def clear(layout: QLayout) -> None:
    """Remove and delete everything in ``layout``."""
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget()
        if widget is not None:
            widget.deleteLater()
        elif item.layout() is not None:
            clear(item.layout())


def reading_order(widget: QWidget) -> list[QWidget]:
    """The widgets inside ``widget`` that take focus with Tab (shown or not), in the order
    their layouts place them (top to bottom, left to right): what the eye reads."""
    out: list[QWidget] = []

    def walk_layout(layout: QLayout) -> None:
        for i in range(layout.count()):
            item = layout.itemAt(i)
            child = item.widget()
            if child is not None:
                walk_widget(child)
            elif item.layout() is not None:
                walk_layout(item.layout())

    def walk_widget(w: QWidget) -> None:
        if w.focusPolicy() & Qt.FocusPolicy.TabFocus:
            out.append(w)
        if w.layout() is not None:
            walk_layout(w.layout())

    if widget.layout() is not None:
        walk_layout(widget.layout())
    return out


def gm_modifier_row(
    placeholder: str, button: str
) -> tuple[QHBoxLayout, QLineEdit, QSpinBox, QPushButton]:
    """The row where the GM adds a modifier of their own (R4): what it is, its dice (-2 by
    default) and the button; for the attack's modifiers and for the defense's."""
    row = QHBoxLayout()
    label = QLineEdit()
    label.setPlaceholderText(placeholder)
    dice = QSpinBox()
    dice.setRange(-6, 6)
    dice.setValue(-2)
    add = QPushButton(button)
    row.addWidget(label, 1)
    row.addWidget(QLabel("dice"))
    row.addWidget(dice)
    row.addWidget(add)
    return row, label, dice, add


def modifier_box(m: Modifier) -> QCheckBox:
    box = QCheckBox(f"{m.text()} — {m.reason}")
    box.setChecked(m.enabled)
    return box


class Panel(QWidget):
    """One part of the check dialog, showing the :class:`ContestFlow` it is bound to.

    A panel changes the flow only through its public methods (what its buttons call);
    ``changed`` asks the dialog to refresh every panel, ``refused`` carries the model's
    reason when a choice is not allowed.
    """

    changed = Signal()
    refused = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.flow: ContestFlow | None = None

    def bind(self, flow: ContestFlow | None) -> None:
        self.flow = flow

    def _frame(self, title: str = "") -> QGroupBox:
        """The panel as one titled box filling it, with no margin of its own: the box
        (``self.box``) to lay the panel's controls in."""
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.box = QGroupBox(title)
        outer.addWidget(self.box)
        return self.box

    def _try(self, action: Callable[[ContestFlow], object]) -> bool:
        """Do ``action`` on the flow; a refusal is reported, not raised. Then refresh."""
        if self.flow is None:
            return False
        ok = True
        try:
            action(self.flow)
        except IllegalOp as exc:
            self.refused.emit(str(exc))
            ok = False
        self.changed.emit()
        return ok
