"""The Infiltration dock's Maneuver while hidden (N5): for the selected hidden character,
where each decoy goes (every area within the character's speed by E14 costs, the ones
where it would be lost marked: an opponent's area, N4b, or clear line, N4a), and the
button that pushes one :class:`MoveDecoys`. The button says why not before the GM tries
(whose turn, the action spent, E6)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QGridLayout, QLabel, QPushButton

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.infiltration.setup import MoveDecoys, decoys_moved
from afdesk.encounter.infiltration.watch import decoy_reach


def _at(area) -> str:
    return f"({area[0]}, {area[1]})"


class DecoyMoves:
    """The group's widgets for one hidden character: one combo per decoy (``stays``
    first, then each area it can reach) and the Maneuver button."""

    def __init__(self, panel, grid: QGridLayout, enc, cid: str) -> None:
        self.panel = panel
        self.cid = cid
        c = enc.combatants[cid]
        self.paths: list[dict[str, tuple]] = []
        self.boxes: list[QComboBox] = []
        for row, d in enumerate(c.decoys):
            start = (d[0], d[1])
            reach = decoy_reach(enc, cid, start)
            box = QComboBox()
            box.setObjectName(f"decoyTo:{cid}@{_at(start)}")
            # The dock keeps its width at 1280x720: the box shows the start of the
            # choice, and its list opens as wide as its longest line.
            box.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            box.setMinimumContentsLength(10)
            box.addItem(f"stays at {_at(start)}", None)
            paths = {}
            for end in sorted(reach, key=lambda a: (a[1], a[0])):
                path = reach[end]
                try:
                    _after, lost = decoys_moved(enc, c, (path,))
                except IllegalOp as exc:  # a refusal: listed with its reason
                    box.addItem(f"{_at(end)} — {exc}", None)
                    continue
                note = f" — lost, {lost[0].why}" if lost else ""
                box.addItem(f"to {_at(end)}{note}", _at(end))
                paths[_at(end)] = path
            box.view().setMinimumWidth(box.view().sizeHintForColumn(0) + 24)
            box.currentIndexChanged.connect(self._update)
            label = QLabel(f"Decoy at {_at(start)}")
            grid.addWidget(label, row, 0)
            grid.addWidget(box, row, 1)
            self.paths.append(paths)
            self.boxes.append(box)
        self.button = QPushButton("Maneuver while hidden (N5)")
        self.button.setObjectName(f"maneuverDecoys:{cid}")
        self.button.clicked.connect(self.push)
        grid.addWidget(self.button, len(self.boxes), 0, 1, 2)
        self.probe = ""
        """Why a Maneuver of these decoys is refused now, whatever the areas ("" if not)."""
        first = next(((i, p) for i, p in enumerate(self.paths) if p), None)
        if first is None:
            self.probe = f"{c.name}'s decoys have nowhere to go within its speed (N5, E14)"
        else:
            path = next(iter(first[1].values()))
            self.probe = panel.doc.try_op(MoveDecoys(cid, (path,)))
        self._update()

    def op(self) -> MoveDecoys | None:
        paths = tuple(
            self.paths[i][box.currentData()]
            for i, box in enumerate(self.boxes)
            if box.currentData() is not None
        )
        return MoveDecoys(self.cid, paths) if paths else None

    def _update(self, *_args) -> None:
        op = self.op()
        why = self.probe or ("" if op is not None else "pick where a decoy goes first (N5)")
        self.button.setEnabled(not why)
        self.button.setToolTip(
            why
            or "The action: each decoy moves up to the speed (E14 costs); a decoy lost "
            "where it ends goes at once (N4a, N4b)"
        )

    def push(self) -> None:
        op = self.op()
        if op is None:
            self.panel.push_refused("pick where a decoy goes first (N5)")
            return
        self.panel.push(op)
