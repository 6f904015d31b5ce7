"""Character items: the token (disc, initials, facing arrow, flank line, rings, badges),
a hidden character's decoys, the rear half-plane, the overlap marker and the facing
handle. Each has a ``sync`` that takes plain values from the model; nothing here reads
the encounter or decides a rule."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF

from afdesk.encounter import features
from afdesk.encounter.combatant import Combatant, Side, StateKind
from afdesk.encounter.geometry import Area, facing_vector
from afdesk.gui import mapgeom, style
from afdesk.gui.map.actor_ring import paint_actor_ring
from afdesk.gui.map.base import MapItem
from afdesk.gui.map.fallen import DOWN_WORD, paint_fallen_disc, paint_word, word_plate
from afdesk.gui.map.marks import Harm, harm_rect, paint_harm, paint_pointer
from afdesk.gui.map.theme import Badge, MapTheme, badges, font, momentum_counts

AREA = mapgeom.AREA
Z_REAR, Z_OVERLAP, Z_DECOY, Z_FLANK, Z_TOKEN, Z_HANDLE = 4.0, 5.0, 8.0, 9.0, 10.0, 20.0


def _point(v: tuple[float, float]) -> QPointF:
    return QPointF(v[0], v[1])


class TokenItem(MapItem):
    """One character on the map, in its side's colour."""

    def __init__(self, cid: str, theme: MapTheme) -> None:
        super().__init__()
        self.cid = cid
        self.theme = theme
        self.setZValue(Z_TOKEN)
        self.setAcceptHoverEvents(False)
        self.area: Area | None = None
        self.radius = 0.36 * AREA
        self.facing = 0.0
        self.actor = False
        self.selected = False
        self._key: tuple = ()
        self._offset = (0.0, 0.0)
        self._side = Side.BAND
        self._text = ""
        self._hidden = False
        self._down = False
        self._badges: list[tuple[QRectF, Badge]] = []
        self._flank = True
        self._harm: Harm | None = None
        self._badge_font = font(10)
        self.set_bounds(QRectF())

    # ----------------------------------------------------------------------- model

    def sync(
        self,
        c: Combatant,
        *,
        offset: tuple[float, float] = (0.0, 0.0),
        radius: float = 0.36,
        actor: bool = False,
        selected: bool = False,
        flank: bool = True,
        harm: Harm | None = None,
        label: str = "",
    ) -> None:
        """Take the character's place, facing, states and the turn/selection marks.
        ``harm`` draws its hits against its grit (a pill by the disc); in an
        overlap (``flank`` off) the facing pointer is drawn by the scene's
        :class:`~afdesk.gui.map.overlays.FacingMark` above every token instead.
        ``offset`` and ``radius`` (area units) come from the overlap layout; ``flank``
        draws the flank line here (a token alone in its area; in an overlap the scene's
        :class:`FlankItem` draws it under every token). ``label`` is the character's
        distinct short label (afdesk.encounter.labels; its initials if empty)."""
        self.area = c.area
        label = label or c.initials
        radius *= AREA
        offset = (offset[0] * AREA, offset[1] * AREA)
        down = c.has(StateKind.DOWN)  # drawn greyed and tilted with DOWN across (E17)
        badge_list = badges(c.without_state(StateKind.DOWN) if down else c)
        key = (
            c.side,
            label,
            c.facing,
            radius,
            offset,
            actor,
            selected,
            tuple((b.text, b.back.name()) for b in badge_list),
            c.hidden or c.in_reserve,
            down,
            flank,
            harm,
        )
        if c.area is not None:
            cx, cy = mapgeom.area_centre(c.area)
            self.setPos(cx + offset[0], cy + offset[1])
        if key == self._key:
            return
        self._key = key
        self._side = c.side
        self._text = label
        self.facing = c.facing
        self.radius = radius
        self._offset = offset
        self.actor = actor
        self.selected = selected
        self._hidden = c.hidden or c.in_reserve  # both drawn faded, dashed (GM only)
        self._down = down
        self._flank = flank
        self._harm = harm
        self._layout_badges(badge_list)
        self.setZValue(Z_TOKEN + (2 if selected else 1 if actor else 0))
        self.set_bounds(self._bounds())
        self.update()

    @property
    def draws_flank(self) -> bool:
        """Whether this token draws its own flank line (alone in its area)."""
        return self._flank

    def badge_texts(self) -> list[str]:
        """The words on the badges, in order (DOWN is the plate across a down token)."""
        return [badge.text for _, badge in self._badges]

    @property
    def fallen(self) -> str:
        """ "DOWN" when drawn fallen (E17), else ""."""
        return DOWN_WORD if self._down else ""

    def preview_facing(self, facing: float) -> None:
        """Show ``facing`` while the GM drags the handle; the next :meth:`sync` puts
        back whatever the model says."""
        self.facing = facing
        self._key = ()
        self.set_bounds(self._bounds())
        self.update()

    def set_tooltip(self, c: Combatant) -> None:
        """The GM's tooltip: name, side, counters, states, notes."""
        lines = [f"{c.name} ({c.side.label})", f"Grit {c.grit}/{c.grit_max}, hits {c.hits}"]
        if c.states:
            lines += [features.dock_text(s) for s in features.shown_states(c)]
        if c.momentum:
            counts = momentum_counts(c)
            lines.append(
                "Momentum: " + ", ".join(f"{d:+d} ×{n}" if n > 1 else f"{d:+d}" for d, n in counts)
            )
        if c.notes:
            lines.append(f"Notes: {c.notes}")
        self.setToolTip("\n".join(lines))

    def _layout_badges(self, badge_list: list[Badge]) -> None:
        self._badges = []
        if not badge_list:
            return
        h = max(self.radius * 0.62, 12.0) * self.theme.badge_scale
        self._badge_font = font(h * 0.72, bold=True)
        fm = QFontMetricsF(self._badge_font)
        widths = [fm.horizontalAdvance(b.text) + h * 0.6 for b in badge_list]
        max_row = max(self.radius * 2.8, max(widths))
        rows: list[list[int]] = [[]]
        used = 0.0
        for i, w in enumerate(widths):
            if rows[-1] and used + w > max_row:
                rows.append([])
                used = 0.0
            rows[-1].append(i)
            used += w + 2
        # under the DOWN plate when there is one
        y = word_plate(self.radius, DOWN_WORD)[0].bottom() + 2 if self._down else self.radius * 0.45
        for row in rows:
            total = sum(widths[i] for i in row) + 2 * (len(row) - 1)
            x = -total / 2
            for i in row:
                self._badges.append((QRectF(x, y, widths[i], h), badge_list[i]))
                x += widths[i] + 2
            y += h + 2

    def _bounds(self) -> QRectF:
        # Tight: every cached pixel is blended on every frame (1,000 tokens, E-bench).
        r = self.radius * 1.75 + self.theme.token_outline_width + 2
        if self.actor:
            r = max(r, self.radius + 14 + 5)
        if self.selected and self.theme.show_selection:
            r = max(r, self.radius + 14 + 3)
        rect = QRectF(-r, -r, 2 * r, 2 * r)
        if self._flank:
            a, b = flank_ends(self.facing)
            rect = rect.united(QRectF(a, b).normalized().adjusted(-7, -7, 7, 7))
        for box, _ in self._badges:
            rect = rect.united(box.adjusted(-2, -2, 2, 2))
        if self._down:
            rect = rect.united(word_plate(self.radius, DOWN_WORD)[0].adjusted(-3, -3, 3, 3))
        if self._harm is not None:
            rect = rect.united(
                harm_rect(self._harm, self.radius, self.facing).adjusted(-3, -3, 3, 3)
            )
        return rect

    def harm_text(self) -> str:
        """The words of the grit pill ("" when none is drawn): "2/3", "3/3 !"."""
        return self._harm.text() if self._harm is not None else ""

    # ---------------------------------------------------------------------- drawing

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), self.radius + 3, self.radius + 3)
        return path

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        colour = style.side_colour(self._side)
        r = self.radius
        if self._flank:
            paint_flank(
                painter, flank_ends(self.facing), colour, self.actor or self.selected, self.theme
            )
        if self.actor:
            paint_actor_ring(painter, r)  # the glow and the ring, from a kept image
        if self.selected and self.theme.show_selection:
            pen = QPen(style.SELECTED, 2.5, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            extra = 14 if self.actor else 6
            painter.drawEllipse(QPointF(0, 0), r + extra, r + extra)
        if self._flank:
            # Alone in its area; in an overlap the scene's FacingMark draws the pointer
            # outside the disc, above every token.
            paint_pointer(painter, self.radius, self.facing, colour, self.theme)
        painter.setOpacity(0.55 if self._hidden else 1.0)
        if self._down:
            paint_fallen_disc(painter, r, colour, self._text, self.theme)
            painter.setOpacity(1.0)
            self._paint_badges(painter)
            paint_word(painter, r, DOWN_WORD, "down")
            if self._harm is not None:
                paint_harm(painter, self._harm, self.radius, self.facing)
            return
        fill = colour
        outline = QPen(self.theme.token_outline, self.theme.token_outline_width)
        if self._hidden:
            outline.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(outline)
        painter.setBrush(fill)
        painter.drawEllipse(QPointF(0, 0), r, r)
        size = r * (0.82 if len(self._text) <= 2 else 0.62) * self.theme.text_scale
        box = QRectF(-r, -r, 2 * r, 2 * r)
        if self._badges:
            box = QRectF(-r, -r, 2 * r, 1.45 * r)
        size, box = paint_label_plate(painter, box, size, fill, self._text)
        painter.setFont(font(size, bold=True))
        painter.setPen(QColor("#ffffff"))
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self._text)
        painter.setOpacity(1.0)
        self._paint_badges(painter)
        if self._harm is not None:
            paint_harm(painter, self._harm, self.radius, self.facing)

    def _paint_badges(self, painter: QPainter) -> None:
        if not self._badges:
            return
        painter.setFont(self._badge_font)
        for rect, badge in self._badges:
            painter.setPen(QPen(QColor(0, 0, 0, 200), 1.2))
            painter.setBrush(badge.back)
            painter.drawRoundedRect(rect, rect.height() / 2.5, rect.height() / 2.5)
            painter.setPen(badge.fore or QColor("#ffffff"))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, badge.text)


