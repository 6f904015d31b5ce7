"""What the defense declares before it rolls, as the attack does: Ventures (R8, C3),
Advantage or Disadvantage (R4, C5) and the GM's own modifiers (R1)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.errors import IllegalOp
from afdesk.gui.dialogs.contest.common import Panel, gm_modifier_row
from afdesk.rules.rulesets import Ruleset


class DefenseOptionsPanel(Panel):
    """Ventures, Advantage, Disadvantage and a GM modifier for the chosen defense; open
    once a defense is chosen and until it is rolled."""

    def __init__(self, rules: Ruleset, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rules = rules
        self._frame("Defense options (declared before the defense rolls)")
        rows = QVBoxLayout(self.box)
        opts = QHBoxLayout()
        self.ventures = QSpinBox()
        self.advantage = QCheckBox("Advantage")
        self.disadvantage = QCheckBox("Disadvantage")
        opts.addWidget(QLabel("Ventures"))
        opts.addWidget(self.ventures)
        opts.addWidget(self.advantage)
        opts.addWidget(self.disadvantage)
        opts.addStretch(1)
        self.pool_label = QLabel()
        opts.addWidget(self.pool_label)
        rows.addLayout(opts)
        gm, self.gm_label, self.gm_dice, self.gm_add = gm_modifier_row(
            "GM modifier on the defense, e.g. Footing", "Add defense modifier"
        )
        rows.addLayout(gm)
        self.ventures.valueChanged.connect(self.apply)
        self.advantage.toggled.connect(self.apply)
        self.disadvantage.toggled.connect(self.apply)
        self.gm_add.clicked.connect(self._add_gm)

    # ------------------------------------------------------------------ public API

    def set_ventures(self, n: int) -> None:
        self.ventures.setValue(n)

    def add_gm(self, label: str, dice: int) -> None:
        """Add the GM's own modifier to the defense, as the row's button does."""
        self.gm_label.setText(label)
        self.gm_dice.setValue(dice)
        self.gm_add.click()

    def pool_text(self) -> str:
        return self.pool_label.text()

    def open(self) -> bool:
        """Whether the defense's options may change now."""
        f = self.flow
        return (
            f is not None and self.rules.defense_roll and bool(f.defense) and f.defense_roll is None
        )

    # ---------------------------------------------------------------------- changes

    def apply(self) -> None:
        """Give the flow the defense's options as set (a refused Venture count resets)."""
        f = self.flow
        if f is None or not self.open():
            self.changed.emit()
            return
        try:
            f.set_defense_advantage(self.advantage.isChecked(), self.disadvantage.isChecked())
            f.set_defense_ventures(self.ventures.value())
        except IllegalOp as exc:
            self.refused.emit(str(exc))
            self.ventures.blockSignals(True)
            self.ventures.setValue(f.defense_ventures)
            self.ventures.blockSignals(False)
        self.changed.emit()

    def _add_gm(self) -> None:
        if not self.open():
            return
        label, dice = self.gm_label.text().strip(), self.gm_dice.value()
        if self._try(lambda f: f.add_defense_gm_modifier(label, dice)):
            self.gm_label.clear()

    def refresh(self) -> None:
        f = self.flow
        self.setVisible(self.rules.defense_roll)
        editable = self.open()
        for w, shown in (
            (self.ventures, self.rules.venture_interference > 0),
            (self.advantage, self.rules.advantage),
            (self.disadvantage, self.rules.advantage),
        ):
            w.setEnabled(editable)
            w.setVisible(shown)
        for w in (self.gm_label, self.gm_dice, self.gm_add):
            w.setEnabled(editable)
        if f is None or not f.defense:
            self.pool_label.setText("")
            return
        if editable:
            self.ventures.setMaximum(max(f.max_defense_ventures(), f.defense_ventures))
        dice, intf = f.defense_pools(0)
        total = intf + self.rules.venture_interference * f.defense_ventures
        text = f"defense: <b>{dice}</b> dice, <b>{total}</b> Interference"
        tip = ""
        if len(f.defense) == 2:  # a guard, or another's retort, cooperating (E4, P5, R11)
            helper = f.defense[1]
            h_dice, h_intf = f.defense_pools(1)
            text += f"; helper: {helper.kind.label.lower()} <b>{h_dice}</b> dice (R11)"
            who = f.enc.combatant(helper.defender).name
            tip = (
                f"{who}'s {helper.kind.label.lower()} helps: {h_dice} dice, {h_intf} "
                "Interference, plus 1 Interference per other cooperator; its Gain buys the "
                "leader retries (R11)"
            )
        self.pool_label.setText(text)
        self.pool_label.setToolTip(tip)
