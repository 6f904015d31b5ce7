"""Marks drawn by a token: its hits against its grit, and its facing pointer.

The grit pill sits beside the disc, on the side farthest from the facing pointer (never
below, where the state badges are), in numbers readable across a room: "hits/grit", filled
red in proportion, and red with "!" when the hits have reached the grit and the GM has to
decide (down, out or nothing). In an overlap the pointer of each token is drawn by a
:class:`FacingMark` above every token and outside its own disc, so a neighbour never hides
it (E11: every facing and flank stays readable).
"""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QPointF, QRectF, QSettings, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen, QPolygonF
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QWidget

from afdesk.encounter.combatant import Combatant, Side
from afdesk.encounter.damage import hits_reach_grit
from afdesk.encounter.geometry import facing_vector
from afdesk.gui import style
from afdesk.gui.map.base import MapItem
from afdesk.gui.map.theme import MapTheme, font

FLAG = QColor("#d0021b")
Z_MARKS = 13.0
"""Above every token (10-12), under the facing handle (20)."""


PLAYER_HARM = {
    "band": (Side.BAND, Side.FOLLOWER),
    "opponents": (Side.OPPONENT, Side.DENIZEN),
}
"""The player view's two choices: the players' side and the opponents' side."""


def _key(which: str) -> str:
    return f"player_view/show_harm_{which}"


def player_shows_harm(which: str) -> bool:
    """Whether the player view shows grit and hits on ``which`` side's tokens (the GM's
    setting; off until the GM turns it on)."""
    return QSettings().value(_key(which), False, type=bool)


def set_player_shows_harm(which: str, on: bool) -> None:
    if which not in PLAYER_HARM:
        raise KeyError(which)
    QSettings().setValue(_key(which), bool(on))


def player_harm_sides() -> frozenset[Side]:
    """The sides whose grit and hits the player view shows."""
    return frozenset(s for w, sides in PLAYER_HARM.items() if player_shows_harm(w) for s in sides)


class Harm(NamedTuple):
    """What the grit pill shows."""

    hits: int
    grit: int
    flagged: bool

    @classmethod
    def of(cls, c: Combatant) -> Harm:
        return cls(c.hits, c.grit, hits_reach_grit(c))

    def text(self) -> str:
        return f"{self.hits}/{self.grit}" + (" !" if self.flagged else "")


def _pill_size(harm: Harm, r: float) -> tuple[float, float]:
    h = max(r * 0.8, 18.0)  # as tall as the initials: readable across a room
    fm = QFontMetricsF(font(h * 0.72, bold=True))
    return fm.horizontalAdvance(harm.text()) + h * 0.7, h


def harm_rect(harm: Harm, r: float, facing: float) -> QRectF:
    """Where the pill goes, in the token's coordinates: above the disc, and when the pointer
    goes up, beside the pointer (away from the way it leans), still above the disc and so
    inside the token's own area rather than over a neighbour."""
    w, h = _pill_size(harm, r)
    fx, fy = facing_vector(facing)
    cx, cy = 0.0, -(r + h / 2 + 3)
    if fy < -0.5:  # the pointer goes up
        shift = w / 2 + r * 0.35
        cx = -shift if fx >= 0 else shift
    return QRectF(cx - w / 2, cy - h / 2, w, h)


def paint_harm(painter: QPainter, harm: Harm, r: float, facing: float) -> None:
    rect = harm_rect(harm, r, facing)
    h = rect.height()
    painter.setPen(QPen(QColor(0, 0, 0, 220), 1.5))
    painter.setBrush(FLAG if harm.flagged else QColor(20, 20, 20, 225))
    painter.drawRoundedRect(rect, h / 2.5, h / 2.5)
    if not harm.flagged and harm.hits and harm.grit:
        filled = QRectF(rect)
        filled.setWidth(rect.width() * min(harm.hits / harm.grit, 1.0))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(208, 2, 27, 150))
        painter.drawRoundedRect(filled, h / 2.5, h / 2.5)
    painter.setFont(font(h * 0.72, bold=True))
    painter.setPen(QColor("#ffffff"))
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, harm.text())
    if harm.flagged:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(FLAG, 3.0, Qt.PenStyle.DashLine))
        painter.drawEllipse(QPointF(0, 0), r + 3, r + 3)


