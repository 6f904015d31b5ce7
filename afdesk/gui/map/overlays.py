"""Overlay items: the reach shading and path preview of a drag (E14), and the legend beside
the zone (whose turn it is, sides, terrain glyphs, edges)."""

from __future__ import annotations

import math

import msgspec
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPainterPath, QPen

from afdesk.encounter.combatant import Side
from afdesk.encounter.geometry import Area
from afdesk.gui import mapgeom, style
from afdesk.gui.map.base import MapItem
from afdesk.gui.map.theme import GLYPHS, MapTheme, font

AREA = mapgeom.AREA
Z_REACH, Z_PATH, Z_LEGEND = 6.0, 15.0, 30.0


class ReachCell(msgspec.Struct, frozen=True):
    """One reachable area: its cost label and whether the move must stop there."""

    label: str
    stops: bool


class ReachItem(MapItem):
    """The areas a dragged character can reach this action, each with its cost in areas;
    an opponent's overlap (where the move ends, E14) in red."""

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_REACH)
        self.cells: dict[Area, ReachCell] = {}
        self.set_bounds(QRectF())

    def sync(self, cells: dict[Area, ReachCell]) -> None:
        """Show ``cells`` (empty: nothing)."""
        self.cells = dict(cells)
        rect = QRectF()
        for area in self.cells:
            x, y, w, h = mapgeom.area_rect(area)
            rect = rect.united(QRectF(x, y, w, h))
        self.set_bounds(rect)
        self.setVisible(bool(cells))
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setFont(font(15, bold=True))
        for area, cell in self.cells.items():
            x, y, w, h = mapgeom.area_rect(area)
            rect = QRectF(x + 2, y + 2, w - 4, h - 4)
            back = QColor(style.OVERLAP if cell.stops else style.REACH)
            back.setAlpha(95 if cell.stops else 110)
            painter.setPen(QPen(back.darker(130), 1.5))
            painter.setBrush(back)
            painter.drawRoundedRect(rect, 6, 6)
            if not cell.label:
                continue
            tag = QRectF(x + w - 30, y + h - 22, 26, 18)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(0, 0, 0, 170))
            painter.drawRoundedRect(tag, 5, 5)
            painter.setPen(QColor("#ffffff"))
            painter.drawText(tag, Qt.AlignmentFlag.AlignCenter, cell.label)


