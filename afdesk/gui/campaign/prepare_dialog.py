"""Prepare an encounter from the roster, or bring roster characters into the open encounter:
band members and recurring characters as links, bestiary entries as numbered copies ("Add
4 x Bandit" gives Bandit 1-4), optionally as one reflex group (E2)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QGroupBox,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.campaign.build import MAX_COPIES, add_copies, add_link
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.op import Op
from afdesk.gui import screens
from afdesk.gui.editor.new_encounter import PrepareEncounterDialog
from afdesk.gui.errors import show_refusal
from afdesk.gui.style import meaning_style


class RosterPicker(QWidget):
    """Tick band members and recurring characters; a count for each bestiary entry."""

    def __init__(self, campaign: Campaign, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.campaign = campaign
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.links: dict[str, QCheckBox] = {}
        self.counts: dict[str, QSpinBox] = {}
        self.groups: dict[str, QCheckBox] = {}
        for title, chars in (("Band", campaign.band), ("Recurring", campaign.recurring)):
            if not chars:
                continue
            box = QGroupBox(title)
            grid = QGridLayout(box)
            for i, c in enumerate(chars):
                check = QCheckBox(c.name)
                check.setToolTip("Joins as a link: carry-over writes back to the roster")
                self.links[c.id] = check
                grid.addWidget(check, i // 3, i % 3)
            layout.addWidget(box)
        if campaign.bestiary:
            box = QGroupBox("Bestiary (numbered copies)")
            grid = QGridLayout(box)
            for i, c in enumerate(campaign.bestiary):
                count = QSpinBox()
                count.setRange(0, MAX_COPIES)
                count.setSuffix(" ×")
                group = QCheckBox("one reflex group")
                group.setToolTip("All copies act on one card (E2)")
                group.setChecked(True)
                self.counts[c.id], self.groups[c.id] = count, group
                grid.addWidget(count, i, 0)
                grid.addWidget(QLabel(c.name), i, 1)
                grid.addWidget(group, i, 2)
            layout.addWidget(box)
        if not self.links and not self.counts:
            layout.addWidget(QLabel("The roster is empty: add characters in the roster first."))

    def choose(self, links: list[str] = (), counts: dict[str, int] | None = None) -> None:
        """Tick and count as a GM would (tests and scripts)."""
        for cid in links:
            self.links[cid].setChecked(True)
        for cid, n in (counts or {}).items():
            self.counts[cid].setValue(n)

    def ops(self, enc) -> list[Op]:
        """The Ops that add the choice to ``enc`` (applied one after another); raises
        :class:`IllegalOp` (a character already there, ...)."""
        from afdesk.encounter.model import Encounter

        scratch = Encounter.from_state(enc.state())  # later copies number on from earlier
        ops: list[Op] = []
        for cid, check in self.links.items():
            if check.isChecked():
                op = add_link(scratch, self.campaign.character(cid))
                scratch.apply(op)
                ops.append(op)
        for cid, count in self.counts.items():
            if count.value():
                made = add_copies(
                    scratch,
                    self.campaign.character(cid),
                    count.value(),
                    one_group=self.groups[cid].isChecked(),
                )
                for op in made:
                    scratch.apply(op)
                ops.extend(made)
        return ops


class PrepareDialog(PrepareEncounterDialog):
    """A new encounter of the campaign: File > New's dialog (name, ruleset, tile set, and
    an empty zone for the zone editor or nine tiles at random, E9), and who is in it."""

    def __init__(self, campaign: Campaign, parent: QWidget | None = None, rng=None) -> None:
        super().__init__(parent, rng)
        self.setWindowTitle("Prepare an encounter")
        self.picker = RosterPicker(campaign)
        layout = self.layout()
        scroll = screens.scrolled(self.picker)  # a long roster scrolls; OK stays in view
        scroll.setObjectName("rosterScroll")
        layout.insertWidget(layout.indexOf(self.buttons), scroll, 1)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(meaning_style("error", self.error, "font-weight: bold;"))
        layout.insertWidget(layout.indexOf(self.buttons), self.error)
        self.built = None
        screens.fit_dialog(self)

    def accept(self) -> None:
        from afdesk.encounter.errors import IllegalOp

        try:
            enc = self.encounter()
            for op in self.picker.ops(enc):
                enc.apply(op)
        except IllegalOp as exc:
            show_refusal(self.error, exc)
            return
        self.built = enc
        super().accept()


class AddFromRosterDialog(QDialog):
    """Bring roster characters into the open encounter, as one undoable step of its own."""

    def __init__(self, campaign: Campaign, doc, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.setWindowTitle(f"Add from the roster to {doc.encounter.meta.name}")
        layout = QVBoxLayout(self)
        self.picker = RosterPicker(campaign)
        layout.addWidget(self.picker)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(meaning_style("error", self.error, "font-weight: bold;"))
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def accept(self) -> None:
        from afdesk.encounter.errors import IllegalOp

        try:
            ops = self.picker.ops(self.doc.encounter)
        except IllegalOp as exc:
            show_refusal(self.error, exc)
            return
        if ops:
            reason = self.doc.push_many(ops, "Add from the roster")
            if reason:
                show_refusal(self.error, reason)
                return
        super().accept()
