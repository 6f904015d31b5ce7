"""What some checks need besides dice: Hide's two decoys (E6), the decoy a Look checks or
a Creep loses (E5)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QFormLayout, QLabel, QWidget

from afdesk.encounter.contest.assembly import CheckKind, Plan
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops.roster import decoy_spots, hide_decoy_count
from afdesk.gui.dialogs.contest.common import Panel


class ExtrasPanel(Panel):
    def __init__(self, enc: Encounter, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.enc = enc
        self._frame()
        self._layout = QFormLayout(self.box)
        self.decoy_boxes: list[QComboBox] = []
        """Hide: where each of the two decoys goes."""
        self.look_box: QComboBox | None = None
        """Look: the decoy checked; Creep: the decoy lost on a failure."""

    def show_plan(self, attacker: str, action: CheckKind, plan: Plan | None) -> None:
        while self._layout.rowCount():
            self._layout.removeRow(0)
        self.decoy_boxes = []
        self.look_box = None
        if action is CheckKind.HIDE:
            hider = self.enc.combatant(attacker)
            free = decoy_spots(self.enc, hider)
            want = hide_decoy_count(self.enc, hider)
            if want < 2:
                self._layout.addRow(
                    QLabel(
                        f"Only {len(free)} adjacent area(s) inside the zone: "
                        f"{want} decoy(s) instead of two (E6)."
                    )
                )
            if free:
                for k in range(want):
                    box = QComboBox()
                    for area in free:
                        box.addItem(f"({area[0]}, {area[1]})", area)
                    box.setCurrentIndex(min(k, len(free) - 1))
                    box.currentIndexChanged.connect(self._decoys_changed)
                    self._layout.addRow(f"Decoy {k + 1}", box)
                    self.decoy_boxes.append(box)
                self._decoys_changed()
        if action in (CheckKind.LOOK, CheckKind.CREEP) and plan is not None:
            owner = self.enc.combatant(plan.target if action is CheckKind.LOOK else attacker)
            self.look_box = QComboBox()
            if action is CheckKind.LOOK:
                self.look_box.addItem("discover details (no decoy)", None)
            for area in owner.decoys:
                self.look_box.addItem(f"decoy at ({area[0]}, {area[1]})", area)
            if owner.decoys:
                self.look_box.setCurrentIndex(self.look_box.count() - len(owner.decoys))
            self.look_box.currentIndexChanged.connect(self._look_changed)
            label = "Look at" if action is CheckKind.LOOK else "Decoy lost on a failure"
            self._layout.addRow(label, self.look_box)
            self._look_changed()
        self.box.setVisible(self._layout.rowCount() > 0)

    def _decoys_changed(self) -> None:
        if self.flow is not None:
            self.flow.decoys = tuple(tuple(b.currentData()) for b in self.decoy_boxes)

    def _look_changed(self) -> None:
        if self.flow is not None and self.look_box is not None:
            area = self.look_box.currentData()
            self.flow.decoy = tuple(area) if area is not None else None
