"""The reflex strip on the players' screen (E2): this round's cards in play order,
each with its character's name (its map label when room is short: the distinct short
label of :mod:`afdesk.encounter.labels`, as on the tokens), the current actor
highlighted, the exchange and round above them.

Characters the table may not see (:func:`afdesk.encounter.visibility.player_visible`:
hidden, under fog) never appear; when it is such a character's turn the strip shows a
generic "?" card or nothing, as the GM chooses (Table > Hidden turns).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from afdesk.encounter.combatant import Side
from afdesk.encounter.labels import ID_AND_NAME, short_labels
from afdesk.encounter.reflex import ROUNDS
from afdesk.encounter.state import Phase
from afdesk.encounter.visibility import player_visible
from afdesk.gui.style import side_colour


@dataclass(frozen=True)
class StripCard:
    name: str
    label: str
    """The token's label on the map (afdesk.encounter.labels): "B1" and "B2", never two
    cards with the same initials."""
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


def strip_state(enc, hidden_turn: str = "?", cache: StripCache | None = None) -> StripState:
    """What the players' strip shows now (pure: no widget). ``cache`` keeps the cards of
    the characters that did not change since the last call (a turn moving on changes two
    cards however long the round is); the answer is the same without it."""
    t = enc.turn
    if t.phase is Phase.SETUP:
        return StripState("Setting up", (), f"The {enc.mode.label.lower()} has not started")
    if t.phase is Phase.ENDED:
        return StripState("The encounter is over", ())
    head = f"Exchange {t.exchange} · Round {t.round} of {ROUNDS}"
    if t.phase is Phase.EXCHANGE_END:
        return StripState(f"Exchange {t.exchange} is over", (), "Next: a new deal")
    if t.phase is Phase.CARDS or not t.order:
        coming = f"Exchange {t.exchange} · Round {t.round + 1} of {ROUNDS}"
        return StripState(coming, (), "Playing this round's reflex cards…")
    cache = cache if cache is not None else StripCache()
    actor = enc.actor
    hands = cache.hands_of(enc.reflex)
    labels = cache.labels_of(enc)
    cards: list[StripCard] = []
    combatants, zone, fog, round_no = enc.combatants, enc.zone, enc.fog, t.round
    for i, cid in enumerate(t.order):
        c = combatants.get(cid)
        if c is None:
            continue
        current = cid == actor
        hand = hands.get(cid)
        label = labels.get(cid)
        if label is None:  # worked out only then (as a default argument: 200 a turn)
            label = c.initials
        deps = (c, label, hand, zone, fog, round_no, current, i < t.index, hidden_turn)
        known = cache.cards.get(cid)
        if known is not None and known[0] == deps:
            card = known[1]
        else:
            card = _card(enc, c, label, hand, round_no, current, i < t.index, hidden_turn)
            cache.cards[cid] = (deps, card)
        if card is not None:
            cards.append(card)
    return StripState(head, tuple(cards))


def _card(enc, c, label: str, hand, round_no: int, current: bool, done: bool, hidden_turn: str):
    """One character's card on the strip (None: the table does not see it); ``label`` is
    its token's label."""
    if not player_visible(enc, c.id):
        if current and hidden_turn == "?":
            return StripCard("?", "?", "", False, None, True, False)
        return None
    card = ""
    red = False
    if hand is not None and 0 < round_no <= len(hand.played):
        played = hand.played[round_no - 1]
        if played is not None:
            card, red = played.label, played.suit.red
    return StripCard(c.name, label, card, red, c.side, current, done)


class StripCache:
    """What :func:`strip_state` keeps between calls: each character's card and what it
    was made from (the character, its hand, the zone, the fog, the round, its place in
    the turn), compared by identity first: the model's values are immutable."""

    def __init__(self) -> None:
        self.cards: dict[str, tuple[tuple, StripCard | None]] = {}
        self._reflex: object = None
        self._hands: dict[str, object] = {}
        self._names: tuple = ()
        self._labels: dict[str, str] = {}

    def labels_of(self, enc) -> dict[str, str]:
        """The tokens' labels (:func:`afdesk.encounter.labels.short_labels`, as the map
        works them out), again only when a name changed or someone came or went."""
        names = tuple(map(ID_AND_NAME, enc.roster()))
        if names != self._names:
            self._names, self._labels = names, short_labels(enc.roster())
        return self._labels

    def hands_of(self, reflex) -> dict[str, object]:
        """Each character's hand (the first that holds it, as ``Reflex.hand_of``)."""
        if reflex is not self._reflex:
            hands: dict[str, object] = {}
            for h in reflex.hands:
                for m in h.members:
                    hands.setdefault(m, h)
            self._reflex, self._hands = reflex, hands
        return self._hands


