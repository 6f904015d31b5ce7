"""The attacker's modifiers, the GM's own, and the check's options (Ventures, Advantage,
keywords)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.contest.assembly import Modifier
from afdesk.encounter.errors import IllegalOp
from afdesk.gui.dialogs.contest.common import Panel, clear, gm_modifier_row, modifier_box
from afdesk.rules.rulesets import Ruleset


class ModifiersPanel(Panel):
    """Every modifier with its reason and rule; untick to switch one off; add the GM's."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.box = QGroupBox(
            "Modifiers (derived from the map and the model; untick to switch one off)"
        )
        self._layout = QVBoxLayout(self.box)
        outer.addWidget(self.box)
        gm, self.gm_label, self.gm_dice, self.gm_add = gm_modifier_row(
            "GM modifier, e.g. Slippery rocks", "Add &modifier"
        )
        outer.addLayout(gm)
        self._boxes: dict[str, QCheckBox] = {}
        self.gm_add.clicked.connect(self._add_gm)

    def show_modifiers(self, mods: list[Modifier], editable: bool) -> None:
        clear(self._layout)
        self._boxes = {}
        for w in (self.gm_add, self.gm_label, self.gm_dice):
            w.setEnabled(self.flow is not None and editable)
        if not mods:
            self._layout.addWidget(QLabel("None apply."))
            return
        for m in mods:
            box = modifier_box(m)
            box.setEnabled(self.flow is not None and editable)
            box.toggled.connect(lambda on, key=m.key: self.set_enabled(key, on))
            self._layout.addWidget(box)
            self._boxes[m.key] = box

    def rows(self) -> list[str]:
        """The texts shown, one per modifier ("None apply." when there is none)."""
        out = []
        for i in range(self._layout.count()):
            w = self._layout.itemAt(i).widget()
            if isinstance(w, QCheckBox | QLabel):
                out.append(w.text())
        return out

    def box_for(self, label: str) -> QCheckBox:
        """The tick box of the modifier whose text holds ``label``."""
        for box in self._boxes.values():
            if label in box.text():
                return box
        raise KeyError(label)

    def set_enabled(self, key: str, on: bool) -> None:
        """Switch a modifier off or back on (the GM overrides)."""
        if self.flow is not None and not self.flow.rolled:
            self._try(lambda f: f.set_enabled(key, on))

    def add_gm(self, label: str, dice: int) -> None:
        """Add the GM's own modifier, as the row under the list does."""
        self.gm_label.setText(label)
        self.gm_dice.setValue(dice)
        self.gm_add.click()

    def _add_gm(self) -> None:
        if self.flow is None or self.flow.rolled:
            return
        label, dice = self.gm_label.text().strip(), self.gm_dice.value()
        if self._try(lambda f: f.add_gm_modifier(label, dice)):
            self.gm_label.clear()


class OptionsPanel(Panel):
    """Ventures, Advantage and Disadvantage, or the d20 keywords, and the pool they make."""

    def __init__(self, rules: Ruleset, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rules = rules
        opts = QHBoxLayout(self)
        opts.setContentsMargins(0, 0, 0, 0)
        self.ventures = QSpinBox()
        self.advantage = QCheckBox("Ad&vantage")
        self.disadvantage = QCheckBox("Disadvanta&ge")
        ventures_label = QLabel("V&entures")
        ventures_label.setBuddy(self.ventures)
        opts.addWidget(ventures_label)
        opts.addWidget(self.ventures)
        opts.addWidget(self.advantage)
        opts.addWidget(self.disadvantage)
        self.keyword_boxes: dict[str, QCheckBox] = {}
        for kw in sorted(rules.keywords):
            box = QCheckBox(kw.capitalize())
            self.keyword_boxes[kw] = box
            opts.addWidget(box)
        opts.addStretch(1)
        self.pool_label = QLabel()
        opts.addWidget(self.pool_label)
        self.ventures.valueChanged.connect(self.apply)
        self.advantage.toggled.connect(self.apply)
        self.disadvantage.toggled.connect(self.apply)
        for box in self.keyword_boxes.values():
            box.toggled.connect(self.apply)

    def set_ventures(self, n: int) -> None:
        self.ventures.setValue(n)

    def pool_text(self) -> str:
        return self.pool_label.text()

    def apply(self) -> None:
        """Give the flow the options as ticked (a refused Venture count is reset)."""
        f = self.flow
        if f is None or f.rolled:
            self.changed.emit()
            return
        try:
            f.set_advantage(self.advantage.isChecked(), self.disadvantage.isChecked())
            f.keywords = tuple(k for k, b in self.keyword_boxes.items() if b.isChecked())
            f.set_ventures(self.ventures.value())
        except IllegalOp as exc:
            self.refused.emit(str(exc))
            self.ventures.blockSignals(True)
            self.ventures.setValue(f.ventures)
            self.ventures.blockSignals(False)
        self.changed.emit()

    def refresh(self) -> None:
        f = self.flow
        rolled = f is not None and f.rolled
        for w, shown in (
            (self.ventures, self.rules.venture_interference > 0),
            (self.advantage, self.rules.advantage),
            (self.disadvantage, self.rules.advantage),
        ):
            w.setEnabled(f is not None and not rolled)
            w.setVisible(shown)
        for box in self.keyword_boxes.values():
            box.setEnabled(not rolled)
        if f is None:
            self.pool_label.setText("")
            return
        if not rolled:
            self.ventures.setMaximum(max(f.max_ventures(), f.ventures))
        dice, intf = f.attack_pools()
        if not self.rules.dice_pools:
            bonus, tn, fort = f.d20_numbers()
            self.pool_label.setText(f"d20 + {bonus} against TN {tn}, F {fort}")
        else:
            extra = f.interference_total() - intf
            self.pool_label.setText(
                f"<b>{dice}</b> dice, <b>{f.interference_total()}</b> Interference"
                + (f" ({extra} from Ventures)" if extra else "")
            )
