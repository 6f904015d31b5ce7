"""The map view: zoom, pan and fit; and for the GM, dragging tokens, turning them, the
token's context menu and picking a target. Every change is one Op pushed on the document
(one undo step per drag or key press); refusals go to the status bar with the model's
reason. ``player=True`` gives the read-only projector view.

GM controls:

- drag a token: move it this action (reach shaded with costs, E14); past the zone's edge,
  a menu offers "extend the zone" or "exit the encounter" (one undo step either way);
- Shift-drag (or Ctrl-drag): GM override placement (PlaceCombatant; the log says so);
- drag the knob at the end of the selected token's facing: turn it (any angle);
- Q / E (or [ / ]): turn 15 degrees; 1-9 as on a keypad: face a direction (8 is north);
  arrows (and keypad Home/PgUp/End/PgDn): move one area; add Shift (or Ctrl, needed with
  the digits) to override the turn order as GM;
- Tab / Shift+Tab: select the next / previous character; Escape: cancel or deselect;
- right-click a token: its actions; wheel: zoom; drag empty ground: pan; + / - / 0.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import QEvent, QPoint, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import QApplication, QGraphicsView, QMenu

from afdesk.encounter import drag as ia
from afdesk.encounter.geometry import DIRECTIONS, facing_towards, normalise_facing
from afdesk.encounter.ops.roster import SetFacing
from afdesk.encounter.zone import Edge
from afdesk.gui import actions, mapgeom, style
from afdesk.gui.map.overlays import ReachCell
from afdesk.gui.map.scene import MapScene
from afdesk.gui.text import sentence

ZOOM_STEP = 1.25
MIN_ZOOM, MAX_ZOOM = 0.05, 12.0

TURN_KEYS = {
    Qt.Key.Key_Q: -15.0,
    Qt.Key.Key_E: 15.0,
    Qt.Key.Key_BracketLeft: -15.0,
    Qt.Key.Key_BraceLeft: -15.0,
    Qt.Key.Key_BracketRight: 15.0,
    Qt.Key.Key_BraceRight: 15.0,
}
"""Turn the selected character by 15 degrees: Q (or [) anticlockwise, E (or ]) clockwise."""

FACE_KEYS = {
    Qt.Key.Key_8: "N",
    Qt.Key.Key_9: "NE",
    Qt.Key.Key_6: "E",
    Qt.Key.Key_3: "SE",
    Qt.Key.Key_2: "S",
    Qt.Key.Key_1: "SW",
    Qt.Key.Key_4: "W",
    Qt.Key.Key_7: "NW",
}
"""Face one of the eight directions: the digits as laid out on a numeric keypad (8 is
north, 6 east)."""

MOVE_KEYS = {
    Qt.Key.Key_Up: (0, -1),
    Qt.Key.Key_Down: (0, 1),
    Qt.Key.Key_Left: (-1, 0),
    Qt.Key.Key_Right: (1, 0),
    Qt.Key.Key_Home: (-1, -1),
    Qt.Key.Key_PageUp: (1, -1),
    Qt.Key.Key_End: (-1, 1),
    Qt.Key.Key_PageDown: (1, 1),
}
"""Move the selected character one area (the keypad's arrows give the diagonals), as if
dragged there: the same rules, the same one undo step."""

OVERRIDE = Qt.KeyboardModifier.ShiftModifier | Qt.KeyboardModifier.ControlModifier


def is_override(modifiers) -> bool:
    """Shift (or Ctrl) held: the GM overrides the rules explicitly."""
    return bool(modifiers & OVERRIDE)


@dataclass
class _Press:
    cid: str
    pos: QPoint
    override: bool


KEY_TURN_REST_MS = 700
"""Quiet time after Q / E before a burst of turns becomes one facing change."""


class MapView(QGraphicsView):
    """A view of an encounter's map. The GM's view edits through Ops; the player's
    (``player=True``) is read-only and leaves out GM-only things."""

    actionRequested = Signal(str, str)
    """(character id, context-menu entry key) for entries that need a dialog."""
    statusMessage = Signal(str)
    targetPicked = Signal(str)

    def __init__(self, doc, *, player: bool = False, parent=None) -> None:
        super().__init__(parent)
        self.player = player
        self.doc = None
        self.map_scene: MapScene | None = None
        self.rng: random.Random | None = None
        """Where new tiles are drawn from (None: system randomness)."""
        # No SmoothPixmapTransform: the item caches are drawn pixel for pixel, and the
        # smooth path makes every cached item several times dearer to draw.
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setFrameShape(QGraphicsView.Shape.NoFrame)
        # Panning is a drag on empty ground (or the middle button); no scroll bars.
        off = Qt.ScrollBarPolicy.ScrollBarAlwaysOff
        self.setHorizontalScrollBarPolicy(off)
        self.setVerticalScrollBarPolicy(off)
        self._auto_fit = True
        self._rear = False
        self._press: _Press | None = None
        self._plan: ia.DragPlan | None = None
        self._last_area = None
        self._facing: tuple[str, float] | None = None
        self._pan: tuple[QPoint, bool] | None = None
        self._pick = ""
        self._menu: QMenu | None = None
        self._edge_menu: QMenu | None = None
        self._key_turn: tuple[str, float, bool] | None = None
        self._key_timer = QTimer(self)
        self._key_timer.setSingleShot(True)
        self._key_timer.setInterval(KEY_TURN_REST_MS)
        self._key_timer.timeout.connect(self.flush_turn)
        self.set_document(doc)

    # ------------------------------------------------------------------- document

    def set_document(self, doc) -> None:
        """Show another document (the old scene stops following its document)."""
        old = self.map_scene
        if self.doc is not None:
            self.doc.zoneChanged.disconnect(self._on_zone)
        self._end_drag()
        self.doc = doc
        self.map_scene = MapScene(doc, player=self.player, parent=self)
        self.map_scene.set_rear_arcs(self._rear)
        self.setScene(self.map_scene)
        self.setBackgroundBrush(self.map_scene.theme.background)
        doc.zoneChanged.connect(self._on_zone)
        if old is not None:
            old.detach()
            old.deleteLater()
        self._auto_fit = True
        self.fit_to_zone()

    def _on_zone(self) -> None:
        if self._auto_fit:
            self.fit_to_zone()

    # ---------------------------------------------------------------- zoom and pan

    def fit_to_zone(self) -> None:
        """Show the whole zone and the legend; keeps fitting on resize until the user
        zooms or pans."""
        self._auto_fit = True
        self.fitInView(self.map_scene.map_rect(), Qt.AspectRatioMode.KeepAspectRatio)

    def zoom_in(self) -> None:
        self._zoom(ZOOM_STEP, anchor_mouse=False)

    def zoom_out(self) -> None:
        self._zoom(1 / ZOOM_STEP, anchor_mouse=False)

    def zoom(self) -> float:
        """The current scale (1.0: one scene unit per pixel)."""
        return self.transform().m11()

    def _zoom(self, factor: float, *, anchor_mouse: bool) -> None:
        target = min(max(self.zoom() * factor, MIN_ZOOM), MAX_ZOOM)
        factor = target / self.zoom()
        if abs(factor - 1.0) < 1e-9:
            return
        self._auto_fit = False
        anchor = (
            QGraphicsView.ViewportAnchor.AnchorUnderMouse
            if anchor_mouse
            else QGraphicsView.ViewportAnchor.AnchorViewCenter
        )
        self.setTransformationAnchor(anchor)
        self.scale(factor, factor)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120.0
        if steps:
            self._zoom(ZOOM_STEP**steps, anchor_mouse=True)
        event.accept()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._auto_fit:
            self.fit_to_zone()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._auto_fit:
            self.fit_to_zone()

    # ------------------------------------------------------------------ rear arcs

    def set_rear_arcs(self, on: bool) -> None:
        """Shade what lies behind the flanks (the selection's whole half-plane)."""
        self._rear = bool(on)
        self.map_scene.set_rear_arcs(self._rear)

    def rear_arcs(self) -> bool:
        return self._rear

    # ---------------------------------------------------------------- pick target

    def begin_pick_target(self, prompt: str) -> None:
        """The next click on a character emits :attr:`targetPicked`; Escape cancels."""
        self._pick = prompt or "Pick a target"
        self.viewport().setCursor(Qt.CursorShape.CrossCursor)
        self.statusMessage.emit(f"{self._pick} (click a character; Escape cancels)")

    def cancel_pick(self) -> None:
        if self._pick:
            self._pick = ""
            self.viewport().unsetCursor()
            self.statusMessage.emit("")

    def picking(self) -> bool:
        return bool(self._pick)

    # -------------------------------------------------------------------- pushing

    def _push(self, ops, text: str | None = None, hint: str = "") -> bool:
        """Push Ops as one undo step; a refusal goes to the status bar with ``hint``
        (after every other listener of ``refused`` has had its turn)."""
        reason = self.doc.push_or_reason(list(ops), text)
        if reason:
            self._refuse(reason, hint)
        return not reason

    def _refuse(self, reason: str, hint: str = "") -> None:
        self.statusMessage.emit(f"{sentence(reason)} {hint}".strip())

    # ---------------------------------------------------------------------- mouse

    def focusOutEvent(self, event) -> None:
        self.flush_turn()
        super().focusOutEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.flush_turn()
        pos = event.position().toPoint()
        button = event.button()
        if button == Qt.MouseButton.LeftButton:
            scene_pos = self.mapToScene(pos)
            if self._pick:
                cid = self.map_scene.character_at(scene_pos)
                if cid:
                    self.cancel_pick()
                    self.targetPicked.emit(cid)
                else:
                    self.statusMessage.emit(f"{self._pick} (click a character; Escape cancels)")
                event.accept()
                return
            if not self.player:
                handle = self.map_scene.handle
                if handle is not None and handle.isVisible() and handle in self.items(pos):
                    token = self.map_scene.tokens.get(handle.cid)
                    if token is not None:
                        self._facing = (handle.cid, token.facing)
                        event.accept()
                        return
                cid = self.map_scene.character_at(scene_pos)
                if cid:
                    # A token can be dragged; a decoy only selects its hidden owner.
                    if self.map_scene.token_at(scene_pos) == cid:
                        self._press = _Press(cid, pos, is_override(event.modifiers()))
                    self.doc.select(cid)
                    event.accept()
                    return
            self._pan = (pos, False)
            event.accept()
            return
        if button == Qt.MouseButton.MiddleButton:
            self._pan = (pos, True)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if self._facing is not None:
            self._turn_preview(self.mapToScene(pos))
        elif self._press is not None:
            if self._plan is None:
                moved = (pos - self._press.pos).manhattanLength()
                if moved >= QApplication.startDragDistance():
                    self._begin_drag()
            if self._plan is not None:
                self._drag_preview(self.mapToScene(pos))
        elif self._pan is not None:
            start, _ = self._pan
            delta = pos - start
            if delta.manhattanLength() > 0:
                self._auto_fit = False
                h, v = self.horizontalScrollBar(), self.verticalScrollBar()
                h.setValue(h.value() - delta.x())
                v.setValue(v.value() - delta.y())
                self._pan = (pos, True)
        else:
            super().mouseMoveEvent(event)
            return
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if self._facing is not None and event.button() == Qt.MouseButton.LeftButton:
            self._turn_finish(self.mapToScene(pos), is_override(event.modifiers()))
        elif self._press is not None and event.button() == Qt.MouseButton.LeftButton:
            if self._plan is not None:
                self._drop(self.mapToScene(pos), is_override(event.modifiers()))
            self._press = None
        elif self._pan is not None:
            _, moved = self._pan
            self._pan = None
            if not moved and event.button() == Qt.MouseButton.LeftButton and not self.player:
                self.doc.select("")
        else:
            super().mouseReleaseEvent(event)
            return
        event.accept()

    # ----------------------------------------------------------------- token drag

    def _begin_drag(self) -> None:
        press = self._press
        self._plan = plan = ia.plan_drag(self.doc.encounter, press.cid, press.override)
        self._last_area = None
        cells = {
            area: ReachCell(label, stops)
            for area, (label, stops) in ia.reach_labels(self.doc.encounter, plan).items()
        }
        self.map_scene.show_reach(cells)
        c = self.doc.encounter.combatants[press.cid]
        if plan.kind is ia.DragKind.REFUSED:
            self._refuse(plan.reason, ia.override_hint(c.name))
        elif plan.override:
            self.statusMessage.emit(f"GM override: place {c.name} anywhere in the zone.")
        elif plan.kind is ia.DragKind.MOVE:
            how = "Maneuver (the action)" if plan.maneuver else "the movement left"
            self.statusMessage.emit(f"Moving {c.name} with {how}: shaded areas are in reach.")

    def _drag_preview(self, scene_pos: QPointF) -> None:
        area = mapgeom.area_at(scene_pos.x(), scene_pos.y())
        if area == self._last_area:
            return
        self._last_area = area
        plan = self._plan
        enc = self.doc.encounter
        pv = ia.preview(enc, plan, area)
        points = [mapgeom.area_centre(a) for a in pv.path]
        colour = style.side_colour(enc.combatants[plan.cid].side)
        self.map_scene.show_path(
            points, mapgeom.area_centre(area), ok=pv.ok, label=pv.label, colour=colour
        )

    def _drop(self, scene_pos: QPointF, override: bool) -> None:
        plan = self._plan
        area = mapgeom.area_at(scene_pos.x(), scene_pos.y())
        if override and not plan.override:
            plan = ia.plan_drag(self.doc.encounter, plan.cid, override=True)
        self._end_drag()
        self._finish(plan, area, self.mapFromScene(scene_pos))

    def _finish(self, plan: ia.DragPlan, area, where: QPoint) -> bool:
        """Turn a drop (or an arrow key) into Ops, a refusal, or the edge question."""
        name = self.doc.encounter.combatants[plan.cid].name
        outcome = ia.drop(self.doc.encounter, plan, area)
        if outcome.edge is not None:
            self._offer_edge(plan, area, outcome.edge, where)
            return False
        if outcome.reason:
            hint = "" if plan.kind is ia.DragKind.PLACE else ia.override_hint(name)
            self._refuse(outcome.reason, hint)
            return False
        if outcome.ops and self._push(outcome.ops, outcome.text, ia.override_hint(name)):
            self.statusMessage.emit("")
            return True
        return False

    def _end_drag(self) -> None:
        self._plan = None
        self._last_area = None
        if self.map_scene is not None:
            self.map_scene.clear_preview()

    def _offer_edge(self, plan: ia.DragPlan, area, edge: Edge, where: QPoint) -> None:
        """Past an edge: offer only what would work (extend the zone, exit), each worked
        out now; if neither would, say why at once."""
        if self._edge_menu is not None:
            self._edge_menu.deleteLater()
            self._edge_menu = None
        name = self.doc.encounter.combatants[plan.cid].name
        choices = []
        for key, words in ia.edge_choices(self.doc.encounter, edge):
            outcome = ia.edge_drop(self.doc.encounter, plan, area, edge, key, self.rng)
            choices.append((key, words, outcome))
        possible = [(k, w, o) for k, w, o in choices if not o.reason and o.ops]
        if not possible:
            reasons = [o.reason for _k, _w, o in choices if o.reason]
            self._refuse(
                reasons[0] if reasons else "That is not allowed now.", ia.override_hint(name)
            )
            return
        menu = QMenu(self)
        menu.setToolTipsVisible(True)
        for key, words, outcome in choices:
            act = menu.addAction(words)
            act.setData(key)
            act.setEnabled(not outcome.reason)
            if outcome.reason:
                act.setToolTip(sentence(outcome.reason))
                act.setStatusTip(sentence(outcome.reason))
            act.triggered.connect(partial(self._edge_chosen, outcome, name))
        self._edge_menu = menu
        self.statusMessage.emit(f"Past the {edge.value} edge: extend the zone or exit?")
        menu.popup(self.viewport().mapToGlobal(where))

    def edge_menu(self) -> QMenu | None:
        """The last "extend the zone or exit" menu (for tests and automation)."""
        return self._edge_menu

    def _edge_chosen(self, outcome: ia.Outcome, name: str) -> None:
        if self._edge_menu is not None:
            self._edge_menu.hide()
        if outcome.ops and self._push(outcome.ops, outcome.text, ia.override_hint(name)):
            self.statusMessage.emit("")

    # -------------------------------------------------------------------- facing

    def _turn_preview(self, scene_pos: QPointF) -> None:
        cid, _ = self._facing
        token = self.map_scene.tokens.get(cid)
        if token is None:
            return
        centre = token.pos()
        x, y = scene_pos.x(), scene_pos.y()
        facing = normalise_facing(float(round(facing_towards((centre.x(), centre.y()), (x, y)))))
        self._facing = (cid, facing)
        self.map_scene.preview_facing(cid, facing)

    def _turn_finish(self, scene_pos: QPointF, override: bool) -> None:
        cid, facing = self._facing
        self._facing = None
        c = self.doc.encounter.combatants.get(cid)
        if c is None:
            return
        if facing != c.facing:
            self.turn_to(cid, facing, override)
        self.map_scene.on_combatant(cid)

    def turn_by_key(self, cid: str, step: float, override: bool = False) -> None:
        """Q / E: turn by ``step`` degrees. Presses in a quick burst become one facing
        change (one log line, one undo step) when the keys rest for a moment."""
        pending = self._key_turn
        if pending is not None and pending[0] != cid:
            self.flush_turn()
            pending = None
        c = self.doc.encounter.combatants[cid]
        start = pending[1] if pending is not None else c.facing
        facing = normalise_facing(start + step)
        why = self.doc.try_op(
            SetFacing(cid, facing, override=override or bool(pending and pending[2]))
        )
        if why:
            hint = "" if override else f"Hold Shift to turn {c.name} anyway (GM override)."
            self._refuse(why, hint)
            return
        self._key_turn = (cid, facing, override)
        self.map_scene.preview_facing(cid, facing)
        self._key_timer.start()

    def flush_turn(self) -> None:
        """Commit a pending keyboard turn now."""
        self._key_timer.stop()
        pending, self._key_turn = self._key_turn, None
        if pending is None:
            return
        cid, facing, override = pending
        c = self.doc.encounter.combatants.get(cid)
        if c is None:
            return
        if facing != c.facing:
            self.turn_to(cid, facing, override)
        self.map_scene.on_combatant(cid)

    def turn_to(self, cid: str, facing: float, override: bool = False) -> bool:
        """Turn ``cid`` to ``facing`` (one undo step); during turns anyone but the actor
        needs ``override`` (the GM's Shift). A refusal goes to the status bar."""
        c = self.doc.encounter.combatants[cid]
        hint = "" if override else f"Hold Shift to turn {c.name} anyway (GM override)."
        op = SetFacing(cid, normalise_facing(facing), override=override)
        return self._push([op], None, hint)

    def event(self, event) -> bool:
        # Tab and Backtab pick the next character instead of moving the keyboard focus.
        if (
            event.type() == QEvent.Type.KeyPress
            and event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab)
            and not self.player
            and not event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            back = event.key() == Qt.Key.Key_Backtab
            self.select_next(-1 if back else 1)
            return True
        return super().event(event)

    def select_next(self, step: int = 1) -> str:
        """Select the next (or previous) character on the map, in roster order."""
        ids = list(self.map_scene.tokens)
        order = [cid for cid in self.doc.encounter.order if cid in ids]
        if not order:
            return ""
        current = self.doc.selected
        i = order.index(current) + step if current in order else (0 if step > 0 else -1)
        cid = order[i % len(order)]
        self.doc.select(cid)
        token = self.map_scene.tokens[cid]
        self.ensureVisible(token.sceneBoundingRect(), 40, 40)
        return cid

    def step(self, cid: str, delta: tuple[int, int], override: bool = False) -> bool:
        """Move ``cid`` one area by ``delta`` as a drag there would (one undo step)."""
        c = self.doc.encounter.combatants[cid]
        if not c.on_map:
            return False
        plan = ia.plan_drag(self.doc.encounter, cid, override)
        target = (c.area[0] + delta[0], c.area[1] + delta[1])
        return self._finish(plan, target, self.mapFromScene(*mapgeom.area_centre(c.area)))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = Qt.Key(event.key())
        if key not in TURN_KEYS:
            self.flush_turn()
        if key == Qt.Key.Key_Escape:
            if self._pick:
                self.cancel_pick()
            elif self._plan is not None:
                self._press = None
                self._end_drag()
                self.statusMessage.emit("Drag cancelled.")
            elif not self.player:
                self.doc.select("")
            event.accept()
            return
        cid = self.doc.selected
        c = self.doc.encounter.combatants.get(cid) if cid else None
        if not self.player and c is not None and c.on_map:
            override = is_override(event.modifiers())
            if key in TURN_KEYS:
                self.turn_by_key(cid, TURN_KEYS[key], override)
                event.accept()
                return
            if key in FACE_KEYS:
                self.turn_to(cid, DIRECTIONS[FACE_KEYS[key]], override)
                event.accept()
                return
            if key in MOVE_KEYS:
                self.step(cid, MOVE_KEYS[key], override)
                event.accept()
                return
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_in()
        elif key == Qt.Key.Key_Minus:
            self.zoom_out()
        elif key == Qt.Key.Key_0:
            self.fit_to_zone()
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    # --------------------------------------------------------------- context menu

    def contextMenuEvent(self, event) -> None:
        if self.player:
            event.ignore()
            return
        cid = self.map_scene.character_at(self.mapToScene(event.pos()))
        if not cid:
            event.ignore()
            return
        self.doc.select(cid)
        if self._menu is not None:
            self._menu.deleteLater()
        self._menu = self.context_menu(cid)
        self._menu.popup(event.globalPos())
        event.accept()

    def context_menu(self, cid: str) -> QMenu:
        """The character's common actions, from :func:`afdesk.gui.actions.entries`;
        disabled entries carry the model's reason as tooltip and status tip."""
        menu = QMenu(self)
        actions.fill_menu(menu, self.doc, cid, partial(self._run_entry, cid))
        for act in menu.actions():
            reason = act.statusTip()
            act.hovered.connect(partial(self.statusMessage.emit, reason))
        return menu

    def _run_entry(self, cid: str, entry: actions.Entry) -> None:
        if entry.op is not None:
            self._push([entry.op])
        else:
            self.actionRequested.emit(cid, entry.key)