MIN_CARD = 0.9
"""The narrowest card the strip draws, as a share of its height: room for the card and
the map label, read across a room."""
MORE_ROOM = 110
"""Pixels kept at the right for "+N" when the round holds more cards than fit (more when
the number is wider in the strip's font)."""


class ReflexStrip(QWidget):
    """The strip, drawn large enough to read across a room (a 1080p TV: cards 96 px tall)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reflexStrip")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.state = StripState("", ())
        self._sized: tuple[tuple, int] = ((), 0)
        """The names' size and what it was measured for (the names, the card's size)."""
        self._head_measured: tuple[tuple, float] = ((), 0.0)
        """The head's width and what it was measured for (its words, its font)."""

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
            old, self.state = self.state, state
            self.setFixedHeight(self._height())
            dirty = self.changed_rect(old, state)
            if dirty is None:
                self.update()
            elif not dirty.isEmpty():
                self.update(dirty)

    def changed_rect(self, old: StripState, new: StripState) -> QRect | None:
        """Where the strip's picture differs between ``old`` and ``new`` when they share a
        layout (the same head, the same names in the same places, the same cards drawn):
        the cards that changed (the turn moved on: two cards). None: everything may move
        (repaint it all)."""
        if (
            old.head != new.head
            or old.note != new.note
            or len(old.cards) != len(new.cards)
            or not new.cards
            or self._window(old) != self._window(new)
        ):
            return None
        if any(
            (a.name, a.side is None) != (b.name, b.side is None)
            for a, b in zip(old.cards, new.cards, strict=True)
        ):
            return None  # the names' size may change
        x0, card_w, _card_h = self._layout()
        first, count = self._window(new)
        dirty = QRect()
        for i in range(count):
            if old.cards[first + i] != new.cards[first + i]:
                lo, hi = _card_span(x0 + i * (card_w + 8), card_w)
                dirty = dirty.united(QRect(lo, 0, hi - lo, self.height()))
        return dirty

    def texts(self) -> list[str]:
        """Every word the strip shows (tests read it)."""
        out = [self.state.head, self.state.note]
        first, count = self._window(self.state)
        for c in self.state.cards[first : first + count]:
            out += [c.name, c.card]
        out.append(self._more(self.state))
        return [t for t in out if t]

    def _more(self, state: StripState) -> str:
        """What the strip says of the cards it has no room for: "+12" (to come)."""
        first, count = self._window(state)
        after = len(state.cards) - first - count
        return f"+{after}" if after > 0 else ""

    def _head_font(self) -> QFont:
        head_font = QFont(self.font())
        head_font.setPixelSize(max(16, int(self.height() * 0.2)))
        head_font.setBold(True)
        return head_font

    def _head_rect(self, head_font: QFont) -> QRectF:
        pad = 12
        key = (self.state.head, head_font.key())
        if key != self._head_measured[0]:  # a paint and a turn ask it eight times
            metrics = QFontMetricsF(head_font)
            lines = key[0].replace(" · ", "\n").split("\n")
            widest = max(metrics.horizontalAdvance(line) for line in lines)
            self._head_measured = (key, max(120.0, widest + 12))
        return QRectF(pad, pad, self._head_measured[1], self.height() - 2 * pad)

    def _room(self) -> tuple[float, float, float]:
        """Where the first card starts, the width the cards have, and their height."""
        h = self.height()
        pad = 12
        x = self._head_rect(self._head_font()).right() + pad
        return x, self.width() - x - pad, h - 2 * pad

    def _more_font(self, card_h: float) -> QFont:
        f = QFont(self._head_font())
        f.setPixelSize(max(14, int(card_h * 0.34)))
        return f

    def _more_room(self, n: int, card_h: float) -> float:
        """The room kept right of the cards for "+N" of a round of ``n`` cards: the widest
        such number in its font, with a margin."""
        widest = QFontMetricsF(self._more_font(card_h)).horizontalAdvance("+" + "8" * len(str(n)))
        return max(float(MORE_ROOM), widest + 16)

    def _window(self, state: StripState) -> tuple[int, int]:
        """The cards drawn: (the first, how many). All of them when each is at least
        :data:`MIN_CARD` of its height wide; else as many as that leaves room for, from
        the card before the current actor's, a page at a time (the page moves on before
        the actor would stand on its last card: the next one always shows), and "+N" for
        the rest: a round
        of 200 was 200 slivers no one at the table could read."""
        n = len(state.cards)
        _x, room, card_h = self._room()
        least = card_h * MIN_CARD
        if n * least + (n - 1) * 8 <= room:
            return 0, n
        count = min(n, max(3, int((room - self._more_room(n, card_h) + 8) // (least + 8))))
        current = next((i for i, c in enumerate(state.cards) if c.current), None)
        if current is None:  # a hidden actor not shown: the first card still to play
            current = next((i for i, c in enumerate(state.cards) if not c.done), n - 1)
        step = max(1, count - 2)
        return min(max(current - 1, 0) // step * step, n - count), count

    def _layout(self) -> tuple[float, float, float]:
        """Where the first card drawn starts, and the cards' width and height."""
        x, room, card_h = self._room()
        _first, count = self._window(self.state)
        if count < len(self.state.cards):
            room -= self._more_room(len(self.state.cards), card_h)
        n = max(count, 1)
        card_w = min(card_h * 2.6, (room - (n - 1) * 8) / n)
        return x, card_w, card_h

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.fillRect(self.rect(), QColor("#101317"))
        h = self.height()
        head_font = self._head_font()
        p.setFont(head_font)
        p.setPen(QColor("#f2f2f2"))
        pad = 12
        head_rect = self._head_rect(head_font)
        flags = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
        p.drawText(head_rect, flags, self.state.head.replace(" · ", "\n"))
        x = head_rect.right() + pad
        if not self.state.cards:
            p.setPen(QColor("#c0c6cf"))
            p.drawText(QRectF(x, 0, self.width() - x - pad, h), flags, self.state.note)
            return
        x, card_w, card_h = self._layout()
        # One name size for every card: the largest at which every name fits; labels
        # for all when even the smallest is too big.
        size = self._name_size(card_w, card_h)
        # Only the cards in the region Qt repaints (a turn moving on repaints two cards,
        # however many the round holds); painted in order, as overlapping cards must be.
        region = event.region()
        box = region.boundingRect()
        # _card_span's reach, left and right of a card's x: the cards a region can need
        lo_off, hi_off = _card_span(0.0, card_w)
        left, right = box.left() - hi_off - 1, box.right() + 1 - lo_off + 1
        first, count = self._window(self.state)
        for card in self.state.cards[first : first + count]:
            if left < x < right:
                lo, hi = _card_span(x, card_w)
                if region.intersects(QRect(lo, 0, hi - lo, h)):
                    self._paint_card(p, QRectF(x, pad, card_w, card_h), card, size)
            x += card_w + 8
        more = self._more(self.state)
        if more:
            p.setFont(self._more_font(card_h))
            p.setPen(QColor("#c0c6cf"))
            where = QRectF(x, pad, max(self.width() - pad - x, 0.0), card_h)
            p.drawText(where, Qt.AlignmentFlag.AlignCenter, more)

    def _name_size(self, card_w: float, card_h: float) -> int:
        """The pixel size of the names (0: the map labels)."""
        first, count = self._window(self.state)
        shown = self.state.cards[first : first + count]
        names = tuple(c.name for c in shown if c.side is not None)
        key = (names, card_w, card_h, self.font().key())
        if self._sized[0] == key:
            return self._sized[1]
        room = card_w - max(8.0, card_w * 0.06) - 26
        f = QFont(self.font())
        f.setBold(True)
        size = 0
        for factor in (0.3, 0.26, 0.23):
            f.setPixelSize(max(12, int(card_h * factor)))
            metrics = QFontMetricsF(f)
            if all(metrics.horizontalAdvance(n) <= room for n in names):
                size = f.pixelSize()
                break
        self._sized = (key, size)
        return size

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
        name = card.name if size or card.side is None else card.label
        align = Qt.AlignmentFlag.AlignVCenter | (
            Qt.AlignmentFlag.AlignHCenter if card.side is None else Qt.AlignmentFlag.AlignLeft
        )
        p.drawText(name_r, align, name)


def _card_span(x: float, card_w: float) -> tuple[int, int]:
    """The columns (whole pixels, end excluded) a card at ``x`` may paint: its frame, its
    pen, its band and its text boxes (which reach past a card narrower than its band when
    the round holds more cards than the strip has room for)."""
    band = max(8.0, card_w * 0.06)
    # the frame's pen reaches 3 px past the card less 2, the text boxes 8 px left of a
    # card narrower than nothing and band + 12 px right of its x; 2 px for antialiasing
    lo = min(x, x + card_w - 8) - 2
    hi = max(x + card_w + 1, x + 5 + band, x + band + 12) + 2
    return math.floor(lo), math.ceil(hi)


__all__ = ["ReflexStrip", "StripCache", "StripCard", "StripState", "strip_state"]
