"""The contested check: assembled from the model, exact odds live, dice, Shifts, one Op.

Everything rules-related comes from ``afdesk.encounter.contest.assembly`` (what modifiers apply and
why, which defenses are open, who can be targeted) and ``ContestFlow`` (rolling, Shifts,
Momentum, what may be spent now, who pays); the dialog composes one panel per part around
the flow and only shows it and lets the GM choose.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.contest.assembly import CheckKind, Plan, assemble, candidates
from afdesk.encounter.contest.flow import ContestFlow
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.geometry import distance
from afdesk.encounter.modes import current_mode
from afdesk.gui import modes, screens
from afdesk.gui.dialogs.contest.common import Panel, reading_order
from afdesk.gui.dialogs.contest.defense import DefensePanel
from afdesk.gui.dialogs.contest.defense_options import DefenseOptionsPanel
from afdesk.gui.dialogs.contest.dice import DicePanel
from afdesk.gui.dialogs.contest.extras import ExtrasPanel
from afdesk.gui.dialogs.contest.modifiers import ModifiersPanel, OptionsPanel
from afdesk.gui.dialogs.contest.overlap import OverlapPanel
from afdesk.gui.dialogs.contest.shifts import MomentumPanel, ShiftsPanel
from afdesk.gui.dialogs.contest.sixes import SixesPanel
from afdesk.gui.dialogs.contest.weapon import WeaponBox, zero_hits_landing, zero_hits_question
from afdesk.gui.document import EncounterDocument
from afdesk.gui.odds_worker import OddsWorker
from afdesk.gui.push import push
from afdesk.gui.style import fill_style, meaning_style
from afdesk.gui.text import pct, sentence
from afdesk.rules.dice import DiceSource
from afdesk.rules.odds import ContestOdds
from afdesk.rules.rulesets import ruleset_named


def notes_text(notes) -> str:
    """The plan's notes one after another, each a sentence of its own: "… dodged (E8)."
    then "Dock Guard 1 tries …" (they ran together)."""
    notes = [n.strip() for n in notes if n.strip()]
    ends = [n if n.endswith((".", "!", "?")) else n + "." for n in notes[:-1]]
    return " ".join(ends + notes[-1:])


class ContestDialog(QDialog):
    """Assemble, roll and resolve one check; Apply pushes one ResolveContest Op.

    Panels: ``modifiers``, ``options`` (Ventures, Advantage, keywords), ``extras`` (decoys),
    ``defense``, ``defense_options`` (the defense's Ventures, Advantage, GM modifiers),
    ``dice``, ``sixes`` (R3), ``shifts`` and ``momentum``.
    """

    targetChanged = Signal()
    """Another target was picked, and ``plan`` is worked out for it: the map, told of the
    dialog when it opens, follows this to redraw the attack line (E13)."""

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
        self.plan: Plan | None = None
        self.flow: ContestFlow | None = None
        self.source: DiceSource | None = None
        self._rolls_seen = (False, False)
        """(check rolled, defense rolled) when last shown: a new roll scrolls to the dice."""
        """The dice source for every roll here; None: a fresh seeded RandomSource."""
        self.setWindowTitle(f"{self.action.label} — {self.enc.combatant(attacker).name}")
        self.setMinimumWidth(780)
        self._dice_seen: tuple[bool, bool, int, int] = (False, False, 0, 0)
        self._zero_hits_asked: tuple[int, int] | None = None
        """(damage, Momentum spent) when the GM was asked about a 0-hit landing."""
        self._build()
        self.weapon_box.fill(self.enc.combatant(attacker), self.action)
        self._fill_targets(target)
        self._replan()
        screens.fit_dialog(self)

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
        self.weapon_box = WeaponBox()
        weapon_label = QLabel("W&ith")
        weapon_label.setBuddy(self.weapon_box)
        head.addWidget(weapon_label, 1, 2)
        head.addWidget(self.weapon_box, 1, 3, 1, 5)
        root.addLayout(head)
        self.reason = QLabel()
        self.reason.setWordWrap(True)
        root.addWidget(self.reason)

        self.modifiers = ModifiersPanel()
        self.options = OptionsPanel(self.rules)
        self.extras = ExtrasPanel(self.enc)
        step = modes.screens_for(self.enc.mode).check_step
        self.step = step(self.enc, lambda: self.source) if step is not None else None
        """The mode's own step before the attack's dice (an infiltration's perception, N7),
        or None."""
        self.defense = DefensePanel(self.enc, self.rules)
        self.defense_options = DefenseOptionsPanel(self.rules)
        self.odds = QLabel()
        self.odds.setTextFormat(Qt.TextFormat.RichText)
        self.odds.setStyleSheet(fill_style("panel", self.odds, "font-size: 15px; padding: 6px;"))
        self.odds_worker = OddsWorker(self)
        """Computes the odds off the UI thread; its ``compute`` is the tests' seam."""
        self.odds_worker.ready.connect(self._odds_ready)
        self.dice = DicePanel(lambda: self.source)
        self.dice.defense_choice = self.defense.choice
        self.sixes = SixesPanel(self.enc, lambda: self.source)
        self.shifts = ShiftsPanel(self.enc, lambda: self.source)
        self.momentum = MomentumPanel(self.enc)
        self.overlap = OverlapPanel(self.enc, lambda: self.source)
        # The panels scroll; the header, the odds and the action buttons stay in view
        # (the dialog fits a 1280x720 screen).
        body = QWidget()
        panels = QVBoxLayout(body)
        panels.setContentsMargins(0, 0, 0, 0)
        for w in (self.modifiers, self.options, self.extras, self.step):
            if w is not None:
                panels.addWidget(w)
        for w in (self.defense, self.defense_options):
            panels.addWidget(w)
        for w in (self.dice, self.overlap, self.sixes, self.shifts, self.momentum):
            panels.addWidget(w)
        panels.addStretch(1)
        self.scroll = screens.scrolled(body)
        self.scroll.setObjectName("dialogScroll")
        self.scroll.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # its controls are the Tab stops
        root.addWidget(self.scroll, 1)
        root.addWidget(self.odds)

        # One fixed row, outside the scrolling part, holds every action button: rolling
        # scrolls the dice into view but never moves a button from under the mouse.
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Apply | QDialogButtonBox.StandardButton.Cancel
        )
        self.apply_button = self.buttons.button(QDialogButtonBox.StandardButton.Apply)
        self.apply_button.setText("&Apply to the encounter")
        self.cancel_button = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
        self.button_row = QWidget()
        self.button_row.setObjectName("contestButtons")
        row = QHBoxLayout(self.button_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.dice.roll_attack)
        row.addWidget(self.dice.roll_defense)
        row.addStretch(1)
        row.addWidget(self.buttons)
        root.addWidget(self.button_row)

        self.action_box.currentIndexChanged.connect(self._action_changed)
        self.target_box.currentIndexChanged.connect(lambda _i: self._replan())
        self.target_box.currentIndexChanged.connect(lambda _i: self.targetChanged.emit())
        self.target_box.currentIndexChanged.connect(
            lambda _i: self.target_box.setToolTip(self.target_box.currentText())
        )
        self.facet_box.currentIndexChanged.connect(lambda _i: self._replan(keep_facet=True))
        self.weapon_box.currentIndexChanged.connect(lambda _i: self._replan(keep_facet=True))
        for panel in self.panels():
            panel.changed.connect(self._refresh)
            panel.refused.connect(self._show_reason)
        if self.step is not None:
            self.step.decided.connect(self._step_decided)
        self.dice.roll_attack.clicked.connect(self._after_roll)
        self.apply_button.clicked.connect(self._apply)
        self.buttons.rejected.connect(self.reject)

    def panels(self) -> tuple[Panel, ...]:
        return (
            self.modifiers,
            self.options,
            self.extras,
            *((self.step,) if self.step is not None else ()),
            self.defense,
            self.defense_options,
            self.dice,
            self.overlap,
            self.sixes,
            self.shifts,
            self.momentum,
        )

    # ------------------------------------------------------------------------ planning

    def _fill_targets(self, preferred: str = "") -> None:
        self.target_box.blockSignals(True)
        self.target_box.clear()
        a = self.enc.combatant(self.attacker)
        spec = self.action.spec
        own = current_mode(self.enc).check_targets(self.enc, self.attacker, self.action)
        if not spec.takes_target:
            self.target_box.addItem("(no target)", "")
        elif own is not None:  # the mode's own (a dispute's audience, P4a)
            for label, cid, why in own:
                self.target_box.addItem(label + (f" — refused: {why}" if why else ""), cid)
        else:
            for c in candidates(self.enc, self.attacker, self.action):
                assert a.area is not None and c.area is not None
                self.target_box.addItem(f"{c.name} ({distance(a.area, c.area)} away)", c.id)
        if preferred:
            i = self.target_box.findData(preferred)
            if i >= 0:
                self.target_box.setCurrentIndex(i)
        for i in range(self.target_box.count()):  # a long name or reason, whole (P4b)
            text = self.target_box.itemText(i)
            self.target_box.setItemData(i, text, Qt.ItemDataRole.ToolTipRole)
        self.target_box.setToolTip(self.target_box.currentText())
        self.target_box.setEnabled(spec.takes_target)
        self.target_box.blockSignals(False)

    def _action_changed(self) -> None:
        self.action = CheckKind(self.action_box.currentData())
        self.setWindowTitle(f"{self.action.label} — {self.enc.combatant(self.attacker).name}")
        self._fill_targets(self.target_box.currentData() or "")
        self.weapon_box.fill(self.enc.combatant(self.attacker), self.action)
        self.facet_box.blockSignals(True)
        self.facet_box.setCurrentIndex(-1)
        self.facet_box.blockSignals(False)
        self._replan()

    def _replan(self, keep_facet: bool = False) -> None:
        target = self.target_box.currentData() or ""
        facet = self.facet_box.currentData() if keep_facet else ""
        if self.action is CheckKind.CHECK and not facet:
            facet = self.facet_box.currentData() or self.facet_box.itemData(0) or ""
        self._bind(None)
        self.plan = None
        if self.step is not None:
            self.step.show_plan(None)
        try:
            weapon = self.weapon_box.weapon()
            plan = assemble(self.enc, self.attacker, self.action, target, facet or "", weapon)
        except IllegalOp as exc:
            self._show_reason(str(exc))
            self._refresh()
            return
        self.plan = plan
        if self.step is not None:
            self.step.show_plan(plan if plan.allowed else None)
        if not keep_facet:
            i = self.facet_box.findData(plan.facet)
            self.facet_box.blockSignals(True)
            self.facet_box.setCurrentIndex(i)
            self.facet_box.blockSignals(False)
        if not plan.allowed:
            self._show_reason(plan.reason)
            self._refresh()
            return
        self._show_reason(notes_text(plan.notes), note=True)
        self._bind(ContestFlow(self.enc, plan))
        self.momentum.reset()
        self.extras.show_plan(self.attacker, self.action, plan)
        self.options.apply()

    def _bind(self, flow: ContestFlow | None) -> None:
        self.flow = flow
        for panel in self.panels():
            panel.bind(flow)

    def _show_reason(self, text: str, note: bool = False) -> None:
        kind, extra = ("caution", "") if note else ("error", "font-weight: bold;")
        self.reason.setStyleSheet(meaning_style(kind, self.reason, extra))
        self.reason.setText(sentence(text) if text else "")

    # ---------------------------------------------------------------------- actions

    def _bring_dice_into_view(self) -> None:
        """After a roll: the dice, the verdict and what may be spent now come into view."""
        self.scroll.ensureWidgetVisible(self.momentum, 0, 0)
        self.scroll.ensureWidgetVisible(self.dice, 0, 0)

    def _after_roll(self) -> None:
        f = self.flow
        if f is not None and f.rolled:
            nxt = self.dice.roll_defense if self.dice.roll_defense.isEnabled() else None
            (nxt or self.apply_button).setFocus()

    def _step_decided(self) -> None:
        """The mode's step is decided (a perception rolled, N7): the attack's defenses
        follow from it."""
        f = self.flow
        if self.step is None or f is None or self.plan is None:
            return
        self.plan = f.plan = self.step.plan_after(self.plan)
        self._show_reason(notes_text(self.plan.notes), note=True)
        self._refresh()

    def _apply(self) -> None:
        f = self.flow
        if f is None or not f.rolled:
            self._show_reason("roll the check first")
            return
        if f.defense and f.defense_roll is None:
            # A defense chosen but not rolled would be dropped without a word (E4).
            self._show_reason(
                "Roll the defense first, or pick No defense: the chosen defense is not "
                "rolled yet (E4)"
            )
            return
        try:
            op = f.op()
        except IllegalOp as exc:
            self._show_reason(str(exc))
            return
        if self.step is not None:  # what the mode's step decided goes with it (N7)
            op = self.step.op_for(op)
        if zero_hits_landing(self.enc, f):
            asked = (f.hits, len(f.momentum_uses))
            if self._zero_hits_asked != asked:
                # A landed attack that would do 0 hits asks first.
                self._zero_hits_asked = asked
                self._show_reason(zero_hits_question(self.enc, f))
                self.apply_button.setText("&Apply with 0 hits")
                return
        if push(self.doc, op, beside=lambda reason: reason and self._show_reason(reason)):
            self.accept()

    # ---------------------------------------------------------------------- refresh

    def _refresh(self) -> None:
        self._refresh_panels()
        self._set_tab_order()

    def _refresh_panels(self) -> None:
        f = self.flow
        rolled = f is not None and f.rolled
        # Before the roll everything may change; the target and action even when the
        # current choice is not allowed (so the GM can pick another).
        self.action_box.setEnabled(not rolled)
        self.weapon_box.setEnabled(
            not rolled
            and self.action.spec.attack
            and bool(self.enc.combatant(self.attacker).attacks)
        )
        self.target_box.setEnabled(not rolled and self.action.spec.takes_target)
        self.facet_box.setEnabled(f is not None and not rolled)
        self.options.refresh()
        mods = f.modifiers if f is not None else list(self.plan.modifiers if self.plan else [])
        self.modifiers.show_modifiers(mods, editable=not rolled)
        if self.step is not None:
            self.step.refresh()
        self.defense.show_plan(self.plan, rolled)
        self.defense_options.refresh()
        self.dice.refresh()
        self.overlap.refresh()
        if f is None:
            self.odds.setText("")
            for w in (self.apply_button, self.shifts.box, self.sixes.box, self.momentum.box):
                w.setEnabled(False)
            return
        self._show_odds(f)
        rolls = (f.rolled, f.defense_roll is not None)
        if rolls != self._rolls_seen:
            self._rolls_seen = rolls
            if f.rolled:
                self._bring_dice_into_view()
        dice = (*rolls, len(f.spends), len(f.also))
        if dice != self._dice_seen:
            # New dice on the table: a refusal of earlier typed faces no longer applies.
            self._dice_seen = dice
            self._show_reason(notes_text(f.plan.notes), note=True)
        self.sixes.refresh()
        self.shifts.refresh()
        self.momentum.refresh(self.action, f.verdict_now() if rolled else None)
        self.apply_button.setEnabled(rolled)
        if f is not None and self._zero_hits_asked not in (None, (f.hits, len(f.momentum_uses))):
            self._zero_hits_asked = None
            self.apply_button.setText("&Apply to the encounter")

    def tab_chain(self) -> list[QWidget]:
        """The focus chain, as the eye reads the dialog: the header, each panel top to
        bottom ("No defense" before the defenses), then the button row left to right."""
        head = [self.action_box, self.target_box, self.facet_box, self.weapon_box]
        body = reading_order(self.scroll.widget())
        buttons = [self.dice.roll_attack, self.dice.roll_defense]
        buttons += [self.apply_button, self.cancel_button]
        return head + body + buttons

    def _set_tab_order(self) -> None:
        """The one place the dialog's tab order is set (panels rebuild their choices, so
        it is set again after each refresh)."""
        chain = self.tab_chain()
        for first, second in pairwise(chain):
            QWidget.setTabOrder(first, second)

    def _show_odds(self, f: ContestFlow) -> None:
        """Ask for the odds of what is on screen; they are computed off the UI thread and
        shown by :meth:`_odds_ready` (odds never freeze the table)."""
        try:
            if self.rules.dice_pools:
                query: Callable[[], object] = f.odds_query()
            else:
                query = f.degree_odds_query()
        except IllegalOp as exc:
            self.odds_worker.request(lambda: None)  # drops any odds still on their way
            self.odds.setText(str(exc))
            return
        context = (
            bool(f.defense or f.defense_roll is not None),
            f.odds_leave_out_guard_help,
        )
        self.odds_worker.request(query, context)
        self.odds.setText("Odds: <i>computing…</i>")

    def _odds_ready(self, _request: int, result: object, context: object) -> None:
        if isinstance(result, Exception):
            self.odds.setText(sentence(str(result)))
            return
        if result is None:
            return
        if isinstance(result, dict):  # d20 degrees
            parts = [f"{k.label} <b>{pct(float(v))}</b>" for k, v in result.items() if v]
            self.odds.setText("Odds: " + " · ".join(parts))
            return
        assert isinstance(result, ContestOdds) and isinstance(context, tuple)
        has_defense, leave_out_guard = context
        o = result
        text = (
            f"Succeeds <b>{pct(o.p_attacker_succeeds)}</b> · "
            f"Stopped <b>{pct(o.p_stopped)}</b> · "
            f"Lands <b>{pct(o.p_attack_lands)}</b> · "
            f"Momentum {o.attacker_expected_momentum:.2f}"
        )
        if has_defense:
            text += f" / defense {o.defender_expected_momentum:.2f}"
        if leave_out_guard:
            text += f"<br><i>{self.rules.name}: the odds do not count the guard's help.</i>"
        self.odds.setText(text)

    def done(self, result: int) -> None:
        """Closing: drop odds still waiting and let a running query finish."""
        self.odds_worker.shutdown()
        self.shifts.odds_worker.shutdown()
        self.sixes.odds_worker.shutdown()
        super().done(result)
