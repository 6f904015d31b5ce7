"""The chase board: a lane per participant ranked by total (H3), the pole
highlighted, this round's pursuit dice as dice with symbols, the stage's properties as
cards (H4), and at the exchange end arrows for who captures whom.

``player=True`` is the player view's variant: no GM notes, no controls, and a hidden
participant's true total shown as "?". When one participant changes only its lane is
repainted (:meth:`ChaseBoard.refresh` returns the lanes it changed).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.chase.check import stage_speed
from afdesk.encounter.chase.ops import chase_sides
from afdesk.encounter.chase.order import acting, pname, ranked
from afdesk.encounter.chase.state import ChaseState
from afdesk.encounter.state import Mode, Phase
from afdesk.gui.chase.lanes import Lane, LaneData
from afdesk.gui.follow import Links
from afdesk.gui.modes import CatchesUp
from afdesk.rules.pursuit.stages import StageProperty

ARROW_MARGIN = 90

_OTHER, _CHASE = 1, 2
"""What a change waits to show on the board (:meth:`ChaseBoard._settle`)."""

CARDS_HEIGHT = 70
"""The stage's row of cards; a simple stage takes one line (more room for the lanes)."""


class LaneColumn(QWidget):
    """The lanes, top to bottom, with the exchange end's capture arrows in a right margin."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.box = QVBoxLayout(self)
        self.box.setContentsMargins(0, 0, ARROW_MARGIN, 0)
        self.box.setSpacing(3)
        self.box.addStretch(1)
        self.lanes: dict[str, Lane] = {}
        self.order: list[str] = []
        self.captures: list[tuple[str, str]] = []

    def paintEvent(self, event) -> None:
        if not self.captures:
            return
        qp = QPainter(self)
        qp.setRenderHint(QPainter.RenderHint.Antialiasing)
        x0 = self.width() - ARROW_MARGIN + 8
        for i, (captor, caught) in enumerate(self.captures):
            a, b = self.lanes.get(captor), self.lanes.get(caught)
            if a is None or b is None:
                continue
            ya = a.geometry().center().y()
            yb = b.geometry().center().y()
            x = x0 + 14 * (i + 1)
            path = QPainterPath(QPointF(x0 - 6, ya))
            path.cubicTo(QPointF(x + 30, ya), QPointF(x + 30, yb), QPointF(x0, yb))
            qp.setPen(QPen(QColor("#c8322c"), 3))
            qp.setBrush(Qt.BrushStyle.NoBrush)
            qp.drawPath(path)
            qp.setBrush(QColor("#c8322c"))
            qp.drawPolygon([QPointF(x0 - 4, yb), QPointF(x0 + 8, yb - 6), QPointF(x0 + 8, yb + 6)])
        qp.end()


def see_through(scroll: QScrollArea) -> None:
    """A scroll area that shows the board's own background (the player view's too)."""
    scroll.viewport().setAutoFillBackground(False)
    inner = scroll.widget()
    if inner is not None:
        inner.setAutoFillBackground(False)
    scroll.setStyleSheet("QScrollArea { background: transparent; }")


class StageCard(QFrame):
    """One stage property as a card: its name and its effect (H4)."""

    def __init__(self, prop: StageProperty, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prop = prop
        self.setObjectName("stageCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setStyleSheet(
            "#stageCard { background: #fbeee0; border: 2px solid #b8742a; border-radius: 8px; }"
        )
        box = QVBoxLayout(self)
        box.setContentsMargins(8, 4, 8, 4)
        box.setSpacing(0)
        text = QLabel(f"<b>{prop.label}</b> — {prop.effect}")
        text.setWordWrap(True)
        box.addWidget(text)
        self.setToolTip(f"{prop.label} (H4): {prop.effect}")
        self.setFixedWidth(250)
        self.setMaximumHeight(CARDS_HEIGHT - 6)


class ChaseBoard(CatchesUp, QWidget):
    """The chase board of a document (see the module)."""

    own_mode = Mode.CHASE

    def __init__(self, *, player: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.player = player
        self.doc = None
        self._links = Links()
        self.setObjectName("chaseBoard")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(6, 4, 6, 4)
        outer.setSpacing(3)
        self.heading = QLabel()
        self.heading.setStyleSheet("font-size: 13pt; font-weight: bold;")
        # A long countdown or pole wraps rather than widening the window past the screen.
        self.heading.setWordWrap(True)
        outer.addWidget(self.heading)
        # The stage's cards in a row that scrolls sideways when the GM piles up more
        # properties than the board is wide (the window still fits 1280 wide).
        cards = QWidget()
        self.cards_row = QHBoxLayout(cards)
        self.cards_row.setContentsMargins(0, 0, 0, 0)
        self.cards_label = QLabel()
        self.cards_row.addWidget(self.cards_label)
        self.cards_row.addStretch(1)
        self.cards_scroll = QScrollArea()
        self.cards_scroll.setWidget(cards)
        self.cards_scroll.setWidgetResizable(True)
        self.cards_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.cards_scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.cards_scroll.setFixedHeight(CARDS_HEIGHT)
        outer.addWidget(self.cards_scroll)
        see_through(self.cards_scroll)
        self.column = LaneColumn()
        # Many participants on a small screen: the lanes scroll rather than squeeze.
        self.lanes_scroll = QScrollArea()
        self.lanes_scroll.setWidgetResizable(True)
        self.lanes_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.lanes_scroll.setWidget(self.column)
        outer.addWidget(self.lanes_scroll, 1)
        see_through(self.lanes_scroll)
        self.controls: QWidget | None = None
        if not player:
            from afdesk.gui.chase.controls import ChaseControls

            self.controls = ChaseControls(self)
            # The controls take the height they need; the rest goes to the lanes (at
            # 1280x720 at least six lanes show).
            self.controls.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
            outer.addWidget(self.controls)
        self._cards: list[StageCard] = []
        self._stage: tuple[StageProperty, ...] | None = None
        self._waiting = 0
        """What the change whose signals are going out asked for: _CHASE (a refresh),
        _OTHER (a refresh if someone can see the board) or 0."""

    def set_document(self, doc) -> None:
        # The chase itself changes only while the encounter is a chase: shown at once.
        # What else the board shows (names, the turn, who hides) waits while nobody sees it.
        # A change's signals (a turn moving on changes the turn, the chase and characters)
        # are followed once, at the last (``changed``): one refresh per change.
        signals = ("rosterChanged", "turnChanged", "modeChanged", "combatantChanged")
        self.doc = doc
        self._links.clear()
        self._links.connect(doc.chaseChanged, self._chase_changed)
        for name in signals:
            self._links.connect(getattr(doc, name), self._other_changed)
        self._links.connect(doc.changed, self._settle)
        if self.controls is not None:
            self.controls.set_document(doc)
        self.refresh()

    def _chase_changed(self) -> None:
        if self.doc is not None and self.doc.emitting:
            self._waiting = _CHASE
        else:
            self.refresh()

    def _other_changed(self, *_args) -> None:
        if self.doc is not None and self.doc.emitting:
            self._waiting = max(self._waiting, _OTHER)
        else:
            self._changed()

    def _settle(self) -> None:
        """The change has said all: shown once, as its signals asked."""
        waiting, self._waiting = self._waiting, 0
        if waiting == _CHASE:
            self.refresh()
        elif waiting == _OTHER:
            self._changed()

    def lane(self, pid: str) -> Lane | None:
        if self._stale or self._waiting:
            self.refresh()
        return self.column.lanes.get(pid)

    def refresh(self) -> list[str]:
        """Bring the board up to date; returns the participants whose lanes changed."""
        if self.doc is None:
            return []
        self._stale = False
        self._waiting = 0
        enc = self.doc.encounter
        chase: ChaseState = enc.chase
        t = enc.turn
        when = {Phase.TURNS: f"round {t.round}", Phase.EXCHANGE_END: "exchange end"}.get(
            t.phase, f"before round {t.round + 1}" if t.round < 5 else ""
        )
        self.heading.setText(
            f"Chase: exchange {t.exchange}, {when}"
            + (f"  —  pole: {pname(enc, chase.pole)}" if chase.pole else "")
            + self._countdown(chase)
        )
        self._show_stage(chase.stage)
        order = ranked(enc, chase)
        sides = chase_sides(enc)
        turn = acting(enc)
        lead = max((p.total for p in chase.participants), default=0)
        col = self.column
        changed = []
        for pid in list(col.lanes):
            if chase.participant(pid) is None:
                lane = col.lanes.pop(pid)
                col.box.removeWidget(lane)
                lane.deleteLater()
        for rank, pid in enumerate(order, 1):
            p = chase.participant(pid)
            assert p is not None
            hidden = p.hidden or (
                pid in enc.combatants and enc.combatants[pid].hidden and self.player
            )
            data = LaneData(
                pname(enc, pid),
                rank,
                p,
                pid == chase.pole,
                lead,
                show_total=not (self.player and hidden),
                gm=not self.player,
                speed=stage_speed(enc, p),  # Steep climbs, Fluid swims (H4)
                side=sides.get(pid, ""),
                turn=pid == turn,
                result=result_text(enc, p.result),
            )
            lane = col.lanes.get(pid)
            if lane is None:
                lane = col.lanes[pid] = Lane(col)
            if lane.set_data(data):
                changed.append(pid)
        if order != col.order:
            for pid in order:
                col.box.removeWidget(col.lanes[pid])
            for i, pid in enumerate(order):
                col.box.insertWidget(i, col.lanes[pid])
                col.lanes[pid].show()
            col.order = order
        captures = [
            (p.result.removeprefix("captured by "), p.id)
            for p in chase.participants
            if p.result.startswith("captured by ")
        ]
        if captures != col.captures:
            col.captures = captures
            col.update()
        if self.controls is not None:
            self.controls.refresh()
        return changed

    @staticmethod
    def _countdown(chase: ChaseState) -> str:
        c = chase.countdown
        bits = []
        if c.exchanges:
            bits.append(f"reach {c.target or 'the goal'} within {c.exchanges} exchanges")
        if c.rows:
            bits.append(f"{c.rows_removed} rows gone")
        return ("  —  countdown: " + ", ".join(bits)) if bits else ""

    def _show_stage(self, stage: tuple[StageProperty, ...]) -> None:
        if stage == self._stage:
            return
        self._stage = stage
        for card in self._cards:
            self.cards_row.removeWidget(card)
            card.hide()
            card.setParent(None)
            card.deleteLater()
        self._cards = [StageCard(p, self) for p in stage]
        for i, card in enumerate(self._cards):
            self.cards_row.insertWidget(1 + i, card)
        self.cards_label.setText("Stage:" if stage else "Stage: simple (failure costs grit)")
        self.cards_scroll.setFixedHeight(
            CARDS_HEIGHT if stage else self.cards_label.sizeHint().height() + 4
        )

    def paint_counts(self) -> dict[str, int]:
        """Repaints per lane so far (the benchmark and tests read them)."""
        return {pid: lane.paints for pid, lane in self.column.lanes.items()}


def result_text(enc, result: str) -> str:
    """The exchange end in words (H3), a captor by its name, not its id; "" for "out"
    (the lane says OUT already)."""
    if result.startswith("captured by "):
        return "captured by " + pname(enc, result.removeprefix("captured by "))
    return "" if result == "out" else result
