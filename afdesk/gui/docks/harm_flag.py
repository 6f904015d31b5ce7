"""The Character dock's flag when a character's hits reach its grit.

The pages give no automatic rule, so the flag asks the GM: Down (E17), Out of the fight, or
Nothing; each is one ``DecideHarm`` Op, logged and undoable."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from afdesk.encounter.combatant import Combatant
from afdesk.encounter.damage import harm_text, hits_reach_grit
from afdesk.encounter.ops.damage import DecideHarm
from afdesk.gui.fit_label import FitLabel

CHOICES = (
    ("down", "&Down", "The down state (E17): penalty, speed 0, loses the next action"),
    ("out", "Ou&t", "Out of the fight: the character leaves the encounter"),
    ("nothing", "&Nothing", "It fights on; the flag returns if its hits rise again"),
)


class HarmFlag(QWidget):
    """A red banner with the three decisions, shown only while the character is flagged."""

    def __init__(self, push: Callable[[object], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._push = push
        self.cid = ""
        self.setObjectName("harmFlag")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)  # the red banner
        self.setStyleSheet(
            "#harmFlag { background: #d0021b; border-radius: 4px; }"
            " #harmFlag QLabel { color: white; font-weight: bold; }"
        )
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 4, 6, 4)
        self.text = FitLabel()
        outer.addWidget(self.text)
        row = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        for choice, label, tip in CHOICES:
            b = QPushButton(label)
            b.setToolTip(tip)
            b.clicked.connect(lambda _c=False, ch=choice: self.decide(ch))
            row.addWidget(b)
            self.buttons[choice] = b
        outer.addLayout(row)
        self.setVisible(False)

    def show_for(self, c: Combatant | None) -> None:
        flagged = c is not None and hits_reach_grit(c)
        self.cid = c.id if c is not None else ""
        if flagged and c is not None:
            self.text.setText(f"⚠ {c.name}: {harm_text(c)}")
        self.setVisible(flagged)

    def decide(self, choice: str) -> None:
        if self.cid:
            self._push(DecideHarm(self.cid, choice))
