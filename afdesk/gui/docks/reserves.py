"""The Reserves dock: the characters the GM holds back, by group, and the buttons
to hold the selected character back and to bring a group in as reinforcements (E1, E2).

A reserve stays on the GM's map (faded, with a RESERVE badge) where it will come in; the
players see nothing of it until its group is brought in.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.combatant import Side
from afdesk.encounter.op import Op
from afdesk.encounter.ops.reserve import (
    HOLD_PHASES,
    BringIn,
    HoldInReserve,
    group_notes,
    reserve_groups,
)
from afdesk.gui.commands import CommandContext
from afdesk.gui.document import EncounterDocument
from afdesk.gui.fit_label import FitLabel
from afdesk.gui.follow import Links
from afdesk.gui.push import push
from afdesk.gui.style import meaning_style

GROUP_ROLE = Qt.ItemDataRole.UserRole
MEMBER_ROLE = Qt.ItemDataRole.UserRole + 1


BRING_TIP = (
    "Reinforcements: the group appears on the map and in the player view, and is "
    "dealt a hand from the next deal (E1, E2)"
)


class ReservesPanel(QWidget):
    """Reserve groups and their members; hold back, return to play, bring a group in."""

    def __init__(self, ctx: CommandContext | None = None) -> None:
        super().__init__()
        self.ctx = ctx or CommandContext(self)
        self.doc: EncounterDocument | None = None
        self._links = Links()
        layout = QVBoxLayout(self)
        self.header = FitLabel()
        layout.addWidget(self.header)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Group / character", "Side", "Where"])
        self.tree.setToolTip(
            "Held back by the GM: unseen by the players, dealt no reflex until brought in"
        )
        self.tree.setMinimumHeight(110)  # three members in view even on a small screen
        self.tree.setRootIsDecorated(False)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.currentItemChanged.connect(lambda *_a: self._sync_buttons())
        layout.addWidget(self.tree, 1)
        self.notes = FitLabel()
        self.notes.setStyleSheet(meaning_style("note", self.notes))
        self.notes.setToolTip("The sentences of the encounter's GM notes that name the group")
        layout.addWidget(self.notes)
        self.bring_button = QPushButton("&Bring in the group")
        self.bring_button.setToolTip(BRING_TIP)
        self.bring_button.clicked.connect(lambda _c=False: self.bring_in_current())
        layout.addWidget(self.bring_button)
        row = QHBoxLayout()
        self.group_box = QComboBox()
        self.group_box.setEditable(True)
        self.group_box.setToolTip("The reserve group to hold the selected character in")
        self.group_box.lineEdit().setPlaceholderText("group, e.g. the archers on the ridge")
        row.addWidget(self.group_box, 1)
        self.hold_button = QPushButton("&Hold back")
        self.hold_button.setToolTip("Hold the selected character back in this reserve group")
        self.hold_button.clicked.connect(lambda _c=False: self.hold_selected())
        row.addWidget(self.hold_button)
        layout.addLayout(row)
        self.release_button = QPushButton("Return to play without reinforcements")
        self.release_button.setToolTip("A correction while preparing: out of the reserve")
        self.release_button.clicked.connect(lambda _c=False: self.release_current())
        layout.addWidget(self.release_button)
        self.reason = FitLabel()
        self.reason.setStyleSheet(meaning_style("error", self.reason))
        layout.addWidget(self.reason)

    # ------------------------------------------------------------------- document

    def set_document(self, doc: EncounterDocument) -> None:
        self.doc = doc
        self._links.clear()
        self._links.connect(doc.changed, self.refresh)
        self._links.connect(doc.selectionChanged, lambda _cid: self._sync_buttons())
        self.refresh()

    def groups(self) -> dict[str, list[str]]:
        """What the dock lists: group name to member names (tests read it)."""
        out: dict[str, list[str]] = {}
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            out[item.data(0, GROUP_ROLE)] = [
                item.child(j).text(0) for j in range(item.childCount())
            ]
        return out

    def refresh(self) -> None:
        if self.doc is None:
            return
        enc = self.doc.encounter
        groups = reserve_groups(enc)
        current = self._current_group()
        self.tree.clear()
        bold = QFont()
        bold.setBold(True)
        for name, members in groups.items():
            top = QTreeWidgetItem([name, "", f"{len(members)} waiting"])
            top.setData(0, GROUP_ROLE, name)
            top.setFont(0, bold)
            for c in members:
                where = f"({c.area[0]}, {c.area[1]})" if c.area is not None else "off the map"
                child = QTreeWidgetItem([c.name, c.side.label, where])
                child.setData(0, GROUP_ROLE, name)
                child.setData(0, MEMBER_ROLE, c.id)
                top.addChild(child)
            self.tree.addTopLevelItem(top)
            top.setExpanded(True)
            if name == current:
                self.tree.setCurrentItem(top)
        for col in range(3):
            self.tree.resizeColumnToContents(col)
        if groups:
            n = sum(len(m) for m in groups.values())
            self.header.setText(f"{n} held back, unseen by the players:")
        else:
            self.header.setText(
                "Nobody is held back. Select an opponent and hold it in a group to stage "
                "reinforcements."
            )
        text = self.group_box.currentText()
        self.group_box.blockSignals(True)
        self.group_box.clear()
        self.group_box.addItems(list(groups))
        self.group_box.setEditText(text)
        self.group_box.blockSignals(False)
        self._sync_buttons()

    def _current_group(self) -> str:
        item = self.tree.currentItem()
        return item.data(0, GROUP_ROLE) if item is not None else ""

    def _group_to_bring(self) -> str:
        """The group "Bring in" brings: the one clicked, else the first listed ("" when
        nobody is held back): the button works as soon as a group exists."""
        group = self._current_group()
        if group or self.tree.topLevelItemCount() == 0:
            return group
        return self.tree.topLevelItem(0).data(0, GROUP_ROLE) or ""

    def _selected(self):
        if self.doc is None:
            return None
        return self.doc.encounter.combatants.get(self.doc.selected)

    def _sync_buttons(self) -> None:
        if self.doc is None:
            return
        enc = self.doc.encounter
        group = self._group_to_bring()
        self.bring_button.setEnabled(bool(group))
        self.bring_button.setToolTip(
            BRING_TIP
            if group
            else "Nobody is held back yet: hold an opponent back in a group first (E1, E2)."
        )
        notes = group_notes(enc, self._current_group())  # the notes of the group clicked
        self.notes.setText("GM notes: " + " ".join(notes) if notes else "")
        self.notes.setVisible(bool(notes))
        self.bring_button.setText(f"&Bring in {group}" if group else "&Bring in the group")
        c = self._selected()
        can_hold = (
            c is not None
            and c.side is not Side.BAND
            and not c.exited
            and enc.turn.phase in HOLD_PHASES
        )
        self.hold_button.setEnabled(can_hold)
        if c is None:
            tip = "Select an opponent on the map first"
        elif c.side is Side.BAND:
            tip = f"{c.name} is a band member: the band is always in play"
        elif enc.turn.phase not in HOLD_PHASES:
            tip = "Characters are held back while preparing or at the end of an exchange"
        else:
            tip = f"Hold {c.name} back in this reserve group"
        self.hold_button.setToolTip(tip)
        self.release_button.setEnabled(
            c is not None and c.in_reserve and enc.turn.phase in HOLD_PHASES
        )

    def _clicked(self, item: QTreeWidgetItem, _col: int) -> None:
        cid = item.data(0, MEMBER_ROLE)
        if cid and self.doc is not None:
            self.doc.select(cid)
        self._sync_buttons()

    # ---------------------------------------------------------------------- actions

    def _push(self, op: Op) -> bool:
        """Push ``op`` on the dock's document; a refusal shows beside the buttons."""
        if self.doc is None:
            return False
        return push(self.doc, op, beside=self.reason)

    def hold_selected(self, group: str | None = None) -> bool:
        """Hold the selected character back in ``group`` (default: the group box)."""
        c = self._selected()
        if c is None:
            self.ctx.reporter.refused("Select a character on the map first.", self.reason)
            return False
        name = (group if group is not None else self.group_box.currentText()).strip()
        if not name:
            self.ctx.reporter.refused(
                "Name the reserve group first (e.g. the archers on the ridge).", self.reason
            )
            return False
        return self._push(HoldInReserve((c.id,), name))

    def release_current(self) -> bool:
        c = self._selected()
        if c is None or not c.in_reserve:
            return False
        return self._push(HoldInReserve((c.id,), ""))

    def bring_in(self, group: str) -> bool:
        return self._push(BringIn(group))

    def bring_in_current(self) -> bool:
        group = self._group_to_bring()
        if not group:
            self.ctx.reporter.refused(
                "Nobody is held back yet: hold an opponent back in a group first.", self.reason
            )
            return False
        return self.bring_in(group)