class PathItem(MapItem):
    """The previewed path of a drag and a ghost of the token where it would land; red when
    the drop would be refused."""

    def __init__(self) -> None:
        super().__init__(cached=False)
        self.setZValue(Z_PATH)
        self._points: list[QPointF] = []
        self._ghost: QPointF | None = None
        self._ok = True
        self._label = ""
        self._radius = 0.36 * AREA
        self._colour = QColor(style.PATH)
        self._ring = 0.0
        self.set_bounds(QRectF())

    def label(self) -> str:
        """The words on the path's end ("" if none)."""
        return self._label

    def sync(
        self,
        points: list[tuple[float, float]],
        ghost: tuple[float, float] | None,
        *,
        ok: bool,
        label: str = "",
        colour: QColor | None = None,
        ring: float = 0.0,
    ) -> None:
        """Draw the path through ``points`` (scene units) and a ghost at ``ghost``; with
        ``ring`` (a target token's radius) the end is a ring around the target, the line
        stopping at it, so the target's initials stay readable (an attack line)."""
        self._ring = ring
        self._points = [QPointF(x, y) for x, y in points]
        if ring and len(self._points) >= 2:
            a, b = self._points[-2], self._points[-1]
            d = b - a
            n = (d.x() ** 2 + d.y() ** 2) ** 0.5
            if n > ring + 6:
                self._points[-1] = b - d * ((ring + 6) / n)
        self._ghost = QPointF(*ghost) if ghost else None
        self._ok = ok
        self._label = label
        self._colour = QColor(colour) if colour is not None else QColor(style.PATH)
        rect = QRectF()
        for p in [*self._points, *([self._ghost] if self._ghost else [])]:
            rect = rect.united(QRectF(p.x() - 60, p.y() - 60, 120, 120))
        self.set_bounds(rect)
        self.setVisible(bool(points) or ghost is not None)
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        colour = QColor(style.PATH) if self._ok else QColor("#ff3b30")
        if len(self._points) >= 2:
            path = QPainterPath(self._points[0])
            for p in self._points[1:]:
                path.lineTo(p)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            shadow = QPen(QColor(0, 0, 0, 170), 11)
            shadow.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(shadow)
            painter.drawPath(path)
            pen = QPen(colour, 6)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
            painter.setPen(pen)
            painter.drawPath(path)
            for p in self._points[1:-1]:
                painter.setBrush(colour)
                painter.drawEllipse(p, 5, 5)
        if self._ghost is not None and self._ring:
            self._paint_ring(painter, colour)
        elif self._ghost is not None:
            fill = QColor(self._colour)
            fill.setAlpha(140)
            painter.setPen(QPen(colour, 4, Qt.PenStyle.DashLine))
            painter.setBrush(fill)
            painter.drawEllipse(self._ghost, self._radius, self._radius)
            if not self._ok:
                d = self._radius * 0.6
                painter.setPen(QPen(colour, 6))
                painter.drawLine(self._ghost + QPointF(-d, -d), self._ghost + QPointF(d, d))
                painter.drawLine(self._ghost + QPointF(-d, d), self._ghost + QPointF(d, -d))
            self._paint_label(painter, colour, self._radius)

    def _paint_ring(self, painter: QPainter, colour: QColor) -> None:
        """The end of an attack line: a ring around the target, its disc left clear."""
        assert self._ghost is not None
        r = self._ring + 6
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(0, 0, 0, 170), 8))
        painter.drawEllipse(self._ghost, r, r)
        painter.setPen(QPen(colour, 4))
        painter.drawEllipse(self._ghost, r, r)
        self._paint_label(painter, colour, r + 4)

    def _paint_label(self, painter: QPainter, colour: QColor, above: float) -> None:
        if not self._label or self._ghost is None:
            return
        painter.setFont(font(16, bold=True))
        fm = QFontMetricsF(painter.font())
        w = fm.horizontalAdvance(self._label) + 12
        tag = QRectF(self._ghost.x() - w / 2, self._ghost.y() - above - 26, w, 22)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(0, 0, 0, 200))
        painter.drawRoundedRect(tag, 6, 6)
        painter.setPen(colour)
        painter.drawText(tag, Qt.AlignmentFlag.AlignCenter, self._label)


# ------------------------------------------------------------------------------ legend


LEGEND_WIDTH = 4.6 * AREA
ACTOR_DISC = 2 * 15.0 + 8
"""The height of the actor's disc in the legend (its line of text beside it is as tall or
taller)."""
ACTOR_ROOM = LEGEND_WIDTH - 32 - 2 * 15.0 - 16
"""The width of the actor's line beside the disc."""
KEY_HEIGHT = 2 * 28 + 7 * 27 + 4 + 8 * 27
"""The key under the header: two section titles, seven rows of sides and marks, a gap,
eight rows of terrain (the heights :meth:`LegendItem.paint` gives them)."""
HEADER_ROOM = 40.0
"""Room left between the tallest header the legend expects and its key, for text a view
draws taller than the font's own measure."""


