"""The Reflex dock: hands and cards, this round's order, whose turn it is, and what happens
at the end of an exchange (E1, E2, E9, E16)."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QFont, QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.combatant import Side, StateKind
from afdesk.encounter.reflex import hand_specs
from afdesk.encounter.state import Mode, Phase
from afdesk.encounter.summary import headline
from afdesk.gui import commands as cmd
from afdesk.gui import screens
from afdesk.gui.commands import Command, CommandContext
from afdesk.gui.document import EncounterDocument
from afdesk.gui.fit_label import FitLabel
from afdesk.gui.follow import Links
from afdesk.gui.style import meaning_colour, meaning_fill
from afdesk.gui.text import breakable, escape


class ReflexPanel(QWidget):
    """Deal, play cards, next turn; the order with the current actor highlighted. Its
    buttons run the same GM commands as the Encounter menu, through ``ctx``."""

    def __init__(self, ctx: CommandContext | None = None) -> None:
        super().__init__()
        self.ctx = ctx or CommandContext(self)
        self.doc: EncounterDocument | None = None
        self._links = Links()
        self._hand_rows: list[tuple[str, str, str, bool]] | None = None
        self._physical_hands: list[tuple[str, str]] | None = None
        self._fonts: dict[str, QFont] = {}
        self._rows: list[_Row] = []
        """The rows the order list shows (its items hold them too)."""
        self._row_cache: dict[str, tuple[tuple, _Row, bool]] = {}
        """Each character's row and what it was made from (the character, its card, its
        place in the turn): the model's values are immutable, so unchanged ones are the
        same objects."""
        self._cards: tuple = (None, -1, {})
        self._order: tuple = (None, frozenset())
        # The panel scrolls rather than grow: at an exchange's end its text (the GM's
        # notes) would otherwise push the window past a 1280x720 screen.
        body = QWidget()
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.scroll = screens.scrolled(body)
        outer.addWidget(self.scroll)
        layout = QVBoxLayout(body)
        self.header = FitLabel()
        self.header.setStyleSheet("font-size: 15px; font-weight: bold;")
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
        self.order.setToolTip("Click a character to select it (those off the map too)")
        layout.addWidget(self.order, 3)
        for box in (self.hands, self.order):  # their rows scroll: the space goes to them
            box.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
            box.setMinimumHeight(box.fontMetrics().height() * 6)
        self.order.itemClicked.connect(self._item_clicked)
        self.hesitated = QPushButton("Act now: hesitated action (-2)")
        self.hesitated.setVisible(False)
        layout.addWidget(self.hesitated)
        self.physical_box = QGroupBox("Players hold real cards (type them in)")
        self.physical_layout = QVBoxLayout(self.physical_box)
        layout.addWidget(self.physical_box)
        self.end_box = QGroupBox("End of the exchange")
        end = QVBoxLayout(self.end_box)
        self.end_text = FitLabel()
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
        for button, command in (
            (self.deal_button, cmd.DEAL),
            (self.cards_button, cmd.PLAY_CARDS),
            (self.next_button, cmd.NEXT_TURN),
            (self.trim_button, cmd.TRIM),
            (self.next_exchange, cmd.DEAL),
        ):
            button.clicked.connect(lambda _c=False, c=command: self.run(c))
        self.end_button.clicked.connect(self._end_clicked)
        self.mode_box.activated.connect(self._mode_chosen)
        self.hesitated.clicked.connect(self._act_hesitated)

    def set_document(self, doc: EncounterDocument) -> None:
        self.doc = doc
        self._hand_rows = self._physical_hands = None  # shown anew for this document
        self._row_cache = {}
        self._links.clear()
        self._links.connect(doc.changed, self.refresh)
        self.refresh()

    def run(self, command: Command) -> None:
        """Run an encounter command, then show the model again (a question the GM
        declined leaves nothing changed, the mode box included)."""
        self.ctx.run(command)
        self.refresh()

    def physical_hands(self) -> tuple[str, ...]:
        """Hands whose cards the players hold at the table (typed in each round)."""
        return tuple(sorted(self.doc.physical_hands)) if self.doc is not None else ()

    def _toggle_physical(self, hand_id: str, on: bool) -> None:
        hands = self.doc.physical_hands
        (hands.add if on else hands.discard)(hand_id)

    # --------------------------------------------------------------------- refresh

    def refresh(self) -> None:
        doc = self.doc
        if doc is None:
            return
        enc = doc.encounter
        self.header.setText(
            f"{headline(enc)}  <span style='font-weight:normal'>Mode: {enc.mode.label} · "
            f"the referee's Shifts: {enc.meta.referee_shifts}</span>"
        )
        cmd.show_availability(self.deal_button, cmd.DEAL, doc)
        cmd.show_availability(self.cards_button, cmd.PLAY_CARDS, doc)
        cmd.show_availability(self.next_button, cmd.NEXT_TURN, doc)
        self._refresh_hands()
        self._refresh_order()
        self._refresh_physical()
        self._refresh_end()

    def _refresh_hands(self) -> None:
        enc = self.doc.encounter
        t = enc.turn
        rows = []
        for h in enc.reflex.hands:
            card = h.played[t.round - 1] if 0 < t.round <= len(h.played) else None
            played = card.label if card is not None else "—"
            if t.phase is Phase.CARDS and len(h.played) < t.round + 1:
                played = "waiting"
            holds = "held by the player" if h.physical else " ".join(c.label for c in h.cards)
            rows.append((h.label, played, holds, h.physical))
        if rows == self._hand_rows:
            return  # a turn that changed no hand: nothing to lay out again
        self._hand_rows = rows
        self.hands.clear()
        for label, played, holds, physical in rows:
            item = QTreeWidgetItem([label, played, holds])
            item.setToolTip(2, "Cards left in the hand" if not physical else "Held by the player")
            self.hands.addTopLevelItem(item)
        for col in range(3):
            self.hands.resizeColumnToContents(col)

    def _refresh_order(self) -> None:
        enc = self.doc.encounter
        t = enc.turn
        actor = enc.actor
        rows: list[_Row] = []
        hesitating = []
        if t.phase is Phase.TURNS:
            cards = self._cards_of(enc.reflex, t.round)
            known = self._row_cache
            for i, cid in enumerate(t.order):
                c = enc.combatants.get(cid)
                if c is None:
                    continue
                look = "actor" if cid == actor else ("done" if i < t.index else "")
                key = (c, cards.get(cid, ""), look)
                hit = known.get(cid)
                if hit is None or hit[0] != key:
                    hit = known[cid] = (key, *_order_row(c, key[1], look))
                rows.append(hit[1])
                if hit[2] and cid != actor:
                    hesitating.append(c)
        elif t.phase is Phase.CARDS:
            rows.append(_Row("Waiting for this round's cards (Play cards…).", None, ""))
        # Whoever is not in this round's order (off the map, or added since the deal) can
        # still be picked here.
        listed = self._listed(t)
        for c in enc.roster():
            if c.id in listed or (c.on_map and t.phase is not Phase.TURNS):
                continue
            if c.exited:
                where = "left"
            elif c.in_reserve:  # waits for its group to be brought in
                where = f"in reserve: {c.reserve}"
            else:
                where = "off the map" if not c.on_map else "not in this round"
            rows.append(_Row(f"   {c.name}  ({where})", c.id, "aside"))
        self._show_rows(rows)
        self._hesitating = hesitating
        self.hesitated.setVisible(bool(hesitating) and not t.interjection)
        if hesitating:
            self.hesitated.setText(f"{hesitating[0].name} acts now (hesitated, -2, E6)")

    def _cards_of(self, reflex, round_no: int) -> dict[str, str]:
        """Each character's card this round (by its hand), worked out once per deal and
        round."""
        if self._cards[0] is not reflex or self._cards[1] != round_no:
            cards = {}
            for h in reflex.hands:
                if len(h.played) >= round_no and h.played[round_no - 1] is not None:
                    for m in h.members:
                        cards[m] = h.played[round_no - 1].label
            self._cards = (reflex, round_no, cards)
        return self._cards[2]

    def _listed(self, t) -> frozenset[str]:
        """Who is in this round's order (nobody outside the turns)."""
        if t.phase is not Phase.TURNS:
            return frozenset()
        if self._order[0] is not t.order:
            self._order = (t.order, frozenset(t.order))
        return self._order[1]

    def _show_rows(self, rows: list[_Row]) -> None:
        """Show ``rows`` in the order list, changing only the items that differ (a turn
        changes two of them: the list keeps its items, its scroll place and its speed
        however long the roster is)."""
        order = self.order
        shown = self._rows
        if len(shown) != order.count():  # the list was changed behind the panel's back
            shown = [order.item(i).data(_ROW) for i in range(order.count())]
        while order.count() > len(rows):
            order.takeItem(order.count() - 1)
        for i, row in enumerate(rows):
            if i < len(shown) and shown[i] == row:
                continue
            item = order.item(i)
            if item is None:
                item = QListWidgetItem()
                order.addItem(item)
            elif item.data(_ROW) == row:
                continue
            item.setText(row.text)
            item.setData(Qt.ItemDataRole.UserRole, row.cid)
            _style(item, row.look, self._fonts, order.palette())
            item.setData(_ROW, row)
        self._rows = list(rows)

    def _refresh_physical(self) -> None:
        enc = self.doc.encounter
        if enc.turn.phase not in (Phase.SETUP, Phase.EXCHANGE_END):
            self.physical_box.setVisible(False)  # asked before a deal only
            return
        hands = []
        for spec in hand_specs(enc.roster()):
            members = [enc.combatants[m] for m in spec.members]
            if members and members[0].side is not Side.BAND:
                continue
            hands.append((spec.id, spec.label))
        if hands != self._physical_hands:  # the boxes change only with the hands
            self._physical_hands = hands
            while self.physical_layout.count():
                item = self.physical_layout.takeAt(0)
                if item.widget():
                    item.widget().deleteLater()
            for hid, label in hands:
                box = QCheckBox(label)
                box.setProperty("hand", hid)
                box.toggled.connect(lambda on, hid=hid: self._toggle_physical(hid, on))
                self.physical_layout.addWidget(box)
        for i in range(self.physical_layout.count()):
            box = self.physical_layout.itemAt(i).widget()
            if isinstance(box, QCheckBox):
                box.blockSignals(True)
                box.setChecked(box.property("hand") in self.doc.physical_hands)
                box.blockSignals(False)
        self.physical_box.setVisible(bool(hands))

    def _refresh_end(self) -> None:
        enc = self.doc.encounter
        t = enc.turn
        over = t.phase is Phase.EXCHANGE_END
        shown = over or t.phase is Phase.ENDED
        if shown and self.end_box.isHidden():  # the exchange just ended: its choices in view
            QTimer.singleShot(0, lambda: self.scroll.ensureWidgetVisible(self.end_box))
        self.end_box.setVisible(shown)
        lines = []
        if over:
            lines.append("Cards are reshuffled and dealt again for the next exchange (E2).")
            if enc.zone.size() != (3, 3):
                lines.append(cmd.trim_words(self.doc))
            lines.append(
                "The mode may change now (E16). Reinforcements arrive at the edges "
                "now: see the GM notes."
            )
            if enc.meta.notes:
                notes = escape(breakable(enc.meta.notes)).replace("\n", "<br>")
                lines.append(f"<i>GM notes:</i> {notes}")
        else:
            lines.append("Persevere follows if it lasted more than one exchange (E15).")
        self.end_text.setText("<br>".join(lines))
        self.trim_button.setEnabled(over and cmd.TRIM.available(self.doc, "").enabled)
        self.next_exchange.setVisible(over)
        self.mode_box.setEnabled(over)
        self.mode_box.setCurrentIndex(self.mode_box.findData(enc.mode))
        self.end_button.setText("&End the encounter" if over else "&Persevere…")
        cmd.show_availability(self.end_button, cmd.END if over else cmd.PERSEVERE, self.doc)

    def _end_clicked(self) -> None:
        over = self.doc.encounter.turn.phase is Phase.EXCHANGE_END
        self.run(cmd.END if over else cmd.PERSEVERE)

    def _item_clicked(self, item: QListWidgetItem) -> None:
        cid = item.data(Qt.ItemDataRole.UserRole)
        if cid and self.doc is not None and cid in self.doc.encounter.combatants:
            self.doc.select(cid)

    def _mode_chosen(self, _index: int) -> None:
        mode = self.mode_box.currentData()
        if mode is not None:
            self.run(cmd.MODES[Mode(mode)])

    def _act_hesitated(self) -> None:
        if self._hesitating:
            self.ctx.run(cmd.HESITATED, self._hesitating[0].id)


