"""The Character dock's "States and markers" box: a row per state the character is in (its
row's text, afdesk.encounter.features: Fend, Quip, prepared, crouched, down, ...) and one per
kind of Momentum marker with its count, with their buttons, and the buttons that add or
resolve them (E3, R12).

Its rows and buttons are made once and reused: a turn changes their texts and which of them
show, never the widgets themselves (building them anew, several times a turn, was
most of a GM action's time).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QApplication,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter import features
from afdesk.encounter.combatant import MARKED_STATES, StateKind
from afdesk.gui import commands as cmd
from afdesk.gui.fit_label import FitLabel


class _Row(QWidget):
    """One state (with its marker buttons) or one kind of Momentum marker (its remove button
    removes one of them), and its remove button."""

    def __init__(self, on_step: Callable[[StateKind, int], None], on_remove) -> None:
        super().__init__()
        self.kind: StateKind | None = None
        self.momentum: int | None = None  # which marker, for a Momentum row
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.text = FitLabel()
        row.addWidget(self.text, 1)
        self.minus = QPushButton("−")
        self.plus = QPushButton("+")
        self.remove = QPushButton("×")
        for b in (self.minus, self.plus, self.remove):
            b.setFixedWidth(28)
            row.addWidget(b)
        self.minus.clicked.connect(lambda: self.kind is not None and on_step(self.kind, -1))
        self.plus.clicked.connect(lambda: self.kind is not None and on_step(self.kind, 1))
        self.remove.clicked.connect(lambda: on_remove(self))

    def show_state(self, text: str, kind: StateKind, marked: bool) -> None:
        self.kind, self.momentum = kind, None
        self.text.setText(text)
        self.minus.setVisible(marked)
        self.plus.setVisible(marked)
        self.remove.setVisible(True)
        self.remove.setToolTip(f"Remove {features.state_row(kind).label.lower()}")

    def show_standing(self, text: str) -> None:
        self.kind, self.momentum = None, None
        self.text.setText(text)
        for b in (self.minus, self.plus, self.remove):
            b.setVisible(False)

    def show_momentum(self, text: str, index: int) -> None:
        self.kind, self.momentum = None, index
        self.text.setText(text)
        self.minus.setVisible(False)
        self.plus.setVisible(False)
        self.remove.setVisible(True)
        self.remove.setToolTip("Remove one of these markers")


class StatesBox:
    """Fills ``layout`` (the dock's group box) and shows a character's states in it.

    ``on_step(kind, delta)`` steps a state's markers, ``on_remove_state(kind)`` and
    ``on_remove_momentum(index)`` remove one, ``run(command)`` runs a GM command for the
    character shown."""

    def __init__(
        self,
        layout: QVBoxLayout,
        on_step: Callable[[StateKind, int], None],
        on_remove_state: Callable[[StateKind], None],
        on_remove_momentum: Callable[[int], None],
        run: Callable[[cmd.Command], None],
        on_new_order: Callable[[], None] = lambda: None,
    ) -> None:
        self._layout = layout
        self._on_new_order = on_new_order
        """Called when rows or buttons were put in or moved (the Tab order to follow)."""
        self._on_step = on_step
        self._on_remove_state = on_remove_state
        self._on_remove_momentum = on_remove_momentum
        self._rows_layout = QVBoxLayout()
        layout.addLayout(self._rows_layout)
        self._rows: list[_Row] = []
        self.none = QLabel("No states.")
        layout.addWidget(self.none)
        add = QPushButton("Add &state…")
        add.clicked.connect(lambda: run(cmd.ADD_STATE))
        mom = QPushButton("&Momentum marker…")
        mom.clicked.connect(lambda: run(cmd.MOMENTUM))
        self.bleed = QPushButton("&Bleed now")
        self.bleed.setToolTip(cmd.BLEED.tip)
        self.bleed.clicked.connect(lambda: run(cmd.BLEED))
        self.resolve: dict[StateKind, QPushButton] = {}
        for kind, resolve in cmd.RESOLVE.items():
            button = QPushButton(resolve.label)
            button.setToolTip(resolve.tip)
            button.clicked.connect(lambda _c=False, r=resolve: run(r))
            self.resolve[kind] = button
        self._always = [add, mom]
        self._grid = QGridLayout()
        layout.addLayout(self._grid)
        self._buttons: list[QPushButton] = []
        self._key: tuple | None = None
        self.clear()

    def clear(self) -> None:
        """Nothing shown (no character)."""
        self._key = None
        for row in self._rows:
            row.hide()
        self.none.hide()
        self._place_buttons([])

    def show(self, c) -> None:
        """Show character ``c``'s states, Momentum markers and the buttons that fit."""
        standing = [_standing_text(r) for r in features.standings(c)]
        shown = features.shown_states(c)
        resolvable = [kind for kind in cmd.RESOLVE if c.has(kind)]
        bleeding = bool(c.state(StateKind.BLEEDING))
        kinds = _momentum_kinds(c)
        key = (tuple(standing), tuple(shown), tuple(kinds), bleeding, tuple(resolvable))
        if key == self._key:
            return
        self._key = key
        wanted = len(standing) + len(shown) + len(kinds)
        buttons = list(self._always)
        if bleeding:
            buttons.append(self.bleed)
        # ongoing states, once on the character's own turn (E3)
        buttons += [self.resolve[kind] for kind in resolvable]
        # Each row or button shown or hidden in a visible box lays the Character dock's
        # page out again (Qt activates the layouts of the visible parents at every show
        # and hide): 0.6 ms a time, 50 ms when the actor switched between a character with
        # six states and one with none. When more than two come or go, the box is hidden
        # meanwhile and laid out once, when it shows again (hiding and showing it is two
        # such passes: a row's text changed alone costs none); not while it holds the
        # focus, which hiding would move.
        shown_rows = sum(1 for row in self._rows if not row.isHidden())
        going = {id(b) for b in self._buttons} ^ {id(b) for b in buttons}
        flips = abs(shown_rows - wanted) + len(going)
        box = self._layout.parentWidget()
        focus = QApplication.focusWidget()
        batch = (
            flips > 2
            and box is not None
            and box.isVisible()
            and not (focus and box.isAncestorOf(focus))
        )
        if batch:
            box.hide()
        try:
            self._arrange(standing, shown, kinds, buttons)
        finally:
            if batch:
                box.show()

    def _arrange(
        self,
        standing: list[str],
        shown: list,
        kinds: list[tuple[str, int]],
        buttons: list[QPushButton],
    ) -> None:
        wanted = len(standing) + len(shown) + len(kinds)
        new_rows = len(self._rows) < wanted
        while len(self._rows) < wanted:
            row = _Row(self._on_step, self._removed)
            self._rows.append(row)
            self._rows_layout.addWidget(row)
        rows = iter(self._rows)
        for text in standing:  # in reserve, out, left: the record's, no buttons
            next(rows).show_standing(text)
        for st in shown:
            next(rows).show_state(
                features.dock_text(st), st.kind, st.kind in MARKED_STATES or bool(st.markers)
            )
        for text, last in kinds:
            next(rows).show_momentum(text, last)
        for i, row in enumerate(self._rows):
            row.setVisible(i < wanted)
        self.none.setVisible(wanted == 0)
        if self._place_buttons(buttons) or new_rows:
            self._on_new_order()

    def _place_buttons(self, buttons: list[QPushButton]) -> bool:
        """Two to a row: the dock keeps its width however many there are. True if the
        buttons were put in anew (the Tab order to follow)."""
        if buttons == self._buttons:
            for b in buttons:
                b.show()
            return False
        for b in (*self._always, self.bleed, *self.resolve.values()):
            self._grid.removeWidget(b)
            if not any(b is kept for kept in buttons):
                b.hide()  # the others stay shown: the one with the focus keeps it
        for i, b in enumerate(buttons):
            self._grid.addWidget(b, i // 2, i % 2)
            b.show()
        self._buttons = buttons
        return True

    def _removed(self, row: _Row) -> None:
        if row.momentum is not None:
            self._on_remove_momentum(row.momentum)
        elif row.kind is not None:
            self._on_remove_state(row.kind)


def _momentum_kinds(c) -> list[tuple[str, int]]:
    """One dock row per kind of Momentum marker (R12; Distract's -1, E5): its text with the
    count, and the index of the last such marker (the one its remove button removes)."""
    counts: dict[int, list[int]] = {}
    for i, m in enumerate(c.momentum):
        counts.setdefault(m.dice, []).append(i)
    out = []
    for dice, where in counts.items():
        what = "Distracted" if dice == -1 else "Momentum marker"
        rule = "E5" if dice == -1 else "R12"
        many = f" ×{len(where)}" if len(where) > 1 else ""
        out.append((f"{what} {dice:+d}{many} ({rule}): on the next check", where[-1]))
    return out


def _standing_text(row: features.StateRow) -> str:
    rule = f" ({row.rule})" if row.rule else ""
    return f"{row.label}: {row.dock}{rule}"
