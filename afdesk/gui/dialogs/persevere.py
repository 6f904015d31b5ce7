"""Persevere at the end of an encounter longer than one exchange (E15): every character's
strength check, its modifiers and its odds, then one roll for all."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from afdesk.encounter import persevere
from afdesk.encounter.contest.ops import persevere_passed
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.state import exchanges_lasted
from afdesk.encounter.words import plural
from afdesk.gui import screens
from afdesk.gui.dialogs.contest.physical import FacesEntry, typed_persevere
from afdesk.gui.document import EncounterDocument
from afdesk.gui.push import push
from afdesk.gui.style import meaning_style
from afdesk.gui.text import pct, sentence


class PersevereDialog(QDialog):
    def __init__(self, doc: EncounterDocument, parent=None, source=None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.source = source
        self.op = None
        enc = doc.encounter
        self.setWindowTitle("Persevere")
        self.setMinimumWidth(640)
        layout = QVBoxLayout(self)
        exchanges = exchanges_lasted(enc.turn)
        mods = persevere.modifiers(enc)
        mod_text = ", ".join(m.text() for m in mods) or "no modifiers"
        intro = QLabel(
            f"The encounter lasted {plural(exchanges, 'exchange')}: everyone "
            "checks strength "
            f"({mod_text}). The success margin must exceed the days since rest "
            f"({enc.settings.days_since_rest}), or the character becomes exhausted; an "
            "exhausted one loses grit equal to the failure margin (E15)."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.plan = persevere.plan(enc) if persevere.due(enc) else []
        # Why the checks cannot be rolled now (E15): on the greyed button's tooltip.
        why = persevere.refusal(enc) or ("" if self.plan else "nobody is left to persevere")
        if not self.plan:
            layout.addWidget(
                QLabel(
                    "Persevere only follows encounters longer than one "
                    "exchange, and only once the encounter has ended."
                )
            )
        self.table = QTableWidget(len(self.plan), 4)
        self.table.setHorizontalHeaderLabels(["Character", "Strength check", "Passes", "Result"])
        for row, check in enumerate(self.plan):
            self.table.setItem(
                row, 0, QTableWidgetItem(check.name + (" (exhausted)" if check.exhausted else ""))
            )
            pool = f"{check.dice} dice" + (
                f", {check.interference} Interference" if check.interference else ""
            )
            self.table.setItem(row, 1, QTableWidgetItem(pool))
            self.table.setItem(row, 2, QTableWidgetItem(pct(check.p_pass)))
            self.table.setItem(row, 3, QTableWidgetItem(""))
        self.table.resizeColumnsToContents()
        layout.addWidget(self.table)
        self.faces = FacesEntry("strength checks, top to bottom")
        layout.addWidget(self.faces)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(meaning_style("error", self.error))
        layout.addWidget(self.error)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.roll_button = self.buttons.addButton(
            "&Roll for everyone", QDialogButtonBox.ButtonRole.ActionRole
        )
        self.apply_button = self.buttons.addButton("&Apply", QDialogButtonBox.ButtonRole.AcceptRole)
        self.apply_button.setEnabled(False)
        self.apply_button.setToolTip("Roll (or type the faces) first; then apply the results.")
        self.roll_button.setEnabled(bool(self.plan))
        # A greyed button says why (E15), as the command's menu entry does.
        why = sentence(why)
        why = why if why.endswith(".") else why + "."  # a whole sentence after "(E15)" too
        self.roll_button.setToolTip(
            why if not self.plan else "Roll everyone's strength check (E15)."
        )
        self.roll_button.clicked.connect(self.roll)
        self.apply_button.clicked.connect(self.apply)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        screens.fit_dialog(self)

    def roll(self) -> None:
        enc = self.doc.encounter
        if self.faces.physical():
            op = typed_persevere(enc, self.faces.faces_edit.text())
            if isinstance(op, str):
                self.error.setText(sentence(op))
                return
            self.error.setText("")
            self.op = op
        else:
            self.op = persevere.roll(enc, self.source)
        for row, res in enumerate(self.op.results):
            try:
                passed, margin = persevere_passed(enc, res)
            except IllegalOp as exc:
                self.error.setText(str(exc))
                return
            faces = (
                ",".join(str(d.face) for d in res.roll.dice)
                if res.roll
                else (str(res.d20.die) if res.d20 else "")
            )
            exhausted = self.plan[row].exhausted
            text = f"[{faces}] " + (
                "perseveres"
                if passed
                else (f"loses {margin} grit" if exhausted else "becomes exhausted")
            )
            self.table.setItem(row, 3, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self.roll_button.setEnabled(False)
        self.roll_button.setToolTip("Rolled: apply the results, or cancel to roll again.")
        self.apply_button.setEnabled(True)
        self.apply_button.setToolTip("Apply everyone's result (E15).")

    def apply(self) -> None:
        if self.op is None:
            return
        if push(self.doc, self.op, beside=lambda r: r and self.error.setText(r)):
            self.accept()
