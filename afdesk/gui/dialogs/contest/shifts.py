"""After the roll: Shifts (R10: 2 dice, or a retry of the dice the spender picks) or Will
(C4) in turn, then Momentum (R12) and damage."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.contest.assembly import CheckKind
from afdesk.encounter.damage import landed_hits, momentum_damage
from afdesk.encounter.model import Encounter
from afdesk.encounter.typed import roll_typed
from afdesk.gui.dialogs.contest.common import Panel
from afdesk.gui.dialogs.contest.dice_pick import DicePicker
from afdesk.gui.dialogs.contest.physical import FacesEntry
from afdesk.gui.odds_worker import OddsWorker
from afdesk.gui.text import pct, sentence
from afdesk.rules.contest import Role
from afdesk.rules.dice import DiceSource
from afdesk.rules.rulesets import Ruleset, SpendKind, ruleset_named
from afdesk.rules.verdict import Verdict

SPEND_BUTTON_TEXT = {
    SpendKind.ADD: "&+2 dice",
    SpendKind.RETRY: "Re&try the chosen dice",
    SpendKind.WILL: "&Will: +2 dice",
}


def momentum_choices(rules: Ruleset) -> tuple[tuple[str, str, int], ...]:
    """What one Momentum may buy (R12), in this order: a marker on a character's next check
    of the ruleset's size (+2/-2; af-classic +1/-1, C3), +1/-1 damage, a stunt."""
    n = rules.momentum_marker
    return (
        (f"+{n} on a character's next check", "marker", n),
        (f"-{n} on a character's next check", "marker", -n),
        ("+1 damage", "damage", 1),
        ("-1 damage", "damage", -1),
        ("a stunt", "stunt", 0),
    )


