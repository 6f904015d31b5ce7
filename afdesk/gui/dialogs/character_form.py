"""The one character form: a character :class:`~afdesk.encounter.combatant.Sheet` (name,
side, facets, speeds, reach and range, grit and hits, Shifts, Will, the d20 numbers, attacks,
lasting states with their notes, notes). The roster editor shows it with the campaign's rows
(role, days since rest); the encounter's Add / Edit character dialog with the encounter's
(group, area; :mod:`afdesk.gui.dialogs.character`)."""

from __future__ import annotations

import msgspec
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QWidget,
)

from afdesk.encounter.campaign.carry import NEVER_CARRIED
from afdesk.encounter.campaign.roster import Character, Role
from afdesk.encounter.combatant import (
    DEFAULT_FACETS,
    D20Profile,
    Facet,
    Sheet,
    Side,
    Speeds,
    State,
    StateKind,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.weapons import format_attacks, parse_attacks

SPEEDS = ("run", "climb", "jump", "swim", "fly")
D20_FIELDS = (
    ("quick", "quick"),
    ("strong", "strong"),
    ("training", "training"),
    ("defense_training", "def. training"),
    ("defense_bonus", "def. bonus"),
    ("fortification_bonus", "fort. bonus"),
)


def _spin(value: int, hi: int, lo: int = 0) -> QSpinBox:
    box = QSpinBox()
    box.setRange(lo, hi)
    box.setValue(value)
    return box


def state_line(s: State) -> str:
    """ "wounded 2 - arrow in the shoulder": a lasting state as the form shows it."""
    text = s.label().lower()
    return f"{text} - {s.note}" if s.note else text


def states_text(states: tuple[State, ...]) -> str:
    """The lasting states, one per line (the states of a fight are not shown)."""
    return "\n".join(state_line(s) for s in states if s.kind not in NEVER_CARRIED)


def parse_states(text: str) -> tuple[State, ...]:
    """One lasting state per line, "wounded 2 - arrow in the shoulder" (markers and note may
    be left out; E17); :class:`IllegalOp` naming the line and the word that is wrong."""
    out: list[State] = []
    for n, line in enumerate(text.splitlines(), start=1):
        head, _, note = line.partition(" - ")
        words = head.replace(",", " ").split()
        if not words:
            if note.strip():
                raise IllegalOp(f"state line {n} ({line.strip()!r}) names no state")
            continue
        try:
            kind = StateKind(words[0].lower())
        except ValueError:
            raise IllegalOp(f"state line {n}: {words[0]!r} is not a state (E17)") from None
        if kind in NEVER_CARRIED:
            raise IllegalOp(f"state line {n}: {kind.value} does not last between encounters")
        if any(s.kind is kind for s in out):
            raise IllegalOp(f"state line {n}: {kind.value} is given twice")
        markers = 0
        if len(words) > 2 or (len(words) == 2 and not words[1].isdigit()):
            raise IllegalOp(
                f"state line {n} ({line.strip()!r}) should be: state, markers (a whole "
                "number), then - and a note"
            )
        if len(words) == 2:
            markers = int(words[1])
        out.append(State(kind, markers, note=note.strip()))
    return tuple(out)


class CharacterForm(QWidget):
    """Shows one character sheet and gives back the edited one. ``campaign``: with the
    roster's rows (role, days since rest; :meth:`show_character`, :meth:`character`).
    A host adds its own rows with :meth:`add_row` (after Side) and :meth:`add_last_row`."""

    def __init__(self, parent: QWidget | None = None, *, campaign: bool = True) -> None:
        super().__init__(parent)
        self.campaign = campaign
        form = self.form = QFormLayout(self)
        form.setContentsMargins(0, 0, 0, 0)
        self.name = QLineEdit()
        self.side = QComboBox()
        for side in Side:
            self.side.addItem(side.label, side)
        form.addRow("&Name", self.name)
        self.role = QComboBox()
        for role in Role:
            self.role.addItem(role.label, role)
        if campaign:
            form.addRow("Ro&le", self.role)
        form.addRow("&Side", self.side)
        self._after_side = form.rowCount()
        self.facet_grid = QGridLayout()
        self.facets: dict[str, QSpinBox] = {}
        form.addRow("Facets", self.facet_grid)
        row = QGridLayout()
        self.speeds: dict[str, QSpinBox] = {}
        for i, key in enumerate(SPEEDS):
            self.speeds[key] = _spin(0, 20)
            row.addWidget(QLabel(key), 0, i * 2)
            row.addWidget(self.speeds[key], 0, i * 2 + 1)
        form.addRow("Speeds", row)
        self.reach, self.range = _spin(1, 10), _spin(0, 50)
        self.grit, self.grit_max, self.hits = _spin(3, 50), _spin(3, 50), _spin(0, 99)
        self.shifts, self.will, self.days = _spin(3, 20), _spin(0, 20), _spin(0, 365)
        numbers = [
            ("&reach", self.reach),
            ("range (aim)", self.range),
            ("grit", self.grit),
            ("most grit", self.grit_max),
            ("hits", self.hits),
            ("Shifts", self.shifts),
            ("Will", self.will),
        ]
        if campaign:
            numbers.append(("days since rest", self.days))
        pairs = QGridLayout()
        for i, (label, box) in enumerate(numbers):
            text = QLabel(label)
            text.setBuddy(box)
            pairs.addWidget(text, i // 4, (i % 4) * 2)
            pairs.addWidget(box, i // 4, (i % 4) * 2 + 1)
        form.addRow("Numbers", pairs)
        d20 = QGridLayout()
        self.d20: dict[str, QSpinBox] = {}
        for i, (key, label) in enumerate(D20_FIELDS):
            self.d20[key] = _spin(0, 30, -10)
            d20.addWidget(QLabel(label), 0 if i < 3 else 1, (i % 3) * 2)
            d20.addWidget(self.d20[key], 0 if i < 3 else 1, (i % 3) * 2 + 1)
        form.addRow("d20 (D1)", d20)
        self.attacks = QPlainTextEdit()
        self.attacks.setPlaceholderText(
            "one per line: name, damage, reach, range (sword, 2 / crossbow, 3, 0, 8)"
        )
        self.attacks.setFixedHeight(74)
        form.addRow("Attac&ks", self.attacks)
        self.states = QPlainTextEdit()
        self.states.setPlaceholderText("lasting states, one per line: wounded 2 - arrow in the leg")
        self.states.setFixedHeight(46)
        form.addRow("S&tates", self.states)
        self.notes = QPlainTextEdit()
        self.notes.setFixedHeight(46)
        self.notes.setPlaceholderText("GM-only notes (never on the player view)")
        form.addRow("N&otes", self.notes)
        self.shown: Sheet | None = None
        self.shown_character: Character | None = None

    def add_row(self, label: str, widget: QWidget) -> None:
        """A row of the host's own, after Side (the encounter's reflex group)."""
        self.form.insertRow(self._after_side, label, widget)
        self._after_side += 1

    def add_last_row(self, label: str, widget: QWidget) -> None:
        self.form.addRow(label, widget)

    # ------------------------------------------------------------------ the sheet

    def show_sheet(self, s: Sheet) -> None:
        """Fill the form from ``s`` (facets the seed pages name are offered too)."""
        self.shown = s
        self.name.setText(s.name)
        self.side.setCurrentIndex(self.side.findData(s.side))
        while self.facet_grid.count():
            item = self.facet_grid.takeAt(0)
            if item.widget() is not None:
                item.widget().hide()  # until deleteLater takes it: never left floating
                item.widget().deleteLater()
        self.facets = {}
        names = [f.name for f in s.facets] + [
            f.name for f in DEFAULT_FACETS if f.name not in {g.name for g in s.facets}
        ]
        scores = {f.name: f.score for f in s.facets}
        for i, name in enumerate(names):
            box = _spin(scores.get(name, 0), 12)
            self.facets[name] = box
            self.facet_grid.addWidget(QLabel(name), i // 4, (i % 4) * 2)
            self.facet_grid.addWidget(box, i // 4, (i % 4) * 2 + 1)
        for key, box in self.speeds.items():
            box.setValue(getattr(s.speeds, key))
        self.reach.setValue(s.reach)
        self.range.setValue(s.weapon_range)
        self.grit_max.setValue(s.grit_max)
        self.grit.setValue(s.grit)
        self.hits.setValue(s.hits)
        self.shifts.setValue(s.shifts)
        self.will.setValue(s.will)
        for key, box in self.d20.items():
            box.setValue(getattr(s.d20, key))
        self.attacks.setPlainText(format_attacks(s.attacks))
        self.states.setPlainText(states_text(s.states))
        self.notes.setPlainText(s.notes)

    def sheet(self) -> Sheet:
        """The sheet as the form says it; :class:`IllegalOp` naming a bad attack or state
        line. The states of a fight the form does not show (hidden, down, ...) stay, and so
        does a lasting state the GM left as it was (with the turn it ends at)."""
        if self.shown is None:
            raise IllegalOp("no character is selected")
        old = self.shown
        old_scores = {f.name for f in old.facets}
        facets = tuple(
            Facet(name, box.value())
            for name, box in self.facets.items()
            if name in old_scores or box.value() != 0
        )
        kept = {(s.kind, s.markers, s.note): s for s in old.states}
        lasting = tuple(
            kept.get((s.kind, s.markers, s.note), s)
            for s in parse_states(self.states.toPlainText())
        )
        fight = tuple(s for s in old.states if s.kind in NEVER_CARRIED)
        return Sheet(
            name=self.name.text().strip(),
            side=self.side.currentData(),
            facets=facets,
            speeds=Speeds(**{k: b.value() for k, b in self.speeds.items()}),
            reach=self.reach.value(),
            weapon_range=self.range.value(),
            grit=self.grit.value(),
            grit_max=self.grit_max.value(),
            hits=self.hits.value(),
            shifts=self.shifts.value(),
            will=self.will.value(),
            d20=D20Profile(**{k: b.value() for k, b in self.d20.items()}),
            states=(*lasting, *fight),
            notes=self.notes.toPlainText().strip(),
            attacks=parse_attacks(self.attacks.toPlainText()),
        )

    # ------------------------------------------------------------ a roster entry

    def show_character(self, c: Character) -> None:
        self.shown_character = c
        self.role.setCurrentIndex(self.role.findData(c.role))
        self.days.setValue(c.days_since_rest)
        self.show_sheet(c.sheet())

    def character(self) -> Character:
        """The roster entry as the form says it; :class:`IllegalOp` for a bad line."""
        if self.shown_character is None:
            raise IllegalOp("no character is selected")
        return msgspec.structs.replace(
            self.shown_character.with_sheet(self.sheet()),
            role=self.role.currentData(),
            days_since_rest=self.days.value(),
        )
