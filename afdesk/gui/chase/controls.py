"""The GM's controls under the chase board: the pursuit die (rolled, or the faces of
physical dice typed in), the exact odds of the turn before rolling, the check's result, and
the exchange end's choices (H1-H3). Every step is an Op pushed to the document."""

from __future__ import annotations

import random

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from afdesk.encounter.chase.order import pname, ranked
from afdesk.encounter.ops.chase import ChaseCheck, ResolveChase, RollPursuit
from afdesk.encounter.state import Phase
from afdesk.rules import RulesError
from afdesk.rules.odds import PoolSpec
from afdesk.rules.pursuit import stages, turn_odds


def parse_faces(text: str) -> tuple[int, ...]:
    """Typed faces "6 2" or "6,2" -> (6, 2); a clear message for anything else."""
    parts = text.replace(",", " ").split()
    faces = []
    for part in parts:
        if not part.isdigit() or not 1 <= int(part) <= 6:
            raise ValueError(f"pursuit die faces are 1 to 6, separated by spaces; got {part!r}")
        faces.append(int(part))
    return tuple(faces)


def roll_faces(rng: random.Random) -> tuple[int, ...]:
    """Roll the pursuit die: again on every 6 (red, H1)."""
    faces = [rng.randint(1, 6)]
    while faces[-1] == 6:
        faces.append(rng.randint(1, 6))
    return tuple(faces)


class ChaseControls(QWidget):
    def __init__(self, board) -> None:
        super().__init__(board)
        self.board = board
        self.doc = None
        self.rng: random.Random = random.SystemRandom()
        grid = QGridLayout(self)
        self.who = QComboBox()
        self.faces = QLineEdit()
        self.faces.setPlaceholderText("faces of physical dice, e.g. 6 2 (empty: roll)")
        self.roll = QPushButton("Pursuit die")
        self.odds = QLabel()
        self.success = QCheckBox("Success")
        self.margin = QSpinBox()
        self.margin.setRange(1, 30)
        self.margin.setPrefix("margin ")
        self.interference = QCheckBox("Interference left (next die bad)")
        self.apply = QPushButton("Apply check")
        self.message = QLabel()
        self.message.setStyleSheet("color: #b00020;")
        grid.addWidget(QLabel("Turn of"), 0, 0)
        grid.addWidget(self.who, 0, 1)
        grid.addWidget(self.faces, 0, 2)
        grid.addWidget(self.roll, 0, 3)
        grid.addWidget(self.odds, 1, 0, 1, 4)
        row = QHBoxLayout()
        for w in (self.success, self.margin, self.interference, self.apply):
            row.addWidget(w)
        row.addStretch(1)
        grid.addLayout(row, 2, 0, 1, 4)
        self.end_row = QHBoxLayout()
        grid.addLayout(self.end_row, 3, 0, 1, 4)
        grid.addWidget(self.message, 4, 0, 1, 4)
        self.choices: dict[str, QComboBox] = {}
        self.resolve = QPushButton("Resolve escapes and captures")
        self.resolve.clicked.connect(self.do_resolve)
        self.roll.clicked.connect(self.do_roll)
        self.apply.clicked.connect(self.do_check)
        self.who.currentIndexChanged.connect(self._show_odds)

    def set_document(self, doc) -> None:
        self.doc = doc

    # ------------------------------------------------------------------ state

    def _participant_of_actor(self) -> str:
        enc = self.doc.encounter
        actor = enc.actor
        if actor is None:
            return ""
        if enc.chase.participant(actor) is not None:
            return actor
        for v in enc.chase.vehicles:
            if actor in (v.commander, v.helm, *v.crew):
                return v.id
        return ""

    def refresh(self) -> None:
        if self.doc is None:
            return

        enc = self.doc.encounter
        ids = [p.id for p in enc.chase.participants]
        current = self._participant_of_actor() or self.who.currentData()
        self.who.blockSignals(True)
        self.who.clear()
        for pid in ids:
            self.who.addItem(pname(enc, pid), pid)
        if current in ids:
            self.who.setCurrentIndex(ids.index(current))
        self.who.blockSignals(False)
        self._show_odds()
        # The exchange end: a choice for everyone still in the chase (H3).
        at_end = enc.turn.phase is Phase.EXCHANGE_END
        wanted = [pid for pid in ranked(enc, enc.chase) if not enc.chase.participant(pid).out]
        if not at_end:
            wanted = []
        if list(self.choices) != wanted:
            while self.end_row.count():
                item = self.end_row.takeAt(0)
                w = item.widget()
                if w is not None and w is not self.resolve:
                    w.hide()
                    w.setParent(None)
                    w.deleteLater()
            self.choices = {}
            for pid in wanted:
                box = QComboBox()
                box.addItem(f"{pname(enc, pid)} escapes", "")
                me = enc.chase.participant(pid).total
                for q in enc.chase.participants:
                    if q.total < me:
                        box.addItem(
                            f"{pname(enc, pid)} captures {pname(enc, q.id)}",
                            q.id,
                        )
                self.choices[pid] = box
                self.end_row.addWidget(box)
            if wanted:
                self.end_row.addWidget(self.resolve)
        self.resolve.setVisible(bool(wanted))

    def _show_odds(self) -> None:
        """The exact odds of the chosen participant's turn before rolling (H1-H3)."""
        enc = self.doc.encounter if self.doc else None
        pid = self.who.currentData()
        p = enc.chase.participant(pid) if enc and pid else None
        if p is None:
            self.odds.setText("")
            return
        c = enc.combatants.get(pid)
        if c is None:
            v = next((v for v in enc.chase.vehicles if v.id == pid), None)
            c = enc.combatants.get(v.helm) if v else None
        dice = c.facet(p.way.facet) if c else 0
        penalty = stages.check_penalty(enc.chase.stage, bad=False)
        try:
            o = turn_odds(
                p.speed,
                PoolSpec(dice, penalty),
                bad=enc.settings.bad_pursuit_colour,
                forced_bad=p.forced_bad,
            )
        except RulesError as exc:
            self.odds.setText(str(exc))
            return
        self.odds.setText(
            f"{p.way.facet} {dice} dice"
            + (f", -{penalty} stage" if penalty else "")
            + f": success {o.p_success:.0%}, expected +{o.expected_added:.1f}, "
            f"out {o.p_out:.0%}, bad colour {o.p_bad:.0%}" + (" (forced)" if p.forced_bad else "")
        )

    # ---------------------------------------------------------------- actions

    def _push(self, op) -> bool:
        reason = self.doc.push(op)
        self.message.setText(reason)
        return not reason

    def do_roll(self) -> bool:
        pid = self.who.currentData()
        if not pid:
            self.message.setText("nobody to roll for")
            return False
        p = self.doc.encounter.chase.participant(pid)
        text = self.faces.text().strip()
        try:
            typed = bool(text)
            faces = parse_faces(text) if typed else ()
        except ValueError as exc:
            self.message.setText(f"Typed faces: {exc}")
            return False
        if not typed and p is not None and not p.forced_bad:
            faces = roll_faces(self.rng)
        ok = self._push(RollPursuit(pid, faces, typed=typed))
        if ok:
            self.faces.clear()
        return ok

    def do_check(self) -> bool:
        pid = self.who.currentData()
        if not pid:
            return False
        return self._push(
            ChaseCheck(
                pid,
                self.success.isChecked(),
                self.margin.value(),
                self.interference.isChecked() and not self.success.isChecked(),
            )
        )

    def do_resolve(self) -> bool:
        choices = tuple((pid, box.currentData() or "") for pid, box in self.choices.items())
        return self._push(ResolveChase(choices))
