"""What the players' screen shows of the map: the whole map, or a part the GM
pushed or follows; turned 90 / 180 / 270 degrees for a TV lying flat on the table; at real
size (one area one inch or 25 mm: the zoom locked, panning in whole areas).

The camera drives one players' :class:`~afdesk.gui.map.view.MapView`; it announces
:attr:`TableCamera.changed` whenever what the screen shows moves, so the GM's map can draw
the rectangle the TV shows.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Signal
from PySide6.QtGui import QPolygonF, QTransform

from afdesk.gui import mapgeom
from afdesk.gui.table.settings import ROTATIONS

AREA = mapgeom.AREA


class TableCamera(QObject):
    """Where the players' view looks (see the module)."""

    changed = Signal()

    def __init__(self, view) -> None:
        super().__init__(view)
        self.view = view
        self.rotation = 0
        self.area_px: float | None = None
        """Logical pixels per area at real size (None: the view fits what it shows)."""
        self._target: QRectF | None = None
        """The part of the map shown (None: the whole map)."""
        self._centre: QPointF | None = None
        """At real size: the scene point in the middle of the screen (an area's centre)."""
        # Only the viewport is watched (its size, and its input at real size), never the
        # view itself, whose teardown sends events to its filters.
        view.viewport().installEventFilter(self)
        view.horizontalScrollBar().valueChanged.connect(self._moved)
        view.verticalScrollBar().valueChanged.connect(self._moved)

    # ------------------------------------------------------------------ choosing

    def fit(self) -> None:
        """The whole map (at real size: centred on it, at the locked zoom)."""
        self._target = None
        self._centre = None
        self.apply()

    def show_rect(self, rect: QRectF) -> None:
        """Show the scene rectangle ``rect`` (the GM's view: Push, Follow)."""
        self._target = QRectF(rect)
        self._centre = None
        self.apply()

    def set_rotation(self, degrees: int) -> None:
        if degrees % 360 not in ROTATIONS:
            raise ValueError(f"the players' view turns by 0, 90, 180 or 270 degrees, not {degrees}")
        self.rotation = degrees % 360
        self.apply()

    def set_real_size(self, area_px: float | None) -> None:
        """One area as ``area_px`` logical pixels (None: back to fitting)."""
        if area_px is not None and not (4 <= area_px <= 2000):
            raise ValueError(f"{area_px:.1f} pixels per area is not a real screen size")
        self.area_px = area_px
        self._centre = None
        self.apply()

    def pan_areas(self, dx: int, dy: int) -> None:
        """At real size: move the screen by whole areas, in the screen's own directions
        (right, down), whatever way it is turned."""
        if self.area_px is None:
            return
        turn = QTransform().rotate(-self.rotation)
        step = turn.map(QPointF(dx * AREA, dy * AREA))
        centre = self._centre or self._snap(self._wanted().center())
        self._centre = self._snap(centre + step)
        self.apply()

    # ------------------------------------------------------------------ applying

    def _wanted(self) -> QRectF:
        scene = self.view.map_scene
        return QRectF(self._target) if self._target is not None else scene.map_rect()

    @staticmethod
    def _snap(point: QPointF) -> QPointF:
        """The centre of the area holding ``point``: panning stays on whole areas."""
        c, r = mapgeom.area_at(point.x(), point.y())
        return QPointF(*mapgeom.area_centre((c, r)))

    def scale(self) -> float:
        """Screen pixels per scene unit now."""
        if self.area_px is not None:
            return self.area_px / AREA
        rect = self._wanted()
        vp = self.view.viewport().rect()
        w, h = rect.width(), rect.height()
        if self.rotation in (90, 270):
            w, h = h, w
        if w <= 0 or h <= 0 or vp.width() <= 0 or vp.height() <= 0:
            return 1.0
        return min(vp.width() / w, vp.height() / h)

    def apply(self) -> None:
        """Put the view where the camera says."""
        view = self.view
        view._auto_fit = False  # the camera decides, not the view's own fitting
        s = self.scale()
        view.setTransform(QTransform().rotate(self.rotation).scale(s, s))
        if self.area_px is not None:
            if self._centre is None:
                self._centre = self._snap(self._wanted().center())
            centre = self._centre
        else:
            centre = self._wanted().center()
        self._widen_scene(centre)
        view.centerOn(centre)
        self.changed.emit()

    def _widen_scene(self, centre: QPointF) -> None:
        """Let the view centre on ``centre`` even near the map's edge (the scene rectangle
        bounds how far a view without scroll bars can scroll)."""
        scene = self.view.map_scene
        vp = self.view.viewport().rect()
        s = max(self.scale(), 1e-6)
        half = max(vp.width(), vp.height()) / s
        need = QRectF(centre.x() - half, centre.y() - half, 2 * half, 2 * half)
        if not scene.sceneRect().contains(need):
            scene.setSceneRect(scene.sceneRect().united(need))

    def shown(self) -> QPolygonF:
        """What the screen shows, in scene coordinates (turned with the screen)."""
        return self.view.mapToScene(self.view.viewport().rect())

    # ------------------------------------------------------------------- events

    def _moved(self, *_args) -> None:
        self.changed.emit()

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QEvent.Type.Resize and event.size() != event.oldSize():
            self.apply()  # the viewport grew or shrank (the window's bar hid, ...)
            return False
        # Real size: the zoom is locked and panning goes by whole areas (the keys).
        return self.area_px is not None and event.type() in _LOCKED


_LOCKED = (
    QEvent.Type.Wheel,
    QEvent.Type.MouseButtonPress,
    QEvent.Type.MouseMove,
    QEvent.Type.MouseButtonRelease,
)


__all__ = ["ROTATIONS", "TableCamera"]
