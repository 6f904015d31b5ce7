"""The contested check: assembled from the model, exact odds live, dice, Shifts, one Op.

Everything rules-related comes from ``afdesk.encounter.contest`` (what modifiers apply and
why, which defenses are open) and ``ContestFlow`` (rolling, Shifts, Momentum); the dialog
only shows it and lets the GM choose.
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

from afdesk.encounter.combatant import opposed
from afdesk.encounter.contest import Action, DefenseOption, Via, assemble
from afdesk.encounter.contest_flow import ContestFlow
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import distance, neighbours
from afdesk.gui.dice_view import DiceView
from afdesk.gui.document import EncounterDocument, _sentence
from afdesk.rules import classic, d20
from afdesk.rules.contest import Side
from afdesk.rules.d20 import KEYWORDS

ATTACKS = (Action.HACK, Action.AIM, Action.TAUNT)


def pct(p: float) -> str:
    p = min(max(p, 0.0), 1.0)
    if 0 < p < 0.001:
        return "<0.1%"
    if 0.999 < p < 1:
        return ">99.9%"
    return f"{100 * p:.1f}%"


class ContestDialog(QDialog):
    """Assemble, roll and resolve one check; Apply pushes one ResolveContest Op."""

    def __init__(
        self,
        doc: EncounterDocument,
        attacker: str,
        action: Action,
        target: str = "",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.doc = doc
        self.enc = doc.encounter
        self.attacker = attacker
        self.action = Action(action)
        self.flow: ContestFlow | None = None
        self.source = None
        """The dice source for every roll here; None: a fresh seeded RandomSource."""
        self.setWindowTitle(f"{self.action.label} — {self.enc.combatant(attacker).name}")
        self.setMinimumWidth(760)
        self._build()
        self._fill_targets(target)
        self._replan()

    # --------------------------------------------------------------------------- build

    def _build(self) -> None:
        root = QVBoxLayout(self)
        head = QGridLayout()
        self.attacker_label = QLabel(f"<b>{self.enc.combatant(self.attacker).name}</b>")
        self.action_box = QComboBox()
        for a in Action:
            if a in (Action.HUSTLE,):
                continue
            self.action_box.addItem(a.label, a)
        self.action_box.setCurrentIndex(self.action_box.findData(self.action))
        self.target_box = QComboBox()
        self.facet_box = QComboBox()
        c = self.enc.combatant(self.attacker)
        for f in c.facets:
            self.facet_box.addItem(f"{f.name} {f.score}", f.name)
        head.addWidget(QLabel("Who"), 0, 0)
        head.addWidget(self.attacker_label, 0, 1)
        for col, (text, widget) in enumerate(
            (("&Does", self.action_box), ("&To", self.target_box), ("&Facet", self.facet_box))
        ):
            label = QLabel(text)
            label.setBuddy(widget)
            head.addWidget(label, 0, 2 + 2 * col)
            head.addWidget(widget, 0, 3 + 2 * col)
        head.setColumnStretch(5, 1)
        root.addLayout(head)
        self.reason = QLabel()
        self.reason.setWordWrap(True)
        self.reason.setStyleSheet("color: #b00020; font-weight: bold;")
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
        self.gm_add = QPushButton("&Add modifier")
        gm.addWidget(self.gm_label, 1)
        gm.addWidget(QLabel("dice"))
        gm.addWidget(self.gm_dice)
        gm.addWidget(self.gm_add)
        root.addLayout(gm)

        opts = QHBoxLayout()
        self.ventures = QSpinBox()
        self.ventures.setRange(0, 3)
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
        self.defense_text = QLabel()
        dice.addWidget(self.roll_attack, 0, 0)
        dice.addWidget(self.attack_dice, 0, 1)
        dice.addWidget(self.attack_text, 0, 2)
        dice.addWidget(self.roll_defense, 1, 0)
        dice.addWidget(self.defense_dice, 1, 1)
        dice.addWidget(self.defense_text, 1, 2)
        self.helper_label = QLabel("the guard helping:")
        dice.addWidget(self.helper_label, 2, 0, Qt.AlignmentFlag.AlignRight)
        dice.addWidget(self.helper_dice, 2, 1)
        dice.setColumnStretch(1, 1)
        root.addLayout(dice)
        self.verdict = QLabel()
        self.verdict.setStyleSheet("font-size: 18px; font-weight: bold; padding: 4px;")
        root.addWidget(self.verdict)

        self.shift_box = QGroupBox("Shifts (R10): the side on turn spends or passes")
        outer = QVBoxLayout(self.shift_box)
        self.shift_turn = QLabel()
        outer.addWidget(self.shift_turn)
        sl = QHBoxLayout()
        outer.addLayout(sl)
        self.shift_add = QPushButton("&+2 dice")
        self.shift_retry = QPushButton("Re&try Fails")
        self.shift_pass = QPushButton("&Pass")
        sl.addStretch(1)
        sl.addWidget(self.shift_add)
        sl.addWidget(self.shift_retry)
        sl.addWidget(self.shift_pass)
        root.addWidget(self.shift_box)

        self.mom_box = QGroupBox("Momentum (R12)")
        ml = QHBoxLayout(self.mom_box)
        self.mom_text = QLabel()
        self.mom_side = QComboBox()
        self.mom_target = QComboBox()
        self.mom_kind = QComboBox()
        self.mom_kind.addItem("+2 on the next check", 2)
        self.mom_kind.addItem("-2 on the next check", -2)
        self.mom_kind.addItem("+1/-1 damage", 0)
        self.mom_kind.addItem("stunt", 1)
        self.mom_use = QPushButton("&Spend")
        for w in (self.mom_text, self.mom_side, self.mom_kind, self.mom_target, self.mom_use):
            ml.addWidget(w)
        root.addWidget(self.mom_box)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Apply | QDialogButtonBox.StandardButton.Cancel
        )
        self.apply_button = self.buttons.button(QDialogButtonBox.StandardButton.Apply)
        self.apply_button.setText("A&pply to the encounter")
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
        self.apply_button.clicked.connect(self._apply)
        self.buttons.rejected.connect(self.reject)

    # ------------------------------------------------------------------------ planning

    def _fill_targets(self, preferred: str = "") -> None:
        self.target_box.blockSignals(True)
        self.target_box.clear()
        a = self.enc.combatant(self.attacker)
        action = self.action
        if action in (Action.HIDE, Action.CHECK):
            self.target_box.addItem("(no target)", "")
        candidates = []
        for c in self.enc.roster():
            if c.id == a.id or not c.on_map:
                continue
            if action is Action.LEAVE_OVERLAP and (c.area != a.area or not opposed(a.side, c.side)):
                continue
            if action is Action.LOOK and not c.hidden:
                continue
            d = distance(a.area, c.area) if a.area else 99
            candidates.append((not opposed(a.side, c.side), d, c.name, c.id))
        for _foe, d, name, cid in sorted(candidates):
            self.target_box.addItem(f"{name} ({d} away)", cid)
        if preferred:
            i = self.target_box.findData(preferred)
            if i >= 0:
                self.target_box.setCurrentIndex(i)
        self.target_box.setEnabled(action not in (Action.HIDE,))
        self.target_box.blockSignals(False)

    def _action_changed(self) -> None:
        self.action = self.action_box.currentData()
        self._fill_targets(self.target_box.currentData() or "")
        self.facet_box.blockSignals(True)
        self.facet_box.setCurrentIndex(-1)
        self.facet_box.blockSignals(False)
        self._replan()

    def _replan(self, keep_facet: bool = False) -> None:
        target = self.target_box.currentData() or ""
        facet = self.facet_box.currentData() if keep_facet else ""
        if self.action is Action.CHECK and not facet:
            facet = self.facet_box.currentData() or self.facet_box.itemData(0) or ""
        self.flow = None
        try:
            plan = assemble(self.enc, self.attacker, self.action, target, facet or "")
        except IllegalOp as exc:
            self._show_reason(str(exc))
            self._refresh()
            return
        if not keep_facet:
            i = self.facet_box.findData(plan.facet)
            self.facet_box.blockSignals(True)
            self.facet_box.setCurrentIndex(i)
            self.facet_box.blockSignals(False)
        if not plan.allowed:
            self._show_reason(plan.reason)
            self.plan = plan
            self._refresh()
            return
        self._show_reason(" ".join(plan.notes))
        self.reason.setStyleSheet("color: #7a4b00;")
        self.plan = plan
        self.flow = ContestFlow(self.enc, plan)
        self._extra_fields()
        self._options_changed()

    def _show_reason(self, text: str) -> None:
        self.reason.setStyleSheet("color: #b00020; font-weight: bold;")
        self.reason.setText(_sentence(text) if text else "")

    def _extra_fields(self) -> None:
        while self.extra_layout.rowCount():
            self.extra_layout.removeRow(0)
        a = self.enc.combatant(self.attacker)
        self.decoy_boxes: list[QComboBox] = []
        self.look_box = None
        if self.action is Action.HIDE and a.area is not None:
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
        if self.action is Action.LOOK and self.plan.target:
            t = self.enc.combatant(self.plan.target)
            self.look_box = QComboBox()
            self.look_box.addItem("discover details (no decoy)", None)
            for area in t.decoys:
                self.look_box.addItem(f"decoy at ({area[0]}, {area[1]})", area)
            if t.decoys:
                self.look_box.setCurrentIndex(1)
            self.look_box.currentIndexChanged.connect(self._look_changed)
            self.extra_layout.addRow("Look at", self.look_box)
            self._look_changed()
        self.extra_box.setVisible(self.extra_layout.rowCount() > 0)

    def _decoys_changed(self) -> None:
        if self.flow is not None:
            self.flow.decoys = tuple(b.currentData() for b in self.decoy_boxes)

    def _look_changed(self) -> None:
        if self.flow is not None and self.look_box is not None:
            self.flow.decoy = self.look_box.currentData()

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
            self._refresh()

    # ----------------------------------------------------------------------- defense

    def _defense_choice(self) -> tuple[DefenseOption, ...]:
        chosen = []
        for button, option in getattr(self, "_def_radios", []):
            if button.isChecked() and option is not None:
                chosen.append(option)
        helper = getattr(self, "_guard_helper", None)
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
        while self.def_layout.count():
            item = self.def_layout.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        self._def_radios = []
        self._guard_helper = None
        plan = getattr(self, "plan", None)
        if plan is None or not plan.defenses or self.enc.ruleset == d20.NAME:
            note = (
                "d20-degrees: the target's TN and F are its defense."
                if self.enc.ruleset == d20.NAME
                else "No opposition: a plain check."
            )
            self.def_layout.addWidget(QLabel(note))
            return
        none = QRadioButton("&No defense")
        none.setChecked(True)
        self._def_radios.append((none, None))
        self.def_layout.addWidget(none)
        for option in plan.defenses:
            text = self._option_text(option)
            button = QRadioButton(text)
            button.setEnabled(option.allowed)
            if not option.allowed:
                button.setToolTip(option.reason)
            self._def_radios.append((button, option))
            self.def_layout.addWidget(button)
            button.toggled.connect(lambda _on: self._choose())
        none.toggled.connect(lambda _on: self._choose())
        guards = [o for o in plan.defenses if o.via is Via.GUARD and o.allowed]
        if guards and any(o.via is not Via.GUARD and o.allowed for o in plan.defenses):
            row = QHBoxLayout()
            box = QCheckBox("…and the guard cooperates (E4, R11):")
            combo = QComboBox()
            for g in guards:
                combo.addItem(self._option_text(g), g)
            row.addWidget(box)
            row.addWidget(combo, 1)
            holder = QWidget()
            holder.setLayout(row)
            self.def_layout.addWidget(holder)

            self._guard_helper = (box, guards[0])

            def changed():
                self._guard_helper = (box, combo.currentData())
                self._choose()

            combo.currentIndexChanged.connect(lambda _i: changed())
            box.toggled.connect(lambda _on: changed())

    def _option_text(self, o: DefenseOption) -> str:
        d = self.enc.combatant(o.defender)
        mods = ", ".join(m.text() for m in o.modifiers)
        via = {
            Via.GUARD: "guard",
            Via.DEFENSE: "defense",
            Via.FEND: "Fend",
            Via.QUIP: "Quip",
            Via.CONTEST: "contest",
        }[o.via]
        text = f"{d.name}: {o.kind.label} ({via}) — {o.facet} {o.dice}"
        if mods:
            text += f"; {mods}"
        if not o.allowed:
            text += f" — {o.reason}"
        return text

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
        side = f.exchange.turn
        if self.enc.ruleset == classic.NAME:
            kind = "will"
        try:
            f.spend(side, kind, source=self.source)
        except IllegalOp as exc:
            self._show_reason(str(exc))
        self._refresh()

    def _pass(self) -> None:
        f = self.flow
        if f is None:
            return
        try:
            f.pass_turn(f.exchange.turn)
        except IllegalOp as exc:
            self._show_reason(str(exc))
        self._refresh()

    def _use_momentum(self) -> None:
        f = self.flow
        if f is None:
            return
        side = self.mom_side.currentData()
        value = self.mom_kind.currentData()
        kind = {2: "marker", -2: "marker", 0: "damage", 1: "stunt"}[value]
        dice = value if kind == "marker" else 0
        try:
            f.use_momentum(side, kind, self.mom_target.currentData() or "", dice)
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
        messages: list[str] = []
        self.doc.refused.connect(messages.append)
        try:
            ok = self.doc.push(op)
        finally:
            self.doc.refused.disconnect(messages.append)
        if ok:
            self.accept()
        else:
            self._show_reason(messages[-1] if messages else "refused")

    # ---------------------------------------------------------------------- refresh

    def _refresh(self) -> None:
        f = self.flow
        rolled = f is not None and f.rolled
        # Before the roll everything may change; the target and action even when the
        # current choice is not allowed (so the GM can pick another).
        for w in (self.target_box, self.action_box):
            w.setEnabled(not rolled)
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
        ruleset = self.enc.ruleset
        for box in self.keyword_boxes.values():
            box.setVisible(ruleset == d20.NAME)
            box.setEnabled(not rolled)
        for w in (self.ventures, self.advantage, self.disadvantage):
            w.setVisible(ruleset != d20.NAME)
        self.ventures.setMaximum(3 if ruleset == classic.NAME else 2)
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
            return
        if not rolled and getattr(self, "_defenses_built_for", None) is not self.plan:
            self._build_defenses()
            self._defenses_built_for = self.plan
        dice, intf = f.attack_pools()
        if ruleset == d20.NAME:
            bonus, tn, fort = f.d20_numbers()
            self.pool_label.setText(f"d20 + {bonus} against TN {tn}, F {fort}")
        else:
            extra = (2 if ruleset != classic.NAME else 1) * f.ventures
            self.pool_label.setText(
                f"<b>{dice}</b> dice, <b>{intf + extra}</b> Interference"
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
            self.attack_text.setText(
                f"{f.d20.describe()}" + (f" — {'; '.join(riders)}" if riders else "")
            )
        elif f.attack is not None:
            self.attack_text.setText(f.verdict_now().attack.describe())
        else:
            self.attack_text.setText("")
        can_defend = (
            rolled
            and ruleset != d20.NAME
            and f.defense_roll is None
            and bool(self._defense_choice())
            and f.attack_succeeded()
        )
        self.roll_defense.setEnabled(can_defend)
        for button, _o in getattr(self, "_def_radios", []):
            button.setEnabled(f.defense_roll is None and (_o is None or _o.allowed))
        self.defense_dice.set_roll(f.defense_roll)
        self.helper_dice.set_roll(f.helper_roll)
        self.helper_dice.setVisible(f.helper_roll is not None)
        self.helper_label.setVisible(f.helper_roll is not None)
        v = f.verdict_now() if rolled else None
        if v is not None and v.defense is not None:
            self.defense_text.setText(v.defense.describe())
        else:
            self.defense_text.setText("")
        if v is not None:
            colour = "#1a7f37" if v.lands else "#b00020"
            self.verdict.setText(f"<span style='color:{colour}'>{v.explain().capitalize()}</span>")
        else:
            self.verdict.setText("")
        self._refresh_shifts(rolled)
        self._refresh_momentum(v)
        self.apply_button.setEnabled(rolled)

    def _fill_modifiers(self) -> None:
        while self.mod_layout.count():
            item = self.mod_layout.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        f = self.flow
        plan = getattr(self, "plan", None)
        mods = f.modifiers if f is not None else list(plan.modifiers if plan else [])
        if not mods:
            self.mod_layout.addWidget(QLabel("None apply."))
            return
        for m in mods:
            box = QCheckBox(f"{m.text()} — {m.reason}")
            box.setChecked(m.enabled)
            box.setEnabled(f is not None and not f.rolled)
            box.toggled.connect(lambda on, key=m.key: self._toggle_mod(key, on))
            self.mod_layout.addWidget(box)

    def _show_odds(self) -> None:
        f = self.flow
        if self.enc.ruleset == d20.NAME:
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
        if self.enc.ruleset == classic.NAME and len(f.defense) == 2:
            text += "<br><i>af-classic: the odds do not count the guard's help.</i>"
        self.odds.setText(text)

    def _refresh_shifts(self, rolled: bool) -> None:
        f = self.flow
        ruleset = self.enc.ruleset
        if not rolled or ruleset == d20.NAME or f.exchange.done:
            self.shift_box.setEnabled(False)
            self.shift_turn.setText(
                "Both sides are satisfied." if rolled and f.exchange.done else ""
            )
            return
        self.shift_box.setEnabled(True)
        side = f.exchange.turn
        who = (
            self.enc.combatant(self.attacker).name
            if side is Side.ATTACKER
            else self.enc.combatant(f.defense[0].defender).name
            if f.defense
            else "the defender"
        )
        left = f.shifts_left(side)
        payer = f.payer(side)
        unit = "Will" if ruleset == classic.NAME else "Shifts"
        pool = "the referee's pool" if payer == "referee" else who
        self.shift_turn.setText(f"<b>{who}</b> ({side.value}) — {left} {unit} left in {pool}")
        choices = f.shift_choices(side)
        lands = "lands" if side is Side.ATTACKER else "stopped"

        def label(kind: str, title: str) -> str:
            o = choices.get(kind)
            if o is None:
                return title
            p = o.p_attack_lands if side is Side.ATTACKER else o.p_stopped
            return f"{title} ({lands} {pct(p)})"

        if ruleset == classic.NAME:
            self.shift_add.setText(label("will", "&Will: +2 dice"))
            self.shift_retry.setVisible(False)
        else:
            self.shift_add.setText(label("add", "&+2 dice"))
            self.shift_retry.setText(label("retry", "Re&try Fails"))
            self.shift_retry.setVisible(True)
        can_spend = left > 0 and (side is Side.ATTACKER or f.defense_roll is not None)
        self.shift_add.setEnabled(can_spend and bool(choices))
        self.shift_retry.setEnabled(can_spend and "retry" in choices)

    def _refresh_momentum(self, v) -> None:
        f = self.flow
        if v is None or f is None or self.enc.ruleset == d20.NAME:
            self.mom_box.setEnabled(False)
            self.mom_text.setText("")
            return
        a = f.momentum(Side.ATTACKER)
        d = f.momentum(Side.DEFENDER)
        used_a = sum(1 for u in f.momentum_uses if u.side is Side.ATTACKER)
        used_d = sum(1 for u in f.momentum_uses if u.side is Side.DEFENDER)
        self.mom_text.setText(f"Attacker {a - used_a} left · defender {d - used_d} left")
        self.mom_box.setEnabled(a - used_a > 0 or d - used_d > 0)
        if self.mom_side.count() == 0:
            self.mom_side.addItem("attacker's", Side.ATTACKER)
            self.mom_side.addItem("defender's", Side.DEFENDER)
            for c in self.enc.roster():
                if c.on_map:
                    self.mom_target.addItem(c.name, c.id)
        if f.momentum_uses:
            self.mom_text.setText(
                self.mom_text.text()
                + " · spent: "
                + ", ".join(
                    f"{u.kind} {u.dice:+d} on {self.enc.combatant(u.target).name}"
                    if u.kind == "marker"
                    else u.kind
                    for u in f.momentum_uses
                )
            )