def pointer_polygon(r: float, facing: float, *, outside: bool = False) -> QPolygonF:
    """The facing pointer: a triangle from the disc along ``facing``; ``outside`` starts it
    at the disc's edge, so no disc (its own or a neighbour's) covers it."""
    fx, fy = facing_vector(facing)
    px, py = -fy, fx
    start, length, half = (r + 1, r * 1.15, r * 0.5) if outside else (r * 0.7, r * 1.05, r * 0.58)
    tip = QPointF(fx * (start + length), fy * (start + length))
    base = QPointF(fx * start, fy * start)
    left = base + QPointF(px * half, py * half)
    right = base - QPointF(px * half, py * half)
    return QPolygonF([tip, left, right])


def paint_pointer(
    painter: QPainter,
    r: float,
    facing: float,
    colour: QColor,
    theme: MapTheme,
    *,
    outside: bool = False,
) -> None:
    painter.setPen(QPen(theme.token_outline, theme.token_outline_width * 0.8))
    painter.setBrush(colour.lighter(125))
    painter.drawPolygon(pointer_polygon(r, facing, outside=outside))


class FacingMark(MapItem):
    """A token's facing pointer and the stubs of its flank line in an overlap (E11): drawn
    above every token and outside its own disc, so each stays visible however the tokens
    sit side by side."""

    def __init__(self, cid: str, theme: MapTheme) -> None:
        super().__init__()
        self.cid = cid
        self.theme = theme
        self.setZValue(Z_MARKS)
        self._key: tuple = ()
        self._r = 0.0
        self.facing = 0.0
        self._side = Side.BAND

    def sync(self, c: Combatant, pos: QPointF, radius: float) -> None:
        """Follow the token at ``pos`` (scene units) with ``radius``."""
        self.setPos(pos)
        key = (c.facing, c.side, radius)
        if key == self._key:
            return
        self._key = key
        self.facing, self._side, self._r = c.facing, c.side, radius
        reach = radius * 2.4
        self.set_bounds(QRectF(-reach, -reach, 2 * reach, 2 * reach))
        self.update()

    def pointer(self) -> QPolygonF:
        """The pointer in scene coordinates."""
        return self.mapToScene(pointer_polygon(self._r, self.facing, outside=True))

    def flank_stubs(self) -> list[tuple[QPointF, QPointF]]:
        """The two ends of the flank line outside the disc, in the item's coordinates."""
        fx, fy = facing_vector(self.facing)
        px, py = -fy, fx
        r = self._r
        # Across its own rim and out, short of a neighbour's disc (mapgeom.slots: the
        # nearest sits 2.38 radii away): no stub crosses another token or its stubs.
        inner, outer = r * 0.72, r * 1.15
        return [
            (QPointF(s * px * inner, s * py * inner), QPointF(s * px * outer, s * py * outer))
            for s in (1, -1)
        ]

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        colour = style.side_colour(self._side)
        for a, b in self.flank_stubs():
            under = QPen(QColor(0, 0, 0, 200), 5.5)
            under.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(under)
            painter.drawLine(a, b)
            pen = QPen(colour.lighter(115), 3.0)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.drawLine(a, b)
        paint_pointer(painter, self._r, self.facing, colour, self.theme, outside=True)


def harm_boxes(parent: QWidget, layout: QHBoxLayout, view) -> dict[str, QCheckBox]:
    """The player view's "Grit and hits" choices, one per side, kept in the settings."""
    layout.addWidget(QLabel("Grit and hits:", parent))
    boxes = {}
    for which in PLAYER_HARM:
        box = QCheckBox("players" if which == "band" else "opponents", parent)
        box.setToolTip(f"Show the {which}' grit and hits on their tokens to the table")
        box.setChecked(player_shows_harm(which))

        def toggled(on: bool, which: str = which) -> None:
            set_player_shows_harm(which, on)
            view.map_scene.set_harm_sides(player_harm_sides())

        box.toggled.connect(toggled)
        layout.addWidget(box)
        boxes[which] = box
    return boxes
