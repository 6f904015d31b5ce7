"""Leaving an overlap: one move check that every opponent there may contest (E14). The
target contests through the defense panel; this panel lets each other opponent in the
overlap contest the same check once it is rolled."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QComboBox, QGridLayout, QGroupBox, QLabel, QPushButton, QWidget

from afdesk.encounter.contest.assembly import CheckKind, DefenseOption
from afdesk.encounter.model import Encounter
from afdesk.encounter.typed import roll_typed
from afdesk.gui.dialogs.contest.common import Panel, clear
from afdesk.gui.dialogs.contest.physical import FacesEntry
from afdesk.gui.dice_view import DiceView
from afdesk.rules.dice import DiceSource


class OverlapPanel(Panel):
    """One row per other opponent in the overlap: a defense to pick and a Roll button; a
    rolled contest shows its dice and whether it stops the move check."""

    def __init__(
        self,
        enc: Encounter,
        source: Callable[[], DiceSource | None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.enc = enc
        self._source = source
        self.box = QGroupBox(
            "Other opponents in the overlap (E14: each may contest the one move check)", self
        )
        self._grid = QGridLayout(self.box)
        outer = QGridLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self.box)
        self.faces = FacesEntry("opponent's contest")
        outer.addWidget(self.faces, 1, 0)
        self.rows: dict[str, tuple[QComboBox, QPushButton]] = {}

    def contest(self, opponent: str, kind: str, via: str = "guard") -> None:
        """``opponent`` contests with the ``kind`` defense via ``via``, as the GM clicks."""
        combo, button = self.rows[opponent]
        for i in range(combo.count()):
            o = combo.itemData(i)
            if o.kind.value == kind and o.via.value == via:
                combo.setCurrentIndex(i)
                break
        else:
            raise KeyError(f"{opponent}: no {kind} via {via}")
        button.click()

    def _roll(self, opponent: str) -> None:
        combo, _button = self.rows[opponent]
        option: DefenseOption | None = combo.currentData()
        if option is None:
            return
        entry = self.faces
        if entry.physical():
            name = self.enc.combatant(opponent).name
            if self._try(
                lambda f: roll_typed(
                    f, f"{name}'s contest", entry.faces(), lambda src: f.contest_also(option, src)
                )
            ):
                entry.faces_edit.clear()
        else:
            self._try(lambda f: f.contest_also(option, self._source()))

    def refresh(self) -> None:
        clear(self._grid)
        self.rows = {}
        f = self.flow
        if f is None or f.plan.action is not CheckKind.LEAVE_OVERLAP:
            self.setVisible(False)
            return
        others = f.others()
        if not others and not f.also:
            self.setVisible(False)
            return
        self.setVisible(True)
        if others:
            self.faces.set_side(self.enc.combatant(others[0]).side)
        row = 0
        for d in f.also:
            rules = f.rules
            stops = (
                f.attack is not None
                and rules.verdict(f.attack, d.roll, defense_wins_ties=d.higher_card).stopped
            )
            view = DiceView(size=22)
            view.set_roll(d.roll)
            self._grid.addWidget(
                QLabel(f"{self.enc.combatant(d.defender).name}: {d.kind.label}"), row, 0
            )
            self._grid.addWidget(view, row, 1)
            self._grid.addWidget(
                QLabel("wins: one step in front" if stops else "does not stop it"), row, 2
            )
            row += 1
        can = f.rolled and f.attack is not None and f.attack_succeeded()
        for oid in others:
            combo = QComboBox()
            for o in f.other_plan(oid).defenses:
                if o.allowed:
                    combo.addItem(f"{o.kind.label} ({o.via.value}) — {o.facet} {o.dice}", o)
            button = QPushButton("Contest")
            button.setEnabled(can and combo.count() > 0)
            button.clicked.connect(lambda _c=False, i=oid: self._roll(i))
            self._grid.addWidget(QLabel(self.enc.combatant(oid).name), row, 0)
            self._grid.addWidget(combo, row, 1)
            self._grid.addWidget(button, row, 2)
            self.rows[oid] = (combo, button)
            row += 1
