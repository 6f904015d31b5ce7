"""The roster editor: the band, recurring characters and the bestiary of a campaign, each
change one undoable campaign edit; import and export of character files."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.campaign.edits import PutCharacter, RemoveCharacter
from afdesk.encounter.campaign.merge import Choice, conflicts, merge
from afdesk.encounter.campaign.roster import Character, Role, fresh_id
from afdesk.encounter.combatant import Side
from afdesk.encounter.errors import IllegalOp
from afdesk.gui import screens
from afdesk.gui.campaign.document import CampaignDocument
from afdesk.gui.dialogs.character_form import CharacterForm
from afdesk.gui.errors import show_refusal
from afdesk.gui.style import meaning_style
from afdesk.storage import campaign as store
from afdesk.storage.errors import LoadError, SaveError

CHAR_FILTER = "afdesk characters (*.afchars);;All files (*)"
NEW_SIDE = {Role.BAND: Side.BAND, Role.RECURRING: Side.DENIZEN, Role.TEMPLATE: Side.OPPONENT}
NEW_NAME = {Role.BAND: "New band member", Role.RECURRING: "New character", Role.TEMPLATE: "New foe"}


class RosterDialog(QDialog):
    """Edit the roster of ``doc`` (see the module)."""

    def __init__(self, doc: CampaignDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = doc
        self.conflicts_dialog = None
        self.setWindowTitle(f"Roster of {doc.campaign.name}")
        outer = QVBoxLayout(self)
        body = QHBoxLayout()
        outer.addLayout(body, 1)
        left = QVBoxLayout()
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Character", "Grit", "Shifts"])
        self.tree.setColumnWidth(0, 170)
        self.tree.setColumnWidth(1, 50)
        self.tree.setMinimumWidth(290)
        self.tree.currentItemChanged.connect(self._selected)
        left.addWidget(self.tree, 1)
        adds = QHBoxLayout()
        self.add_buttons = {}
        for role, text in (
            (Role.BAND, "+ &Band"),
            (Role.RECURRING, "+ &Recurring"),
            (Role.TEMPLATE, "+ Bes&tiary"),
        ):
            b = QPushButton(text)
            b.clicked.connect(lambda _c=False, r=role: self.ask_add(r))
            adds.addWidget(b)
            self.add_buttons[role] = b
        left.addLayout(adds)
        files = QHBoxLayout()
        self.remove_button = QPushButton("Re&move")
        self.remove_button.clicked.connect(self.remove)
        self.import_button = QPushButton("&Import…")
        self.import_button.clicked.connect(self.import_dialog)
        self.export_button = QPushButton("E&xport…")
        self.export_button.setToolTip("The selected character, or the whole bestiary")
        self.export_button.setObjectName("exportCharacters")
        self.export_button.clicked.connect(self.export_dialog)
        for b in (self.remove_button, self.import_button, self.export_button):
            files.addWidget(b)
        left.addLayout(files)
        body.addLayout(left, 2)
        right = QVBoxLayout()
        self.form = CharacterForm()
        right.addWidget(self.form, 1)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(meaning_style("error", self.error, "font-weight: bold;"))
        right.addWidget(self.error)
        row = QHBoxLayout()
        self.apply_button = QPushButton("&Apply")
        self.apply_button.setDefault(True)
        self.apply_button.clicked.connect(self.apply)
        close = QPushButton("Close")
        close.clicked.connect(self.accept)
        row.addStretch(1)
        row.addWidget(self.apply_button)
        row.addWidget(close)
        right.addLayout(row)
        body.addLayout(right, 3)
        doc.changed.connect(self.refresh)
        self.refresh()
        screens.fit_dialog(self)

    # ---------------------------------------------------------------------- the list

    def refresh(self) -> None:
        current = self.current_id()
        self.tree.blockSignals(True)
        self.tree.clear()
        camp = self.doc.campaign
        chosen = None
        for role in Role:
            top = QTreeWidgetItem([f"{role.label} ({len(camp.role(role))})"])
            top.setFlags(Qt.ItemFlag.ItemIsEnabled)
            self.tree.addTopLevelItem(top)
            for c in camp.role(role):
                item = QTreeWidgetItem([c.name, f"{c.grit}/{c.grit_max}", str(c.shifts)])
                item.setData(0, Qt.ItemDataRole.UserRole, c.id)
                states = ", ".join(s.label().lower() for s in c.states)
                item.setToolTip(0, f"{c.name}: {states}" if states else c.name)
                top.addChild(item)
                if c.id == current:
                    chosen = item
            top.setExpanded(True)
        self.tree.blockSignals(False)
        if chosen is None:
            chosen = next(
                (
                    self.tree.topLevelItem(i).child(0)
                    for i in range(self.tree.topLevelItemCount())
                    if self.tree.topLevelItem(i).childCount()
                ),
                None,
            )
        if chosen is not None:
            self.tree.setCurrentItem(chosen)
            self._selected(chosen, None)
        self.apply_button.setEnabled(chosen is not None)

    def current_id(self) -> str:
        item = self.tree.currentItem()
        return item.data(0, Qt.ItemDataRole.UserRole) or "" if item else ""

    def select(self, cid: str) -> None:
        for i in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(i)
            for j in range(top.childCount()):
                if top.child(j).data(0, Qt.ItemDataRole.UserRole) == cid:
                    self.tree.setCurrentItem(top.child(j))
                    return

    def _selected(self, item, _old) -> None:
        cid = item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None
        c = self.doc.campaign.find(cid) if cid else None
        if c is not None:
            self.form.show_character(c)
            show_refusal(self.error, "")

    # ---------------------------------------------------------------------- changes

    def _push(self, edits, text: str = "") -> bool:
        reason = self.doc.push(edits, text)
        show_refusal(self.error, reason)
        return not reason

    def ask_add(self, role: Role) -> None:
        """The + buttons: the name first, so that the stable id is made from it."""
        from PySide6.QtWidgets import QInputDialog

        name, ok = QInputDialog.getText(self, f"New {role.label.lower()} entry", "Name:")
        if ok and name.strip():
            self.add(role, name.strip())

    def add(self, role: Role, name: str = "") -> str:
        """A new roster entry of ``role``; returns its id ('' if refused)."""
        camp = self.doc.campaign
        base = name or NEW_NAME[role]
        n, name = 2, base
        while camp.by_name(name, role) is not None:
            name, n = f"{base} {n}", n + 1
        cid = fresh_id(name, (c.id for c in camp.characters))
        c = Character(id=cid, name=name, role=role, side=NEW_SIDE[role])
        if not self._push(PutCharacter(c)):
            return ""
        self.select(cid)
        return cid

    def apply(self) -> bool:
        try:
            c = self.form.character()
        except IllegalOp as exc:
            show_refusal(self.error, exc)
            return False
        if c == self.doc.campaign.find(c.id):
            return True
        return self._push(PutCharacter(c))

    def remove(self) -> None:
        cid = self.current_id()
        if cid:
            self._push(RemoveCharacter(cid))

    def import_file(self, path: str | Path, choices: dict[str, Choice] | None = None) -> str:
        """Merge the characters of a file into the roster; "" or the problem. Entries the
        roster has under the same name, differently, are never overwritten unasked: with
        no ``choices`` the conflicts dialog opens (:attr:`conflicts_dialog`) and its OK
        merges them as one undoable step."""
        try:
            incoming = store.import_characters(path)
        except LoadError as exc:
            show_refusal(self.error, f"Cannot import: {exc}")
            return str(exc)
        found = conflicts(self.doc.campaign, incoming)
        source = Path(path).name
        if found and choices is None:
            from afdesk.gui.campaign.import_dialog import ImportConflictsDialog

            dlg = ImportConflictsDialog(source, found, self)
            dlg.accepted.connect(lambda: self.import_file(path, dlg.choices()))
            self.conflicts_dialog = dlg
            dlg.open()
            return ""
        try:
            edits = merge(self.doc.campaign, incoming, {} if choices is None else choices)
        except IllegalOp as exc:
            show_refusal(self.error, f"Cannot import: {exc}")
            return str(exc)
        if not edits:
            show_refusal(self.error, "")
            return ""
        ok = self._push(edits, f"Import {len(edits)} characters from {source}")
        return "" if ok else self.error.text()

    def export_file(self, path: str | Path, whole_bestiary: bool) -> str:
        camp = self.doc.campaign
        chars = camp.bestiary if whole_bestiary else [camp.character(self.current_id())]
        try:
            store.export_characters(path, chars)
        except SaveError as exc:
            show_refusal(self.error, str(exc))
            return str(exc)
        return ""

    def import_dialog(self) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self, "Import characters", str(self.doc.folder), CHAR_FILTER
        )
        if name:
            self.import_file(name)

    def export_dialog(self) -> None:
        cid = self.current_id()
        c = self.doc.campaign.find(cid) if cid else None
        whole = c is None or (
            c.role is Role.TEMPLATE
            and QMessageBox.question(
                self,
                "Export characters",
                f"Export the whole bestiary ({len(self.doc.campaign.bestiary)} entries)? "
                f"No exports {c.name} alone.",
            )
            == QMessageBox.StandardButton.Yes
        )
        start = self.doc.folder / ("bestiary.afchars" if whole else f"{cid}.afchars")
        name, _ = QFileDialog.getSaveFileName(self, "Export characters", str(start), CHAR_FILTER)
        if name:
            if not name.endswith(store.CHARACTERS_EXTENSION):
                name += store.CHARACTERS_EXTENSION
            self.export_file(name, whole)
