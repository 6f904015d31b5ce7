"""Fallen characters on both maps: a down character's token (E17) and the token of one out
of the fight, left where it fell (:mod:`afdesk.encounter.fallen`), are drawn greyed and
tilted with a DOWN or OUT plate across them, large enough to read from across the table.
The players' screen had only a ticker line for them.

:class:`OutItem` is the token of a character out of the fight: not a
:class:`~afdesk.gui.map.tokens.TokenItem`, so no click selects or drags it.
:class:`FallenLayer` keeps a scene's OUT tokens in step with the undo history."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPen

from afdesk.encounter import features
from afdesk.encounter.combatant import Combatant, Side, StateKind
from afdesk.encounter.fallen import fell_at, out_of
from afdesk.encounter.geometry import Area
from afdesk.gui import mapgeom, style
from afdesk.gui.map.base import MapItem
from afdesk.gui.map.theme import MapTheme, font

if TYPE_CHECKING:
    from afdesk.encounter.history import Step

TILT = -28.0
"""Degrees a fallen token's disc and label lean: it reads as knocked over."""
DOWN_WORD = features.state_row(StateKind.DOWN).badge
"""The word across a down token: the down state's badge (E17)."""
Z_OUT = 7.5
"""Under the tokens and decoys of the characters still standing."""


def fallen_fill(colour: QColor) -> QColor:
    """A side's colour greyed: its hue kept faintly, most of its colour gone."""
    h, s, v, _a = colour.getHsv()
    return QColor.fromHsv(max(h, 0), s // 4, v * 55 // 100)


def word_plate(radius: float, word: str) -> tuple[QRectF, float]:
    """The plate's rectangle across the lower half of a token of ``radius`` (the label
    stays readable above it) and its font size: as wide as the disc or wider, its
    capitals as large as the token's label, barely past the token's area."""
    size = max(radius * 0.82, 9.0)
    width = QFontMetricsF(font(size, bold=True)).horizontalAdvance(word) + size * 0.6
    w, h = max(width, radius * 2.1), size * 1.3
    return QRectF(-w / 2, radius * 0.7 - h / 2, w, h), size


def paint_word(painter: QPainter, radius: float, word: str, kind: str) -> None:
    """The DOWN or OUT plate (``kind`` "down" or "out") across a token: white bold
    capitals on a dark plate edged in white, level however the disc leans."""
    rect, size = word_plate(radius, word)
    painter.setPen(QPen(QColor("#ffffff"), max(radius * 0.07, 1.5)))
    painter.setBrush(style.FALLEN[kind])
    painter.drawRoundedRect(rect, rect.height() / 4, rect.height() / 4)
    painter.setFont(font(size, bold=True))
    painter.setPen(QColor("#ffffff"))
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, word)


def paint_fallen_disc(
    painter: QPainter, radius: float, colour: QColor, label: str, theme: MapTheme
) -> None:
    """A greyed disc and its label, leaning by :data:`TILT`."""
    painter.save()
    painter.rotate(TILT)
    painter.setPen(QPen(theme.token_outline, theme.token_outline_width))
    painter.setBrush(fallen_fill(colour))
    painter.drawEllipse(QPointF(0, 0), radius, radius)
    painter.setFont(font(radius * (0.72 if len(label) <= 2 else 0.56), bold=True))
    painter.setPen(QColor("#ffffff"))
    box = QRectF(-radius, -radius * 0.92, 2 * radius, radius * 1.0)
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, label)
    painter.restore()


class OutItem(MapItem):
    """The token of a character out of the fight, where it fell."""

    def __init__(self, cid: str, theme: MapTheme) -> None:
        super().__init__()
        self.cid = cid
        self.theme = theme
        self.area: Area | None = None
        self.radius = 0.36 * mapgeom.AREA
        self.setZValue(Z_OUT)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._key: tuple = ()
        self._side = Side.BAND
        self._label = ""
        self.word = "OUT"

    def sync(self, c: Combatant, area: Area, label: str) -> None:
        self.area = area
        self.setPos(*mapgeom.area_centre(area))
        word = next((row.badge for row in features.standings(c) if row.kind == "out"), "OUT")
        key = (c.side, label, word)
        if key == self._key:
            return
        self._key = key
        self._side, self._label, self.word = c.side, label or c.initials, word
        plate, _size = word_plate(self.radius, word)
        r = self.radius + self.theme.token_outline_width + 2
        self.set_bounds(QRectF(-r, -r, 2 * r, 2 * r).united(plate.adjusted(-3, -3, 3, 3)))
        self.update()

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        colour = style.side_colour(self._side)
        paint_fallen_disc(painter, self.radius, colour, self._label, self.theme)
        paint_word(painter, self.radius, self.word, "out")


