"""The infiltration drawn on the GM's map (N1-N8): each guardian unaware or alerted (a
badge), each unaware guardian's proposed watch step and facing (N3: an arrow to a ghost
with its facing), each decoy's owner (the GM's map only), which decoys are seen right now
and by whom (N4a: a red line from each observer, re-checked after every change), the alarm
(N6), the objectives with their done marks (N1), who got out by which edge and whether the
infiltration is over (N8).

The facts come from the model (:mod:`afdesk.encounter.infiltration`); this only draws them,
and only while the encounter is an infiltration."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsLineItem, QGraphicsPathItem

from afdesk.encounter.infiltration.end import outcome, over
from afdesk.encounter.infiltration.watch import seen_lines, watch_steps
from afdesk.encounter.state import Mode
from afdesk.gui import mapgeom
from afdesk.gui.follow import Links
from afdesk.gui.map.terrain import EDGE_DEPTH
from afdesk.gui.map.theme import font

AREA = mapgeom.AREA
Z_LINES, Z_STEP, Z_TAGS, Z_BANNER = 7.5, 7.0, 12.0, 25.0
SEEN = QColor("#e53935")
WATCH = QColor("#ffb300")
UNAWARE = QColor("#455a64")
ALERT = QColor("#c62828")
OPEN = QColor("#f9a825")
DONE = QColor("#2e7d32")
EDGE_WORDS = {"north": (0.5, 0.0), "south": (0.5, 1.0), "west": (0.0, 0.5), "east": (1.0, 0.5)}


class Tag(QGraphicsItem):
    """A rounded label on the map: white words on a coloured pill, centred on its
    position (``anchor`` "centre") or hanging from it to the right ("left")."""

    def __init__(self, text: str, colour: QColor, size: float = 13.0, anchor: str = "centre"):
        super().__init__()
        self.text = text
        self.colour = QColor(colour)
        self._font = font(size, bold=True)
        m = QFontMetricsF(self._font)
        w, h = m.horizontalAdvance(text) + 12, m.height() + 4
        x = -w / 2 if anchor == "centre" else 0.0
        self._rect = QRectF(x, -h / 2, w, h)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return self._rect.adjusted(-1, -1, 1, 1)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(QColor(255, 255, 255, 200), 1.5))
        painter.setBrush(self.colour)
        r = self._rect.height() / 2
        painter.drawRoundedRect(self._rect, r, r)
        painter.setPen(QColor("#ffffff"))
        painter.setFont(self._font)
        painter.drawText(self._rect, Qt.AlignmentFlag.AlignCenter, self.text)


def _centre(area) -> QPointF:
    return QPointF(*mapgeom.area_centre((area[0], area[1])))


def _arrow(a: QPointF, b: QPointF, head: float = 14.0) -> QPainterPath:
    path = QPainterPath(a)
    path.lineTo(b)
    angle = math.atan2(b.y() - a.y(), b.x() - a.x())
    for side in (-1, 1):
        t = angle + math.pi - side * 0.45
        path.moveTo(b)
        path.lineTo(b + QPointF(math.cos(t) * head, math.sin(t) * head))
    return path


class InfiltrationLayer:
    """Keeps the infiltration's items on ``view``'s scene up to date: the GM's map
    (everything above), or the players' (``player``: the alarm once raised and the end,
    nothing the players may not know: no owner, no watch step, no seen line)."""

    def __init__(self, view, *, player: bool = False) -> None:
        self.view = view
        self.player = player
        self.doc = None
        self._links = Links()
        self.items: list[QGraphicsItem] = []
        self.picture: tuple = ()
        """What is drawn now, as plain data (tests read it)."""
        self.badges: dict[str, str] = {}
        """Each guardian's badge word ("UNAWARE", "ALERT")."""
        self.steps: dict[str, tuple[tuple[int, int], float]] = {}
        """Each unaware guardian's proposed watch step drawn: (area, facing)."""
        self.lines: list[tuple[str, tuple[int, int], str, tuple[int, int]]] = []
        """The seen lines drawn: (observer, where it stands, owner, decoy area) (N4a)."""
        self.banner = ""
        """The words of the banner above the zone (the alarm, N6; the end, N8)."""
        self.decoy_tags: dict[tuple[int, int], str] = {}
        """The one owners' tag per decoy area ("decoys: Huang, Mei" when they share it)."""
        self.seen_tags: dict[tuple[int, int], str] = {}
        """The one SEEN tag per decoy area, naming every observer (N4a)."""

    def set_document(self, doc) -> None:
        self.doc = doc
        self.items = []  # the view's new scene holds none of them
        self.picture = ()
        self._links.clear()
        for signal in (doc.changed, doc.modeChanged):
            self._links.connect(signal, self.sync)
        self.sync()

    # ------------------------------------------------------------------ the facts

    def _facts(self) -> tuple:
        enc = self.doc.encounter
        if enc.mode is not Mode.INFILTRATION:
            return ()
        inf = enc.infiltration
        if self.player:
            bounds = enc.zone.area_bounds() if enc.zone.tiles else (0, 0, 0, 0)
            return ((), (), (), (), (), (), inf.alarm, over(enc), (), bounds)
        guardians = []
        for gid in inf.guardians:
            g = enc.combatants.get(gid)
            if g is not None and g.on_map:
                guardians.append((gid, tuple(g.area), inf.unaware(gid)))
        steps = tuple((s.id, tuple(s.area), s.facing, tuple(s.decoy)) for s in watch_steps(enc))
        lines = tuple((s.observer, s.at, s.owner, s.decoy) for s in seen_lines(enc))
        decoys = []
        for cid in (*inf.intruders, *inf.guardians):
            c = enc.combatants.get(cid)
            if c is not None and c.on_map and c.hidden:
                decoys.extend((cid, c.name, (d[0], d[1])) for d in c.decoys)
        objectives = tuple((o.text, o.area, o.done) for o in inf.objectives if o.area)
        names = {cid: c.name for cid, c in enc.combatants.items()}
        got_out = tuple((names.get(i, i), edge) for i, edge in outcome(enc).got_out)
        return (
            tuple(guardians),
            steps,
            lines,
            tuple(decoys),
            objectives,
            got_out,
            inf.alarm,
            over(enc),
            tuple(sorted(names.items())),
            enc.zone.area_bounds() if enc.zone.tiles else (0, 0, 0, 0),
        )

    # ------------------------------------------------------------------- drawing

    def sync(self, *_args) -> None:
        facts = self._facts()
        if facts == self.picture and (not self.items or self.items[0].scene() is not None):
            return
        self.picture = facts
        for item in self.items:
            if item.scene() is not None:
                item.scene().removeItem(item)
        self.items = []
        self.badges, self.steps, self.lines, self.banner = {}, {}, [], ""
        self.decoy_tags, self.seen_tags = {}, {}
        if not facts:
            return
        guardians, steps, lines, decoys, objectives, got_out, alarm, ended, names, bounds = facts
        names = dict(names)
        for gid, area, unaware in guardians:
            word = "UNAWARE" if unaware else "ALERT"
            self.badges[gid] = word
            self._add(Tag(word, UNAWARE if unaware else ALERT, 17), _centre(area), -0.8, Z_TAGS)
        for gid, area, facing, _decoy in steps:
            self.steps[gid] = (area, facing)
            self._watch_step(self._guardian_area(guardians, gid), area, facing)
        self._seen(lines, names)
        # One tag per area: decoys sharing an area (several owners) are named together.
        by_area: dict[tuple, list[tuple[str, str]]] = {}
        for cid, who, area in decoys:
            by_area.setdefault(area, []).append((cid, who))
        for area, owners in by_area.items():
            owners = list(dict.fromkeys(owners))
            if len(owners) == 1:
                text = f"decoy: {owners[0][1]}"
            else:  # the tokens' short labels keep the tag within its area's width
                labels = self.view.map_scene.labels
                text = "decoys: " + ", ".join(labels.get(cid) or who for cid, who in owners)
            self.decoy_tags[area] = text
            self._add(Tag(text, QColor(40, 40, 40, 215), 14), _centre(area), 0.66)
        for text, area, done in objectives:
            short = text if len(text) <= 24 else text[:23] + "\u2026"
            word = f"\u2713 {short}" if done else f"\u2605 {short}"
            self._objective(area, done)
            tag = self._add(Tag(word, DONE if done else OPEN, 15), _centre(area), 0.75, Z_TAGS - 1)
            tag.setToolTip(f"Objective{' (done)' if done else ''}: {text} (N1)")
        self._edges(got_out, bounds)
        if self.player and not (alarm or ended):
            return  # the players learn of the alarm when it is raised (N6)
        self._banner(alarm, ended, sum(1 for g in guardians if g[2]), bool(guardians))

    @staticmethod
    def _guardian_area(guardians, gid):
        return next(a for g, a, _u in guardians if g == gid)

    def _add(self, item: QGraphicsItem, at: QPointF, dy: float = 0.0, z: float = Z_TAGS):
        item.setPos(at + QPointF(0, dy * AREA))
        item.setZValue(z)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.view.map_scene.addItem(item)
        self.items.append(item)
        return item

    def _watch_step(self, frm, to, facing: float) -> None:
        """N3: an arrow from the guardian to its proposed step, a ghost there with the
        facing it would take."""
        a, b = _centre(frm), _centre(to)
        d = b - a
        length = math.hypot(d.x(), d.y()) or 1.0
        start = a + d * (0.34 * AREA / length)
        end = b - d * (0.3 * AREA / length)
        arrow = QGraphicsPathItem(_arrow(start, end))
        arrow.setPen(QPen(WATCH, 7, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        self._add(arrow, QPointF(0, 0), 0, Z_STEP)
        ghost = QGraphicsPathItem()
        path = QPainterPath()
        r = 0.3 * AREA
        path.addEllipse(QPointF(0, 0), r, r)
        rad = math.radians(facing)  # facing: 0 north, clockwise (E11)
        tip = QPointF(math.sin(rad) * r * 1.6, -math.cos(rad) * r * 1.6)
        path.moveTo(0, 0)
        path.lineTo(tip)
        ghost.setPath(path)
        ghost.setPen(QPen(WATCH, 3, Qt.PenStyle.DashLine))
        ghost.setBrush(QBrush(QColor(255, 179, 0, 60)))
        self._add(ghost, b, 0, Z_STEP)

    def _objective(self, area, done: bool) -> None:
        """N1: the objective's area outlined (gold while open, green once done)."""
        x, y, w, h = mapgeom.area_rect((area[0], area[1]))
        box = QGraphicsPathItem()
        path = QPainterPath()
        path.addRoundedRect(QRectF(x + 3, y + 3, w - 6, h - 6), 8, 8)
        box.setPath(path)
        box.setPen(QPen(DONE if done else OPEN, 5, Qt.PenStyle.DashLine))
        self._add(box, QPointF(0, 0), 0, Z_STEP)

    def _seen(self, lines, names: dict[str, str]) -> None:
        """N4a: a red line from each observer to each decoy it sees, a red ring round the
        decoy and who sees it."""
        by_decoy: dict[tuple, list[str]] = {}
        drawn: set[tuple] = set()
        for observer, at, owner, decoy in lines:
            self.lines.append((observer, at, owner, decoy))
            if (at, decoy) not in drawn:  # one line per place and decoy area
                drawn.add((at, decoy))
                line = QGraphicsLineItem(_centre(at).x(), _centre(at).y(), *_xy(decoy))
                line.setPen(QPen(SEEN, 4, Qt.PenStyle.DashLine, Qt.PenCapStyle.RoundCap))
                self._add(line, QPointF(0, 0), 0, Z_LINES)
            label = self.view.map_scene.labels.get(observer) or names.get(observer, observer)
            by_decoy.setdefault(decoy, []).append(label)
        # One ring and one tag per area, whoever's decoys share it.
        for decoy, who in by_decoy.items():
            ring = QGraphicsPathItem()
            path = QPainterPath()
            path.addEllipse(QPointF(0, 0), 0.46 * AREA, 0.46 * AREA)
            ring.setPath(path)
            ring.setPen(QPen(SEEN, 5))
            self._add(ring, _centre(decoy), 0, Z_LINES + 1)
            seen = "SEEN by " + ", ".join(dict.fromkeys(who))
            self.seen_tags[decoy] = seen
            self._add(Tag(seen, SEEN, 15), _centre(decoy), -0.75, Z_TAGS + 1)

    def _edges(self, got_out, bounds) -> None:
        """N8: who got out, at the edge they left by."""
        if not got_out:
            return
        x, y, w, h = mapgeom.bounds_rect(bounds)
        per_edge: dict[str, list[str]] = {}
        for who, edge in got_out:
            per_edge.setdefault(edge, []).append(who)
        for edge, who in per_edge.items():
            fx, fy = EDGE_WORDS.get(edge, (0.5, 0.5))
            tag = Tag(f"Got out ({edge}): {', '.join(who)}", DONE, 13)
            # Whole inside the zone against its edge: on the edge line it hung half over
            # the legend (east), off the map (west) or under the banner (north).
            half = tag.boundingRect().width() / 2 + 4
            inset = 0.35 * AREA
            at = QPointF(
                min(max(x + fx * w, x + half), x + w - half),
                min(max(y + fy * h, y + inset), y + h - inset),
            )
            self._add(tag, at, 0, Z_BANNER)

    def _banner(self, alarm: bool, ended: str, unaware: int, guarded: bool = True) -> None:
        """The alarm (N6) and the end (N8), above the zone's top left corner; with no
        guardian on the map (no roles yet, N1), what the GM does first."""
        if ended:
            text, colour = f"The infiltration is over: {ended}", DONE
            if self.player:
                text = "The infiltration is over"
        elif alarm and self.player:
            text, colour = "ALARM! The guards are alerted", ALERT
        elif alarm:
            text, colour = "ALARM raised (N6): guardians take normal turns", ALERT
        elif not guarded:
            text, colour = (
                "No roles yet (N1): see the Infiltration dock",
                UNAWARE,
            )
        else:
            text, colour = f"No alarm: {unaware} guardian(s) unaware, only watching (N3)", UNAWARE
        self.banner = text
        rect = self.view.map_scene.zone_rect()
        size = 34 if self.player else 22  # the table reads it from across the room
        # On the top edge band, not over the top row: there it hid a decoy or a guardian
        # standing in the corner (N5, N6), on the players' screen too.
        at = rect.topLeft() + QPointF(6, -EDGE_DEPTH / 2)
        self._add(Tag(text, colour, size, "left"), at, 0, Z_BANNER)


def _xy(area) -> tuple[float, float]:
    return mapgeom.area_centre((area[0], area[1]))


__all__ = ["InfiltrationLayer", "Tag"]
