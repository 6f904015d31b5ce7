"""The facing tool: turn the selected character (E11). Drag from its facing knob (the move
tool lends it that press) or, with this tool active, anywhere: the character turns to
face the pointer, one undo step on release. Keys: Q / E (or [ / ]) turn 15 degrees, a
burst of presses merging into one undo step and one log line; 1-9 as on a keypad face a
direction (8 is north). Shift (or Ctrl) overrides the turn order as GM."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent

from afdesk.encounter.geometry import DIRECTIONS, normalise_facing
from afdesk.encounter.ops.roster import SetFacing
from afdesk.gui.map import gestures
from afdesk.gui.map.tools.base import MapTool, is_override

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


def merge_key(cid: str) -> str:
    """Key turns of one character merge into one undo step (``doc.push(merge_key=)``)."""
    return f"facing:{cid}"


class FacingTool(MapTool):
    name = "facing"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, view) -> None:
        super().__init__(view)
        self._turning: tuple[str, float] | None = None
        """(character, facing previewed) while the pointer turns it."""
        self._burst: tuple[str, bool, int] | None = None
        """The last key turn: (character, override, undo index after it)."""

    # ------------------------------------------------------------------------ mouse

    def mouse_pressed(self, event: QMouseEvent, pos: QPointF) -> bool:
        if event.button() != Qt.MouseButton.LeftButton:
            return False
        token = self.scene.tokens.get(self.doc.selected)
        if token is None:
            return False
        self._turning = (token.cid, token.facing)
        return True

    def mouse_moved(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._turning is None:
            return False
        cid, _ = self._turning
        token = self.scene.tokens.get(cid)
        if token is not None:
            centre = token.pos()
            facing = gestures.pointer_facing((centre.x(), centre.y()), (pos.x(), pos.y()))
            self._turning = (cid, facing)
            self.scene.preview_facing(cid, facing)
        return True

    def mouse_released(self, event: QMouseEvent, pos: QPointF) -> bool:
        if self._turning is None or event.button() != Qt.MouseButton.LeftButton:
            return self._turning is not None
        cid, facing = self._turning
        self._turning = None
        c = self.doc.encounter.combatants.get(cid)
        if c is not None and facing != c.facing:
            self.turn_to(cid, facing, is_override(event.modifiers()))
        self.scene.on_combatant(cid)  # the model again, whatever the outcome
        return True

    def turning(self) -> bool:
        return self._turning is not None

    def cancel(self) -> bool:
        if self._turning is None:
            return False
        cid, _ = self._turning
        self._turning = None
        self.scene.on_combatant(cid)
        return True

    # ------------------------------------------------------------------------- keys

    def key_pressed(self, event: QKeyEvent) -> bool:
        key = Qt.Key(event.key())
        if key not in TURN_KEYS and key not in FACE_KEYS:
            return False
        c = self.doc.encounter.combatants.get(self.doc.selected)
        if self.view.player or c is None or not c.on_map:
            return False
        override = is_override(event.modifiers())
        if key in TURN_KEYS:
            self.turn_by_key(c.id, TURN_KEYS[key], override)
        else:
            self.turn_to(c.id, DIRECTIONS[FACE_KEYS[key]], override)
        return True

    def turn_by_key(self, cid: str, step: float, override: bool = False) -> bool:
        """Q / E: turn by ``step`` degrees. Consecutive key turns of one character are one
        facing change (one undo step, one log line); an override once is an override for
        the whole burst."""
        stack = self.doc.undo_stack
        burst = self._burst
        if burst is not None and burst[0] == cid and burst[2] == stack.index() == stack.count():
            override = override or burst[1]
        c = self.doc.encounter.combatants[cid]
        facing = gestures.turned(c.facing, step)
        done = self.turn_to(cid, facing, override, merge=True)
        if done:
            self._burst = (cid, override, stack.index())
        return done

    def turn_to(self, cid: str, facing: float, override: bool = False, merge: bool = False) -> bool:
        """Turn ``cid`` to ``facing`` (one undo step; ``merge``: one with the key turns just
        before). During turns anyone but the actor needs ``override`` (the GM's Shift); a
        refusal goes to the status bar."""
        c = self.doc.encounter.combatants[cid]
        hint = "" if override else f"Hold Shift to turn {c.name} anyway (GM override)."
        op = SetFacing(cid, normalise_facing(facing), override=override)
        return self.view.push([op], None, hint, merge_key=merge_key(cid) if merge else None)
