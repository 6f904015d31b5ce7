"""Several characters at once on the GM's map: Ctrl+click tokens (or drag a rubber band
around them on empty ground) to gather them, then turn them, damage them or give them a
state from their menu, each as one undo step for all of them (E11, E17). The gathered
tokens are ringed on the map. The rules stay the model's: every member's Op is asked of
the model, and a refusal of one refuses the step."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsEllipseItem, QMenu

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.geometry import DIRECTIONS
from afdesk.encounter.op import Op
from afdesk.encounter.ops.roster import AddState, AdjustCounter, SetFacing
from afdesk.encounter.state import Phase
from afdesk.gui.text import sentence

GROUP_STATES = (
    StateKind.DOWN,
    StateKind.SHAKEN,
    StateKind.WOUNDED,
    StateKind.BLINDED,
    StateKind.EXHAUSTED,
    StateKind.CROUCHED,
    StateKind.PREPARED,
    StateKind.BURNING,
    StateKind.BLEEDING,
)
"""The states (E17) the GM gives a group at once; the marked ones start with 1 marker."""

MARKED = (StateKind.BURNING, StateKind.BLEEDING)


class Group:
    """The characters gathered on one map view (Ctrl+click, a rubber band), ringed on its
    scene."""

    def __init__(self, view) -> None:
        self.view = view
        self.ids: tuple[str, ...] = ()
        self._rings: list[QGraphicsEllipseItem] = []

    def toggle(self, cid: str) -> None:
        """Add ``cid`` to the group, or take it out; the character selected before the
        first Ctrl+click joins too (it was the GM's first pick)."""
        ids = list(self.ids)
        if not ids:
            first = self.view.doc.selected
            if first and first != cid and first in self.view.doc.encounter.combatants:
                ids.append(first)
        if cid in ids:
            ids.remove(cid)
        else:
            ids.append(cid)
        self.ids = tuple(ids)
        self.draw()

    def gather(self, cids: list[str]) -> None:
        """Add ``cids`` to the group (a rubber band on the map), as Ctrl+clicking each
        would add it; the character selected before joins too."""
        ids = list(self.ids)
        first = self.view.doc.selected
        if not ids and first and first in self.view.doc.encounter.combatants:
            ids.append(first)
        ids += [cid for cid in cids if cid not in ids]
        self.ids = tuple(ids)
        self.draw()

    def clear(self) -> None:
        if self.ids or self._rings:
            self.ids = ()
            self.draw()

    def follow(self) -> None:
        """The encounter changed: the rings follow the tokens (nothing to do without a
        group)."""
        if self.ids or self._rings:
            self.draw()

    def members(self) -> tuple[str, ...]:
        """The gathered characters still in the encounter."""
        enc = self.view.doc.encounter
        return tuple(cid for cid in self.ids if cid in enc.combatants)

    def draw(self) -> None:
        scene = self.view.map_scene
        for ring in self._rings:
            if ring.scene() is not None:
                ring.scene().removeItem(ring)
        self._rings = []
        for cid in self.members():
            token = scene.tokens.get(cid)
            if token is None:
                continue
            box = token.sceneBoundingRect().adjusted(-6, -6, 6, 6)
            ring = QGraphicsEllipseItem(QRectF(box))
            ring.setPen(QPen(QColor("#1565c0"), 4, Qt.PenStyle.DashLine))
            ring.setZValue(token.zValue() + 1)
            ring.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            scene.addItem(ring)
            self._rings.append(ring)

    # ---------------------------------------------------------------------- what for

    def turn_ops(self, facing: float) -> list[Op]:
        """Everyone faces ``facing`` (E11): during an exchange only the actor turns by
        right, so the others' turns are the GM's override (the log says so)."""
        enc = self.view.doc.encounter
        setup = enc.turn.phase is Phase.SETUP
        return [
            SetFacing(cid, facing, override=not setup and cid != enc.actor)
            for cid in self.members()
        ]

    def state_ops(self, kind: StateKind) -> list[Op]:
        markers = 1 if kind in MARKED else 0
        return [AddState(cid, kind, markers=markers) for cid in self.members()]

    def damage_ops(self, hits: int = 1) -> list[Op]:
        return [AdjustCounter(cid, "hits", hits) for cid in self.members()]

    def push(self, ops: list[Op], what: str) -> bool:
        """All the members' Ops as one undo step (refused whole if one is refused)."""
        n = len(self.members())
        return bool(ops) and self.view.push(ops, f"{what} ({n} characters)")

    def menu(self) -> QMenu:
        """Turn, damage or give a state to everyone gathered; an entry the model refuses
        for someone is greyed with the reason."""
        names = ", ".join(self.view.doc.encounter.combatants[c].name for c in self.members())
        menu = QMenu(self.view)
        menu.setToolTipsVisible(True)
        menu.addSection(f"{len(self.members())} characters: {names}")
        face = menu.addMenu("&Face")
        for word, deg in DIRECTIONS.items():
            self._entry(face, word, self.turn_ops(deg), f"Face {word}")
        hurt = menu.addMenu("&Damage")
        for hits in (1, 2, 3):
            label = f"{hits} hit{'s' if hits > 1 else ''} each"
            self._entry(hurt, label, self.damage_ops(hits), label)
        states = menu.addMenu("Give a &state")
        for kind in GROUP_STATES:
            self._entry(states, kind.label, self.state_ops(kind), kind.label)
        menu.addSeparator()
        menu.addAction("Clear the group").triggered.connect(self.clear)
        return menu

    def _entry(self, menu: QMenu, label: str, ops: list[Op], what: str) -> None:
        act = menu.addAction(label)
        reason = self.refusal(ops)
        act.setEnabled(not reason)
        if reason:
            act.setToolTip(sentence(reason))
            act.setStatusTip(sentence(reason))
        act.triggered.connect(partial(self.push, ops, what))

    def refusal(self, ops: list[Op]) -> str:
        """Why one of ``ops`` would be refused now (asked one by one, a dry run)."""
        enc = self.view.doc.encounter
        for op in ops:
            reason = enc.refusal(op)
            if reason:
                return reason
        return ""
