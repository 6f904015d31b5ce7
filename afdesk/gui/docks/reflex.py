"""The Reflex dock: hands and cards, this round's order, whose turn it is, and what happens
at the end of an exchange (E1, E2, E9, E16)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.combatant import Side, StateKind
from afdesk.encounter.ops.flow import ActHesitated
from afdesk.encounter.reflex import ROUNDS, hand_specs
from afdesk.encounter.state import Mode, Phase
from afdesk.gui.actions import deal_refusal, trim_words
from afdesk.gui.document import EncounterDocument, Links


class ReflexPanel(QWidget):
    """Deal, play cards, next turn; the order with the current actor highlighted."""

    message = Signal(str)

    def __init__(self, window) -> None:
        super().__init__()
        self.window = window
        self.doc: EncounterDocument | None = None
        self._links = Links()
        self._physical: set[str] = set()
        layout = QVBoxLayout(self)
        self.header = QLabel()
        self.header.setStyleSheet("font-size: 15px; font-weight: bold;")
        self.header.setWordWrap(True)
        layout.addWidget(self.header)
        buttons = QHBoxLayout()
        self.deal_button = QPushButton("&Deal reflex")
        self.cards_button = QPushButton("Play &cards…")
        self.next_button = QPushButton("Next &turn (Space)")
        for b in (self.deal_button, self.cards_button, self.next_button):
            buttons.addWidget(b)
        layout.addLayout(buttons)
        self.hands = QTreeWidget()
        self.hands.setHeaderLabels(["Hand", "Played", "Holds"])
        self.hands.setRootIsDecorated(False)
        self.hands.setToolTip("Each band member holds a hand; opponents act by group (E2).")
        layout.addWidget(self.hands, 2)
        layout.addWidget(QLabel("This round, highest card first:"))
        self.order = QListWidget()
        layout.addWidget(self.order, 3)
        self.hesitated = QPushButton("Act now: hesitated action (-2)")
        self.hesitated.setVisible(False)
        layout.addWidget(self.hesitated)
        self.physical_box = QGroupBox("Players hold real cards (type them in)")
        self.physical_layout = QVBoxLayout(self.physical_box)
        layout.addWidget(self.physical_box)
        self.end_box = QGroupBox("End of the exchange")
        end = QVBoxLayout(self.end_box)
        self.end_text = QLabel()
        self.end_text.setWordWrap(True)
        end.addWidget(self.end_text)
        row = QHBoxLayout()
        self.trim_button = QPushButton("&Trim the zone")
        self.mode_box = QComboBox()
        for mode in Mode:
            self.mode_box.addItem(mode.label, mode)
        row.addWidget(self.trim_button)
        row.addWidget(QLabel("Mode:"))
        row.addWidget(self.mode_box)
        end.addLayout(row)
        row2 = QHBoxLayout()
        self.next_exchange = QPushButton("Deal the &next exchange")
        self.end_button = QPushButton("&End the encounter")
        row2.addWidget(self.next_exchange)
        row2.addWidget(self.end_button)
        end.addLayout(row2)
        layout.addWidget(self.end_box)
        self.deal_button.clicked.connect(lambda: self.window.deal())
        self.cards_button.clicked.connect(lambda: self.window.play_cards())
        self.next_button.clicked.connect(lambda: self.window.next_turn())
        self.trim_button.clicked.connect(lambda: self.window.trim_zone())
        self.next_exchange.clicked.connect(lambda: self.window.deal())
        self.end_button.clicked.connect(self._end_clicked)
        self.mode_box.activated.connect(self._mode_chosen)
        self.hesitated.clicked.connect(self._act_hesitated)

    def set_document(self, doc: EncounterDocument) -> None:
        self.doc = doc
        self._physical = set()
        self._links.clear()
        self._links.connect(doc.changed, self.refresh)
        self.refresh()

    def physical_hands(self) -> tuple[str, ...]:
        """Hands whose cards the players hold at the table (typed in each round)."""
        return tuple(sorted(self._physical))

    def _toggle_physical(self, hand_id: str, on: bool) -> None:
        (self._physical.add if on else self._physical.discard)(hand_id)

    # --------------------------------------------------------------------- refresh

    def refresh(self) -> None:
        doc = self.doc
        if doc is None:
            return
        enc = doc.encounter
        t = enc.turn
        head = {
            Phase.SETUP: "Setup: place everyone, then deal reflex.",
            Phase.CARDS: f"Exchange {t.exchange} · round {t.round + 1} of {ROUNDS}: "
            "every hand plays a card.",
            Phase.TURNS: f"Exchange {t.exchange} · round {t.round} of {ROUNDS}",
            Phase.EXCHANGE_END: f"Exchange {t.exchange} is over.",
            Phase.ENDED: "The encounter is over.",
        }[t.phase]
        self.header.setText(
            f"{head}  <span style='font-weight:normal'>Mode: {enc.mode.label} · "
            f"the referee's Shifts: {enc.meta.referee_shifts}</span>"
        )
        why = deal_refusal(doc, self.physical_hands())
        self.deal_button.setEnabled(not why)
        self.deal_button.setToolTip(why)
        self.cards_button.setEnabled(t.phase is Phase.CARDS)
        self.next_button.setEnabled(t.phase is Phase.TURNS)
        self._refresh_hands()
        self._refresh_order()
        self._refresh_physical()
        self._refresh_end()

    def _refresh_hands(self) -> None:
        enc = self.doc.encounter
        t = enc.turn
        self.hands.clear()
        for h in enc.reflex.hands:
            card = h.played[t.round - 1] if 0 < t.round <= len(h.played) else None
            played = card.label if card is not None else "—"
            if t.phase is Phase.CARDS and len(h.played) < t.round + 1:
                played = "waiting"
            holds = "held by the player" if h.physical else " ".join(c.label for c in h.cards)
            item = QTreeWidgetItem([h.label, played, holds])
            item.setToolTip(2, "Cards left in the hand" if not h.physical else "Held by the player")
            self.hands.addTopLevelItem(item)
        for col in range(3):
            self.hands.resizeColumnToContents(col)

    def _refresh_order(self) -> None:
        enc = self.doc.encounter
        t = enc.turn
        self.order.clear()
        hesitating = []
        if t.phase is Phase.TURNS:
            cards = {}
            for h in enc.reflex.hands:
                if len(h.played) >= t.round and h.played[t.round - 1] is not None:
                    for m in h.members:
                        cards[m] = h.played[t.round - 1].label
            for i, cid in enumerate(t.order):
                c = enc.combatants.get(cid)
                if c is None:
                    continue
                mark = "▶ " if cid == enc.actor else ("✓ " if i < t.index else "   ")
                extra = []
                if c.has(StateKind.HESITATING):
                    extra.append("hesitating")
                    if cid != enc.actor:
                        hesitating.append(c)
                if c.has(StateKind.DOWN):
                    extra.append("down")
                if c.exited:
                    extra.append("left")
                text = f"{mark}{cards.get(cid, '')}  {c.name}"
                if extra:
                    text += f"  ({', '.join(extra)})"
                item = QListWidgetItem(text)
                if cid == enc.actor:
                    font = QFont(item.font())
                    font.setBold(True)
                    font.setPointSizeF(font.pointSizeF() * 1.2)
                    item.setFont(font)
                    item.setBackground(QBrush(QColor("#ffe680")))
                elif i < t.index:
                    item.setForeground(QBrush(QColor("#888888")))
                item.setData(Qt.ItemDataRole.UserRole, cid)
                self.order.addItem(item)
        elif t.phase is Phase.CARDS:
            self.order.addItem("Waiting for this round's cards (Play cards…).")
        self._hesitating = hesitating
        self.hesitated.setVisible(bool(hesitating) and not t.interjection)
        if hesitating:
            self.hesitated.setText(f"{hesitating[0].name} acts now (hesitated, -2, E6)")

    def _refresh_physical(self) -> None:
        while self.physical_layout.count():
            item = self.physical_layout.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        enc = self.doc.encounter
        for spec in hand_specs(enc.roster()):
            members = [enc.combatants[m] for m in spec.members]
            if members and members[0].side is not Side.BAND:
                continue
            box = QCheckBox(spec.label)
            box.setChecked(spec.id in self._physical)
            box.toggled.connect(lambda on, hid=spec.id: self._toggle_physical(hid, on))
            self.physical_layout.addWidget(box)
        self.physical_box.setVisible(
            enc.turn.phase in (Phase.SETUP, Phase.EXCHANGE_END) and self.physical_layout.count() > 0
        )

    def _refresh_end(self) -> None:
        enc = self.doc.encounter
        t = enc.turn
        over = t.phase is Phase.EXCHANGE_END
        self.end_box.setVisible(over or t.phase is Phase.ENDED)
        edges = enc.trim_proposal()
        lines = []
        if over:
            lines.append("Cards are reshuffled and dealt again for the next exchange (E2).")
            if enc.zone.size() != (3, 3):
                lines.append(trim_words(enc))
            lines.append(
                "The mode may change now (E16). Reinforcements arrive at the edges "
                "now: see the GM notes."
            )
            if enc.meta.notes:
                lines.append(f"<i>GM notes:</i> {enc.meta.notes}")
        else:
            lines.append("Persevere follows if it lasted more than one exchange (E15).")
        self.end_text.setText("<br>".join(lines))
        self.trim_button.setEnabled(over and bool(edges))
        self.next_exchange.setVisible(over)
        self.mode_box.setEnabled(over)
        self.mode_box.setCurrentIndex(self.mode_box.findData(enc.mode))
        self.end_button.setText("&End the encounter" if over else "&Persevere…")

    def _end_clicked(self) -> None:
        if self.doc.encounter.turn.phase is Phase.EXCHANGE_END:
            self.window.end_encounter()
        else:
            self.window.persevere()

    def _mode_chosen(self, _index: int) -> None:
        mode = self.mode_box.currentData()
        if mode is not None:
            self.window.change_mode(Mode(mode))

    def _act_hesitated(self) -> None:
        if self._hesitating:
            self.doc.push(ActHesitated(self._hesitating[0].id))
