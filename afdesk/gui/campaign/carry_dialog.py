"""The carry-over dialog: per linked character, what the encounter changed, with afdesk's
default (see :mod:`afdesk.encounter.campaign.carry`) and the GM's say on each line; OK
writes the lines kept back to the roster as one undoable campaign step."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.campaign.carry import ABSENT, CarryLine
from afdesk.encounter.campaign.edits import CarryOver, FinishRun
from afdesk.encounter.campaign.state import Play
from afdesk.gui import screens
from afdesk.gui.campaign.document import CampaignDocument
from afdesk.gui.errors import show_refusal
from afdesk.gui.style import meaning_style

NOTE = (
    "Down, prepared, crouched, hidden, the terrain's states (falling, teeter, stall, flying), "
    "Momentum markers and the turn economy never carry over. Shifts come back with a new "
    "session (R10)."
)


class CarryOverDialog(QDialog):
    """Carry-over for the encounter ``eid`` from its played ``lines`` (see the module)."""

    def __init__(
        self,
        doc: CampaignDocument,
        eid: str,
        lines: list[CarryLine],
        parent: QWidget | None = None,
        referee_shifts: int | None = None,
    ) -> None:
        super().__init__(parent)
        self.doc, self.eid, self.lines = doc, eid, lines
        camp = doc.campaign
        title = camp.encounter(eid).title
        self.setWindowTitle(f"Carry over from {title}")
        outer = QVBoxLayout(self)
        head = QLabel(f"<b>{title}</b> is over. What lasts for the band and recurring characters?")
        head.setWordWrap(True)
        outer.addWidget(head)
        body = QWidget()
        grid = QGridLayout(body)
        grid.setColumnStretch(1, 1)
        self.keep: list[QCheckBox] = []
        self.values: list[QSpinBox | None] = []
        row = 0
        last = ""
        for line in lines:
            c = camp.find(line.character)
            name = c.name if c else line.character
            if name != last:
                who = QLabel(f"<b>{name}</b>")
                grid.addWidget(who, row, 0, 1, 3)
                row += 1
                last = name
            check = QCheckBox(line.words(name).split(": ", 1)[1])
            check.setChecked(line.carry)
            check.setToolTip("Write this back to the roster")
            grid.addWidget(check, row, 1)
            spin = None
            if not line.is_state or line.after not in (ABSENT, 0):
                spin = QSpinBox()
                spin.setRange(0, 365)
                spin.setValue(line.after)
                spin.setToolTip("The value the roster takes (the GM may say another)")
                grid.addWidget(spin, row, 2)
            self.keep.append(check)
            self.values.append(spin)
            row += 1
        self.referee: tuple[QCheckBox, QSpinBox] | None = None
        if referee_shifts is not None and referee_shifts != camp.referee_shifts:
            grid.addWidget(QLabel("<b>The referee</b>"), row, 0, 1, 3)
            check = QCheckBox(f"Shifts {camp.referee_shifts} \u2192 {referee_shifts} (R10)")
            check.setChecked(True)
            spin = QSpinBox()
            spin.setRange(0, 99)
            spin.setValue(referee_shifts)
            grid.addWidget(check, row + 1, 1)
            grid.addWidget(spin, row + 1, 2)
            self.referee = (check, spin)
            row += 2
        if not lines and self.referee is None:
            grid.addWidget(QLabel("Nothing changed for the linked characters."), 0, 0)
        grid.setRowStretch(row, 1)
        outer.addWidget(screens.scrolled(body), 1)
        note = QLabel(NOTE)
        note.setWordWrap(True)
        note.setStyleSheet("color: #4a4f55; font-size: small;")
        outer.addWidget(note)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(meaning_style("error", self.error, "font-weight: bold;"))
        outer.addWidget(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Carry &over")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        outer.addWidget(buttons)
        self.setMinimumWidth(440)
        screens.fit_dialog(self)

    def chosen(self) -> tuple[CarryLine, ...]:
        """The lines with the GM's say: kept or not, and the value typed."""
        out = []
        for line, check, spin in zip(self.lines, self.keep, self.values, strict=True):
            after = spin.value() if spin is not None else line.after
            fields = {f: getattr(line, f) for f in line.__struct_fields__}
            fields.update(carry=check.isChecked(), after=after)
            out.append(CarryLine(**fields))
        return tuple(out)

    def accept(self) -> None:
        edits = []
        if self.doc.campaign.encounter(self.eid).play is Play.RUNNING:
            edits.append(FinishRun(self.eid))
        pool = None
        if self.referee is not None and self.referee[0].isChecked():
            pool = self.referee[1].value()
        edits.append(CarryOver(self.eid, self.chosen(), pool))
        title = self.doc.campaign.encounter(self.eid).title
        reason = self.doc.push(edits, f"Carry over from {title}")
        if reason:
            show_refusal(self.error, reason)
            return
        super().accept()