MIN_LABEL_PX = 9.0
"""The smallest a token's label is drawn on screen, in pixels: shared areas at the fitted
zoom of a 1280x720 window shrink the discs, never the label below reading size."""


def paint_label_plate(
    painter: QPainter, box: QRectF, size: float, fill: QColor, text: str
) -> tuple[float, QRectF]:
    """The label's font size (scene units) and the box to draw it in, at the painter's
    zoom: at least :data:`MIN_LABEL_PX` on screen; when that, or the label's width, is
    more than the disc holds, a plate of the disc's colour behind the label keeps it
    whole and readable over the map, and the label is drawn across the plate."""
    scale = painter.worldTransform().m11() or 1.0
    size = max(size, MIN_LABEL_PX / scale)
    width = QFontMetricsF(font(size, bold=True)).horizontalAdvance(text)
    if width <= box.width() * 0.92 and size <= box.height():
        return size, box
    w = width + size * 0.5
    h = size * 1.25
    plate = QRectF(box.center().x() - w / 2, box.center().y() - h / 2, w, h)
    painter.setPen(QPen(QColor("#000000"), 1.0 / scale))
    painter.setBrush(fill)
    painter.drawRoundedRect(plate, h / 4, h / 4)
    return size, plate


class FlankItem(MapItem):
    """A character's flank line (E11): through the centre of its area, perpendicular to
    its facing, across the area. It lies under every token, so in an overlap the lines
    pass beneath the discs instead of across them."""

    def __init__(self, cid: str, theme: MapTheme) -> None:
        super().__init__()
        self.cid = cid
        self.theme = theme
        self.setZValue(Z_FLANK)
        self._key: tuple = ()
        self._ends = (QPointF(), QPointF())
        self._side = Side.BAND
        self._strong = False

    def sync(self, c: Combatant, *, strong: bool = False) -> None:
        """Follow the character's area and facing; ``strong`` (the actor or the selection)
        draws it bolder."""
        if c.area is None:
            return
        self.setPos(*mapgeom.area_centre(c.area))
        key = (c.facing, c.side, strong)
        if key == self._key:
            return
        self._key = key
        self._side, self._strong = c.side, strong
        self._place(c.facing)

    def preview(self, facing: float) -> None:
        """Show ``facing`` while the GM turns the character; :meth:`sync` puts it back."""
        self._key = ()
        self._place(facing)

    def _place(self, facing: float) -> None:
        self._ends = flank_ends(facing)
        box = QRectF(self._ends[0], self._ends[1]).normalized()
        self.set_bounds(box.adjusted(-7, -7, 7, 7))
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        colour = style.side_colour(self._side)
        paint_flank(painter, self._ends, colour, self._strong, self.theme)


