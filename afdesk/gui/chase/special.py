"""The chase board's special-action tab (H1, H4): a red pursuit die's special action offered
with its conditions, and what it starts: an attack or a contest opens the check dialog
(with the range penalty against a higher total), Hide places the two decoys next to the
character; and what the stage left on a participant: a hazard's attack, drowning, decoys to
catch. Each is an Op pushed to the document."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QWidget,
)

from afdesk.encounter.chase.ops import (
    CatchDecoy,
    EndSpecial,
    EndStageEffect,
    HazardAttack,
    Special,
    SpecialAction,
)
from afdesk.encounter.chase.order import pname
from afdesk.encounter.chase.special import actor_of
from afdesk.encounter.checks import CheckKind
from afdesk.encounter.ops.roster import decoy_spots, hide_decoy_count
from afdesk.gui.chase.setup import SetupPanel, fill_combo, labelled

RANGE_PENALTY = -2
"""An attack on a higher total takes the range penalty (H1): -2, two Interference (R1)."""

CONDITIONS = {
    Special.SCREEN: "Screen: defenses until you can choose an action again",
    Special.COOPERATE: "Cooperate with someone with the same or a lower total",
    Special.CONTEST: "Contest someone with the same or a lower total",
    Special.GRANT: "Grant anyone an extra pursuit die (they roll both and choose)",
    Special.ATTACK: "Attack: the same or a lower total, or a higher one at the range penalty",
    Special.HIDE: "Hide: become hidden with two decoys that must be caught first",
}


class SpecialPanel(SetupPanel):
    """Take a special action; resolve what it started or what the stage left."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.dialog = None
        """The check dialog an attack or a contest opened (tests read it)."""
        grid = QGridLayout(self)
        self.who = QComboBox()
        self.kind = QComboBox()
        for k in Special:
            self.kind.addItem(CONDITIONS[k], k.value)
        self.target = QComboBox()
        self.take = QPushButton("&Spend it")
        self.open_check = QPushButton("&Resolve in the check dialog…")
        self.drop = QPushButton("&Mark resolved")
        self.state = QLabel()
        self.state.setWordWrap(True)
        self.hits = QSpinBox()
        self.hits.setRange(0, 30)
        self.hits.setPrefix("hits ")
        self.hazard = QPushButton("Ha&zard attack")
        self.surface = QPushButton("Surfaces (&q)")
        self.decoy = QPushButton("Catch a decoy (&j)")
        grid.addWidget(labelled("&Who", self.who), 0, 0)
        grid.addWidget(self.who, 0, 1)
        grid.addWidget(labelled("T&arget", self.target), 0, 2)
        grid.addWidget(self.target, 0, 3)
        grid.addWidget(self.kind, 1, 0, 1, 3)
        grid.addWidget(self.take, 1, 3)
        grid.addWidget(self.state, 2, 0, 1, 2)
        grid.addWidget(self.open_check, 2, 2)
        grid.addWidget(self.drop, 2, 3)
        effects = QHBoxLayout()
        for w in (self.hits, self.hazard, self.surface, self.decoy):
            effects.addWidget(w)
        effects.addStretch(1)
        grid.addLayout(effects, 3, 0, 1, 4)
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        self.who.currentIndexChanged.connect(lambda _i: self._show())
        self.kind.currentIndexChanged.connect(lambda _i: self._show())
        self.take.clicked.connect(self.do_take)
        self.open_check.clicked.connect(self.do_open_check)
        self.drop.clicked.connect(lambda: self._on(lambda p: EndSpecial(p.id)))
        self.hazard.clicked.connect(
            lambda: self._on(lambda p: HazardAttack(p.id, self.hits.value()))
        )
        self.surface.clicked.connect(lambda: self._on(lambda p: EndStageEffect(p.id, "drowning")))
        self.decoy.clicked.connect(lambda: self._on(lambda p: CatchDecoy(p.id)))

    def refresh(self) -> None:
        if self.doc is None:
            return
        enc = self.doc.encounter
        items = []
        for p in enc.chase.participants:
            tail = f" ({p.special} special)" if p.special else ""
            items.append((pname(enc, p.id) + tail, p.id))
        fill_combo(self.who, items)
        if not (self._participant() and self._participant().special):
            ready = next((p.id for p in enc.chase.participants if p.special), None)
            if ready is not None:
                self.who.setCurrentIndex(self.who.findData(ready))
        self._show()

    def _show(self) -> None:
        p = self._participant()
        kind = Special(self.kind.currentData())
        enc = self.doc.encounter if self.doc else None
        targets = []
        if p is not None and kind.needs_target:
            for q in enc.chase.participants:
                if q.id == p.id:
                    continue
                if kind in (Special.COOPERATE, Special.CONTEST) and q.total > p.total:
                    continue
                if kind in (Special.ATTACK, Special.CONTEST) and q.decoys:
                    continue  # its decoys are caught first (H1)
                tail = " (range penalty)" if kind is Special.ATTACK and q.total > p.total else ""
                targets.append((f"{pname(enc, q.id)}{tail}", q.id))
        fill_combo(self.target, targets)
        self.target.setEnabled(kind.needs_target)
        self.take.setEnabled(p is not None and p.special > 0)
        self.take.setToolTip("" if p and p.special else "A red pursuit die gives a special action")
        bits = []
        if p is not None:
            if p.started:
                what, _sep, tid = p.started.partition(":")
                bits.append(f"{what} on {pname(enc, tid)} under way")
            if p.hazard:
                bits.append(f"{p.hazard} hazard attack(s) due")
            if p.drowning:
                bits.append("drowning")
            if p.decoys:
                bits.append(f"{p.decoys} decoy(s)")
        self.state.setText("; ".join(bits))
        self.open_check.setEnabled(bool(p and p.started))
        self.drop.setEnabled(bool(p and p.started))
        self.hazard.setEnabled(bool(p and p.hazard))
        self.surface.setEnabled(bool(p and p.drowning))
        self.decoy.setEnabled(bool(p and p.decoys))

    def _on(self, make) -> bool:
        p = self._participant()
        if p is None:
            self.message.emit("choose a participant first")
            return False
        return self.push(make(p))

    def do_take(self) -> bool:
        p = self._participant()
        if p is None:
            self.message.emit("choose a participant first")
            return False
        kind = Special(self.kind.currentData())
        enc = self.doc.encounter
        decoys: tuple[tuple[int, int], ...] = ()
        if kind is Special.HIDE:
            c = enc.combatants.get(p.id)
            if c is not None and c.area is not None:
                # The first free areas next to the character (E6); the GM moves them on the
                # map afterwards if the table wants them elsewhere.
                decoys = tuple(decoy_spots(enc, c)[: hide_decoy_count(enc, c)])
        target = self.target.currentData() or "" if kind.needs_target else ""
        ok = self.push(SpecialAction(p.id, kind, target, decoys))
        if ok and kind in (Special.ATTACK, Special.CONTEST):
            self.do_open_check()
        return ok

    def do_open_check(self) -> bool:
        """The check an attack or a contest started: the check dialog, attacker to
        target, with the range penalty when the target's total is higher (H1)."""
        p = self._participant()
        if p is None or not p.started:
            return False
        enc = self.doc.encounter
        what, _sep, tid = p.started.partition(":")
        actor = actor_of(enc, p)
        target = enc.chase.participant(tid)
        foe = actor_of(enc, target) if target is not None else ""
        if not actor or not foe:
            self.message.emit(
                f"{pname(enc, p.id)}'s {what}: resolve it at the table (no character to roll "
                "for), then mark it resolved"
            )
            return False
        from afdesk.gui.dialogs.contest import ContestDialog

        # An attack across the chase aims; a contest opens as a Distract against the target
        # (a check it opposes), and the GM may pick another action in the dialog.
        kind = CheckKind.AIM if what == "attack" else CheckKind.DISTRACT
        dialog = ContestDialog(self.doc, actor, kind, foe, self.window())
        if target is not None and target.total > p.total and what == "attack":
            dialog.modifiers.add_gm("range penalty: a higher total (H1)", RANGE_PENALTY)
        dialog.accepted.connect(lambda pid=p.id: self._resolved(pid))
        self.dialog = dialog
        dialog.open()
        return True

    def _resolved(self, pid: str) -> None:
        p = self.doc.encounter.chase.participant(pid) if self.doc else None
        if p is not None and p.started:
            self.push(EndSpecial(pid))