class FallPlaces:
    """:func:`~afdesk.encounter.fallen.fell_at` of a history's applied steps, kept up with
    the history step by step: reading the whole history again on each change cost each
    change more the longer the session (3 ms a change with 1,000 steps). A step's places
    are read once; a step done, undone, redone, merged or forgotten (the undo limit) costs
    the places of that step only (a history it cannot follow is read again once)."""

    def __init__(self) -> None:
        self._held: deque[tuple[Step, int, dict[str, Area]]] = deque()
        """The applied steps followed, oldest first: each with its serial and places."""
        self._by_id: dict[str, deque[tuple[int, Area]]] = {}
        """Each character's places in the steps held, by serial, oldest first."""
        self._serial = 0
        self.read = 0
        """How many steps' places were read (a test counts the work)."""

    def place(self, cid: str) -> Area | None:
        """Where ``cid`` was just before the last step followed that touched it on the map."""
        places = self._by_id.get(cid)
        return places[-1][1] if places else None

    def follow(self, steps: Sequence[Step], index: int) -> None:
        """Follow ``steps[:index]``, the steps a history has applied."""
        held = self._held
        if held and (not steps or held[0][0] is not steps[0]):
            dropped = next((j for j, h in enumerate(held) if steps and h[0] is steps[0]), -1)
            for _ in range(dropped if dropped > 0 else len(held)):
                self._forget(held.popleft(), first=True)
        while len(held) > index or (held and held[-1][0] is not steps[len(held) - 1]):
            self._forget(held.pop(), first=False)
        for step in steps[len(held) : index]:
            self._serial += 1
            self.read += 1
            places = fell_at((step,))
            held.append((step, self._serial, places))
            for cid, area in places.items():
                self._by_id.setdefault(cid, deque()).append((self._serial, area))

    def _forget(self, held: tuple[Step, int, dict[str, Area]], first: bool) -> None:
        for cid in held[2]:
            places = self._by_id[cid]
            if first:
                places.popleft()
            else:
                places.pop()
            if not places:
                del self._by_id[cid]


class FallenLayer:
    """A scene's OUT tokens: one for each character out of the fight whose place the undo
        history holds and whom this scene may show (the players': not hidden, held back or
        under fog). The scene syncs it when a step is done, undone or redone (the undo stack's
    index moves once the history holds the step)."""

    def __init__(self, scene) -> None:
        self.scene = scene
        self.items: dict[str, OutItem] = {}
        self.places = FallPlaces()
        self._history: object = None

    def sync(self, *_args) -> None:
        scene = self.scene
        enc = scene.enc
        out = out_of(enc.roster())
        if out:
            self._follow()
        keep: set[str] = set()
        for c in out:
            area = self.places.place(c.id)
            if area is None or not self._shown(c, area):
                continue
            keep.add(c.id)
            item = self.items.get(c.id)
            if item is None:
                self.items[c.id] = item = OutItem(c.id, scene.theme)
                scene.addItem(item)
                if not scene.player:
                    item.setToolTip(f"{c.name}: {c.exited}")
            item.sync(c, area, scene.labels.get(c.id, ""))
        for cid in [cid for cid in self.items if cid not in keep]:
            scene.removeItem(self.items.pop(cid))

    def _follow(self) -> None:
        """Bring :attr:`places` up to the document's history (none: no places)."""
        history = getattr(self.scene.doc, "history", None)
        if history is not self._history:
            self._history, self.places = history, FallPlaces()
        if history is not None:
            self.places.follow(history.steps, history.index)

    def _shown(self, c: Combatant, area: Area) -> bool:
        scene = self.scene
        if not scene.player:
            return True
        return not c.hidden and not c.in_reserve and not scene.fog.hides(area)
