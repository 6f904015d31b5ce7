"""The import conflicts dialog: an imported character file names entries the roster already
has, differently. Each conflicting entry is listed with what differs, and the GM chooses to
update it, skip the incoming one or keep both; OK merges the file as one undoable campaign
step (:func:`afdesk.encounter.campaign.merge.merge`), Cancel imports nothing."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.campaign.merge import Choice, Conflict


class ImportConflictsDialog(QDialog):
    """One row per conflict: the entry, what differs, the choice (Skip by default:
    nothing on the roster changes unless the GM says so)."""

    def __init__(self, source: str, found: Sequence[Conflict], parent: QWidget | None = None):
        super().__init__(parent)
        self.conflicts = list(found)
        self.setWindowTitle(f"Import {source}: entries already on the roster")
        layout = QVBoxLayout(self)
        intro = QLabel(
            f"{source} holds {len(found)} "
            f"{'entry' if len(found) == 1 else 'entries'} named as one on the roster but "
            "different. For each, Update the roster's entry (it keeps its id), Skip the "
            "incoming one, or Keep both (the incoming one under a free name)."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.table = QTableWidget(len(found), 3)
        self.table.setObjectName("importConflicts")
        self.table.setHorizontalHeaderLabels(["Entry", "What differs", "Choice"])
        self.table.verticalHeader().hide()
        self.combos: dict[str, QComboBox] = {}
        for row, c in enumerate(found):
            self.table.setItem(row, 0, QTableWidgetItem(f"{c.name} ({c.local.role.label})"))
            self.table.setItem(row, 1, QTableWidgetItem("\n".join(c.differences)))
            combo = QComboBox()
            for choice in (Choice.SKIP, Choice.UPDATE, Choice.KEEP_BOTH):
                combo.addItem(choice.label, choice)
            self.table.setCellWidget(row, 2, combo)
            self.combos[c.name] = combo
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.table.resizeRowsToContents()
        layout.addWidget(self.table, 1)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Import")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(720, 360)

    def choose(self, name: str, choice: Choice) -> None:
        combo = self.combos[name]
        combo.setCurrentIndex(combo.findData(choice))

    def choices(self) -> dict[str, Choice]:
        return {name: Choice(combo.currentData()) for name, combo in self.combos.items()}
