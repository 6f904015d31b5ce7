"""The move tool, the GM's default: click a character to select it, drag its token to move
it this action (reach shaded with costs, E14) or, in setup and with Shift (or Ctrl), to
place it (the log marks the override); past the zone's edge a menu offers "extend the zone"
or "exit the encounter" (E9). Arrows (and keypad Home/PgUp/End/PgDn) step the selection
one area as a drag would. A press on the facing knob is lent to the facing tool. A drag on
empty ground draws a rubber band: the tokens inside it become the group that the token menu
acts on (as Ctrl+click gathers them; Ctrl+band adds to it), and a click there clears the
selection. With Alt held, a press on empty ground is lent to the pan tool (the view gives
the middle button to the pan tool whatever the active tool); the facing keys work here
too. What a drag means is the model's (:mod:`afdesk.encounter.drag`)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import msgspec
from PySide6.QtCore import QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QApplication, QMenu, QRubberBand

from afdesk.encounter.geometry import Area
from afdesk.encounter.zone import Edge
from afdesk.gui import mapgeom, style
from afdesk.gui.map import gestures, selection
from afdesk.gui.map.overlays import ReachCell
from afdesk.gui.map.tools.base import MapTool, is_override
from afdesk.gui.text import sentence

if TYPE_CHECKING:  # the model's drags are imported when a token is first dragged or stepped
    from afdesk.encounter import drag

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


class _Press(msgspec.Struct):
    cid: str
    pos: QPoint
    override: bool
    ctrl: bool = False
    """Ctrl held: a click without a drag gathers the token into the group (group.py)."""


class _Band(msgspec.Struct):
    """A press on empty ground: a rubber band once it moves, else a click that clears."""

    start: QPoint
    ctrl: bool
    """Ctrl held: the band adds to the group rather than starting a new one."""
    shown: bool = False


class MoveTool(MapTool):
    name = "move"

    def __init__(self, view) -> None:
        super().__init__(view)
        self._press: _Press | None = None
        self._plan: drag.DragPlan | None = None
        self._last_area: Area | None = None
        self._lent: MapTool | None = None
        """The tool holding the current press (facing knob, empty ground)."""
        self._edge_menu: QMenu | None = None
        self._band: _Band | None = None
        self._rubber: QRubberBand | None = None

    # ------------------------------------------------------------------------ mouse

    def mouse_pressed(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        scene = self.scene
        handle = scene.handle
        point = event.position().toPoint()
        on_handle = handle is not None and handle.isVisible() and handle in self.view.items(point)
        cid = scene.character_at(pos)
        gesture = gestures.press_gesture(
            on_handle=on_handle,
            token=scene.token_at(pos),
            character=cid,
            pan=bool(event.modifiers() & Qt.KeyboardModifier.AltModifier),
        )
        if gesture is gestures.Gesture.TURN:
            return self._lend(self.view.tool("facing"), event, pos)
        if gesture is gestures.Gesture.PAN:
            return self._lend(self.view.tool("pan"), event, pos)
        ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if gesture is gestures.Gesture.BAND:
            self._band = _Band(point, ctrl)
            return True
        if gesture is gestures.Gesture.DRAG:
            self._press = _Press(cid, point, is_override(event.modifiers()), ctrl)
        if not ctrl:
            self.view.group.clear()  # a plain click starts over with one character
            self.view.select(selection.Character(cid))
        return True

    def _lend(self, tool: MapTool, event: QMouseEvent, pos: QPointF) -> bool:
        if tool.mouse_pressed(event, pos):
            self._lent = tool
            return True
        return False

    def mouse_moved(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._lent is not None:
            return self._lent.mouse_moved(event, pos)
        if self._band is not None:
            self._stretch(event.position().toPoint())
            return True
        if self._press is None:
            return False
        if self._plan is None:
            delta = event.position().toPoint() - self._press.pos
            if gestures.is_drag(delta.x(), delta.y(), QApplication.startDragDistance()):
                self._begin_drag()
        if self._plan is not None:
            self._drag_preview(pos)
        return True

    def mouse_released(self, event: QMouseEvent, pos: QPointF) -> bool:
        lent = self._lent
        if lent is not None:
            self._lent = None
            lent.mouse_released(event, pos)
            pan = self.view.tool("pan")
            left = event.button() == Qt.MouseButton.LeftButton
            if lent is pan and left and not pan.moved:
                self.view.select(selection.NOTHING)
            return True
        band = self._band
        if band is not None and event.button() == Qt.MouseButton.LeftButton:
            self._band = None
            self._hide_rubber()
            if band.shown:
                self._select_band(band, event.position().toPoint())
            elif not band.ctrl:
                self.view.group.clear()
                self.view.select(selection.NOTHING)  # a click on empty ground
            return True
        if self._press is None or event.button() != Qt.MouseButton.LeftButton:
            return False
        if self._plan is not None:
            self._drop(pos, is_override(event.modifiers()))
        elif self._press.ctrl:
            self.view.group.toggle(self._press.cid)  # Ctrl+click: gather several
        self._press = None
        return True

    def cancel(self) -> bool:
        if self._lent is not None:
            lent, self._lent = self._lent, None
            return lent.cancel()
        if self._band is not None:
            shown, self._band = self._band.shown, None
            self._hide_rubber()
            return shown
        if self._plan is None:
            self._press = None
            return False
        self._press = None
        self._end_drag()
        self.view.statusMessage.emit("Drag cancelled.")
        return True

    # ------------------------------------------------------------------------- band

    def _stretch(self, point: QPoint) -> None:
        band = self._band
        delta = point - band.start
        if not band.shown:
            if not gestures.is_drag(delta.x(), delta.y(), QApplication.startDragDistance()):
                return
            band.shown = True
            if self._rubber is None:
                self._rubber = QRubberBand(QRubberBand.Shape.Rectangle, self.view.viewport())
        self._rubber.setGeometry(QRect(band.start, point).normalized())
        self._rubber.show()

    def _hide_rubber(self) -> None:
        if self._rubber is not None:
            self._rubber.hide()

    def _select_band(self, band: _Band, end: QPoint) -> None:
        """The tokens inside the band become the selection: one is selected, several are
        gathered as Ctrl+click would (the group's menu acts on them all); Ctrl adds them
        to the group."""
        a, b = self.view.mapToScene(band.start), self.view.mapToScene(end)
        tokens = self.scene.tokens
        centres = {cid: (t.pos().x(), t.pos().y()) for cid, t in tokens.items()}
        ids = gestures.banded(((a.x(), a.y()), (b.x(), b.y())), centres, self.doc.encounter.order)
        group = self.view.group
        if band.ctrl:
            group.gather(ids)
            return
        group.clear()
        self.view.select(selection.Character(ids[0]) if ids else selection.NOTHING)
        if len(ids) > 1:
            group.gather(ids)
        n = len(ids)
        if n > 1:
            self.view.statusMessage.emit(
                f"{n} characters selected: right-click one of them to act on all {n}."
            )

    # ------------------------------------------------------------------------- drag

    def _begin_drag(self) -> None:
        from afdesk.encounter import drag

        press = self._press
        enc = self.doc.encounter
        self._plan = plan = drag.plan_drag(enc, press.cid, press.override)
        self._last_area = None
        cells = {
            area: ReachCell(label, stops)
            for area, (label, stops) in drag.reach_labels(enc, plan).items()
        }
        self.scene.show_reach(cells)
        c = enc.combatants[press.cid]
        if plan.kind is drag.DragKind.REFUSED:
            self.view.refuse(plan.reason, drag.override_hint(c.name))
        elif plan.override:
            self.view.statusMessage.emit(f"GM override: place {c.name} anywhere in the zone.")
        elif plan.kind is drag.DragKind.MOVE:
            how = "Maneuver (the action)" if plan.maneuver else "the movement left"
            self.view.statusMessage.emit(f"Moving {c.name} with {how}: shaded areas are in reach.")

    def _drag_preview(self, pos: QPointF) -> None:
        from afdesk.encounter import drag

        area = mapgeom.area_at(pos.x(), pos.y())
        if area == self._last_area:
            return
        self._last_area = area
        plan = self._plan
        enc = self.doc.encounter
        pv = drag.preview(enc, plan, area)
        points = [mapgeom.area_centre(a) for a in pv.path]
        colour = style.side_colour(enc.combatants[plan.cid].side)
        self.scene.show_path(
            points, mapgeom.area_centre(area), ok=pv.ok, label=pv.label, colour=colour
        )

    def _drop(self, pos: QPointF, override: bool) -> None:
        from afdesk.encounter import drag

        plan = self._plan
        area = mapgeom.area_at(pos.x(), pos.y())
        if override and not plan.override:
            plan = drag.plan_drag(self.doc.encounter, plan.cid, override=True)
        self._end_drag()
        self.finish(plan, area, self.view.mapFromScene(pos))

    def _end_drag(self) -> None:
        self._plan = None
        self._last_area = None
        if self.scene is not None:
            self.scene.clear_preview()

    def dragging(self) -> bool:
        return self._plan is not None

    def finish(self, plan: drag.DragPlan, area: Area, where: QPoint, keys: bool = False) -> bool:
        """Turn a drop (or an arrow key, ``keys``) into Ops, a refusal, or the edge
        question."""
        from afdesk.encounter import drag

        enc = self.doc.encounter
        name = enc.combatants[plan.cid].name
        outcome = drag.drop(enc, plan, area)
        if outcome.edge is not None:
            self._offer_edge(plan, area, outcome.edge, where)
            return False
        hint = drag.override_hint(name, keys=keys)
        if outcome.reason:
            self.view.refuse(outcome.reason, "" if plan.kind is drag.DragKind.PLACE else hint)
            return False
        if outcome.ops and self.view.push(outcome.ops, outcome.text, hint):
            self.view.statusMessage.emit("")
            if enc.combatants[plan.cid].on_map:
                self.view.offer_facing(plan.cid)  # the mover picks a facing (E11)
            return True
        return False

    # ------------------------------------------------------------------------- keys

    def key_pressed(self, event: QKeyEvent) -> bool:
        key = Qt.Key(event.key())
        if key in MOVE_KEYS:
            c = self.doc.encounter.combatants.get(self.doc.selected)
            if self.view.player or c is None or not c.on_map:
                return False
            self.step(c.id, MOVE_KEYS[key], is_override(event.modifiers()))
            return True
        return self.view.tool("facing").key_pressed(event)

    def step(self, cid: str, delta: tuple[int, int], override: bool = False) -> bool:
        """Move ``cid`` one area by ``delta`` as a drag there would (one undo step)."""
        from afdesk.encounter import drag

        c = self.doc.encounter.combatants[cid]
        if c.area is None:
            return False
        plan = drag.plan_drag(self.doc.encounter, cid, override)
        where = self.view.mapFromScene(*mapgeom.area_centre(c.area))
        return self.finish(plan, gestures.stepped(c.area, delta), where, keys=True)

    # ------------------------------------------------------------------- zone edge

    def _offer_edge(self, plan: drag.DragPlan, area: Area, edge: Edge, where: QPoint) -> None:
        """Past an edge: offer only what would work (extend the zone, exit), each worked
        out now; if neither would, say why at once."""
        from afdesk.encounter import drag

        if self._edge_menu is not None:
            self._edge_menu.deleteLater()
            self._edge_menu = None
        enc = self.doc.encounter
        name = enc.combatants[plan.cid].name
        choices = [
            (key, words, drag.edge_drop(enc, plan, area, edge, key, self.view.rng))
            for key, words in drag.edge_choices(enc, edge)
        ]
        if not any(not o.reason and o.ops for _k, _w, o in choices):
            reasons = [o.reason for _k, _w, o in choices if o.reason]
            self.view.refuse(reasons[0] if reasons else "", drag.override_hint(name))
            return
        menu = QMenu(self.view)
        menu.setToolTipsVisible(True)
        for key, words, outcome in choices:
            act = menu.addAction(words)
            act.setData(str(key))
            act.setEnabled(not outcome.reason)
            if outcome.reason:
                act.setToolTip(sentence(outcome.reason))
                act.setStatusTip(sentence(outcome.reason))
            act.triggered.connect(partial(self._edge_chosen, outcome, name))
        self._edge_menu = menu
        self.view.statusMessage.emit(f"Past the {edge.value} edge: extend the zone or exit?")
        menu.popup(self.view.viewport().mapToGlobal(where))

    def edge_menu(self) -> QMenu | None:
        """The last "extend the zone or exit" menu (for tests and automation)."""
        return self._edge_menu

    def _edge_chosen(self, outcome: drag.Outcome, name: str) -> None:
        from afdesk.encounter import drag

        if self._edge_menu is not None:
            self._edge_menu.hide()
        if outcome.ops and self.view.push(outcome.ops, outcome.text, drag.override_hint(name)):
            self.view.statusMessage.emit("")
