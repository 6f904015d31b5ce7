"""The contested check: assembled from the model, exact odds live, dice, Shifts, one Op.

Everything rules-related comes from ``afdesk.encounter.contest`` (what modifiers apply and
why, which defenses are open, who can be targeted) and ``ContestFlow`` (rolling, Shifts,
Momentum, what may be spent now); the dialog only shows it and lets the GM choose.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.contest import (
    CheckKind,
    DefenseOption,
    Modifier,
    Via,
    assemble,
    candidates,
)
from afdesk.encounter.contest_flow import ContestFlow
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import distance, neighbours
from afdesk.gui.dice_view import DiceView
from afdesk.gui.document import EncounterDocument
from afdesk.gui.text import pct, sentence
from afdesk.rules.contest import Role
from afdesk.rules.d20 import KEYWORDS
from afdesk.rules.rulesets import SpendUnit, ruleset_named

MOMENTUM_CHOICES = (
    ("+2 on a character's next check", "marker", 2),
    ("-2 on a character's next check", "marker", -2),
    ("+1 damage", "damage", 1),
    ("-1 damage", "damage", -1),
    ("a stunt", "stunt", 0),
)
VIA_WORDS = {
    Via.GUARD: "guard",
    Via.DEFENSE: "defense",
    Via.FEND: "Fend",
    Via.QUIP: "Quip",
    Via.CONTEST: "contest",
}


def _clear(layout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        if item.widget() is not None:
            item.widget().deleteLater()
        elif item.layout() is not None:
            _clear(item.layout())


class ContestDialog(QDialog):
    """Assemble, roll and resolve one check; Apply pushes one ResolveContest Op."""

    def __init__(
        self,
        doc: EncounterDocument,
        attacker: str,
        action: CheckKind,
        target: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.doc = doc
        self.enc = doc.encounter
        self.rules = ruleset_named(self.enc.ruleset)
        self.attacker = attacker
        self.action = CheckKind(action)
        self.plan = None
        self.flow: ContestFlow | None = None
        self.source = None
        """The dice source for every roll here; None: a fresh seeded RandomSource."""
        self._def_radios: list[tuple[QRadioButton, DefenseOption | None]] = []
        self._guard_helper: tuple[QCheckBox, DefenseOption] | None = None
        self._defenses_built_for = None
        self.decoy_boxes: list[QComboBox] = []
        self.look_box: QComboBox | None = None
        self.setWindowTitle(f"{self.action.label} — {self.enc.combatant(attacker).name}")
        self.setMinimumWidth(780)
        self._build()
        self._fill_targets(target)
        self._replan()

    # --------------------------------------------------------------------------- build

    def _build(self) -> None:
        root = QVBoxLayout(self)
        head = QGridLayout()
        self.attacker_label = QLabel(f"<b>{self.enc.combatant(self.attacker).name}</b>")
        self.action_box = QComboBox()
        for a in CheckKind:
            self.action_box.addItem(a.label, a.value)
        self.action_box.setCurrentIndex(self.action_box.findData(self.action.value))
        self.target_box = QComboBox()
        self.facet_box = QComboBox()
        for f in self.enc.combatant(self.attacker).facets:
            self.facet_box.addItem(f"{f.name} {f.score}", f.name)
        head.addWidget(QLabel("Who"), 0, 0)
        head.addWidget(self.attacker_label, 0, 1)
        for col, (text, widget) in enumerate(
            (("D&oes", self.action_box), ("&To", self.target_box), ("&Facet", self.facet_box))
        ):
            label = QLabel(text)
            label.setBuddy(widget)
            head.addWidget(label, 0, 2 + 2 * col)
            head.addWidget(widget, 0, 3 + 2 * col)
        head.setColumnStretch(5, 1)
        root.addLayout(head)
        self.reason = QLabel()
        self.reason.setWordWrap(True)
        root.addWidget(self.reason)

        self.mod_box = QGroupBox(
            "Modifiers (derived from the map and the model; untick to switch one off)"
        )
        self.mod_layout = QVBoxLayout(self.mod_box)
        root.addWidget(self.mod_box)
        gm = QHBoxLayout()
        self.gm_label = QLineEdit()
        self.gm_label.setPlaceholderText("GM modifier, e.g. Slippery rocks")
        self.gm_dice = QSpinBox()
        self.gm_dice.setRange(-6, 6)
        self.gm_dice.setValue(-2)
        self.gm_add = QPushButton("Add &modifier")
        gm.addWidget(self.gm_label, 1)
        gm.addWidget(QLabel("dice"))
        gm.addWidget(self.gm_dice)
        gm.addWidget(self.gm_add)
        root.addLayout(gm)

        opts = QHBoxLayout()
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
        for kw in sorted(KEYWORDS):
            box = QCheckBox(kw.capitalize())
            self.keyword_boxes[kw] = box
            opts.addWidget(box)
        opts.addStretch(1)
        self.pool_label = QLabel()
        opts.addWidget(self.pool_label)
        root.addLayout(opts)

        self.extra_box = QGroupBox()
        self.extra_layout = QFormLayout(self.extra_box)
        root.addWidget(self.extra_box)

        self.def_box = QGroupBox("Defense (the target chooses after seeing the result, E4)")
        self.def_layout = QVBoxLayout(self.def_box)
        root.addWidget(self.def_box)
        self.def_mod_box = QGroupBox("Defense modifiers (untick to switch one off)")
        self.def_mod_layout = QVBoxLayout(self.def_mod_box)
        root.addWidget(self.def_mod_box)

        self.odds = QLabel()
        self.odds.setTextFormat(Qt.TextFormat.RichText)
        self.odds.setStyleSheet("font-size: 15px; padding: 6px; background: #f3f6fb;")
        root.addWidget(self.odds)

        dice = QGridLayout()
        self.roll_attack = QPushButton("&Roll the check")
        self.attack_dice = DiceView()
        self.attack_text = QLabel()
        self.roll_defense = QPushButton("Roll the &defense")
        self.defense_dice = DiceView()
        self.helper_dice = DiceView(size=26)
        self.helper_label = QLabel("the guard helping:")
        self.defense_text = QLabel()
        dice.addWidget(self.roll_attack, 0, 0)
        dice.addWidget(self.attack_dice, 0, 1)
        dice.addWidget(self.attack_text, 0, 2)
        dice.addWidget(self.roll_defense, 1, 0)
        dice.addWidget(self.defense_dice, 1, 1)
        dice.addWidget(self.defense_text, 1, 2)
        dice.addWidget(self.helper_label, 2, 0, Qt.AlignmentFlag.AlignRight)
        dice.addWidget(self.helper_dice, 2, 1)
        dice.setColumnStretch(1, 1)
        root.addLayout(dice)
        self.verdict = QLabel()
        self.verdict.setStyleSheet("font-size: 18px; font-weight: bold; padding: 4px;")
        root.addWidget(self.verdict)

        self.shift_box = QGroupBox("Shifts (R10): the side on turn spends, or passes")
        outer = QVBoxLayout(self.shift_box)
        self.shift_turn = QLabel()
        self.shift_turn.setWordWrap(True)
        outer.addWidget(self.shift_turn)
        sl = QHBoxLayout()
        outer.addLayout(sl)
        self.shift_add = QPushButton("&+2 dice")
        self.shift_retry = QPushButton("Re&try Fails")
        self.shift_pass = QPushButton("&Pass (satisfied)")
        sl.addStretch(1)
        for b in (self.shift_add, self.shift_retry, self.shift_pass):
            sl.addWidget(b)
        root.addWidget(self.shift_box)

        self.mom_box = QGroupBox("Momentum (R12) and damage")
        ml = QGridLayout(self.mom_box)
        self.mom_text = QLabel()
        self.mom_text.setWordWrap(True)
        self.mom_side = QComboBox()
        self.mom_side.addItem("the attacker's", Role.ATTACKER.value)
        self.mom_side.addItem("the defender's", Role.DEFENDER.value)
        self.mom_kind = QComboBox()
        for label, _kind, _dice in MOMENTUM_CHOICES:
            self.mom_kind.addItem(label)
        self.mom_target = QComboBox()
        for c in self.enc.roster():
            if c.on_map:
                self.mom_target.addItem(c.name, c.id)
        self.mom_use = QPushButton("&Spend")
        self.hits = QSpinBox()
        self.hits.setRange(0, 50)
        self.hits.setToolTip("Damage the GM rolled; it is dealt if the attack lands (E6)")
        hits_label = QLabel("&Hits if it lands")
        hits_label.setBuddy(self.hits)
        ml.addWidget(self.mom_text, 0, 0, 1, 5)
        ml.addWidget(self.mom_side, 1, 0)
        ml.addWidget(self.mom_kind, 1, 1)
        ml.addWidget(self.mom_target, 1, 2)
        ml.addWidget(self.mom_use, 1, 3)
        ml.addWidget(hits_label, 2, 0)
        ml.addWidget(self.hits, 2, 1)
        root.addWidget(self.mom_box)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Apply | QDialogButtonBox.StandardButton.Cancel
        )
        self.apply_button = self.buttons.button(QDialogButtonBox.StandardButton.Apply)
        self.apply_button.setText("&Apply to the encounter")
        root.addWidget(self.buttons)

        self.action_box.currentIndexChanged.connect(self._action_changed)
        self.target_box.currentIndexChanged.connect(lambda _i: self._replan())
        self.facet_box.currentIndexChanged.connect(lambda _i: self._replan(keep_facet=True))
        self.gm_add.clicked.connect(self._add_gm)
        self.ventures.valueChanged.connect(self._options_changed)
        self.advantage.toggled.connect(self._options_changed)
        self.disadvantage.toggled.connect(self._options_changed)
        for box in self.keyword_boxes.values():
            box.toggled.connect(self._options_changed)
        self.roll_attack.clicked.connect(self._roll_attack)
        self.roll_defense.clicked.connect(self._roll_defense)
        self.shift_add.clicked.connect(lambda: self._spend("add"))
        self.shift_retry.clicked.connect(lambda: self._spend("retry"))
        self.shift_pass.clicked.connect(self._pass)
        self.mom_use.clicked.connect(self._use_momentum)
        self.hits.valueChanged.connect(self._hits_changed)
        self.apply_button.clicked.connect(self._apply)
        self.buttons.rejected.connect(self.reject)

    # ------------------------------------------------------------------------ planning

    def _fill_targets(self, preferred: str = "") -> None:
        self.target_box.blockSignals(True)
        self.target_box.clear()
        a = self.enc.combatant(self.attacker)
        if self.action in (CheckKind.HIDE, CheckKind.CHECK, CheckKind.HUSTLE, CheckKind.CREEP):
            self.target_box.addItem("(no target)", "")
        if self.action.spec.defenses:
            for c in candidates(self.enc, self.attacker, self.action):
                d = distance(a.area, c.area)
                self.target_box.addItem(f"{c.name} ({d} away)", c.id)
        if preferred:
            i = self.target_box.findData(preferred)
            if i >= 0:
                self.target_box.setCurrentIndex(i)
        self.target_box.setEnabled(bool(self.action.spec.defenses))
        self.target_box.blockSignals(False)

    def _action_changed(self) -> None:
        self.action = CheckKind(self.action_box.currentData())
        self.setWindowTitle(f"{self.action.label} — {self.enc.combatant(self.attacker).name}")
        self._fill_targets(self.target_box.currentData() or "")
        self.facet_box.blockSignals(True)
        self.facet_box.setCurrentIndex(-1)
        self.facet_box.blockSignals(False)
        self._replan()

    def _replan(self, keep_facet: bool = False) -> None:
        target = self.target_box.currentData() or ""
        facet = self.facet_box.currentData() if keep_facet else ""
        if self.action is CheckKind.CHECK and not facet:
            facet = self.facet_box.currentData() or self.facet_box.itemData(0) or ""
        self.flow = None
        self.plan = None
        try:
            plan = assemble(self.enc, self.attacker, self.action, target, facet or "")
        except IllegalOp as exc:
            self._show_reason(str(exc))
            self._refresh()
            return
        self.plan = plan
        if not keep_facet:
            i = self.facet_box.findData(plan.facet)
            self.facet_box.blockSignals(True)
            self.facet_box.setCurrentIndex(i)
            self.facet_box.blockSignals(False)
        if not plan.allowed:
            self._show_reason(plan.reason)
            self._refresh()
            return
        self._show_reason(" ".join(plan.notes), note=True)
        self.flow = ContestFlow(self.enc, plan)
        self.hits.setValue(0)
        self._extra_fields()
        self._options_changed()

    def _show_reason(self, text: str, note: bool = False) -> None:
        colour = "#7a4b00" if note else "#b00020"
        self.reason.setStyleSheet(f"color: {colour};" + ("" if note else " font-weight: bold;"))
        self.reason.setText(sentence(text) if text else "")

    def _extra_fields(self) -> None:
        while self.extra_layout.rowCount():
            self.extra_layout.removeRow(0)
        a = self.enc.combatant(self.attacker)
        self.decoy_boxes = []
        self.look_box = None
        if self.action is CheckKind.HIDE and a.area is not None:
            free = [n for n in neighbours(a.area) if self.enc.zone.contains(n)]
            for k in range(2):
                box = QComboBox()
                for area in free:
                    box.addItem(f"({area[0]}, {area[1]})", area)
                box.setCurrentIndex(min(k, len(free) - 1))
                box.currentIndexChanged.connect(self._decoys_changed)
                self.extra_layout.addRow(f"Decoy {k + 1}", box)
                self.decoy_boxes.append(box)
            self._decoys_changed()
        if self.action in (CheckKind.LOOK, CheckKind.CREEP):
            owner = self.enc.combatant(self.plan.target if self.action is CheckKind.LOOK else a.id)
            self.look_box = QComboBox()
            if self.action is CheckKind.LOOK:
                self.look_box.addItem("discover details (no decoy)", None)
            for area in owner.decoys:
                self.look_box.addItem(f"decoy at ({area[0]}, {area[1]})", area)
            if owner.decoys:
                self.look_box.setCurrentIndex(self.look_box.count() - len(owner.decoys))
            self.look_box.currentIndexChanged.connect(self._look_changed)
            label = "Look at" if self.action is CheckKind.LOOK else "Decoy lost on a failure"
            self.extra_layout.addRow(label, self.look_box)
            self._look_changed()
        self.extra_box.setVisible(self.extra_layout.rowCount() > 0)

    def _decoys_changed(self) -> None:
        if self.flow is not None:
            self.flow.decoys = tuple(tuple(b.currentData()) for b in self.decoy_boxes)

    def _look_changed(self) -> None:
        if self.flow is not None and self.look_box is not None:
            area = self.look_box.currentData()
            self.flow.decoy = tuple(area) if area is not None else None

    def _hits_changed(self, value: int) -> None:
        if self.flow is not None:
            self.flow.hits = value

    # ---------------------------------------------------------------------- options

    def _add_gm(self) -> None:
        if self.flow is None or self.flow.rolled:
            return
        try:
            self.flow.add_gm_modifier(self.gm_label.text().strip(), self.gm_dice.value())
        except IllegalOp as exc:
            self._show_reason(str(exc))
            return
        self.gm_label.clear()
        self._refresh()

    def _options_changed(self) -> None:
        f = self.flow
        if f is None or f.rolled:
            self._refresh()
            return
        try:
            f.set_advantage(self.advantage.isChecked(), self.disadvantage.isChecked())
            f.keywords = tuple(k for k, b in self.keyword_boxes.items() if b.isChecked())
            f.set_ventures(self.ventures.value())
        except IllegalOp as exc:
            self._show_reason(str(exc))
            self.ventures.blockSignals(True)
            self.ventures.setValue(f.ventures)
            self.ventures.blockSignals(False)
        self._refresh()

    def _toggle_mod(self, key: str, on: bool) -> None:
        if self.flow is not None and not self.flow.rolled:
            self.flow.set_enabled(key, on)
            self.ventures.setMaximum(max(self.flow.max_ventures(), self.flow.ventures))
            self._refresh()

    def _toggle_defense_mod(self, index: int, key: str, on: bool) -> None:
        f = self.flow
        if f is not None and f.defense_roll is None and index < len(f.defense):
            f.set_defense_enabled(index, key, on)
            self._refresh()

    # ----------------------------------------------------------------------- defense

    def _defense_choice(self) -> tuple[DefenseOption, ...]:
        chosen = [o for b, o in self._def_radios if b.isChecked() and o is not None]
        helper = self._guard_helper
        if helper is not None and helper[0].isChecked() and helper[0].isEnabled():
            chosen.append(helper[1])
        return tuple(chosen)

    def _choose(self) -> None:
        f = self.flow
        if f is None or f.defense_roll is not None:
            return
        try:
            f.choose_defense(*self._defense_choice())
        except IllegalOp as exc:
            self._show_reason(str(exc))
            f.choose_defense()
        self._refresh()

    def _build_defenses(self) -> None:
        _clear(self.def_layout)
        self._def_radios = []
        self._guard_helper = None
        plan = self.plan
        if plan is None or not plan.defenses or not self.rules.dice_pools:
            note = (
                f"{self.rules.name}: the target's TN and F are its defense."
                if not self.rules.dice_pools
                else "No opposition: a plain check."
            )
            self.def_layout.addWidget(QLabel(note))
            return
        none = QRadioButton("&No defense")
        none.setChecked(True)
        self._def_radios.append((none, None))
        self.def_layout.addWidget(none)
        none.toggled.connect(lambda _on: self._choose())
        for option in plan.defenses:
            button = QRadioButton(self._option_text(option))
            button.setEnabled(option.allowed)
            if not option.allowed:
                button.setToolTip(option.reason)
            self._def_radios.append((button, option))
            self.def_layout.addWidget(button)
            button.toggled.connect(lambda _on: self._choose())
        guards = [o for o in plan.defenses if o.via is Via.GUARD and o.allowed]
        if guards and any(o.via is not Via.GUARD and o.allowed for o in plan.defenses):
            row = QHBoxLayout()
            box = QCheckBox("…and the guard cooperates (E4, R11):")
            combo = QComboBox()
            for i, g in enumerate(guards):
                combo.addItem(self._option_text(g), i)
            row.addWidget(box)
            row.addWidget(combo, 1)
            holder = QWidget()
            holder.setLayout(row)
            self.def_layout.addWidget(holder)
            self._guard_helper = (box, guards[0])

            def changed():
                self._guard_helper = (box, guards[combo.currentData()])
                self._choose()

            combo.currentIndexChanged.connect(lambda _i: changed())
            box.toggled.connect(lambda _on: changed())

    def _option_text(self, o: DefenseOption) -> str:
        d = self.enc.combatant(o.defender)
        mods = ", ".join(m.text() for m in o.modifiers)
        text = f"{d.name}: {o.kind.label} ({VIA_WORDS[o.via]}) — {o.facet} {o.dice}"
        if mods:
            text += f"; {mods}"
        if not o.allowed:
            text += f" — {o.reason}"
        return text

    def _fill_defense_mods(self) -> None:
        _clear(self.def_mod_layout)
        f = self.flow
        shown = False
        if f is not None:
            for index, option in enumerate(f.defense):
                for m in f.defense_mods(index, option):
                    box = self._mod_box(m)
                    box.setEnabled(f.defense_roll is None)
                    box.toggled.connect(
                        lambda on, i=index, k=m.key: self._toggle_defense_mod(i, k, on)
                    )
                    self.def_mod_layout.addWidget(box)
                    shown = True
        self.def_mod_box.setVisible(shown)

    @staticmethod
    def _mod_box(m: Modifier) -> QCheckBox:
        box = QCheckBox(f"{m.text()} — {m.reason}")
        box.setChecked(m.enabled)
        return box

    # ---------------------------------------------------------------------- rolling

    def _roll_attack(self) -> None:
        f = self.flow
        if f is None:
            return
        try:
            f.roll_attack(self.source)
        except IllegalOp as exc:
            self._show_reason(str(exc))
        self._refresh()
        if f.rolled:
            nxt = self.roll_defense if self.roll_defense.isEnabled() else self.apply_button
            nxt.setFocus()

    def _roll_defense(self) -> None:
        f = self.flow
        if f is None:
            return
        try:
            if not f.defense:
                f.choose_defense(*self._defense_choice())
            f.roll_defense(self.source)
        except IllegalOp as exc:
            self._show_reason(str(exc))
        self._refresh()

    def _spend(self, kind: str) -> None:
        f = self.flow
        if f is None:
            return
        if self.rules.spend_unit is SpendUnit.WILL:
            kind = "will"
        try:
            f.spend(f.shift_exchange.turn, kind, source=self.source)
        except IllegalOp as exc:
            self._show_reason(str(exc))
        self._refresh()

    def _pass(self) -> None:
        f = self.flow
        if f is None:
            return
        try:
            f.pass_turn(f.shift_exchange.turn)
        except IllegalOp as exc:
            self._show_reason(str(exc))
        self._refresh()

    def _use_momentum(self) -> None:
        f = self.flow
        if f is None:
            return
        _label, kind, dice = MOMENTUM_CHOICES[self.mom_kind.currentIndex()]
        target = self.mom_target.currentData() or "" if kind == "marker" else ""
        try:
            f.use_momentum(Role(self.mom_side.currentData()), kind, target, dice)
        except IllegalOp as exc:
            self._show_reason(str(exc))
        self._refresh()

    def _apply(self) -> None:
        f = self.flow
        if f is None or not f.rolled:
            self._show_reason("roll the check first")
            return
        try:
            op = f.op()
        except IllegalOp as exc:
            self._show_reason(str(exc))
            return
        reason = self.doc.push_or_reason(op)
        if reason:
            self._show_reason(reason)
        else:
            self.accept()

    # ---------------------------------------------------------------------- refresh

    def _refresh(self) -> None:
        f = self.flow
        rolled = f is not None and f.rolled
        # Before the roll everything may change; the target and action even when the
        # current choice is not allowed (so the GM can pick another).
        for w in (self.target_box, self.action_box):
            w.setEnabled(not rolled)
        self.target_box.setEnabled(not rolled and bool(self.action.spec.defenses))
        for w in (
            self.facet_box,
            self.ventures,
            self.advantage,
            self.disadvantage,
            self.gm_add,
            self.gm_label,
            self.gm_dice,
        ):
            w.setEnabled(f is not None and not rolled)

        for box in self.keyword_boxes.values():
            box.setVisible(not self.rules.dice_pools)
            box.setEnabled(not rolled)
        for w in (self.ventures, self.advantage, self.disadvantage):
            w.setVisible(self.rules.dice_pools)
        if f is not None and not rolled:
            self.ventures.setMaximum(max(f.max_ventures(), f.ventures))
        self._fill_modifiers()
        if f is None:
            self.odds.setText("")
            for w in (
                self.roll_attack,
                self.roll_defense,
                self.apply_button,
                self.shift_box,
                self.mom_box,
            ):
                w.setEnabled(False)
            self.pool_label.setText("")
            self._build_defenses()
            self._defenses_built_for = None
            self._fill_defense_mods()
            return
        if not rolled and self._defenses_built_for is not self.plan:
            self._build_defenses()
            self._defenses_built_for = self.plan
        self._fill_defense_mods()
        dice, _intf = f.attack_pools()
        if not self.rules.dice_pools:
            bonus, tn, fort = f.d20_numbers()
            self.pool_label.setText(f"d20 + {bonus} against TN {tn}, F {fort}")
        else:
            extra = f.interference_total() - f.attack_pools()[1]
            self.pool_label.setText(
                f"<b>{dice}</b> dice, <b>{f.interference_total()}</b> Interference"
                + (f" ({extra} from Ventures)" if extra else "")
            )
        self._show_odds()
        self.roll_attack.setEnabled(not rolled)
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
            self.attack_text.setText(f.verdict_now().attack.describe())
        else:
            self.attack_text.setText("")
        can_defend = (
            rolled
            and self.rules.dice_pools
            and f.defense_roll is None
            and bool(self._defense_choice())
            and f.attack_succeeded()
        )
        self.roll_defense.setEnabled(can_defend)
        for button, option in self._def_radios:
            button.setEnabled(f.defense_roll is None and (option is None or option.allowed))
        self.defense_dice.set_roll(f.defense_roll)
        self.helper_dice.set_roll(f.helper_roll)
        self.helper_dice.setVisible(f.helper_roll is not None)
        self.helper_label.setVisible(f.helper_roll is not None)
        v = f.verdict_now() if rolled else None
        self.defense_text.setText(v.defense.describe() if v and v.defense else "")
        if v is not None:
            colour = "#1a7f37" if v.lands else "#b00020"
            self.verdict.setText(f"<span style='color:{colour}'>{sentence(v.explain())}</span>")
        else:
            self.verdict.setText("")
        self._refresh_shifts(rolled)
        self._refresh_momentum(v)
        self.apply_button.setEnabled(rolled)

    def _fill_modifiers(self) -> None:
        _clear(self.mod_layout)
        f = self.flow
        mods = f.modifiers if f is not None else list(self.plan.modifiers if self.plan else [])
        if not mods:
            self.mod_layout.addWidget(QLabel("None apply."))
            return
        for m in mods:
            box = self._mod_box(m)
            box.setEnabled(f is not None and not f.rolled)
            box.toggled.connect(lambda on, key=m.key: self._toggle_mod(key, on))
            self.mod_layout.addWidget(box)

    def _show_odds(self) -> None:
        f = self.flow
        if not self.rules.dice_pools:
            dist = f.degree_odds()
            parts = [f"{k.label} <b>{pct(float(v))}</b>" for k, v in dist.items() if v]
            self.odds.setText("Odds: " + " · ".join(parts))
            return
        try:
            o = f.odds()
        except IllegalOp as exc:
            self.odds.setText(str(exc))
            return
        text = (
            f"Succeeds <b>{pct(o.p_attacker_succeeds)}</b> · "
            f"Stopped <b>{pct(o.p_stopped)}</b> · "
            f"Lands <b>{pct(o.p_attack_lands)}</b> · "
            f"Momentum {o.attacker_expected_momentum:.2f}"
        )
        if f.defense or f.defense_roll is not None:
            text += f" / defense {o.defender_expected_momentum:.2f}"
        if self.rules.spend_unit is SpendUnit.WILL and len(f.defense) == 2:
            text += f"<br><i>{self.rules.name}: the odds do not count the guard's help.</i>"
        self.odds.setText(text)

    def _refresh_shifts(self, rolled: bool) -> None:
        f = self.flow

        if not rolled or not self.rules.dice_pools or f.shift_exchange.done:
            self.shift_box.setEnabled(False)
            self.shift_turn.setText(
                "Both sides are satisfied." if rolled and f.shift_exchange.done else ""
            )
            return
        self.shift_box.setEnabled(True)
        side = f.shift_exchange.turn
        if side is Role.ATTACKER:
            who = self.enc.combatant(self.attacker).name
        elif f.defense:
            who = self.enc.combatant(f.defense[0].defender).name
        else:
            who = "the defender"
        left = f.shifts_left(side)
        unit = "Will" if self.rules.spend_unit is SpendUnit.WILL else "Shifts"
        pool = "in the referee's pool" if f.payer(side) == "referee" else ""
        self.shift_turn.setText(
            f"<b>{who}</b> ({side.value}) may spend — {left} {unit} left {pool}. "
            "Spend as often as you like, then Pass when satisfied; the other side then "
            "answers."
        )
        choices = f.shift_choices(side)
        goal = "lands" if side is Role.ATTACKER else "stopped"

        def label(kind: str, title: str) -> str:
            o = choices.get(kind)
            if o is None:
                return title
            p = o.p_attack_lands if side is Role.ATTACKER else o.p_stopped
            return f"{title} ({goal} {pct(p)})"

        if self.rules.spend_unit is SpendUnit.WILL:
            self.shift_add.setText(label("will", "&Will: +2 dice"))
            self.shift_retry.setVisible(False)
            add_why = f.spend_refusal(side, "will")
        else:
            self.shift_add.setText(label("add", "&+2 dice"))
            self.shift_retry.setText(label("retry", "Re&try Fails"))
            self.shift_retry.setVisible(True)
            add_why = f.spend_refusal(side, "add")
            retry_why = f.spend_refusal(side, "retry")
            self.shift_retry.setEnabled(not retry_why)
            self.shift_retry.setToolTip(sentence(retry_why) if retry_why else "")
        self.shift_add.setEnabled(not add_why)
        self.shift_add.setToolTip(sentence(add_why) if add_why else "")

    def _refresh_momentum(self, v) -> None:
        f = self.flow
        attack = self.action.spec.attack
        self.hits.setEnabled(attack and f is not None)
        if v is None or f is None or not self.rules.dice_pools:
            self.mom_box.setEnabled(attack and f is not None)
            self.mom_use.setEnabled(False)
            self.mom_text.setText("Roll first; Momentum is spent after the result.")
            return
        self.mom_box.setEnabled(True)
        a, d = f.momentum_left(Role.ATTACKER), f.momentum_left(Role.DEFENDER)
        text = f"Momentum left: attacker {a}, defender {d}."
        if f.momentum_uses:
            spent = []
            for u in f.momentum_uses:
                who = "attacker" if u.side is Role.ATTACKER else "defender"
                if u.kind == "marker":
                    spent.append(f"{who}: {u.dice:+d} on {self.enc.combatant(u.target).name}")
                elif u.kind == "damage":
                    spent.append(f"{who}: {u.dice:+d} damage")
                else:
                    spent.append(f"{who}: a stunt")
            text += " Spent: " + "; ".join(spent) + "."
        self.mom_text.setText(text)
        self.mom_use.setEnabled(a > 0 or d > 0)
