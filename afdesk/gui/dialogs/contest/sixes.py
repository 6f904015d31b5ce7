"""The roller's free retry of its 6s, trading Gain for Momentum (R3)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.model import Encounter
from afdesk.encounter.typed import roll_typed
from afdesk.gui.dialogs.contest.common import Panel
from afdesk.gui.dialogs.contest.dice_pick import DicePicker
from afdesk.gui.dialogs.contest.physical import FacesEntry
from afdesk.gui.odds_worker import OddsWorker
from afdesk.gui.text import pct, sentence
from afdesk.rules.contest import Role
from afdesk.rules.dice import DiceSource
from afdesk.rules.odds import ContestOdds

RETRY_TEXT = "Retry the chosen &6s"


class SixesPanel(Panel):
    """Either roller may retry any of its 6s for free, each once, trading Gain for
    Momentum (R3): pick the roll and its 6s; the button shows the exact odds after the
    retry. Shown where the ruleset has this retry."""

    def __init__(
        self,
        enc: Encounter,
        source: Callable[[], DiceSource | None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.enc = enc
        self._source = source
        self._frame("Retry 6s for Momentum (R3): free, each 6 once, never explodes")
        inner = QVBoxLayout(self.box)
        row = QHBoxLayout()
        inner.addLayout(row)
        self.roll_choice = QComboBox()
        # Filled after the roll, so sized to what it holds then, not when first shown
        # empty ('Elder Ba' at 1280x720).
        self.roll_choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.roll_choice.setToolTip("Whose roll: each roller retries its own 6s (R3)")
        self.pick = DicePicker("no 6 left to retry")
        self.retry = QPushButton(RETRY_TEXT)
        row.addWidget(QLabel("6s of"))
        row.addWidget(self.roll_choice)
        row.addWidget(self.pick, 1)
        row.addWidget(self.retry)
        self.faces = FacesEntry("each retried 6's new face")
        inner.addWidget(self.faces)
        self._key: tuple[object, ...] | None = None
        """(the roll chosen, its dice) the 6s on offer were taken from."""
        self.odds_worker = OddsWorker(self)
        """Computes the odds after the retry off the UI thread."""
        self.odds_worker.ready.connect(self._odds_ready)
        self.roll_choice.currentIndexChanged.connect(lambda _i: self.refresh())
        self.pick.changed.connect(self.refresh)
        self.retry.clicked.connect(self.retry_chosen)

    def roll(self) -> tuple[Role, int]:
        """The roll chosen: (side, defense roll: 0 the chosen defense's, k the k-th other
        opponent's in an overlap, E14)."""
        data = self.roll_choice.currentData()
        if not isinstance(data, str):
            return Role.ATTACKER, 0
        side, defense = data.split(":")
        return Role(side), int(defense)

    def choose_roll(self, side: Role, defense: int = 0) -> None:
        at = self.roll_choice.findData(_data(side, defense))
        if at < 0:
            raise KeyError(f"no {Role(side).value} roll {defense} to retry 6s on")
        self.roll_choice.setCurrentIndex(at)

    def choose(self, indices: tuple[int, ...]) -> None:
        """Pick the 6s to retry (their indices in the roll)."""
        self.pick.choose(indices)

    def retry_chosen(self) -> None:
        """Retry the chosen 6s of the chosen roll (R3)."""
        side, defense = self.roll()
        chosen = self.pick.chosen()
        if self.faces.physical():
            entry = self.faces

            def typed(f) -> None:
                roll_typed(
                    f,
                    "retry of 6s",
                    entry.faces(),
                    lambda src: f.retry_sixes(side, chosen, src, defense=defense),
                )

            if self._try(typed):
                entry.faces_edit.clear()
            return
        self._try(lambda f: f.retry_sixes(side, chosen, self._source(), defense=defense))

    def refresh(self) -> None:
        f = self.flow
        shown = f is not None and f.rules.six_retry
        self.box.setVisible(shown)
        if f is None or not shown or not f.rolled:
            self.box.setEnabled(False)
            return
        self.box.setEnabled(True)
        self._fill_rolls()
        side, defense = self.roll()
        roll = f.own_roll(side, defense)
        key = (side, defense, roll)
        if key != self._key:
            self._key = key
            sixes = roll.six_indices() if roll is not None else ()
            self.pick.blockSignals(True)
            self.pick.set_dice([(i, 6) for i in sixes])
            self.pick.blockSignals(False)
            who = f.party(side, defense)
            self.faces.set_side(self.enc.combatant(who).side)
        chosen = self.pick.chosen()
        why = f.six_retry_refusal(side, chosen, defense)
        if not why and not chosen:
            why = "choose the 6s to retry (R3)"
        self.retry.setEnabled(not why)
        self.retry.setToolTip(sentence(why) if why else "")
        self.retry.setText(RETRY_TEXT)
        if why:
            self.odds_worker.request(lambda: None)  # drops odds still on their way
            return
        try:
            query = f.six_retry_query(side, chosen, defense)
        except IllegalOp as exc:
            self.retry.setToolTip(sentence(str(exc)))
            return
        self.retry.setText(f"{RETRY_TEXT} (…)")
        self.odds_worker.request(query, side)

    def _fill_rolls(self) -> None:
        f = self.flow
        assert f is not None
        rolls = [(f"{self.enc.combatant(f.plan.attacker).name}'s check", _data(Role.ATTACKER))]
        if f.defense_roll is not None:
            who = self.enc.combatant(f.party(Role.DEFENDER)).name
            rolls.append((f"{who}'s defense", _data(Role.DEFENDER)))
        for k, d in enumerate(f.also, 1):
            who = self.enc.combatant(d.defender).name
            rolls.append((f"{who}'s defense", _data(Role.DEFENDER, k)))
        keep = self.roll_choice.currentData()
        self.roll_choice.blockSignals(True)
        self.roll_choice.clear()
        for label, data in rolls:
            self.roll_choice.addItem(label, data)
        at = self.roll_choice.findData(keep) if keep is not None else -1
        self.roll_choice.setCurrentIndex(max(at, 0))
        self.roll_choice.blockSignals(False)

    def _odds_ready(self, _request: int, result: object, side: object) -> None:
        if not isinstance(result, ContestOdds):
            self.retry.setText(RETRY_TEXT)
            return
        if side is Role.ATTACKER:
            odds = f"lands {pct(result.p_attack_lands)}"
            mom = result.attacker_expected_momentum
        else:
            odds = f"stopped {pct(result.p_stopped)}"
            mom = result.defender_expected_momentum
        self.retry.setText(f"{RETRY_TEXT} ({odds}, Momentum {mom:.2f})")


def _data(side: Role, defense: int = 0) -> str:
    """A roll as the roll chooser holds it: "attacker:0", "defender:1" (E14)."""
    return f"{Role(side).value}:{defense}"