def flank_ends(facing: float) -> tuple[QPointF, QPointF]:
    """The ends of a flank line across the area, relative to the area's centre (E11)."""
    a, b = mapgeom.flank_line((0.0, 0.0), facing, AREA * 0.62)
    return _point(a), _point(b)


def paint_flank(painter: QPainter, ends, colour: QColor, strong: bool, theme: MapTheme) -> None:
    """A flank line: the side's colour over a dark edge, bolder for the actor and the
    selection."""
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    width = (4.5 if strong else 3.5) * (1.0 if theme.show_selection else 1.2)
    under = QPen(QColor(0, 0, 0, 200), width + 2.5)
    under.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(under)
    painter.drawLine(*ends)
    pen = QPen(colour.lighter(115), width)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    painter.drawLine(*ends)


class DecoyItem(MapItem):
    """One decoy of a hidden character (E6 Hide): a dashed disc with a question mark.
    The GM's view links it to the true place; the players' view has only decoys."""

    def __init__(self, cid: str, index: int, theme: MapTheme) -> None:
        super().__init__()
        self.cid = cid
        self.index = index
        self.theme = theme
        self.area: Area | None = None
        self.setZValue(Z_DECOY)
        self._key: tuple = ()
        self.set_bounds(QRectF())
        self._link: QPointF | None = None
        self._side = Side.BAND
        self._text = ""
        self.radius = 0.36 * AREA

    def sync(
        self,
        c: Combatant,
        area: Area,
        *,
        offset: tuple[float, float] = (0.0, 0.0),
        radius: float = 0.36,
        link: bool = False,
        label: str | None = "",
    ) -> None:
        """Place the decoy; ``link`` draws a dashed line to the true place (GM only);
        ``label`` as the token's, None for none (the owner is secret, N2)."""
        label = "" if label is None else label or c.initials
        self.area = area
        cx, cy = mapgeom.area_centre(area)
        pos = (cx + offset[0] * AREA, cy + offset[1] * AREA)
        self.setPos(*pos)
        to = None
        if link and c.area is not None:
            tx, ty = mapgeom.area_centre(c.area)
            to = (tx - pos[0], ty - pos[1])
        key = (c.side, label, radius, to)
        if key == self._key:
            return
        self._key = key
        self._side = c.side
        self._text = label
        self.radius = radius * AREA
        self._link = _point(to) if to else None
        r = self.radius + 4
        rect = QRectF(-r, -r, 2 * r, 2 * r)
        if self._link is not None:
            line = QRectF(QPointF(0, 0), self._link).normalized()
            rect = rect.united(line.adjusted(-3, -3, 3, 3))
        self.set_bounds(rect)
        self.update()

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addEllipse(QPointF(0, 0), self.radius + 2, self.radius + 2)
        return path

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        colour = style.side_colour(self._side)
        r = self.radius
        if self._link is not None:
            painter.setPen(QPen(QColor(255, 255, 255, 160), 2.0, Qt.PenStyle.DotLine))
            painter.drawLine(QPointF(0, 0), self._link)
        fill = QColor(colour)
        fill.setAlpha(120)
        pen = QPen(colour.lighter(140), 3.0 * self.theme.badge_scale, Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(fill)
        painter.drawEllipse(QPointF(0, 0), r, r)
        painter.setPen(QColor("#ffffff"))
        painter.setFont(font(r * 0.95, bold=True))
        painter.drawText(QRectF(-r, -r, 2 * r, 1.3 * r), Qt.AlignmentFlag.AlignCenter, "?")
        painter.setFont(font(r * 0.42, bold=True))
        painter.drawText(
            QRectF(-r, 0.15 * r, 2 * r, 0.7 * r), Qt.AlignmentFlag.AlignCenter, self._text
        )


class RearArcItem(MapItem):
    """The part of the zone behind a character's flank (E11), shaded: the whole half-plane
    for the character in focus, a half disc for everyone else."""

    def __init__(self, cid: str) -> None:
        super().__init__(cached=False)
        self.cid = cid
        self.setZValue(Z_REAR)
        self._poly = QPolygonF()
        self._key: tuple = ()
        self.full = False

    def sync(
        self, area: Area, facing: float, zone_rect: tuple[float, float, float, float], full: bool
    ) -> None:
        """Recompute the shaded polygon for a character at ``area`` facing ``facing``."""
        key = (area, facing, zone_rect, full)
        if key == self._key:
            return
        self._key = key
        self.full = full
        centre = mapgeom.area_centre(area)
        if full:
            pts = mapgeom.half_plane(centre, facing, zone_rect)
        else:
            pts = mapgeom.half_disc(centre, facing, AREA * 1.5)
        self._poly = QPolygonF([_point(p) for p in pts])
        if not full:
            self._poly = self._poly.intersected(QPolygonF(QRectF(*zone_rect)))
        self.set_bounds(self._poly.boundingRect())
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(Qt.PenStyle.NoPen)
        colour = QColor(10, 0, 30, 105 if self.full else 80)
        painter.setBrush(QBrush(colour))
        painter.drawPolygon(self._poly)
        if self.full:
            painter.setBrush(QBrush(QColor(0, 0, 0, 60), Qt.BrushStyle.BDiagPattern))
            painter.drawPolygon(self._poly)


class OverlapItem(MapItem):
    """An area where opponents share the space (an overlap, E14): a red frame."""

    def __init__(self, area: Area, theme: MapTheme) -> None:
        super().__init__()
        self.area = area
        self.theme = theme
        self.setZValue(Z_OVERLAP)
        x, y, w, h = mapgeom.area_rect(area)
        self._area_rect = QRectF(x, y, w, h)
        self.set_bounds(self._area_rect.adjusted(-6, -6, 6, 6))
        self.setToolTip("Overlap with opponents: leaving needs a move check (E14)")

    def paint(self, painter: QPainter, option, widget=None) -> None:
        # Inside the area's edge, so the actor's frame (drawn on the edge) stays visible.
        rect = self._area_rect.adjusted(6, 6, -6, -6)
        fill = QColor(style.OVERLAP)
        fill.setAlpha(70)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setBrush(fill)
        painter.setPen(QPen(style.OVERLAP, 5.0 * self.theme.badge_scale))
        painter.drawRoundedRect(rect, 8, 8)


class ActorMark(MapItem):
    """The area of the character whose turn it is, framed in the actor's colour under the
    tokens: with the ring on the token, the turn reads from across a room."""

    def __init__(self, theme: MapTheme) -> None:
        super().__init__()
        self.theme = theme
        self.area: Area | None = None
        self.setZValue(Z_OVERLAP - 0.5)
        self.set_bounds(QRectF(-AREA / 2 - 8, -AREA / 2 - 8, AREA + 16, AREA + 16))
        self.setVisible(False)

    def sync(self, area: Area | None) -> None:
        """Frame ``area`` (None: nobody's turn, or the actor is not shown)."""
        self.area = area
        self.setVisible(area is not None)
        if area is not None:
            self.setPos(*mapgeom.area_centre(area))

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        rect = QRectF(-AREA / 2 + 2, -AREA / 2 + 2, AREA - 4, AREA - 4)
        glow = QColor(style.ACTOR)
        glow.setAlpha(70)
        painter.setPen(QPen(glow, 10))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(rect, 8, 8)
        fill = QColor(style.ACTOR)
        fill.setAlpha(55)
        painter.setBrush(fill)
        painter.setPen(QPen(style.ACTOR, 4.0 * self.theme.badge_scale))
        painter.drawRoundedRect(rect, 8, 8)


class FacingHandle(MapItem):
    """The knob at the end of the selected character's facing: drag it to turn."""

    RADIUS = 9.0

    def __init__(self) -> None:
        super().__init__(cached=False)
        self.setZValue(Z_HANDLE)
        r = self.RADIUS + 2
        self.set_bounds(QRectF(-r, -r, 2 * r, 2 * r))
        self.cid = ""
        self.setCursor(Qt.CursorShape.SizeAllCursor)
        self.setToolTip("Drag to turn (Shift: GM override). Keys: Q / E turn 15°, 1-9 face.")

    def sync(self, cid: str, centre: QPointF, radius: float, facing: float) -> None:
        """Put the knob ``radius`` scene units from ``centre`` along ``facing``."""
        self.cid = cid
        fx, fy = facing_vector(facing)
        distance = max(radius * 2.0, 30.0)
        self.setPos(centre.x() + fx * distance, centre.y() + fy * distance)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(QColor("#111111"), 2.0))
        painter.setBrush(QColor("#ffffff"))
        painter.drawEllipse(QPointF(0, 0), self.RADIUS, self.RADIUS)
        painter.setBrush(style.ACTOR)
        painter.drawEllipse(QPointF(0, 0), self.RADIUS * 0.45, self.RADIUS * 0.45)