def _order_row(c, card: str, look: str) -> tuple[_Row, bool]:
    """A character's row in this round's order, and whether it is hesitating."""
    mark = {"actor": "▶ ", "done": "✓ "}.get(look, "   ")
    extra = []
    hesitating = c.has(StateKind.HESITATING)
    if hesitating:
        extra.append("hesitating")
    if c.has(StateKind.DOWN):
        extra.append("down")
    if c.exited:
        extra.append("left")
    text = f"{mark}{card}  {c.name}"
    if extra:
        text += f"  ({', '.join(extra)})"
    return _Row(text, c.id, look), hesitating


_ROW = Qt.ItemDataRole.UserRole + 7
"""The row an order item shows (items are changed only when it differs)."""


class _Row(NamedTuple):
    text: str
    cid: str | None
    look: str
    """"actor" (bold, highlighted), "done" (greyed), "aside" (not in this round) or ""."""


def _style(item: QListWidgetItem, look: str, fonts: dict[str, QFont], palette: QPalette) -> None:
    if "actor" not in fonts:
        bold = QFont(item.font())
        bold.setBold(True)
        bold.setPointSizeF(bold.pointSizeF() * 1.2)
        fonts["actor"] = bold
        fonts[""] = QFont(item.font())
    item.setFont(fonts["actor" if look == "actor" else ""])
    if look == "actor":
        back, fore = meaning_fill("actor", palette)
        item.setBackground(QBrush(back))
        item.setForeground(QBrush(fore))
        return
    item.setBackground(QBrush())
    grey = {"done": "done", "aside": "hint"}.get(look)
    item.setForeground(QBrush(meaning_colour(grey, palette)) if grey else QBrush())
