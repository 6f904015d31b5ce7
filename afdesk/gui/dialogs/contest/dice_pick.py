"""Choosing dice of a roll: which dice a Shift retries (R10), which 6s the roller retries
for Momentum (R3)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QGridLayout, QHBoxLayout, QLabel, QWidget

COLUMNS = 6
"""Dice boxes per row: a roll of 9 dice and 2 Interference wraps instead of widening the
dialog past a 1280x720 screen."""


class DicePicker(QWidget):
    """One check box per die that may be chosen ("#2: 4"), :data:`COLUMNS` to a row;
    ``changed`` when the choice changes. The dice are given by their index in the roll."""

    changed = Signal()

    def __init__(self, empty: str = "no die to choose", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._row = QHBoxLayout(self)
        self._row.setContentsMargins(0, 0, 0, 0)
        self._grid = QGridLayout()
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._row.addLayout(self._grid)
        self._empty = QLabel(f"<i>{empty}</i>")
        self._row.addWidget(self._empty)
        self._row.addStretch(1)
        self.boxes: dict[int, QCheckBox] = {}

    def set_dice(self, dice: Sequence[tuple[int, int]], chosen: Iterable[int] = ()) -> None:
        """Offer ``dice`` as (index in the roll, face), ``chosen`` ticked."""
        for box in self.boxes.values():
            self._grid.removeWidget(box)
            box.deleteLater()
        self.boxes = {}
        ticked = set(chosen)
        for n, (index, face) in enumerate(dice):
            box = QCheckBox(f"#{index + 1}: {face}")
            box.setToolTip(f"Die number {index + 1} of the roll, showing {face}")
            box.setChecked(index in ticked)
            box.toggled.connect(lambda _on: self.changed.emit())
            self._grid.addWidget(box, n // COLUMNS, n % COLUMNS)
            self.boxes[index] = box
        self._empty.setVisible(not self.boxes)

    def chosen(self) -> tuple[int, ...]:
        """The indices ticked, in roll order."""
        return tuple(i for i, box in sorted(self.boxes.items()) if box.isChecked())

    def choose(self, indices: Iterable[int]) -> None:
        """Tick exactly ``indices`` (those offered); ``changed`` once."""
        wanted = set(indices)
        for i, box in self.boxes.items():
            box.blockSignals(True)
            box.setChecked(i in wanted)
            box.blockSignals(False)
        self.changed.emit()
