"""Playing the round's reflex cards: chosen from a virtual hand, or typed in for a player
holding real cards (E2)."""

from __future__ import annotations

import random

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.reflex import Play, PlayCards, active_hands
from afdesk.encounter.reflex import Card
from afdesk.gui import screens
from afdesk.gui.document import EncounterDocument
from afdesk.gui.errors import show_refusal
from afdesk.gui.push import push
from afdesk.gui.style import meaning_style


class PlayCardsDialog(QDialog):
    """One field per hand; Reveal plays them all at once (one undo step)."""

    def __init__(self, doc: EncounterDocument, parent=None, rng: random.Random | None = None):
        super().__init__(parent)
        self.doc = doc
        self.rng = rng or random.SystemRandom()
        enc = doc.encounter
        self.setWindowTitle(f"Round {enc.turn.round + 1}: reflex cards")
        layout = QVBoxLayout(self)
        layout.addWidget(
            QLabel(
                "Every hand plays one card; all are revealed together and the "
                "highest acts first (E2)."
            )
        )
        body = QWidget()
        form = QFormLayout(body)  # many hands scroll; Reveal stays in view
        self.fields: dict[str, QComboBox | QLineEdit] = {}
        for h in active_hands(enc):
            if h.physical:
                edit = QLineEdit()
                edit.setPlaceholderText("type the card: QH, 10s, A♠…")
                self.fields[h.id] = edit
                form.addRow(f"{h.label} (player's card)", edit)
            else:
                box = QComboBox()
                for card in sorted(h.cards, reverse=True):
                    box.addItem(card.label, card)
                if h.cards:
                    box.setCurrentIndex(self.rng.randrange(len(h.cards)))
                self.fields[h.id] = box
                form.addRow(h.label, box)
        scroll = screens.scrolled(body)
        scroll.setObjectName("dialogScroll")
        layout.addWidget(scroll, 1)
        self.random_button = QPushButton("&Random cards for the virtual hands")
        self.random_button.clicked.connect(self._randomise)
        layout.addWidget(self.random_button)
        self.error = QLabel()
        self.error.setStyleSheet(meaning_style("error", self.error, "font-weight: bold;"))
        self.error.setWordWrap(True)
        layout.addWidget(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("&Reveal")
        buttons.accepted.connect(self.reveal)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        screens.fit_dialog(self)

    def _randomise(self) -> None:
        for field in self.fields.values():
            if isinstance(field, QComboBox) and field.count():
                field.setCurrentIndex(self.rng.randrange(field.count()))

    def plays(self) -> tuple[Play, ...]:
        out = []
        for hand, field in self.fields.items():
            if isinstance(field, QLineEdit):
                out.append(Play(hand, Card.parse(field.text())))
            else:
                card = field.currentData()
                if card is None:
                    raise IllegalOp(f"{hand} has no cards left: deal again")
                out.append(Play(hand, card))
        return tuple(out)

    def reveal(self) -> None:
        try:
            plays = self.plays()
        except IllegalOp as exc:
            show_refusal(self.error, exc)
            return
        if push(self.doc, PlayCards(plays), beside=lambda r: r and show_refusal(self.error, r)):
            self.accept()
