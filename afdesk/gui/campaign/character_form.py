"""The form of one roster character: facets, speeds, reach and range, grit and hits, Shifts,
Will, the d20 numbers, days since rest, lasting states and notes."""

from __future__ import annotations

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
    Side,
    Speeds,
    State,
    StateKind,
)
from afdesk.encounter.errors import IllegalOp

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


def states_text(states: tuple[State, ...]) -> str:
    return ", ".join(s.label().lower() for s in states)


def parse_states(text: str) -> tuple[State, ...]:
    """ "exhausted, wounded 2" -> the states; :class:`IllegalOp` naming a bad word."""
    out: list[State] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        words = part.split()
        try:
            kind = StateKind(words[0].lower())
        except ValueError:
            raise IllegalOp(f"{words[0]!r} is not a state (E17)") from None
        if kind in NEVER_CARRIED:
            raise IllegalOp(f"{kind.value} does not last between encounters")
        markers = 0
        if len(words) > 1:
            if not words[1].isdigit():
                raise IllegalOp(f"{part!r}: markers are a whole number")
            markers = int(words[1])
        out.append(State(kind, markers))
    return tuple(out)


class CharacterForm(QWidget):
    """Shows one character and gives back the edited one (:meth:`character`)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        form = QFormLayout(self)
        self.name = QLineEdit()
        self.role = QComboBox()
        for role in Role:
            self.role.addItem(role.label, role)
        self.side = QComboBox()
        for side in Side:
            self.side.addItem(side.label, side)
        form.addRow("&Name", self.name)
        form.addRow("Ro&le", self.role)
        form.addRow("&Side", self.side)
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
        pairs = QGridLayout()
        for i, (label, box) in enumerate(
            (
                ("reach", self.reach),
                ("range", self.range),
                ("grit", self.grit),
                ("most grit", self.grit_max),
                ("hits", self.hits),
                ("Shifts", self.shifts),
                ("Will", self.will),
                ("days since rest", self.days),
            )
        ):
            pairs.addWidget(QLabel(label), i // 4, (i % 4) * 2)
            pairs.addWidget(box, i // 4, (i % 4) * 2 + 1)
        form.addRow("Numbers", pairs)
        d20 = QGridLayout()
        self.d20: dict[str, QSpinBox] = {}
        for i, (key, label) in enumerate(D20_FIELDS):
            self.d20[key] = _spin(0, 30, -10)
            d20.addWidget(QLabel(label), i // 3, (i % 3) * 2)
            d20.addWidget(self.d20[key], i // 3, (i % 3) * 2 + 1)
        form.addRow("d20 (D1)", d20)
        self.states = QLineEdit()
        self.states.setPlaceholderText("lasting states, e.g. exhausted, wounded 2")
        form.addRow("S&tates", self.states)
        self.notes = QPlainTextEdit()
        self.notes.setFixedHeight(60)
        self.notes.setPlaceholderText("GM-only notes")
        form.addRow("N&otes", self.notes)
        self.shown: Character | None = None

    def show_character(self, c: Character) -> None:
        self.shown = c
        self.name.setText(c.name)
        self.role.setCurrentIndex(self.role.findData(c.role))
        self.side.setCurrentIndex(self.side.findData(c.side))
        while self.facet_grid.count():
            item = self.facet_grid.takeAt(0)
            if item.widget() is not None:
                item.widget().hide()  # until deleteLater takes it: never left floating
                item.widget().deleteLater()
        self.facets = {}
        names = [f.name for f in c.facets] + [
            f.name for f in DEFAULT_FACETS if f.name not in {g.name for g in c.facets}
        ]
        scores = {f.name: f.score for f in c.facets}
        for i, name in enumerate(names):
            box = _spin(scores.get(name, 0), 12)
            self.facets[name] = box
            self.facet_grid.addWidget(QLabel(name), i // 3, (i % 3) * 2)
            self.facet_grid.addWidget(box, i // 3, (i % 3) * 2 + 1)
        for key, box in self.speeds.items():
            box.setValue(getattr(c.speeds, key))
        self.reach.setValue(c.reach)
        self.range.setValue(c.weapon_range)
        self.grit_max.setValue(c.grit_max)
        self.grit.setValue(c.grit)
        self.hits.setValue(c.hits)
        self.shifts.setValue(c.shifts)
        self.will.setValue(c.will)
        self.days.setValue(c.days_since_rest)
        for key, box in self.d20.items():
            box.setValue(getattr(c.d20, key))
        self.states.setText(states_text(c.states))
        self.notes.setPlainText(c.notes)

    def character(self) -> Character:
        """The character as the form says it; :class:`IllegalOp` for a bad state word."""
        if self.shown is None:
            raise IllegalOp("no character is selected")
        old_scores = {f.name for f in self.shown.facets}
        facets = tuple(
            Facet(name, box.value())
            for name, box in self.facets.items()
            if name in old_scores or box.value() != 0
        )
        return self.shown.replace(
            name=self.name.text().strip(),
            role=self.role.currentData(),
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
            days_since_rest=self.days.value(),
            d20=D20Profile(**{k: b.value() for k, b in self.d20.items()}),
            states=parse_states(self.states.text()),
            notes=self.notes.toPlainText().strip(),
        )