class LegendItem(MapItem):
    """The panel beside the zone: the encounter's name, the round and whose turn it is, and
    what the colours, rings, glyphs and edge bands mean.

    The key (what the colours and glyphs mean) sits at the panel's foot when the header
    surely fits above it: the header then changes alone, whatever its height (a turn or a
    round moving on repaints the header, never the key). In a panel too short for that the
    key follows the header."""

    def __init__(self, theme: MapTheme) -> None:
        super().__init__()
        self.theme = theme
        self.setZValue(Z_LEGEND)
        self._title = ""
        self._turn = ""
        self._actor = ""
        self._actor_side: Side | None = None
        self._height = 10 * AREA
        self._key: tuple = ()
        self._body_y: float | None = None
        """Where the key under the header began in the paints since the last change of
        the header's height (the largest, when views differ)."""
        self._painted: dict[int, float] = {}
        """The views (by id) that painted the legend since then, and at what scale."""
        self._heights: dict[tuple[int, float, str], float] = {}
        """How tall each view's painter found an actor's line, by view, scale and text."""
        self._wrapped: dict[tuple[str, float], list[str]] = {}
        """The round lines wrapped (:meth:`turn_lines`), by line and text scale."""
        self._anchor: float | None = None
        """Where the key begins when it sits at the panel's foot (None: it follows the
        header)."""

    def sync(self, title: str, turn: str, actor: str, actor_side: Side | None, height: float):
        """The header lines; ``height`` is the zone's height (the panel matches it)."""
        key = (title, turn, actor, actor_side, height)
        if key == self._key:
            return
        header = self._same_layout(self._key, key)
        old_anchor = self._anchor
        self._key = key
        self._title, self._turn, self._actor = title, turn, actor
        self._actor_side = actor_side
        self._height = max(height, 9.5 * AREA)
        self.set_bounds(QRectF(0, 0, LEGEND_WIDTH, self._height))
        self._anchor = self._foot()
        if self._anchor is not None and self._anchor == old_anchor and self._painted:
            # The key stays at the foot: the header's words alone are painted again, inside
            # the panel's rounded edge (a corner drawn again clipped came out a shade off).
            edge = 14.0
            self.update(QRectF(edge, edge, LEGEND_WIDTH - 2 * edge, self._anchor - 2 * edge))
        elif header and self._anchor is None and self._body_y is not None and self._painted:
            # Only the header changed and its height did not: the key below stays as it
            # is (a turn moving on repaints the header alone).
            self.update(QRectF(0, 0, LEGEND_WIDTH, self._body_y - 10))
        else:
            self._body_y = None
            self._painted = {}
            self.update()

    def _foot(self) -> float | None:
        """Where the key begins at the panel's foot, if the header surely fits above it
        (measured generously: each line of the title and the actor's line one more than
        the font's own wrapping gives); None otherwise."""
        top = self._height - 16 - KEY_HEIGHT
        s = self.theme.text_scale
        width = LEGEND_WIDTH - 32
        title = QFontMetricsF(font(22 * s, bold=True)).boundingRect(
            QRectF(0, 0, width * 0.85, 1000), Qt.TextFlag.TextWordWrap, self._title
        )
        tall = 16 + title.height() + 22 * s * 1.5 + 6
        tall += 26 * s * (len(self.turn_lines()) + 1) + 2 * s
        if self._actor:
            line = QFontMetricsF(font(20 * s, bold=True)).boundingRect(
                QRectF(0, 0, ACTOR_ROOM * 0.85, 1000),
                Qt.TextFlag.TextWordWrap,
                f"{self._actor}'s turn",
            )
            tall += max(ACTOR_DISC, line.height() + 20 * s * 1.5) + 10
        return top if tall + 6 + HEADER_ROOM <= top else None

    def _same_layout(self, old: tuple, new: tuple) -> bool:
        """Whether the header of ``new`` is as tall as that of ``old`` wherever it is
        painted: the same title and height, as many round lines, and an actor in both
        whose line is as tall (both clearly on one line, or measured so by every view's
        painter when they last showed them)."""
        if not old or old[0] != new[0] or old[4] != new[4] or not old[2] or not new[2]:
            return False
        if len(self.turn_lines(old[1])) != len(self.turn_lines(new[1])):
            return False
        texts = (f"{old[2]}'s turn", f"{new[2]}'s turn")
        fm = QFontMetricsF(font(20 * self.theme.text_scale, bold=True))
        if all(fm.horizontalAdvance(t) < 0.8 * ACTOR_ROOM for t in texts):
            return True
        if not self._painted:
            return False
        for view in self._painted.items():
            heights = [self._heights.get((*view, t)) for t in texts]
            if None in heights or {max(ACTOR_DISC, h) for h in heights} != {
                max(ACTOR_DISC, heights[0])
            }:
                return False
        return True

    def turn_lines(self, turn: str | None = None) -> list[str]:
        """The round line ("Exchange 1 · reflex cards for round 2") wrapped by words to
        the panel's width (``turn``: another round line than the one shown). Wrapped once
        for each line and text scale: a turn asks it four times, of the same two lines, and
        each try of a word measured the line again."""
        text = self._turn if turn is None else turn
        key = (text, self.theme.text_scale)
        lines = self._wrapped.get(key)
        if lines is None:
            fm = QFontMetricsF(font(18 * self.theme.text_scale))
            width = LEGEND_WIDTH - 32
            lines = []
            for word in text.split():
                if lines and fm.horizontalAdvance(f"{lines[-1]} {word}") <= width:
                    lines[-1] = f"{lines[-1]} {word}"
                else:
                    lines.append(word)
            if len(self._wrapped) >= 64:  # the round lines of a long session: bounded
                self._wrapped.clear()
            self._wrapped[key] = lines
        return list(lines)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        t = self.theme
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(QColor(255, 255, 255, 60), 2))
        painter.setBrush(t.legend_back)
        painter.drawRoundedRect(self.boundingRect(), 14, 14)
        pad = 16.0
        width = LEGEND_WIDTH - 2 * pad
        y = pad
        s = t.text_scale
        painter.setPen(t.legend_text)
        painter.setFont(font(22 * s, bold=True))
        box = QRectF(pad, y, width, 60 * s)
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap
        used = painter.boundingRect(box, flags, self._title)
        painter.drawText(box, flags, self._title)
        y += used.height() + 6
        painter.setFont(font(18 * s))
        for line in self.turn_lines():  # wrapped, never cut off
            painter.drawText(QRectF(pad, y, width, 26 * s), Qt.AlignmentFlag.AlignLeft, line)
            y += 26 * s
        y += 2 * s
        tr = painter.worldTransform()
        view = (id(widget), round(math.hypot(tr.m11(), tr.m12()), 6))
        self._painted[view[0]] = view[1]
        if self._actor:
            r = 15.0
            painter.setFont(font(20 * s, bold=True))
            text_box = QRectF(pad + 2 * r + 16, y, width - 2 * r - 16, 200)
            text = f"{self._actor}'s turn"
            text_flags = Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap
            used = painter.boundingRect(text_box, text_flags, text)
            if len(self._heights) > 2000:
                self._heights.clear()
            self._heights[(*view, text)] = used.height()
            centre = QPointF(pad + r + 4, y + max(r + 4, used.height() / 2))
            painter.setPen(QPen(style.ACTOR, 6))
            colour = style.side_colour(self._actor_side) if self._actor_side else QColor("#888")
            painter.setBrush(colour)
            painter.drawEllipse(centre, r, r)
            painter.setPen(style.ACTOR)
            painter.drawText(text_box, text_flags, text)
            y += max(ACTOR_DISC, used.height()) + 10
        y += 6
        if self._anchor is not None:
            y = max(y, self._anchor)  # the key at the panel's foot
        # The key below the header: nothing of it needs painting when Qt repaints the
        # header alone (its clip ends above; the key's ink starts below y).
        self._body_y = y if self._body_y is None else max(self._body_y, y)
        # (A view widens what it repaints to whole pixels and a little more: at a small
        # zoom the header's clip reaches down past its own rectangle, toward the key.)
        if painter.hasClipping() and painter.clipBoundingRect().bottom() <= y - 1:
            return
        self.paint_key(painter, y)

    def paint_key(self, painter: QPainter, y: float) -> float:
        """The key from ``y`` down (:data:`KEY_HEIGHT` tall); where it ends."""
        t = self.theme
        y = self._section(painter, y, "Sides")
        for side, label in (
            (Side.BAND, "Band"),
            (Side.OPPONENT, "Opponents"),
            (Side.DENIZEN, "Denizens"),
            (Side.FOLLOWER, "Followers"),
        ):
            y = self._row_disc(painter, y, style.side_colour(side), label)
        y = self._row_special(painter, y, "overlap", "Overlap with opponents")
        decoy = "Decoy of a hidden character" if t.show_gm_notes else "Hidden: maybe here"
        y = self._row_special(painter, y, "decoy", decoy)
        y = self._row_special(painter, y, "exit", "Edge: exit")
        y += 4
        y = self._section(painter, y, "Terrain")
        for key in ("water", "rough", "slippery", "cover", "steep", "ledge", "altitude", "custom"):
            g = GLYPHS[key]
            words = g.words
            if key == "custom" and not self.theme.show_gm_notes:
                words = "Special: ask the GM"
            y = self._row_glyph(painter, y, g.colour, g.mark, words)
        return y

    def _section(self, painter: QPainter, y: float, text: str) -> float:
        painter.setPen(QColor(self.theme.legend_text))
        painter.setFont(font(15 * self.theme.text_scale, bold=True))
        painter.drawText(QRectF(16, y, LEGEND_WIDTH - 32, 22), Qt.AlignmentFlag.AlignLeft, text)
        painter.setPen(QPen(QColor(255, 255, 255, 80), 1))
        painter.drawLine(QPointF(16, y + 22), QPointF(LEGEND_WIDTH - 16, y + 22))
        return y + 28

    def _label(self, painter: QPainter, y: float, text: str) -> float:
        painter.setPen(self.theme.legend_text)
        painter.setFont(font(14.5 * self.theme.text_scale))
        painter.drawText(QRectF(52, y, LEGEND_WIDTH - 60, 24), Qt.AlignmentFlag.AlignVCenter, text)
        return y + 27

    def _row_disc(self, painter: QPainter, y: float, colour: QColor, text: str) -> float:
        painter.setPen(QPen(self.theme.token_outline, 2))
        painter.setBrush(colour)
        painter.drawEllipse(QPointF(32, y + 12), 10, 10)
        return self._label(painter, y, text)

    def _row_glyph(self, painter: QPainter, y: float, colour: QColor, mark: str, text: str):
        rect = QRectF(20, y + 2, 24, 20)
        painter.setPen(QPen(QColor("#ffffff"), 1.2))
        painter.setBrush(colour)
        painter.drawRoundedRect(rect, 10, 10)
        painter.setFont(font(12, bold=True))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, mark)
        return self._label(painter, y, text)

    def _row_special(self, painter: QPainter, y: float, kind: str, text: str) -> float:
        rect = QRectF(20, y + 1, 24, 22)
        if kind == "overlap":
            fill = QColor(style.OVERLAP)
            fill.setAlpha(70)
            painter.setPen(QPen(style.OVERLAP, 3))
            painter.setBrush(fill)
            painter.drawRoundedRect(rect, 4, 4)
        elif kind == "decoy":
            painter.setPen(QPen(QColor("#dddddd"), 2, Qt.PenStyle.DashLine))
            painter.setBrush(QColor(120, 120, 120, 120))
            painter.drawEllipse(rect.center(), 10, 10)
            painter.setPen(QColor("#ffffff"))
            painter.setFont(font(13, bold=True))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, "?")
        else:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor("#c62828"))
            painter.drawRoundedRect(rect.adjusted(0, 5, 0, -5), 3, 3)
        return self._label(painter, y, text)
