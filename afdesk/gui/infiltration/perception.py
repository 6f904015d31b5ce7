"""The target's perception against a surprise attack (N7): where N7 holds (an
infiltration) the check dialog of a surprise attack offers the target "Perceive (study,
spends guard)" with its exact odds, before the attack's dice. Rolled, the attacker's sneak
contests it (R9); if it stands the attack is contested normally, but not by a dodge (E8);
if not, nothing contests it and landing it leaves the target down (E17). The model says
all this (afdesk.encounter.infiltration.perception); the panel shows it and rolls.

The infiltration registers the panel as its ``check_step`` (afdesk.gui.modes): the check
dialog names no mode, and asks the step for the plan once decided and for the Op to push."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from afdesk.encounter.contest.assembly import Plan
from afdesk.encounter.contest.ops import ResolveContest
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.infiltration.ops import SurpriseAttack
from afdesk.encounter.infiltration.perception import (
    PERCEIVE,
    Perception,
    PerceptionCheck,
    after_perception,
    perception_refusal,
)
from afdesk.encounter.model import Encounter
from afdesk.encounter.op import Op
from afdesk.gui.dialogs.contest.common import Panel
from afdesk.gui.text import pct, sentence
from afdesk.rules.dice import DiceSource


class PerceptionPanel(Panel):
    """The perception's odds and its Perceive button; hidden for every other check."""

    decided = Signal()
    """The perception is rolled: the dialog asks :meth:`plan_after` for the attack's
    defenses again."""

    def __init__(
        self, enc: Encounter, source: Callable[[], DiceSource | None], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.enc = enc
        self.source = source
        self._frame("Perception against a surprise attack (N7)")
        rows = QVBoxLayout(self.box)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setObjectName("perceptionText")
        line = QHBoxLayout()
        self.button = QPushButton(f"&{PERCEIVE}")
        self.button.setObjectName("perceive")
        self.button.clicked.connect(self.perceive)
        line.addWidget(self.button)
        line.addStretch(1)
        rows.addWidget(self.text)
        rows.addLayout(line)
        self.check: PerceptionCheck | None = None
        self.plan: Plan | None = None
        self.setVisible(False)

    @property
    def result(self) -> Perception | None:
        """The perception as rolled (None: not tried)."""
        return self.check.result if self.check is not None else None

    def show_plan(self, plan: Plan | None) -> None:
        """A new plan (another target, action or weapon): a perception not yet rolled
        is offered again, with its odds, or the reason it is not open."""
        self.plan = plan
        self.check = None
        surprise = plan is not None and plan.surprise and bool(plan.target)
        why = perception_refusal(self.enc, plan) if plan is not None and surprise else "x"
        shown = surprise and "infiltration (N7)" not in why
        self.setVisible(shown)
        if not shown or plan is None:
            return
        if why:
            self.text.setText(sentence(why))
            self.button.setEnabled(False)
            self.button.setToolTip(why)
            return
        self.check = PerceptionCheck(self.enc, plan)
        c = self.check
        odds = c.odds_query()()
        study, intf = c.study_pools()
        sneak, s_intf = c.sneak_pools()
        self.text.setText(
            f"{c.target.name} may spend its guard on a perception: study <b>{study}</b> dice"
            + (f", {intf} Interference" if intf else "")
            + f" against {c.attacker.name}'s sneak <b>{sneak}</b> dice"
            + (f", {s_intf} Interference" if s_intf else "")
            + f". It stands <b>{pct(odds.p_attack_lands)}</b> (exact). If it stands the "
            "attack is contested normally, but not by a dodge (E8); if not, nothing contests "
            f"it and a hit leaves {c.target.name} down (N7)."
        )
        self.button.setEnabled(True)
        self.button.setToolTip("Before the attack's dice: the target's study, then the sneak")

    def refresh(self) -> None:
        """The perception comes before the attack's dice (it opens the defenses)."""
        f = self.flow
        if self.check is None:
            return
        if self.check.result is not None:
            self.button.setEnabled(False)
            self.button.setToolTip("rolled")
        elif f is not None and f.rolled:
            self.button.setEnabled(False)
            self.button.setToolTip("the perception comes before the attack's dice (N7)")

    def perceive(self) -> None:
        """Roll the perception (the study, then the sneak against a success, R9)."""
        c = self.check
        if c is None or (self.flow is not None and self.flow.rolled):
            self.refused.emit("the perception comes before the attack's dice (N7)")
            return
        try:
            c.roll(self.source())
        except IllegalOp as exc:
            self.refused.emit(str(exc))
            return
        self.text.setText(c.text())
        self.decided.emit()

    def plan_after(self, plan: Plan) -> Plan:
        """``plan`` once the perception is rolled: the defenses it opens, or none (N7)."""
        p = self.result
        return plan if p is None else after_perception(self.enc, plan, p)

    def op_for(self, op: Op) -> Op:
        """The Op the dialog pushes: the attack with the perception rolled before it, as
        one :class:`SurpriseAttack` (one undo step, one journal line)."""
        p = self.result
        if p is None or not isinstance(op, ResolveContest):
            return op
        return SurpriseAttack(op.record, op.override, perception=p)