class ShiftsPanel(Panel):
    """The side on turn spends as often as it likes, then passes; each button shows the
    odds after that spend. The flow says who pays and what may be spent."""

    def __init__(
        self,
        enc: Encounter,
        source: Callable[[], DiceSource | None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.enc = enc
        self._source = source
        self._frame("Shifts (R10): the side on turn spends, or passes")
        inner = QVBoxLayout(self.box)
        self.turn = QLabel()
        self.turn.setWordWrap(True)
        inner.addWidget(self.turn)
        row = QHBoxLayout()
        inner.addLayout(row)
        # Other opponents contesting a move check spend on their own rolls (E14, R10).
        self.roll_label = QLabel("On the &roll of")
        self.roll_choice = QComboBox()
        self.roll_choice.setToolTip(
            "Which defender's roll the defender side spends on: each opponent contesting "
            "the move check has its own (E14, R10)"
        )
        self.roll_label.setBuddy(self.roll_choice)
        row.addWidget(self.roll_label)
        row.addWidget(self.roll_choice)
        self.roll_choice.currentIndexChanged.connect(lambda _i: self.refresh())
        self.roll_label.setVisible(False)
        self.roll_choice.setVisible(False)
        self.buttons = [QPushButton(SPEND_BUTTON_TEXT[SpendKind.ADD]), QPushButton()]
        self.buttons[1].setText(SPEND_BUTTON_TEXT[SpendKind.RETRY])
        self.pass_button = QPushButton("&Pass (satisfied)")
        row.addStretch(1)
        for b in (*self.buttons, self.pass_button):
            row.addWidget(b)
        # R10: a Shift retries any dice not yet retried, Wins included; the spender picks.
        pick_row = QHBoxLayout()
        inner.addLayout(pick_row)
        pick_label = QLabel("Dice to retry:")
        self.retry_pick = DicePicker("no die left to retry")
        self.retry_pick.setToolTip(
            "The dice a Shift retries: any not yet retried, Wins included; each new face is "
            "frozen (R3, R10)"
        )
        self.all_fails = QPushButton("All Fai&ls")
        self.all_fails.setToolTip("Choose every Fail not yet retried (R10)")
        self.all_below = QPushButton("All &below the other Result")
        pick_row.addWidget(pick_label)
        pick_row.addWidget(self.retry_pick, 1)
        # The quick choices below the dice: 11 dice to choose from fit a 1280x720 screen.
        quick_row = QHBoxLayout()
        inner.addLayout(quick_row)
        quick_row.addStretch(1)
        quick_row.addWidget(self.all_fails)
        quick_row.addWidget(self.all_below)
        self._retry_key: tuple[object, ...] | None = None
        """(side, defense roll, the roll, the other side's roll) the dice on offer and the
        first choice were taken from."""
        self.retry_pick.changed.connect(self.refresh)
        self.all_fails.clicked.connect(self.choose_all_fails)
        self.all_below.clicked.connect(self.choose_all_below)
        self.faces = FacesEntry("Shift's dice: the 2 added, or each retried die's new face")
        inner.addWidget(self.faces)
        self._kinds: list[SpendKind] = []
        for i, b in enumerate(self.buttons):
            b.clicked.connect(lambda _c=False, i=i: self._clicked(i))
        self.pass_button.clicked.connect(self.pass_turn)
        self.odds_worker = OddsWorker(self)
        """Computes the odds after each spend off the UI thread."""
        self.odds_worker.ready.connect(self._odds_ready)

    def spend(self, kind: SpendKind | str) -> None:
        """The side on turn spends ``kind`` (add, retry, will), the defender side on the
        roll chosen in :attr:`roll_choice`."""
        defense = self.chosen_defense()
        chosen = self.retry_pick.chosen() if SpendKind(kind) is SpendKind.RETRY else ()
        if self.faces.physical():
            entry = self.faces

            def typed(f) -> None:
                turn = f.shift_exchange.turn
                what = (
                    f"{f.spend_unit.label if f.spend_unit else 'spend'} ({SpendKind(kind).label})"
                )
                roll_typed(
                    f,
                    what,
                    entry.faces(),
                    lambda src: f.spend(turn, kind, chosen, source=src, defense=defense),
                )

            if self._try(typed):
                entry.faces_edit.clear()
            return
        self._try(
            lambda f: f.spend(
                f.shift_exchange.turn, kind, chosen, source=self._source(), defense=defense
            )
        )

    def choose_retry(self, indices: tuple[int, ...]) -> None:
        """Pick the dice the next Shift retry re-rolls (R10)."""
        self.retry_pick.choose(indices)

    def choose_all_fails(self) -> None:
        """Quick choice: every Fail not yet retried (R10)."""
        f = self.flow
        if f is not None and f.rolled:
            self.retry_pick.choose(f.retry_fails(f.shift_exchange.turn, self.chosen_defense()))

    def choose_all_below(self) -> None:
        """Quick choice: every die below the other side's Result (R5, R10)."""
        f = self.flow
        if f is not None and f.rolled:
            self.retry_pick.choose(f.retry_below(f.shift_exchange.turn, self.chosen_defense()))

    def chosen_defense(self) -> int:
        """The defense roll the defender side spends on: 0 the chosen defense's, ``k`` the
        ``k``-th other opponent's in the overlap (E14)."""
        data = self.roll_choice.currentData() if self.roll_choice.isVisibleTo(self) else None
        return data if isinstance(data, int) else 0

    def choose_roll(self, defender: str) -> None:
        """Spend on ``defender``'s roll, as the GM picks it."""
        f = self.flow
        for i in range(self.roll_choice.count()):
            k = self.roll_choice.itemData(i)
            if f is not None and f.party(Role.DEFENDER, k) == defender:
                self.roll_choice.setCurrentIndex(i)
                return
        raise KeyError(f"no roll of {defender!r} to spend on")

    def pass_turn(self) -> None:
        """The side on turn is satisfied."""
        self._try(lambda f: f.pass_turn())

    def button_for(self, kind: SpendKind | str) -> QPushButton:
        return self.buttons[self._kinds.index(SpendKind(kind))]

    def _clicked(self, i: int) -> None:
        if i < len(self._kinds):
            self.spend(self._kinds[i])

    def refresh(self) -> None:
        f = self.flow
        rolled = f is not None and f.rolled
        if f is None or not rolled or f.spend_unit is None or f.shift_exchange.done:
            self.box.setEnabled(False)
            done = f is not None and rolled and f.shift_exchange.done
            self.turn.setText("Both sides are satisfied." if done else "")
            return
        self.box.setEnabled(True)
        side = f.shift_exchange.turn
        self._fill_rolls(side)
        defense = self.chosen_defense()
        payer = self.enc.combatants.get(f.party(side, defense))
        if payer is not None:
            self.faces.set_side(payer.side)
        if side is Role.ATTACKER or f.defense or defense:
            who = self.enc.combatant(f.party(side, defense)).name
        else:
            who = "the defender"
        pool = " in the referee's pool" if f.payer(side, defense) == "referee" else ""
        left, unit = f.shifts_left(side, defense), f.spend_unit.label
        unit = unit[:-1] if left == 1 and unit.endswith("s") else unit  # "1 Shift"
        self.turn.setText(
            f"<b>{who}</b> ({side.value}) may spend — {left} {unit} left{pool}. "
            "Spend as often as you like, then Pass when satisfied; the other side then "
            "answers."
        )
        options = f.spend_options(side, with_odds=False, defense=defense)
        self._kinds = [o.kind for o in options]
        retrying = SpendKind.RETRY in self._kinds
        self._fill_retry(side, defense, retrying)
        chosen = self.retry_pick.chosen()
        for i, button in enumerate(self.buttons):
            if i >= len(options):
                button.setVisible(False)
                continue
            o = options[i]
            refusal = o.refusal
            if o.kind is SpendKind.RETRY and not refusal and not chosen:
                refusal = "choose the dice to retry: any not yet retried, Wins included (R10)"
            button.setText(f"{SPEND_BUTTON_TEXT[o.kind]} (…)")
            button.setVisible(True)
            button.setEnabled(not refusal)
            button.setToolTip(sentence(refusal) if refusal else "")
        # The odds after each spend (the retry of the chosen dice) come off the UI thread.
        self.odds_worker.request(f.shift_choices_query(side, defense, chosen), side)

    def _fill_retry(self, side: Role, defense: int, retrying: bool) -> None:
        """Offer the dice of the spender's roll a Shift may retry, its Fails (or, with none,
        its dice below the other Result) chosen when the roll or the spender changes (R10)."""
        f = self.flow
        assert f is not None
        for w in (self.retry_pick, self.all_fails, self.all_below):
            w.setVisible(retrying)
        if not retrying:
            return
        roll = f.own_roll(side, defense)
        other = f.attack if side is Role.DEFENDER else f.defense_roll_at(defense)
        key = (side, defense, roll, other)
        if key != self._retry_key and roll is not None:
            self._retry_key = key
            dice = [(i, roll.dice[i].face) for i in f.retry_candidates(side, defense)]
            self.retry_pick.blockSignals(True)
            self.retry_pick.set_dice(dice, f.default_retry(side, defense))
            self.retry_pick.blockSignals(False)
        result = f.rules.outcome(other).result if other is not None else None
        self.all_below.setEnabled(result is not None)
        self.all_below.setText(
            f"All &below {result}" if result is not None else "All &below the other Result"
        )
        self.all_below.setToolTip(
            f"Choose every die not yet retried that shows less than {result}, the other "
            "side's Result (R5, R10)"
            if result is not None
            else "The other side has no Result to retry against"
        )

    def _fill_rolls(self, side: Role) -> None:
        """The defender rolls to spend on, shown only when other opponents in the overlap
        contest the move check too (E14)."""
        f = self.flow
        assert f is not None
        rolls: list[tuple[str, int]] = []
        if side is Role.DEFENDER and f.also:
            if f.defense_roll is not None and f.defense:
                lead = f.defense[0]
                rolls.append((f"{self.enc.combatant(lead.defender).name}: {lead.kind.label}", 0))
            for k, d in enumerate(f.also, 1):
                rolls.append((f"{self.enc.combatant(d.defender).name}: {d.kind.label}", k))
        keep = self.roll_choice.currentData()
        self.roll_choice.blockSignals(True)
        self.roll_choice.clear()
        for label, k in rolls:
            self.roll_choice.addItem(label, k)
        at = self.roll_choice.findData(keep) if keep is not None else -1
        self.roll_choice.setCurrentIndex(max(at, 0) if rolls else -1)
        self.roll_choice.blockSignals(False)
        self.roll_label.setVisible(bool(rolls))
        self.roll_choice.setVisible(bool(rolls))

    def _odds_ready(self, _request: int, result: object, side: object) -> None:
        for kind, button in zip(self._kinds, self.buttons, strict=False):
            title = SPEND_BUTTON_TEXT[kind]
            if isinstance(result, dict) and kind.value in result:
                o = result[kind.value]
                p = o.p_attack_lands if side is Role.ATTACKER else o.p_stopped
                goal = "lands" if side is Role.ATTACKER else "stopped"
                title = f"{title} ({goal} {pct(p)})"
            button.setText(title)


class MomentumPanel(Panel):
    """Momentum left for each side, spent one at a time (R12), and the damage the GM
    rolled for a landed attack (E6)."""

    def __init__(self, enc: Encounter, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.enc = enc
        self._frame("Momentum (R12) and damage")
        grid = QGridLayout(self.box)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.side = QComboBox()
        self.side.addItem("the attacker's", Role.ATTACKER.value)
        self.side.addItem("the defender's", Role.DEFENDER.value)
        self.kind = QComboBox()
        self.choices = momentum_choices(ruleset_named(enc.ruleset))
        for label, _kind, _dice in self.choices:
            self.kind.addItem(label)
        self.target = QComboBox()
        # A long name must not widen the dialog: the box shows what fits, its tooltip all.
        self.target.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.target.setMinimumContentsLength(14)
        for c in enc.roster():
            if c.on_map:
                self.target.addItem(c.name, c.id)
                self.target.setItemData(
                    self.target.count() - 1, c.name, Qt.ItemDataRole.ToolTipRole
                )
        self.target.currentIndexChanged.connect(
            lambda _i: self.target.setToolTip(self.target.currentText())
        )
        self.target.setToolTip(self.target.currentText())
        self.use = QPushButton("&Spend")
        self.hits = QSpinBox()
        self.hits.setRange(0, 50)
        self.hits.setToolTip(
            "The attack's damage (the chosen weapon's; a Taunt with no weapon: its success "
            "margin, R13, P5; the GM may change it): dealt with the Momentum spent on damage "
            "if the attack lands (E6, R12)"
        )
        hits_label = QLabel("&Damage")
        self.damage_text = QLabel()
        hits_label.setBuddy(self.hits)
        grid.addWidget(self.text, 0, 0, 1, 5)
        grid.addWidget(self.side, 1, 0)
        grid.addWidget(self.kind, 1, 1)
        grid.addWidget(self.target, 1, 2)
        grid.addWidget(self.use, 1, 3)
        grid.addWidget(hits_label, 2, 0)
        grid.addWidget(self.hits, 2, 1)
        grid.addWidget(self.damage_text, 2, 2, 1, 3)
        self.use.clicked.connect(self._use)
        self.hits.valueChanged.connect(self._hits)

    def spend(self, side: Role, choice: int, target: str = "") -> None:
        """Spend one of ``side``'s Momentum on ``self.choices[choice]``."""
        self.side.setCurrentIndex(self.side.findData(Role(side).value))
        self.kind.setCurrentIndex(choice)
        if target:
            self.target.setCurrentIndex(self.target.findData(target))
        self.use.click()

    def summary(self) -> str:
        return self.text.text()

    def can_spend(self) -> bool:
        return self.use.isEnabled()

    def _use(self) -> None:
        _label, kind, dice = self.choices[self.kind.currentIndex()]
        target = self.target.currentData() or "" if kind == "marker" else ""
        side = Role(self.side.currentData())
        self._try(lambda f: f.use_momentum(side, kind, target, dice))

    def _hits(self, value: int) -> None:
        if self.flow is not None and self.flow.hits != value:
            self.flow.hits = value
            self.changed.emit()

    def reset(self) -> None:
        """A new plan: the damage of its attack (E6)."""
        self.hits.blockSignals(True)
        self.hits.setValue(self.flow.hits if self.flow is not None else 0)
        self.hits.blockSignals(False)

    def damage_summary(self) -> str:
        """What a landed attack deals: "Lands for 3 hits: spear 2, Momentum +1 (R12)"."""
        f = self.flow
        if f is None or not f.plan.action.spec.attack or not f.plan.target:
            return ""
        extra = momentum_damage(f.momentum_uses)
        total = landed_hits(f.hits, f.momentum_uses)
        what = "success margin (R13, P5)" if f.hits_from_margin else f.plan.weapon or "damage"
        parts = [f"{what} {f.hits}"]
        if extra:
            parts.append(f"Momentum {extra:+d} (R12)")
        hits = f"{total} hit" + ("" if total == 1 else "s")
        return f"If it lands: <b>{hits}</b> ({', '.join(parts)})"

    def refresh(self, action: CheckKind, v: Verdict | None) -> None:
        f = self.flow
        attack = action.spec.attack
        self.hits.setEnabled(attack and f is not None)
        if f is not None and f.hits_from_margin and self.hits.value() != f.hits:
            self.reset()  # a Taunt with no weapon: the margin as it stands (R13, P5)
        self.damage_text.setText(self.damage_summary())
        if v is None or f is None or not f.rules.momentum:
            self.box.setEnabled(attack and f is not None)
            self.use.setEnabled(False)
            self.text.setText("Roll first; Momentum is spent after the result.")
            return
        self.box.setEnabled(True)
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
        self.text.setText(text)
        self.use.setEnabled(a > 0 or d > 0)
