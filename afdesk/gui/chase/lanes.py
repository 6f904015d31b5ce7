"""One lane of the chase board: a participant, drawn from plain data, redrawn only when
that data changes (the board's benchmark counts the repaints)."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from afdesk.encounter.chase.state import Participant

# Colours as dice with a symbol as well as a colour (a projector, colour-blind players).
DIE_STYLE = {
    "green": ("#2e9d4a", "●", "G"),
    "blue": ("#2c62c9", "■", "B"),
    "red": ("#c8322c", "◆", "R"),
}

# A side as a colour stripe and a word (a projector, colour-blind players): the lanes say
# who runs with whom, as captures do (H3).
SIDE_STYLE = {
    "band": ("#1f7a8c", "band"),
    "opponent": ("#8e3b8e", "opponents"),
    "denizen": ("#8a6d3b", "denizens"),
    "": ("#666666", "pursuer"),
}

LANE_HEIGHT = 36
"""A lane's height: six lanes and the controls fit a 1280x720 window's central area."""


class LaneData(NamedTuple):
    """Everything a lane shows: equal data, no repaint."""

    name: str
    rank: int
    participant: Participant
    pole: bool
    lead: int
    """The highest total on the board (the lane's bar is scaled to it)."""
    show_total: bool = True
    gm: bool = True
    speed: int | None = None
    """The speed the stage gives it (climb on Steep, swim on Fluid, H4); None: its own."""
    side: str = ""
    """Its side for captures (H3): "band", "opponent", "denizen"; "": a stage's pursuer."""
    turn: bool = False
    """Whose turn it is (the actor, or the vehicle its actor crews, H5)."""
    result: str = ""
    """The exchange end in words, a captor by its name (H3)."""


class Lane(QWidget):
    """A participant's lane: rank, name, a bar for the total, this round's pursuit dice,
    speed, margin, grit lost, decoys, out, and the exchange-end result."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data: LaneData | None = None
        self.paints = 0
        self.name_shown = ""
        """The name as last drawn (cut with "…" when it does not fit)."""
        self.setMinimumHeight(LANE_HEIGHT)
        self.setMaximumHeight(LANE_HEIGHT + 4)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_data(self, data: LaneData) -> bool:
        """Show ``data``; True (and a repaint scheduled) only if it changed."""
        if data == self.data:
            return False
        self.data = data
        self.setAccessibleName(self.summary())
        self.setToolTip(self.summary())  # everything, where the lane is too narrow for it
        self.update()
        return True

    def summary(self) -> str:
        d = self.data
        if d is None:
            return ""
        p = d.participant
        bits = [
            f"{d.rank}. {d.name}",
            side_word(d.side),
            f"total {p.total if d.show_total else '?'}",
        ]
        if d.turn:
            bits.insert(1, "its turn")
        if p.colours:
            bits.append(" ".join(p.colours))
        if d.pole:
            bits.append("pole")
        bits.extend(facts(d))
        return ", ".join(bits)

    def paintEvent(self, event) -> None:
        self.paints += 1
        d = self.data
        if d is None:
            return
        p = d.participant
        qp = QPainter(self)
        qp.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = self.rect().adjusted(2, 2, -2, -2)
        back = QColor("#fff4c2") if d.pole else QColor("#f4f4f4")
        if p.out:
            back = QColor("#e2e2e2")
        edge = QColor("#d4a017") if d.pole else QColor("#bbbbbb")
        if d.turn:
            edge = QColor("#1565c0")
        qp.setPen(QPen(edge, 3 if d.pole or d.turn else 1))
        qp.setBrush(back)
        qp.drawRoundedRect(QRectF(r), 6, 6)
        # The side: a stripe in its colour and its word under the name.
        stripe, word = SIDE_STYLE.get(d.side, SIDE_STYLE[""])
        qp.setPen(Qt.PenStyle.NoPen)
        qp.setBrush(QColor(stripe))
        qp.drawRoundedRect(QRectF(r.left() + 2, r.top() + 2, 8, r.height() - 4), 3, 3)
        r = r.adjusted(10, 0, 0, 0)
        big = QFont(self.font())
        big.setPointSizeF(self.font().pointSizeF() * 1.25)
        big.setBold(True)
        qp.setFont(big)
        qp.setPen(QColor("#222222"))
        name_w = min(260, max(120, r.width() // 4))
        # A long name is cut with "…" (the whole of it is the lane's tooltip); the pole's
        # star stays whole on its own line under the name.
        fm = QFontMetrics(big)
        name = fm.elidedText(f"{d.rank}. {d.name}", Qt.TextElideMode.ElideRight, name_w)
        self.name_shown = name
        qp.drawText(
            QRectF(r.left() + 8, r.top() + 1, name_w, r.height() / 2 + 2),
            Qt.AlignmentFlag.AlignBottom,
            name,
        )
        small = QFont(self.font())
        small.setPointSizeF(self.font().pointSizeF() * 0.9)
        qp.setFont(small)
        qp.setPen(QColor(stripe))
        below = word + ("  ★ pole" if d.pole else "") + ("  ▶ its turn" if d.turn else "")
        qp.drawText(
            QRectF(r.left() + 8, r.center().y() + 1, name_w, r.height() / 2),
            Qt.AlignmentFlag.AlignTop,
            QFontMetrics(small).elidedText(below, Qt.TextElideMode.ElideRight, name_w),
        )
        qp.setFont(big)
        qp.setPen(QColor("#222222"))
        # The total as a bar, scaled to the leader.
        bar_x = r.left() + name_w + 12
        bar_w = max(50, int(r.width() * (0.32 if r.width() > 900 else 0.16)))
        frac = 0.0 if not d.show_total or d.lead <= 0 else max(0, p.total) / d.lead
        qp.setPen(Qt.PenStyle.NoPen)
        qp.setBrush(QColor("#d9d9d9"))
        bar = QRectF(bar_x, r.center().y() - 9, bar_w, 18)
        qp.drawRoundedRect(bar, 4, 4)
        qp.setBrush(QColor("#555555") if p.out else QColor("#d4a017" if d.pole else "#4a7bb7"))
        qp.drawRoundedRect(QRectF(bar.left(), bar.top(), bar_w * frac, 18), 4, 4)
        qp.setPen(QColor("#111111"))
        qp.drawText(
            QRectF(bar.right() + 6, r.top(), 40, r.height()),
            Qt.AlignmentFlag.AlignVCenter,
            str(p.total) if d.show_total else "?",
        )
        # This round's pursuit dice.
        x = bar.right() + 44
        for colour in p.colours:
            fill, symbol, letter = DIE_STYLE[colour]
            die = QRectF(x, r.center().y() - 14, 28, 28)
            qp.setPen(QPen(QColor("#222222"), 1))
            qp.setBrush(QColor(fill))
            qp.drawRoundedRect(die, 5, 5)
            qp.setPen(QColor("white"))
            qp.drawText(die, Qt.AlignmentFlag.AlignCenter, f"{symbol}{letter}")
            x += 32
        x = max(x, bar.right() + 44 + 2 * 32) + 6
        normal = QFont(self.font())
        qp.setFont(normal)
        qp.setPen(QColor("#222222"))
        text = " · ".join(facts(d))
        box = QRectF(x, r.top() + 2, r.right() - x - 6, r.height() - 4)
        fm = QFontMetrics(normal)
        wrap = Qt.TextFlag.TextWordWrap
        need = fm.boundingRect(box.toRect(), int(wrap), text)
        if need.height() > box.height():  # still too long on two lines: cut, the tooltip has all
            text = fm.elidedText(text, Qt.TextElideMode.ElideRight, int(box.width()) * 2 - 20)
        qp.drawText(box, int(Qt.AlignmentFlag.AlignVCenter | wrap), text)
        qp.end()


def facts(d: LaneData) -> list[str]:
    """A lane's facts in words: speed, margin, grit lost, specials, decoys, what the stage
    left (a hazard's attack, drowning, teetering), a started attack, out, the result."""
    p = d.participant
    speed = p.speed if d.speed is None else d.speed
    out = [f"speed {speed}" if p.round_speed is None else f"speed {p.round_speed}/{speed}"]
    if p.score is not None:
        out.append(f"{'margin' if p.success else 'failed by'} {p.margin}")
    if p.grit_lost:
        out.append(f"grit -{p.grit_lost}")
    if p.special:
        out.append(f"{p.special} special")
    if p.extra_die:
        out.append("extra die")
    if p.helpers and d.gm:
        out.append(f"{len(p.helpers)} cooperating")
    if p.decoys:
        out.append(f"{p.decoys} decoys")
    if p.started and d.gm:
        out.append(p.started.split(":")[0] + " under way")
    if p.hazard:
        out.append(f"hazard attack x{p.hazard}" if p.hazard > 1 else "hazard attack")
    if p.teetering:
        out.append("teetering")
    if p.drowning:
        out.append("drowning")
    if p.forced_bad:
        out.append("next die bad")
    if p.out:
        out.append("OUT")
    if d.result:
        out.append(d.result.upper())
    return out


def side_word(side: str) -> str:
    """A side in words (the lane's label under the name)."""
    return SIDE_STYLE.get(side, SIDE_STYLE[""])[1]
