"""The chase check, rolled (H2-H5): the facet of the way of moving (or sneak on an
Obscured stage), the bad colour's and the stage's penalties, the GM's own modifiers, the
exact odds under the encounter's ruleset before rolling, the roll drawn as dice, Shifts spent
both ways (the character's and the referee's, R10; Will in af-classic, C4), then one Op:
:class:`ChaseCheck` (or a crew member's :class:`CrewCheck`, H5).

The GM may instead type what physical dice came to (success, margin, Interference left):
the manual entry at the bottom is the fallback, used when nothing was rolled here.

It reuses the check dialog's widgets (the GM modifier row, the Shift buttons' words) and
the dice view; the odds run off the UI thread (:class:`OddsWorker`).
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.chase.ops import ChaseCheck, CrewCheck, stage_speed
from afdesk.encounter.chase.order import pname
from afdesk.encounter.contest.assembly import ShiftSpend
from afdesk.gui import screens
from afdesk.gui.dialogs.contest.common import gm_modifier_row
from afdesk.gui.dialogs.contest.shifts import SPEND_BUTTON_TEXT
from afdesk.gui.dice_view import DiceView
from afdesk.gui.odds_worker import OddsWorker
from afdesk.gui.push import push
from afdesk.gui.style import meaning_style
from afdesk.gui.text import pct
from afdesk.rules import RulesError
from afdesk.rules.contest import Role
from afdesk.rules.d20 import D20Check
from afdesk.rules.dice import DiceSource, Pool, Roll, pool_sizes
from afdesk.rules.pursuit import stages
from afdesk.rules.pursuit.checks import (
    ChaseResult,
    CrewOdds,
    crew_check_odds,
    read_check,
    rolled_turn_odds,
)
from afdesk.rules.rulesets import SpendKind, ruleset_named

REFEREE = "referee"


class ChaseCheckDialog(QDialog):
    """One chase check of participant ``pid``: the helm's or its own (moves it), or crew
    member ``crew``'s (H5). ``source`` gives the dice (None: fresh random dice)."""

    def __init__(
        self,
        doc,
        pid: str,
        crew: str = "",
        source: DiceSource | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.doc = doc
        enc = doc.encounter
        self.pid = pid
        self.crew = crew
        self.source = source
        self.rules = ruleset_named(enc.ruleset)
        p = enc.chase.participant(pid)
        if p is None:
            raise KeyError(pid)
        self.participant = p
        vehicle = next((v for v in enc.chase.vehicles if v.id == pid), None)
        self.checker = crew or (vehicle.helm if vehicle else pid)
        """The character who rolls: itself, the vehicle's helm, or the crew member."""
        self.roll: Roll | D20Check | None = None
        self.helper_roll: Roll | None = None
        self.spends: list[ShiftSpend] = []
        self.gm_mods: list[tuple[str, int]] = []
        who = enc.combatants[self.checker].name if self.checker in enc.combatants else ""
        title = f"Chase check — {pname(enc, pid)}" + (
            f" ({who}, crew)" if crew else (f" ({who} at the helm)" if vehicle else "")
        )
        self.setWindowTitle(title)
        self.setMinimumWidth(620)
        self._build()
        self.odds_worker = OddsWorker(self)
        self.odds_worker.ready.connect(self._odds_ready)
        self.refresh()
        screens.fit_dialog(self)

    # ------------------------------------------------------------------------ build

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        self.colours = QLabel()
        self.colours.setWordWrap(True)
        outer.addWidget(self.colours)
        pool = QGroupBox("The check (H3, H4)")
        grid = QGridLayout(pool)
        self.facet = QComboBox()
        enc = self.doc.encounter
        for f in stages.facets(enc.chase.stage, self.participant.way.facet):
            self.facet.addItem(f, f)
        facet_label = QLabel("&Facet")
        facet_label.setBuddy(self.facet)
        grid.addWidget(facet_label, 0, 0)
        grid.addWidget(self.facet, 0, 1)
        self.modifiers = QLabel()
        self.modifiers.setWordWrap(True)
        grid.addWidget(self.modifiers, 1, 0, 1, 3)
        row, self.gm_label, self.gm_dice, self.gm_add = gm_modifier_row(
            "the GM's own modifier (e.g. slick tiles)", "Add &modifier"
        )
        grid.addLayout(row, 2, 0, 1, 3)
        self.odds = QLabel()
        self.odds.setStyleSheet("font-weight: bold;")
        grid.addWidget(self.odds, 3, 0, 1, 3)
        outer.addWidget(pool)
        dice = QHBoxLayout()
        self.roll_button = QPushButton("&Roll the check")
        self.dice = DiceView()
        self.result = QLabel()
        self.result.setWordWrap(True)
        dice.addWidget(self.roll_button)
        dice.addWidget(self.dice, 1)
        outer.addLayout(dice)
        helping = QHBoxLayout()
        self.helper_label = QLabel()
        self.helper_dice = DiceView(size=26)
        helping.addWidget(self.helper_label)
        helping.addWidget(self.helper_dice, 1)
        outer.addLayout(helping)
        outer.addWidget(self.result)
        unit = self.rules.spend_unit
        shifts = QGroupBox(
            f"{unit.label if unit else 'Shifts'} after the roll, both ways "
            f"({unit.rule if unit else 'R10'})"
        )
        srow = QGridLayout(shifts)
        self.own_label = QLabel()
        self.ref_label = QLabel()
        self.own_buttons: dict[SpendKind, QPushButton] = {}
        for i, kind in enumerate(self.rules.spend_kinds):
            b = QPushButton(SPEND_BUTTON_TEXT[kind])
            b.clicked.connect(lambda _c=False, k=kind: self.spend(Role.ATTACKER, k))
            self.own_buttons[kind] = b
            srow.addWidget(b, 0, 1 + i)
        self.ref_retry = QPushButton("Referee: retry &Wins")
        self.ref_retry.setToolTip("The referee spends a Shift to retry the check's Wins (R10)")
        self.ref_retry.clicked.connect(lambda: self.spend(Role.DEFENDER, SpendKind.RETRY))
        srow.addWidget(self.own_label, 0, 0)
        srow.addWidget(self.ref_label, 1, 0)
        srow.addWidget(self.ref_retry, 1, 1)
        srow.setColumnStretch(0, 1)
        self.shifts_box = shifts
        outer.addWidget(shifts)
        manual = QGroupBox("Or type what physical dice came to (the GM's fallback)")
        mrow = QHBoxLayout(manual)
        self.manual_success = QCheckBox("&Success")
        self.manual_margin = QSpinBox()
        self.manual_margin.setRange(1, 30)
        self.manual_margin.setPrefix("margin ")
        self.manual_interference = QCheckBox("&Interference left (next die bad, H3)")
        for w in (self.manual_success, self.manual_margin, self.manual_interference):
            mrow.addWidget(w)
        mrow.addStretch(1)
        self.manual_box = manual
        outer.addWidget(manual)
        self.message = QLabel()
        self.message.setStyleSheet(meaning_style("error", self.message))
        self.message.setWordWrap(True)
        outer.addWidget(self.message)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Apply | QDialogButtonBox.StandardButton.Cancel
        )
        self.apply_button = buttons.button(QDialogButtonBox.StandardButton.Apply)
        self.apply_button.setText("&Apply the check")
        self.apply_button.clicked.connect(self.apply)
        buttons.rejected.connect(self.reject)
        outer.addWidget(buttons)
        self.facet.currentIndexChanged.connect(lambda _i: self.refresh())
        self.gm_add.clicked.connect(self._add_gm)
        self.roll_button.clicked.connect(self.roll_check)

    # ------------------------------------------------------------------------ model

    def score(self) -> int:
        c = self.doc.encounter.combatants.get(self.checker)
        return c.facet(self.facet.currentData()) if c is not None else 0

    def bad(self) -> bool:
        colours = self.participant.colours
        return bool(colours) and colours[-1] == self.doc.encounter.settings.bad_pursuit_colour

    def modifier_list(self) -> list[tuple[str, int]]:
        """Every modifier of the check and where it comes from."""
        enc = self.doc.encounter
        mods = []
        if self.bad():
            mods.append((f"the bad colour ({enc.settings.bad_pursuit_colour}, H2)", -2))
        if stages.StageProperty.DIFFICULT in enc.chase.stage:
            mods.append(("a Difficult stage (H4)", -stages.PENALTY))
        return mods + self.gm_mods

    def _add_gm(self) -> None:
        label = self.gm_label.text().strip() or "the GM's modifier"
        if self.roll is not None:
            self.message.setText("Modifiers are set before the roll")
            return
        self.gm_mods.append((label, self.gm_dice.value()))
        self.gm_label.clear()
        self.refresh()

    def left(self, payer: str) -> int:
        spent = sum(1 for s in self.spends if s.payer == payer)
        if payer == REFEREE:
            return self.doc.encounter.meta.referee_shifts - spent
        c = self.doc.encounter.combatants[payer]
        will = self.rules.spend_unit is not None and self.rules.spend_unit.value == "will"
        return (c.will if will else c.shifts) - spent

    def reading(self) -> ChaseResult | None:
        if self.roll is None:
            return None
        return read_check(self.rules, self.roll)

    # ---------------------------------------------------------------------- actions

    def helper(self) -> str:
        """The character cooperating with this check (a special action, H1), if the
        ruleset's dice pools take a cooperator (R11, C6)."""
        enc = self.doc.encounter
        if self.crew or not self.rules.dice_pools:
            return ""
        for hid in self.participant.helpers:
            q = enc.chase.participant(hid)
            if q is None:
                continue
            who = next((v.helm for v in enc.chase.vehicles if v.id == hid), hid)
            if who in enc.combatants:
                return who
        return ""

    def roll_check(self) -> bool:
        if self.roll is not None:
            return False
        mods = [d for _label, d in self.modifier_list()]
        helper = self.helper()
        try:
            if helper:
                # The cooperator rolls with the check, as the ruleset takes a helper (R11, C6).
                dice, intf = pool_sizes(self.score(), mods)
                h = self.doc.encounter.combatants[helper]
                score = h.facet(self.facet.currentData())
                self.roll, self.helper_roll = self.rules.roll_opposition(
                    dice, intf, (score, 0), source=self.source
                )
            else:
                self.roll = self.rules.roll_plain(self.score(), mods, self.source)
        except RulesError as exc:
            self.message.setText(str(exc))
            return False
        self.refresh()
        return True

    def spend(self, side: Role, kind: SpendKind) -> bool:
        """The character (``ATTACKER``) or the referee (``DEFENDER``) spends on the roll:
        the character adds dice or retries Fails, the referee retries Wins (R10)."""
        roll = self.roll
        if not isinstance(roll, Roll):
            self.message.setText("Roll the check first; Shifts are spent after the result")
            return False
        payer = self.checker if side is Role.ATTACKER else REFEREE
        if self.left(payer) < 1:
            who = "the referee" if payer == REFEREE else self.doc.encounter.combatants[payer].name
            self.message.setText(f"{who} has nothing left to spend")
            return False
        refusal = self.rules.spend_refusal(
            kind, roll, attacker=side is Role.ATTACKER, opposition_rolled=False
        )
        indices: tuple[int, ...] = ()
        if side is Role.DEFENDER:
            indices = tuple(
                i
                for i, d in enumerate(roll.dice)
                if d.pool is not Pool.INTERFERENCE
                and d.face >= 4
                and d.retried_from is None
                and d.cancelled_by is None
            )
            if not indices and not refusal:
                refusal = "there is no Win left to retry"
        if refusal:
            self.message.setText(refusal)
            return False
        try:
            self.roll, used = self.rules.spend(roll, kind, indices, self.source)
        except RulesError as exc:
            self.message.setText(str(exc))
            return False
        self.spends.append(ShiftSpend(side, payer, kind.value, indices=tuple(used)))
        self.message.setText("")
        self.refresh()
        return True

    def op(self) -> ChaseCheck | CrewCheck:
        r = self.reading()
        if r is not None:
            success, margin, interference = r.success, r.margin, r.interference
        else:
            success = self.manual_success.isChecked()
            margin = self.manual_margin.value()
            interference = self.manual_interference.isChecked() and not success
        roll = self.roll if isinstance(self.roll, Roll) else None
        d20 = self.roll if isinstance(self.roll, D20Check) else None
        if self.crew:
            return CrewCheck(
                self.pid, self.crew, success, margin, interference, roll, d20, tuple(self.spends)
            )
        return ChaseCheck(
            self.pid,
            success,
            margin,
            interference,
            self.facet.currentData() or "",
            roll,
            d20,
            tuple(self.spends),
        )

    def apply(self) -> bool:
        if not push(self.doc, self.op(), beside=lambda r: r and self.message.setText(r)):
            return False
        self.accept()
        return True

    # ------------------------------------------------------------------------- view

    def refresh(self) -> None:
        enc = self.doc.encounter
        p = self.participant
        colours = ", ".join(p.colours) or "not rolled yet"
        kinds = stages.speed_kinds(enc.chase.stage, "run")
        kind = "" if kinds == ("run",) or p.id not in enc.combatants else kinds[0]
        if len(kinds) > 1 and kind:
            kind = "the lower of " + " and ".join(kinds)
        speed = f"speed {stage_speed(enc, p)}" + (f" ({kind}, H4)" if kind else "")
        if self.crew:
            speed = f"the helm's die moves {pname(enc, p.id)}; {self.crew_name()} checks (H5)"
        self.colours.setText(
            f"<b>{pname(enc, p.id)}</b>: pursuit dice {colours}; {speed}"
            + (", the bad colour" if self.bad() else "")
        )
        mods = self.modifier_list()
        score = self.score()
        words = [f"{self.facet.currentData()} {score}"] + [f"{d:+d} {why}" for why, d in mods]
        self.modifiers.setText("Pool: " + "; ".join(words))
        rolled = self.roll is not None
        self.roll_button.setEnabled(not rolled)
        self.facet.setEnabled(not rolled)
        self.gm_add.setEnabled(not rolled)
        self.dice.set_roll(self.roll if isinstance(self.roll, Roll) else None)
        helper = self.helper()
        self.helper_label.setVisible(bool(helper))
        self.helper_dice.setVisible(bool(helper))
        if helper:
            self.helper_label.setText(f"{enc.combatants[helper].name} cooperates (H1, R11):")
            self.helper_dice.set_roll(self.helper_roll)
        self.dice.setVisible(not isinstance(self.roll, D20Check))
        r = self.reading()
        if r is None:
            self.result.setText("")
        else:
            verdict = f"success by {r.margin}" if r.success else f"failed by {r.margin}"
            extra = " — Interference left: the next pursuit die is the bad colour" * (
                r.interference
            )
            colour = "#1a7f37" if r.success else "#b00020"
            self.result.setText(
                f"<span style='color:{colour}; font-weight: bold;'>{r.text}: {verdict}"
                f"{extra}</span>"
            )
        self.manual_box.setEnabled(not rolled)
        can_spend = isinstance(self.roll, Roll) and self.rules.spend_unit is not None
        self.shifts_box.setEnabled(can_spend)
        unit = self.rules.spend_unit.label if self.rules.spend_unit else "Shifts"
        if self.checker in enc.combatants:
            self.own_label.setText(
                f"{enc.combatants[self.checker].name}: {self.left(self.checker)} {unit} left"
            )
        self.ref_label.setText(f"The referee: {self.left(REFEREE)} Shifts left")
        ref_can = SpendKind.RETRY in self.rules.spend_kinds
        self.ref_retry.setVisible(ref_can)
        self.ref_label.setVisible(ref_can)
        if not rolled:
            self.odds.setText("Odds: …")
            self.odds_worker.request(self._odds_query(score, [d for _w, d in mods]), None)

    def crew_name(self) -> str:
        c = self.doc.encounter.combatants.get(self.crew)
        return c.name if c is not None else self.crew

    def _odds_query(self, score: int, mods: list[int]):
        """The exact odds of what the Op will do: a crew member's check moves nothing and
        knocks nobody out (H5); the helm's or a runner's turn at the stage's speed with its
        subtractions (H4)."""
        enc = self.doc.encounter
        rules, colours = self.rules, self.participant.colours
        speed, bad = stage_speed(enc, self.participant), enc.settings.bad_pursuit_colour
        stage, total, crew = enc.chase.stage, self.participant.total, bool(self.crew)

        def query():
            if not colours:
                return None
            if crew:
                return crew_check_odds(rules, score, mods)
            return rolled_turn_odds(
                rules, speed, colours, score, mods, bad=bad, stage=stage, total=total
            )

        return query

    def _odds_ready(self, _request: int, result: object, _context: object) -> None:
        if isinstance(result, Exception):
            self.odds.setText(f"Odds: {result}")
        elif result is None:
            self.odds.setText("Odds: roll the pursuit die first")
        elif isinstance(result, CrewOdds):
            self.odds.setText(
                f"Odds ({self.rules.name}): success {pct(result.p_success)}, "
                f"expected grit lost {result.expected_grit:.1f} (crew, H5)"
            )
        else:
            self.odds.setText(
                f"Odds ({self.rules.name}): success {pct(result.p_success)}, "
                f"expected {result.expected_added:+.1f} to the total, "
                f"knocked out {pct(result.p_out)}"
                + (" (without the cooperation)" if self.helper() else "")
            )
