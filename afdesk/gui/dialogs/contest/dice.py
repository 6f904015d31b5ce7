"""Rolling: the check's dice, the defense's (and a cooperating guard's), and the verdict."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from afdesk.encounter.typed import roll_typed
from afdesk.gui.dialogs.contest.common import Panel
from afdesk.gui.dialogs.contest.physical import FacesEntry
from afdesk.gui.dice_view import DiceView
from afdesk.gui.style import meaning_colour
from afdesk.gui.text import sentence
from afdesk.rules.dice import DiceSource, Die, Pool


class WrappingDiceView(DiceView):
    """A roll's dice that wrap onto more rows when the row is narrower than the dice
    (9 check dice and 2 Interference, R2-R4, fit the dialog on a 1280x720 screen)."""

    def __init__(self, parent: QWidget | None = None, size: int = 34) -> None:
        super().__init__(parent, size)
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def _layout_for(self, width: float) -> list[tuple[QRectF, int, Die]]:
        if self._roll is None:
            return []
        s = self._size
        step = s * 1.25
        row_step = s + 14  # room below a die for its "was 3" (R10)
        x, y = 2.0, 4.0
        out: list[tuple[QRectF, int, Die]] = []
        main = [(i, d) for i, d in enumerate(self._roll.dice) if d.pool is not Pool.INTERFERENCE]
        intf = [(i, d) for i, d in enumerate(self._roll.dice) if d.pool is Pool.INTERFERENCE]
        for n, group in enumerate((main, intf)):
            if n and group and main:
                x += s * 0.6  # the gap before the Interference dice
            for i, d in group:
                if x + s + 2 > width and x > 2.0:
                    x, y = 2.0, y + row_step
                out.append((QRectF(x, y, s, s), i, d))
                x += step
        return out

    def _layout(self) -> list[tuple[QRectF, int, Die]]:
        return self._layout_for(max(self.width(), self._size + 4))

    def sizeHint(self) -> QSize:
        one_row = self._layout_for(float("inf"))
        width = int(one_row[-1][0].right() + 6) if one_row else 60
        return QSize(width, self._size + 14)

    def minimumSizeHint(self) -> QSize:
        return QSize(self._size + 8, self._size + 14)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        rects = self._layout_for(max(width, self._size + 4))
        return int(rects[-1][0].bottom() + 10) if rects else self._size + 14

    def set_roll(self, roll) -> None:
        super().set_roll(roll)
        self.updateGeometry()


class DicePanel(Panel):
    """Roll the check, roll the defense, and see what it came to.

    ``source`` gives the dice source for each roll (None: a fresh seeded one). The two
    roll buttons belong to the panel but the dialog places them in its fixed button row,
    so they stay under the mouse through every step.
    """

    def __init__(
        self, source: Callable[[], DiceSource | None], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._source = source
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        grid = QGridLayout()
        self.roll_attack = QPushButton("&Roll the check")
        self.attack_dice = WrappingDiceView()
        self.attack_text = QLabel()
        self.roll_defense = QPushButton("Roll the &defense")
        self.defense_dice = WrappingDiceView()
        self.helper_dice = WrappingDiceView(size=26)
        self.helper_label = QLabel("the guard helping:")
        self.defense_text = QLabel()
        for text in (self.attack_text, self.defense_text):
            text.setWordWrap(True)
        # Physical dice: the faces rolled at the table, per roll.
        self.attack_faces = FacesEntry("check")
        self.defense_faces = FacesEntry("defense")
        top = Qt.AlignmentFlag.AlignTop
        grid.addWidget(QLabel("<b>The check</b>"), 0, 0, top)
        grid.addWidget(self.attack_dice, 0, 1)
        grid.addWidget(self.attack_text, 1, 1)
        grid.addWidget(self.attack_faces, 2, 1)
        grid.addWidget(QLabel("<b>The defense</b>"), 3, 0, top)
        grid.addWidget(self.defense_dice, 3, 1)
        grid.addWidget(self.defense_text, 4, 1)
        grid.addWidget(self.defense_faces, 5, 1)
        grid.addWidget(self.helper_label, 6, 0, Qt.AlignmentFlag.AlignRight)
        grid.addWidget(self.helper_dice, 6, 1)
        grid.setColumnStretch(1, 1)
        outer.addLayout(grid)
        self.verdict = QLabel()
        self.verdict.setStyleSheet("font-size: 18px; font-weight: bold; padding: 4px;")
        outer.addWidget(self.verdict)
        self.defense_choice: Callable[[], tuple] = tuple
        """The defense picked in the defense panel (the dialog wires it)."""
        self.roll_attack.clicked.connect(self.roll_check)
        self.roll_defense.clicked.connect(self.roll_opposition)

    def bind(self, flow) -> None:
        super().bind(flow)
        if flow is not None:
            enc = flow.enc
            attacker = enc.combatant(flow.plan.attacker)
            self.attack_faces.set_side(attacker.side)
            if flow.plan.target:
                self.defense_faces.set_side(enc.combatant(flow.plan.target).side)
            for entry in (self.attack_faces, self.defense_faces):
                entry.faces_edit.clear()

    def roll_check(self) -> None:
        entry = self.attack_faces
        if entry.physical():
            self._try(lambda f: roll_typed(f, "attack", entry.faces(), f.roll_attack))
        else:
            self._try(lambda f: f.roll_attack(self._source()))

    def roll_opposition(self) -> None:
        def roll(f, source) -> None:
            if not f.defense:
                f.choose_defense(*self.defense_choice())
            f.roll_defense(source)

        entry = self.defense_faces
        if entry.physical():
            self._try(lambda f: roll_typed(f, "defense", entry.faces(), lambda src: roll(f, src)))
        else:
            self._try(lambda f: roll(f, self._source()))

    def verdict_text(self) -> str:
        return self.verdict.text()

    def refresh(self) -> None:
        f = self.flow
        rolled = f is not None and f.rolled
        if f is None:
            self.roll_attack.setEnabled(False)
            self.roll_defense.setEnabled(False)
            return
        self.roll_attack.setEnabled(not rolled)
        self.attack_faces.setEnabled(not rolled)
        self.defense_faces.setEnabled(rolled and f.rules.defense_roll and f.defense_roll is None)
        self.attack_dice.set_roll(f.attack)
        if f.d20 is not None:
            actor, target = f.d20.riders
            riders = []
            if actor:
                riders.append("the actor may use a Rider")
            if target:
                riders.append("the target may use a Rider as a Reaction")
            tail = f" — {'; '.join(riders)}" if riders else ""
            self.attack_text.setText(f.d20.describe() + tail)
        elif f.attack is not None:
            attack = f.verdict_now().attack
            self.attack_text.setText(attack.describe() if attack else "")
        else:
            self.attack_text.setText("")
        can_defend = (
            rolled
            and f.rules.defense_roll
            and f.defense_roll is None
            and bool(self.defense_choice())
            and bool(f.defense)  # the flow took the choice: an illegal pair is refused (E4)
            and f.attack_succeeded()
        )
        self.roll_defense.setEnabled(can_defend)
        self.defense_dice.set_roll(f.defense_roll)
        self.helper_dice.set_roll(f.helper_roll)
        self.helper_dice.setVisible(f.helper_roll is not None)
        self.helper_label.setVisible(f.helper_roll is not None)
        if len(f.defense) == 2 and f.defense[1].defender != f.defense[0].defender:
            who = f.enc.combatant(f.defense[1].defender).name  # a retort for another (P5)
            self.helper_label.setText(f"{who}'s retort helping:")
            self.helper_label.setWordWrap(True)
        else:
            self.helper_label.setText("the guard helping:")
        what = "defense"
        if len(f.defense) == 2:  # typed in the order the ruleset rolls them (R11)
            first = f.rules.helper_rolls_first
            what = f"defense with its helper: the {'helper' if first else 'defense'}'s dice "
            what += f"first, then the {'defense' if first else 'helper'}'s"
        if what != self.defense_faces.what:
            self.defense_faces.set_what(what)
        v = f.verdict_now() if rolled else None
        self.defense_text.setText(v.defense.describe() if v and v.defense else "")
        if v is not None:
            kind = "good" if v.lands else "error"
            colour = meaning_colour(kind, self.verdict.palette()).name()
            self.verdict.setText(f"<span style='color:{colour}'>{sentence(v.explain())}</span>")
        else:
            self.verdict.setText("")
