"""The reflex strip on the players' screen (issue 17, E2): this round's cards in play order,
each with its character's name (initials when room is short), the current actor
highlighted, the exchange and round above them.

Characters the table may not see (:func:`afdesk.encounter.visibility.player_visible`:
hidden, under fog) never appear; when it is such a character's turn the strip shows a
generic "?" card or nothing, as the GM chooses (Table > Hidden turns).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from afdesk.encounter.combatant import Side
from afdesk.encounter.reflex import ROUNDS
from afdesk.encounter.state import Phase
from afdesk.encounter.visibility import player_visible
from afdesk.gui.style import side_colour


@dataclass(frozen=True)
class StripCard:
    name: str
    initials: str
    card: str
    """The card played ("Q♥"), or "" (a hidden turn, a card the table does not know)."""
    red: bool
    side: Side | None
    """None: a hidden character's turn shown as "?"."""
    current: bool
    done: bool
    """Its turn this round is over."""


@dataclass(frozen=True)
class StripState:
    head: str
    cards: tuple[StripCard, ...]
    note: str = ""
    """What the strip says when there are no cards yet."""


def strip_state(enc, hidden_turn: str = "?") -> StripState:
    """What the players' strip shows now (pure: no widget)."""
    t = enc.turn
    if t.phase is Phase.SETUP:
        return StripState("Setting up", (), "The fight has not started")
    if t.phase is Phase.ENDED:
        return StripState("The encounter is over", ())
    head = f"Exchange {t.exchange} · Round {t.round} of {ROUNDS}"
    if t.phase is Phase.EXCHANGE_END:
        return StripState(f"Exchange {t.exchange} is over", (), "Next: a new deal")
    if t.phase is Phase.CARDS or not t.order:
        coming = f"Exchange {t.exchange} · Round {t.round + 1} of {ROUNDS}"
        return StripState(coming, (), "Playing this round's reflex cards…")
    actor = enc.actor
    cards: list[StripCard] = []
    for i, cid in enumerate(t.order):
        c = enc.combatants.get(cid)
        if c is None:
            continue
        current = cid == actor
        if not player_visible(enc, cid):
            if current and hidden_turn == "?":
                cards.append(StripCard("?", "?", "", False, None, True, False))
            continue
        card = ""
        red = False
        hand = enc.reflex.hand_of(cid)
        if hand is not None and 0 < t.round <= len(hand.played):
            played = hand.played[t.round - 1]
            if played is not None:
                card, red = played.label, played.suit.red
        cards.append(StripCard(c.name, c.initials, card, red, c.side, current, i < t.index))
    return StripState(head, tuple(cards))


class ReflexStrip(QWidget):
    """The strip, drawn large enough to read across a room (a 1080p TV: cards 96 px tall)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reflexStrip")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.state = StripState("", ())

    def sizeHint(self) -> QSize:
        return QSize(800, self._height())

    def _height(self) -> int:
        return max(96, min(150, int(self.window().height() * 0.12))) if self.window() else 110

    def fit_height(self) -> None:
        """About an eighth of the screen's height (the window was resized)."""
        if self.height() != self._height():
            self.setFixedHeight(self._height())

    def set_state(self, state: StripState) -> None:
        if state != self.state:
            self.state = state
            self.setFixedHeight(self._height())
            self.update()

    def texts(self) -> list[str]:
        """Every word the strip shows (tests read it)."""
        out = [self.state.head, self.state.note]
        for c in self.state.cards:
            out += [c.name, c.card]
        return [t for t in out if t]

    def paintEvent(self, _event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.fillRect(self.rect(), QColor("#101317"))
        h = self.height()
        head_font = QFont(self.font())
        head_font.setPixelSize(max(16, int(h * 0.2)))
        head_font.setBold(True)
        p.setFont(head_font)
        p.setPen(QColor("#f2f2f2"))
        pad = 12
        head = self.state.head.replace(" · ", "\n")
        widest = max(head.split("\n"), key=QFontMetricsF(head_font).horizontalAdvance)
        head_w = max(120.0, QFontMetricsF(head_font).horizontalAdvance(widest) + 12)
        head_rect = QRectF(pad, pad, head_w, h - 2 * pad)
        flags = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
        p.drawText(head_rect, flags, head)
        x = head_rect.right() + pad
        if not self.state.cards:
            p.setPen(QColor("#c0c6cf"))
            p.drawText(QRectF(x, 0, self.width() - x - pad, h), flags, self.state.note)
            return
        n = len(self.state.cards)
        room = self.width() - x - pad
        card_h = h - 2 * pad
        card_w = min(card_h * 2.6, (room - (n - 1) * 8) / n)
        # One name size for every card: the largest at which every name fits; initials
        # for all when even the smallest is too big.
        size = self._name_size(card_w, card_h)
        for card in self.state.cards:
            self._paint_card(p, QRectF(x, pad, card_w, card_h), card, size)
            x += card_w + 8

    def _name_size(self, card_w: float, card_h: float) -> int:
        """The pixel size of the names (0: initials)."""
        room = card_w - max(8.0, card_w * 0.06) - 26
        f = QFont(self.font())
        f.setBold(True)
        names = [c.name for c in self.state.cards if c.side is not None]
        for factor in (0.3, 0.26, 0.23):
            f.setPixelSize(max(12, int(card_h * factor)))
            metrics = QFontMetricsF(f)
            if all(metrics.horizontalAdvance(n) <= room for n in names):
                return f.pixelSize()
        return 0

    def _paint_card(self, p: QPainter, r: QRectF, card: StripCard, size: int) -> None:
        colour = side_colour(card.side) if card.side is not None else QColor("#6b7280")
        back = QColor("#1f252d") if not card.current else QColor("#fff4c2")
        if card.done:
            back = QColor("#171b20")
        p.setPen(QPen(QColor("#ffd54a") if card.current else colour, 6 if card.current else 3))
        p.setBrush(back)
        p.drawRoundedRect(r.adjusted(2, 2, -2, -2), 10, 10)
        # The side's band on the left.
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(colour)
        band = QRectF(r.left() + 5, r.top() + 5, max(8.0, r.width() * 0.06), r.height() - 10)
        p.drawRoundedRect(band, 4, 4)
        text_r = r.adjusted(band.width() + 12, 4, -8, -4)
        ink = QColor("#111111") if card.current else QColor("#f2f2f2")
        if card.done:
            ink = QColor("#8a929c")
        f = QFont(self.font())
        f.setBold(True)
        if card.card:
            f.setPixelSize(max(14, int(r.height() * 0.34)))
            p.setFont(f)
            suit_ink = QColor("#d32f2f") if card.red else ink
            p.setPen(suit_ink)
            top = QRectF(text_r.left(), text_r.top(), text_r.width(), text_r.height() * 0.5)
            p.drawText(top, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, card.card)
            name_r = QRectF(text_r.left(), top.bottom(), text_r.width(), text_r.height() * 0.5)
        else:
            name_r = text_r
        if card.side is None:
            f.setPixelSize(max(13, int(r.height() * 0.42)))
        else:
            f.setPixelSize(size or max(13, int(r.height() * 0.3)))
        p.setFont(f)
        p.setPen(ink)
        name = card.name if size or card.side is None else card.initials
        align = Qt.AlignmentFlag.AlignVCenter | (
            Qt.AlignmentFlag.AlignHCenter if card.side is None else Qt.AlignmentFlag.AlignLeft
        )
        p.drawText(name_r, align, name)


__all__ = ["ReflexStrip", "StripCard", "StripState", "strip_state"]
