"""File > New encounter: name, ruleset and tile set, and how the zone starts:
empty 3 x 3 slots that the zone editor opens on, or nine tiles drawn at random (E9)."""

from __future__ import annotations

import random

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.meta import Rename, SetRuleset
from afdesk.encounter.zone import START_TILES, empty_zone, grid_zone
from afdesk.gui.style import meaning_style
from afdesk.rules.rulesets import all_rulesets
from afdesk.storage.tilesets import catalog


class PrepareEncounterDialog(QDialog):
    """Asks what a new encounter needs; :meth:`encounter` builds it."""

    def __init__(self, parent: QWidget | None = None, rng: random.Random | None = None) -> None:
        super().__init__(parent)
        self.rng = rng or random.SystemRandom()
        self.setWindowTitle("New encounter")
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.name = QLineEdit("New encounter")
        self.ruleset = QComboBox()
        for r in all_rulesets():
            self.ruleset.addItem(r.name, r.name)
        self.tileset = QComboBox()
        cat = catalog()
        for ts in cat.sets.values():
            self.tileset.addItem(ts.name, ts.id)
        form.addRow("&Name", self.name)
        form.addRow("&Ruleset", self.ruleset)
        form.addRow("&Tile set", self.tileset)
        self.empty = QRadioButton("&Empty 3 x 3 slots: open the zone editor")
        self.random = QRadioButton("Nine tiles drawn at &random")
        self.empty.setChecked(True)
        form.addRow("Zone", self.empty)
        form.addRow("", self.random)
        layout.addLayout(form)
        if cat.problems:
            skipped = QLabel("\n".join(f"Skipped {p}" for p in cat.problems))
            skipped.setWordWrap(True)
            skipped.setStyleSheet(meaning_style("error", skipped))
            layout.addWidget(skipped)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.buttons = buttons
        layout.addWidget(buttons)

    def choose(self, *, name: str, ruleset: str, tileset: str, empty: bool) -> None:
        """Fill the dialog (scripts and tests)."""
        self.name.setText(name)
        self.ruleset.setCurrentIndex(self.ruleset.findData(ruleset))
        self.tileset.setCurrentIndex(self.tileset.findData(tileset))
        (self.empty if empty else self.random).setChecked(True)

    def starts_empty(self) -> bool:
        return self.empty.isChecked()

    def encounter(self) -> Encounter:
        ts = catalog().sets[self.tileset.currentData()]
        if self.starts_empty():
            zone = empty_zone(ts)
        else:
            n = START_TILES
            zone = grid_zone(
                ts, [[self.rng.choice(ts.kinds).id for _ in range(n)] for _ in range(n)]
            )
        enc = Encounter(zone=zone)
        enc.apply(Rename(self.name.text().strip() or "New encounter"))
        if self.ruleset.currentData() != enc.ruleset:
            enc.apply(SetRuleset(self.ruleset.currentData()))
        return enc
