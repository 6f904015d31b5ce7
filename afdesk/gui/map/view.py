"""The map view: zoom, pan and fit; for the GM, the map tools and the selection. Input goes
to the active map tool (:mod:`afdesk.gui.map.tools`: move, facing, pan), which turns it
into Ops pushed on the document (one undo step per drag or key burst); refusals go to the
status bar with the model's reason. ``player=True`` gives the read-only projector view,
whose only tool is the pan.

GM controls (the move tool, the default; see each tool for its own):

- drag a token: move it this action (reach shaded with costs, E14); past the zone's edge,
  a menu offers "extend the zone" or "exit the encounter" (one undo step either way);
- Shift-drag (or Ctrl-drag): GM override placement (PlaceCombatant; the log says so);
- drag the knob at the end of the selected token's facing: turn it (any angle);
- Q / E (or [ / ]): turn 15 degrees; 1-9 as on a keypad: face a direction (8 is north);
  arrows (and keypad Home/PgUp/End/PgDn): move one area; add Shift (or Ctrl, needed with
  the digits) to override the turn order as GM;
- Tab / Shift+Tab: select the next / previous character; Escape: cancel or deselect;
- drag on empty ground: a rubber band selects the tokens inside it (several are gathered
  as Ctrl+click gathers them; Ctrl+band adds to the group);
- right-click a token: its actions (a gathered one: the group's); wheel: zoom; Alt+drag
  on empty ground (or the middle button): pan; + / - / 0.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from PySide6.QtCore import QEvent, QPointF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QWheelEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDockWidget,
    QGraphicsView,
    QMenu,
    QWidget,
)

from afdesk.encounter.geometry import Area
from afdesk.gui import mapgeom
from afdesk.gui.follow import Links
from afdesk.gui.map import gestures, selection
from afdesk.gui.map.drops import CharacterDrops
from afdesk.gui.map.notes import MapNote
from afdesk.gui.map.scene import MapScene
from afdesk.gui.map.selection import Selection
from afdesk.gui.map.tools import FacingTool, MapTool, MoveTool, PanTool
from afdesk.gui.text import sentence

ZOOM_STEP = 1.25
MIN_ZOOM, MAX_ZOOM = 0.05, 12.0

__all__ = ["MapView"]


class MapView(CharacterDrops, QGraphicsView):
    """A view of an encounter's map. The GM's view edits through Ops with its map tools;
    the player's (``player=True``) is read-only and leaves out GM-only things."""

    actionRequested = Signal(str, str)
    """(character id, context-menu entry key) for entries that need a dialog."""
    statusMessage = Signal(str)
    selectionChanged = Signal(object)
    """The GM's typed selection (:mod:`afdesk.gui.map.selection`) changed. A character
    selection is also the document's (``doc.selectionChanged`` with its id)."""

    def __init__(self, doc, *, player: bool = False, parent=None) -> None:
        super().__init__(parent)
        # A viewport made here, as the one Qt makes: PySide6 meeting Qt's own through
        # viewport() would first make Python classes for every widget class it knows.
        self.setViewport(QWidget())
        self.player = player
        self.doc = None
        self._links = Links()
        self.map_scene: MapScene | None = None
        self.rng: random.Random | None = None
        """Where new tiles are drawn from (None: system randomness)."""
        self.character_menu: Callable[[str], QMenu] | None = None
        """A character's right-click menu, given its id: set from above the map
        (:mod:`afdesk.gui.token_menu`: the character's commands). None: no menu."""
        self.drop_characters: Callable[[list[str], Area], object] | None = None
        """What a drop of characters (:mod:`afdesk.gui.map.mime`) does, given their ids
        and the area: set by the panel they are dragged from (the Unplaced panel). None:
        the view takes no such drop."""
        # No SmoothPixmapTransform: the item caches are drawn pixel for pixel, and the
        # smooth path makes every cached item several times dearer to draw.
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setFrameShape(QGraphicsView.Shape.NoFrame)
        # Panning is Alt+drag on empty ground (or the middle button); no scroll bars.
        off = Qt.ScrollBarPolicy.ScrollBarAlwaysOff
        self.setHorizontalScrollBarPolicy(off)
        self.setVerticalScrollBarPolicy(off)
        self._auto_fit = True
        self._rear = False
        self._legend = True
        self._menu: QMenu | None = None
        self._selection: Selection = selection.NOTHING
        self._tools: dict[str, MapTool] = {}
        for tool in (MoveTool(self), FacingTool(self), PanTool(self)):
            self.add_tool(tool)
        self._tool: MapTool = self._tools["pan" if player else "move"]
        self._holder: MapTool | None = None
        """The tool holding the press under way (it gets the moves and the release)."""
        self._notes: dict[str, MapNote] = {}  # made when first shown
        self._offer_cid = ""
        from afdesk.gui.map.group import Group

        self.group = Group(self)
        """Characters gathered with Ctrl+click, acted on at once (one undo step)."""
        self.set_document(doc)
        if not player:
            app = QApplication.instance()
            if isinstance(app, QApplication):
                app.focusChanged.connect(self._focus_changed)

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        """A click on a dock's button gives the keyboard back to the map: digits, arrows
        and Q / E act on the map after Guard, Bring in, ... (Tab still walks the docks:
        only a mouse click hands focus back)."""
        if not isinstance(new, QAbstractButton) or not self.isVisible():
            return
        if QApplication.mouseButtons() == Qt.MouseButton.NoButton:
            return  # the keyboard went there (Tab): it stays
        if new.window() is not self.window():
            return
        dock = new.parentWidget()
        while dock is not None and not isinstance(dock, QDockWidget):
            dock = dock.parentWidget()
        if dock is not None:
            self.setFocus(Qt.FocusReason.OtherFocusReason)

    # ------------------------------------------------------------------- document

    def set_document(self, doc) -> None:
        """Show another document (the old scene stops following its document)."""
        old = self.map_scene
        self._links.clear()
        self._cancel_gesture()
        self.group.ids = ()  # the old scene's rings go with it
        self.doc = doc
        self.map_scene = MapScene(doc, player=self.player, parent=self)
        self.map_scene.set_rear_arcs(self._rear)
        self.map_scene.legend.setVisible(self._legend)
        self.setScene(self.map_scene)
        self.setBackgroundBrush(self.map_scene.theme.background)
        self._links.connect(doc.zoneChanged, self._on_zone)
        self._links.connect(doc.changed, self.clear_refusal)
        self._links.connect(doc.changed, self.group.follow)
        self._links.connect(doc.changed, self._follow_offer)
        self.clear_refusal()
        self._end_offer()
        if not self.player:
            self._links.connect(doc.selectionChanged, self._on_doc_selection)
            self._set_selection(selection.of_character(doc.selected))
        if old is not None:
            old.detach()
            old.deleteLater()
        self._auto_fit = True
        self.fit_to_zone()

    def _on_zone(self) -> None:
        if self._auto_fit:
            self.fit_to_zone()

    # ---------------------------------------------------------------- zoom and pan

    def set_legend_shown(self, shown: bool) -> None:
        """Fold the legend away (the zone then fills the view) or show it again."""
        self._legend = shown
        self.map_scene.legend.setVisible(shown)
        if self._auto_fit:
            self.fit_to_zone()

    def legend_shown(self) -> bool:
        return self._legend

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

    def pan_by(self, dx: int, dy: int) -> None:
        """Move the map by (dx, dy) pixels with the pointer (a pan stops auto-fitting)."""
        self._auto_fit = False
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(h.value() - dx)
        v.setValue(v.value() - dy)

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
        self.map_scene.legend.setVisible(self._legend)

    def rear_arcs(self) -> bool:
        return self._rear

    # ------------------------------------------------------------------ selection

    def selection(self) -> Selection:
        """What the GM has selected (nothing in the player view)."""
        return self._selection

    def select(self, sel: Selection) -> None:
        """Select ``sel``; a character also becomes the document's selection (the
        character dock follows it), any other kind clears the document's."""
        if self.player:
            return
        self._set_selection(sel)
        self.doc.select(selection.character_id(sel))

    def _on_doc_selection(self, cid: str) -> None:
        """The document's character selection changed (a dock, the turn, a removal)."""
        if cid != self._offer_cid:
            self._end_offer()
        if cid or isinstance(self._selection, selection.Character):
            self._set_selection(selection.of_character(cid))

    def _set_selection(self, sel: Selection) -> None:
        if sel != self._selection:
            self._selection = sel
            self.selectionChanged.emit(sel)

    def selection_at(self, pos: QPointF, kind: type[Selection]) -> Selection:
        """The thing of ``kind`` under a scene point (a tool picking an area, a tile ...)."""
        area = mapgeom.area_at(pos.x(), pos.y())
        cid = self.map_scene.character_at(pos)
        return selection.at(self.doc.encounter.zone, area, cid, kind)

    def select_next(self, step: int = 1) -> str:
        """Select the next (or previous) character, in roster order: those on the map and,
        for the GM, those off it too (their dock still shows them)."""
        shown = self.map_scene.tokens
        enc = self.doc.encounter
        order = [
            cid
            for cid in enc.order
            if cid in shown or (not self.player and not enc.combatants[cid].on_map)
        ]
        cid = gestures.next_character(order, self.doc.selected, step)
        if cid:
            self.select(selection.Character(cid))
            if cid in shown:
                self.ensureVisible(shown[cid].sceneBoundingRect(), 40, 40)
        return cid

    # ---------------------------------------------------------------------- tools

    def add_tool(self, tool: MapTool) -> None:
        """Make ``tool`` available under its name (a zone brush, a measuring tape)."""
        self._tools[tool.name] = tool

    def tool(self, name: str) -> MapTool:
        return self._tools[name]

    def active_tool(self) -> MapTool:
        return self._tool

    def set_tool(self, name: str) -> None:
        """Make the tool called ``name`` the active one (the player view keeps its pan)."""
        tool = self._tools[name]
        if tool is self._tool or self.player:
            return
        self._cancel_gesture()
        self._tool.deactivate()
        self._tool = tool
        tool.activate()

    def _cancel_gesture(self) -> bool:
        holder, self._holder = self._holder, None
        cancelled = holder.cancel() if holder is not None else False
        return self._tool.cancel() or cancelled

    # -------------------------------------------------------------------- pushing

    def push(self, ops, text: str | None = None, hint: str = "", merge_key: str | None = None):
        """Push Ops as one undo step (``merge_key``: merged with the step just before if
        it has the same key); a refusal goes to the status bar with ``hint``."""
        from afdesk.gui.push import push

        return push(
            self.doc,
            list(ops),
            beside=lambda reason: reason and self.refuse(reason, hint),
            text=text,
            merge_key=merge_key,
        )

    def refuse(self, reason: str, hint: str = "") -> None:
        """Say why not (the model's words as a sentence), then how: in the status bar,
        and on the map beside the selected character until the GM's next action."""
        text = f"{sentence(reason)} {hint}".strip()
        self.statusMessage.emit(text)
        if not self.player:
            self._show_refusal(text)

    def refusal_text(self) -> str:
        """The refusal shown on the map now ("" if none)."""
        note = self._notes.get("refusal")
        return note.shown_text() if note is not None else ""

    @property
    def _refusal(self) -> MapNote:
        return self._note("refusal")

    @property
    def _offer(self) -> MapNote:
        return self._note("offer")

    def _note(self, kind: str) -> MapNote:
        note = self._notes.get(kind)
        if note is None:
            note = self._notes[kind] = MapNote(self, kind)
        return note

    def _hide_note(self, kind: str) -> None:
        note = self._notes.get(kind)
        if note is not None:
            note.hide()

    def _show_refusal(self, text: str) -> None:
        self._refusal.show_by(text, self.doc.selected)

    # -------------------------------------------------------------- attack line

    def follow_check(self, dialog) -> None:
        """While a check dialog is open, draw its line: attacker to target, with the cover
        areas it crosses (E13); gone when the dialog closes. A check dialog is one that
        says when its target changes (``targetChanged``) and offers its ``attacker``,
        ``action`` and ``plan``; any other dialog draws nothing."""
        target_changed = getattr(dialog, "targetChanged", None)
        if self.player or target_changed is None:
            return
        target_changed.connect(lambda: self._attack_line(dialog))
        dialog.finished.connect(lambda _r: self.map_scene.clear_preview())
        self._attack_line(dialog)

    def _attack_line(self, dialog) -> None:
        from afdesk.gui.map.overlays import ReachCell
        from afdesk.gui.style import side_colour

        enc, plan = self.doc.encounter, dialog.plan
        a = enc.combatants.get(dialog.attacker)
        t = enc.combatants.get(plan.target) if plan is not None and plan.target else None
        if a is None or t is None or a.area is None or t.area is None:
            self.map_scene.clear_preview()
            return
        label = f"{dialog.action.label} → {t.name}"
        if plan.cover:
            label += f" · cover ({len(plan.cover)})"
        self.map_scene.show_reach({area: ReachCell("cover", True) for area in plan.cover})
        end = mapgeom.area_centre(t.area)
        token = self.map_scene.tokens.get(t.id)
        ring = token.radius if token is not None else 0.36 * mapgeom.AREA
        if token is not None:  # in an overlap the target sits beside the area's centre
            end = (token.pos().x(), token.pos().y())
        self.map_scene.show_path(
            [mapgeom.area_centre(a.area), end],
            end,
            ok=True,
            label=label,
            colour=side_colour(a.side),
            ring=ring,
        )

    def attack_line(self) -> str:
        """The attack line's label on the map now ("" if none is drawn)."""
        path = self.map_scene.path
        return path.label() if path.isVisible() else ""

    # ------------------------------------------------------------- facing offer

    def offer_facing(self, cid: str) -> None:
        """After a move the mover picks a facing (E11): it faces the way it went; the knob,
        Q / E or the keypad turn it, Enter accepts."""
        c = self.doc.encounter.combatants.get(cid)
        if c is None or self.player:
            return
        self._offer_cid = cid
        self._offer.show_by(
            f"{c.name} faces {c.facing:.0f}°, the way they moved. Pick the facing (E11): "
            "drag the knob, Q / E, or 1-9 as on a keypad; Enter accepts.",
            cid,
            above=True,
        )

    def facing_offer(self) -> str:
        """Whose facing is being offered after a move ("" if nobody's)."""
        note = self._notes.get("offer")
        return self._offer_cid if note is not None and note.isVisible() else ""

    def _follow_offer(self) -> None:
        """A character no longer on the map (it left by an edge, E9, N8) picks no
        facing: its offer goes."""
        if self._offer_cid:
            c = self.doc.encounter.combatants.get(self._offer_cid)
            if c is None or not c.on_map:
                self._end_offer()

    def _end_offer(self) -> None:
        self._offer_cid = ""
        self._hide_note("offer")

    def clear_refusal(self) -> None:
        """The GM acted again: the last refusal has been read."""
        self._hide_note("refusal")

    def turn_to(self, cid: str, facing: float, override: bool = False) -> bool:
        """Turn ``cid`` to ``facing`` (see :class:`FacingTool`)."""
        return self._tools["facing"].turn_to(cid, facing, override)

    def step(self, cid: str, delta: tuple[int, int], override: bool = False) -> bool:
        """Move ``cid`` one area by ``delta`` as a drag there would (one undo step)."""
        return self._tools["move"].step(cid, delta, override)

    def edge_menu(self) -> QMenu | None:
        """The last "extend the zone or exit" menu (for tests and automation)."""
        return self._tools["move"].edge_menu()

    # ---------------------------------------------------------------------- input

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.clear_refusal()
        pos = self.mapToScene(event.position().toPoint())
        if self._holder is None:
            if self._tool.mouse_pressed(event, pos):
                self._holder = self._tool
            elif event.button() == Qt.MouseButton.MiddleButton:
                pan = self._tools["pan"]
                if pan.mouse_pressed(event, pos):
                    self._holder = pan
            if self._holder is not None:
                event.accept()
                return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = self.mapToScene(event.position().toPoint())
        tool = self._holder or self._tool
        if tool.mouse_moved(event, pos):
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        pos = self.mapToScene(event.position().toPoint())
        holder = self._holder
        if holder is not None:
            if event.buttons() == Qt.MouseButton.NoButton:
                self._holder = None
            holder.mouse_released(event, pos)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def viewportEvent(self, event) -> bool:
        # The view and its window are held while the viewport's events run, its paint
        # above all: dropped, either is freed by a collection, which may start in an
        # item's paint (tests/gui/test_map_view_lifetime.py: a segfault in the paint).
        window = self.window()
        handled = super().viewportEvent(event)
        del window  # held until here
        return handled

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

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self.clear_refusal()
        key = Qt.Key(event.key())
        if self._offer_cid and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._end_offer()  # the facing is accepted (E11)
            event.accept()
            return
        if key == Qt.Key.Key_Escape:
            if self._offer_cid:
                self._end_offer()
            elif not self._cancel_gesture():
                self.select(selection.NOTHING)
            event.accept()
            return
        if not self.player and self._tool.key_pressed(event):
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
        several = cid in self.group.members() and len(self.group.members()) > 1
        if not several:
            self.select(selection.Character(cid))
        if self._menu is not None:
            self._menu.deleteLater()
        self._menu = self.group.menu() if several else self.context_menu(cid)
        if self._menu is None:
            event.ignore()
            return
        self._menu.popup(event.globalPos())
        event.accept()

    def context_menu(self, cid: str) -> QMenu | None:
        """The character's right-click menu, from ``character_menu`` (None if not set)."""
        return self.character_menu(cid) if self.character_menu is not None else None
