"""Physical dice in the check dialog: per roll, tick "Physical dice" and type
the faces in the order rolled; afdesk then takes them instead of rolling, with the
ruleset's own validation (afdesk.encounter.typed). The tick belongs to one check: every
new check opens with afdesk rolling, so a tick from an earlier, unrelated check never makes
the next one refuse to roll for want of typed faces (R1, R2)."""

from __future__ import annotations

import msgspec
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLineEdit, QWidget

from afdesk.encounter import persevere
from afdesk.encounter.combatant import Side
from afdesk.encounter.contest.ops import Persevere
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.typed import TypedDice, parse_faces, used_up
from afdesk.rules.errors import RulesError
from afdesk.rules.rulesets import ruleset_named

SIDES = {"band": "players' side", "opponents": "opponents' side"}


def side_key(side: Side) -> str:
    """Which side a character rolls for, as the entry's label names it."""
    return "band" if side in (Side.BAND, Side.FOLLOWER) else "opponents"


class FacesEntry(QWidget):
    """ "Physical dice (players' side)" and the faces rolled, for one roll of the dialog."""

    def __init__(self, what: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.what = what
        self.which = "band"
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.box = QCheckBox()
        self.box.setToolTip(
            "Type the faces of the dice rolled at the table instead of afdesk rolling; "
            "for this check only (the next check opens with afdesk rolling)"
        )
        self.faces_edit = QLineEdit()
        self.set_what(what)
        row.addWidget(self.box)
        row.addWidget(self.faces_edit, 1)
        self.box.toggled.connect(self._toggled)
        self.faces_edit.setEnabled(False)
        self.set_side(Side.BAND)

    def set_what(self, what: str) -> None:
        """Say what the faces are of, in the order rolled (the hint in the empty box)."""
        self.what = what
        text = f"faces of the {what}, in the order rolled (each 6's extra die after it), e.g. 6 2 4"
        self.faces_edit.setPlaceholderText(text)
        self.faces_edit.setToolTip(text)

    def set_side(self, side: Side) -> None:
        """Name the roller's side in the label; the tick stays as the GM left it in this
        check (a new check's entry starts unticked)."""
        self.which = side_key(side)
        self.box.setText(f"Physical dice ({SIDES[self.which]})")

    def _toggled(self, on: bool) -> None:
        self.faces_edit.setEnabled(on)
        if on:
            self.faces_edit.setFocus()

    def physical(self) -> bool:
        return self.box.isChecked()

    def faces(self) -> tuple[int, ...]:
        """The faces typed (:class:`IllegalOp` with the bad one)."""
        return parse_faces(self.faces_edit.text())

    def type_faces(self, text: str) -> None:
        """Tick the box and type ``text``, as the GM would."""
        self.box.setChecked(True)
        self.faces_edit.setText(text)


def typed_persevere(enc: Encounter, text: str) -> Persevere | str:
    """Everyone's persevere check (E15) from faces typed top to bottom, or why not."""
    rules = ruleset_named(enc.ruleset)
    try:
        source = TypedDice(parse_faces(text), f"{rules.typed_dice_order}; one check per row")
        op = persevere.roll(enc, source)
        used_up(source)
    except (IllegalOp, RulesError) as exc:
        return f"physical dice for persevere: {exc}"
    return msgspec.structs.replace(op, physical=True)
