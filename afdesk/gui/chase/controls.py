"""The GM's controls under the chase board, as tabs reachable by mouse and keyboard
(Alt+letter on each tab and control):

- Turn: the pursuit die (rolled, or the faces of physical dice typed in; both dice of an
  extra die, then the one that counts), the exact odds of the turn before rolling under the
  encounter's ruleset, the chase check rolled in its dialog (or its result typed), a
  vehicle's crew checks (H5), and the exchange end's choices (H1-H3);
- Participants, Stage, Special, Vehicle, Countdown: :mod:`.setup` and :mod:`.special`.

Every step is an Op pushed to the document.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.chase.ops import (
    ChaseCheck,
    ResolveChase,
    RollPursuit,
    can_capture,
    stage_speed,
)
from afdesk.encounter.chase.order import acting, pname, ranked
from afdesk.encounter.state import Phase
from afdesk.gui.chase.faces import parse_faces, roll_faces
from afdesk.gui.chase.setup import CountdownPanel, ParticipantPanel, StagePanel, VehiclePanel
from afdesk.gui.chase.special import SpecialPanel
from afdesk.gui.push import push
from afdesk.gui.style import meaning_style
from afdesk.rules import pursuit
from afdesk.rules.pursuit import stages
from afdesk.rules.pursuit.checks import CheckOdds, chase_turn_odds, rolled_turn_odds
from afdesk.rules.rulesets import ruleset_named

__all__ = ["ChaseControls", "parse_faces", "roll_faces"]

END_COLUMNS = 3
"""The exchange end's choices to a row."""


def narrow(box: QComboBox, letters: int = 14) -> QComboBox:
    """A combo box as wide as ``letters`` characters, whatever its items: a long name does
    not widen the board past a 1280-wide screen; the whole text is its tooltip."""
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(letters)
    box.currentTextChanged.connect(box.setToolTip)
    return box


if TYPE_CHECKING:
    from afdesk.gui.odds_worker import OddsWorker


def crew_prompt(enc, p, vehicle) -> str:
    """A vehicle's turn in words (H5): on its commander's card the crew act in any order;
    the helm's die moves it, and every participating crew member checks."""
    helm = enc.combatants[vehicle.helm].name if vehicle.helm in enc.combatants else vehicle.helm
    if not p.colours:
        return f"{helm} at the helm rolls the pursuit die first (H5)"
    todo = [
        enc.combatants[cid].name
        for cid in (vehicle.commander, *vehicle.crew)
        if cid in enc.combatants and cid != vehicle.helm and cid not in p.crew_checked
    ]
    helm_done = "checked" if p.score is not None else "to check"
    crew = ", ".join(todo) if todo else "all checked"
    return f"Helm {helm}: {helm_done}; crew to check (H5): {crew}"


class ChaseControls(QWidget):
    @property
    def odds_worker(self) -> OddsWorker:
        """The off-thread odds, made when the board first asks (not before the first
        frame: the start-up)."""
        if self._odds_worker is None:
            from afdesk.gui.odds_worker import OddsWorker

            self._odds_worker = OddsWorker(self)
            self._odds_worker.ready.connect(self._odds_ready)
        return self._odds_worker

    def __init__(self, board) -> None:
        super().__init__(board)
        self.board = board
        self.doc = None
        self._rng: random.Random = random.SystemRandom()
        self.source = None
        """The dice source of the chase check dialogs (None: fresh random dice)."""
        self.dialog = None
        """The chase check dialog last opened (tests read it)."""
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.tabs = QTabWidget()
        outer.addWidget(self.tabs)
        turn = QWidget()
        grid = QGridLayout(turn)
        grid.setContentsMargins(6, 4, 6, 4)
        grid.setVerticalSpacing(2)
        self.who = QComboBox()
        self.faces = QLineEdit()
        self.faces.setPlaceholderText("faces of physical dice, e.g. 6 2 (empty: roll)")
        self.roll = QPushButton("Pu&rsuit die")
        self.odds = QLabel()
        self.check = QPushButton("Ch&ase check…")
        self.check.setToolTip(
            "Roll the chase check under the encounter's ruleset; Shifts both ways"
        )

        self.success = QCheckBox("&Success")
        self.margin = QSpinBox()
        self.margin.setRange(1, 30)
        self.margin.setPrefix("margin ")
        self.interference = QCheckBox("Interference left (next die &bad)")
        self.apply = QPushButton("Appl&y typed result")
        self.apply.setToolTip("What physical dice came to, typed in (the GM's fallback)")
        self._tips = {b: b.toolTip() for b in (self.roll, self.check, self.apply)}
        self.crew = QComboBox()
        self.crew_check = QPushButton("Cre&w check…")
        self.crew_check.setToolTip("Each participating crew member checks too (H5)")
        self.keep = [QPushButton("Keep die &1"), QPushButton("Keep die &2")]
        self.crew_ask = QLabel()
        """What the board asks of a vehicle's turn (H5): the helm's die and check, then a
        check of each crew member who has not checked this round."""
        self.crew_ask.setWordWrap(True)
        self.message = QLabel()
        self.message.setStyleSheet(meaning_style("error", self.message))
        self.message.setWordWrap(True)
        who_label = QLabel("Turn o&f")
        who_label.setBuddy(self.who)
        self.odds.setWordWrap(True)
        grid.addWidget(who_label, 0, 0)
        grid.addWidget(self.who, 0, 1)
        grid.addWidget(self.faces, 0, 2)
        grid.addWidget(self.roll, 0, 3)
        grid.addWidget(self.check, 0, 4)
        grid.addWidget(self.odds, 1, 0, 1, 5)
        row = QHBoxLayout()
        for w in (self.success, self.margin, self.interference, self.apply):
            row.addWidget(w)
        row.addStretch(1)
        grid.addLayout(row, 2, 0, 1, 5)
        extra = QHBoxLayout()
        for w in (*self.keep, self.crew, self.crew_check):
            extra.addWidget(w)
        extra.addWidget(self.crew_ask, 1)
        grid.addLayout(extra, 3, 0, 1, 5)
        grid.setColumnStretch(2, 1)
        self.faces.setMinimumWidth(120)
        # The exchange end's choices wrap, END_COLUMNS to a row (eight participants do not
        # widen the board past a 1280-wide screen).
        self.end_row = QGridLayout()
        grid.addLayout(self.end_row, 4, 0, 1, 5)
        self.tabs.addTab(turn, "T&urn")
        self.participants = ParticipantPanel()
        self.stage = StagePanel()
        self.special = SpecialPanel()
        self.vehicle = VehiclePanel()
        self.countdown = CountdownPanel()
        self.panels = (self.participants, self.stage, self.special, self.vehicle, self.countdown)
        for panel, title in zip(
            self.panels,
            ("&Participants", "Sta&ge", "Spec&ial", "Vehic&les", "C&ountdown"),
            strict=True,
        ):
            self.tabs.addTab(panel, title)
            panel.message.connect(self.message.setText)
        outer.addWidget(self.message)
        # The tabs are as tall as the page shown (not the tallest page): the lanes above
        # keep the room (six lanes at 1280x720).
        self.tabs.currentChanged.connect(self._fit_page)
        self._fit_page(self.tabs.currentIndex())
        self.choices: dict[str, QComboBox] = {}
        self.resolve = QPushButton("&Mark escapes and captures")
        self.resolve.clicked.connect(self.do_resolve)
        self.roll.clicked.connect(self.do_roll)
        self.apply.clicked.connect(self.do_check)
        self.check.clicked.connect(self.open_check)
        self.crew_check.clicked.connect(self.open_crew_check)
        for i, b in enumerate(self.keep):
            b.clicked.connect(lambda _c=False, i=i: self.do_keep(i))
        self.who.currentIndexChanged.connect(self._who_changed)
        self._odds_worker: OddsWorker | None = None
        self._actor_seen: str | None = None
        """The participant whose turn "Turn of" last followed."""
        self._typed_for: str | None = None
        """The participant the typed-result boxes were last filled for."""
        self._both: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        """An extra die's two rolls, waiting for the participant's choice (H1)."""
        for button in self.findChildren(QAbstractButton):
            button.installEventFilter(self)
        self.resolve.installEventFilter(self)
        for box in self.findChildren(QComboBox):
            narrow(box)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Space presses the focused button or ticks the focused box here, not the
        window's Next turn (Space): the keyboard reaches every control of the board."""
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Space
            and not event.modifiers()
            and isinstance(watched, QWidget)
            and watched.hasFocus()
        ):
            event.accept()
            return True
        return super().eventFilter(watched, event)

    def _fit_page(self, index: int) -> None:
        for i in range(self.tabs.count()):
            policy = QSizePolicy.Policy.Preferred if i == index else QSizePolicy.Policy.Ignored
            self.tabs.widget(i).setSizePolicy(policy, policy)
        self.tabs.updateGeometry()

    @property
    def rng(self) -> random.Random:
        return self._rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng
        for panel in self.panels:
            panel.rng = rng

    def set_document(self, doc) -> None:
        self.doc = doc
        self._both = None
        for panel in self.panels:
            panel.set_document(doc)

    # ------------------------------------------------------------------ state

    def _participant_of_actor(self) -> str:
        return acting(self.doc.encounter)

    def _current(self):
        pid = self.who.currentData()
        return self.doc.encounter.chase.participant(pid) if self.doc and pid else None

    def refresh(self) -> None:
        if self.doc is None:
            return
        enc = self.doc.encounter
        ids = [p.id for p in enc.chase.participants]
        # "Turn of" follows the turn when the turn moves on; otherwise it keeps the GM's
        # choice (an Occupied stage's pursuer, H4, has no card: its result stays its own).
        actor = self._participant_of_actor()
        if actor != self._actor_seen:
            self._actor_seen = actor
            current = actor or self.who.currentData()
        else:
            current = self.who.currentData()
        self.who.blockSignals(True)
        self.who.clear()
        for pid in ids:
            self.who.addItem(pname(enc, pid), pid)
        if current in ids:
            self.who.setCurrentIndex(ids.index(current))
        self.who.blockSignals(False)
        for panel in self.panels:
            panel.refresh()
        self._who_changed()
        self._refresh_end(enc)

    def _who_changed(self, _index: int = -1) -> None:
        p = self._current()
        enc = self.doc.encounter if self.doc else None
        vehicle = next((v for v in enc.chase.vehicles if p and v.id == p.id), None) if enc else None
        self.crew.clear()
        if vehicle is not None:
            for cid in (vehicle.commander, *vehicle.crew):
                if cid in enc.combatants and cid != vehicle.helm and cid not in p.crew_checked:
                    self.crew.addItem(enc.combatants[cid].name, cid)
        self.crew.setVisible(vehicle is not None)
        self.crew_check.setVisible(vehicle is not None)
        self.crew_check.setEnabled(self.crew.count() > 0 and bool(p and p.colours))
        self.crew_ask.setVisible(vehicle is not None)
        if vehicle is not None:
            self.crew_ask.setText(crew_prompt(enc, p, vehicle))
        self.check.setEnabled(bool(p and p.colours and p.score is None))
        both = self._both is not None
        for b in self.keep:
            b.setVisible(both)
        pid = p.id if p is not None else None
        if pid != self._typed_for:
            # A new participant's typed result starts empty (not the last one's margin).
            self._typed_for = pid
            self.success.setChecked(False)
            self.margin.setValue(self.margin.minimum())
            self.interference.setChecked(False)
            self.faces.clear()
        # Knocked out (H3): it takes no more turns this chase, so none of its buttons live.
        live = p is not None and not p.out
        for w in (self.roll, self.faces, self.apply, self.success, self.margin):
            w.setEnabled(live)
        self.interference.setEnabled(live)
        if not live:
            self.check.setEnabled(False)
            self.crew_check.setEnabled(False)
            for b in self.keep:
                b.setEnabled(False)
        else:
            for b in self.keep:
                b.setEnabled(True)
        out_tip = "Knocked out of the chase (H3): no more turns" if p is not None and p.out else ""
        for w, tip in self._tips.items():
            w.setToolTip(out_tip or tip)
        self._show_odds()

    def _refresh_end(self, enc) -> None:
        """The exchange end: a choice for everyone still in the chase (H3)."""
        at_end = enc.turn.phase is Phase.EXCHANGE_END
        # No turn at the exchange end (H3): its choices take the turn's rows, so the board
        # keeps fitting a 720-high screen with eight participants.
        for w in (self.odds, self.success, self.margin, self.interference, self.apply):
            w.setVisible(not at_end)
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
                box = narrow(QComboBox())
                box.addItem(f"{pname(enc, pid)} escapes", "")
                for q in enc.chase.participants:
                    # another side, a lower total, decoys caught first (H1, H3)
                    if can_capture(enc, pid, q.id):
                        box.addItem(f"{pname(enc, pid)} captures {pname(enc, q.id)}", q.id)
                n = len(self.choices)
                self.choices[pid] = box
                self.end_row.addWidget(box, n // END_COLUMNS, n % END_COLUMNS)
            if wanted:
                n = len(self.choices)
                self.end_row.addWidget(self.resolve, n // END_COLUMNS, n % END_COLUMNS)
        self.resolve.setVisible(bool(wanted))

    def checker(self, pid: str) -> str:
        """Who rolls a participant's check: itself, or a vehicle's helm (H5)."""
        enc = self.doc.encounter
        for v in enc.chase.vehicles:
            if v.id == pid:
                return v.helm
        return pid

    def _show_odds(self) -> None:
        """The exact odds of what the chosen participant's turn will do, under the
        encounter's ruleset, computed off the UI thread: before the pursuit die the whole
        turn (H1-H4: an extra die, the stage's speed and subtractions); once it is rolled,
        the check on the colours rolled; after the check, what it gained."""
        enc = self.doc.encounter if self.doc else None
        p = self._current()
        if p is None:
            self.odds.setText("")
            return
        if p.score is not None:
            self.odds.setText(f"{pname(enc, p.id)} has checked this round: total {p.total}")
            return
        c = enc.combatants.get(self.checker(p.id))
        facet = p.way.facet
        dice = c.facet(facet) if c else 0
        mods = [-stages.PENALTY] if stages.StageProperty.DIFFICULT in enc.chase.stage else []
        speed = stage_speed(enc, p)
        head = f"{facet} {dice}, speed {speed}" + (f", {mods[0]} stage" if mods else "")
        rules = ruleset_named(enc.ruleset)
        bad, forced = enc.settings.bad_pursuit_colour, p.forced_bad
        extra, stage, total, colours = p.extra_die, enc.chase.stage, p.total, p.colours
        if colours:
            head += f", rolled {colours[-1]}"
            if colours[-1] == bad:
                mods.append(-stages.PENALTY)  # the bad colour's -2 (H2)
        elif extra and not forced:
            head += ", extra die: the better of two (H1)"
        if p.helpers:
            head += " (without the cooperation)"
        self._odds_head = head
        self.odds.setText(f"{head}: odds …")

        def query():
            # What RollPursuit and ChaseCheck will do: the extra die (H1), the stage's
            # speed and subtractions (H4) in the odds.
            if colours:
                return rolled_turn_odds(
                    rules, speed, colours, dice, mods, bad=bad, stage=stage, total=total
                )
            return chase_turn_odds(
                rules,
                speed,
                dice,
                mods,
                bad=bad,
                forced_bad=forced,
                extra_die=extra,
                stage=stage,
                total=total,
            )

        self.odds_worker.request(query, head)

    def _odds_ready(self, _request: int, o: object, head: object) -> None:
        if isinstance(o, Exception):
            self.odds.setText(f"{head}: {o}")
            return
        if isinstance(o, CheckOdds):
            self.odds.setText(
                f"{head}: success {o.p_success:.0%}, expected {o.expected_added:+.1f}, "
                f"out {o.p_out:.0%}"
            )
            return
        self.odds.setText(
            f"{head}: success {o.p_success:.0%}, expected {o.expected_added:+.1f}, "
            f"out {o.p_out:.0%}, bad colour {o.p_bad:.0%}" + (" (forced)" if o.p_bad == 1 else "")
        )

    # ---------------------------------------------------------------- actions

    def _push(self, op) -> bool:
        return push(self.doc, op, beside=self.message)

    def do_roll(self) -> bool:
        pid = self.who.currentData()
        if not pid:
            self.message.setText("nobody to roll for")
            return False
        p = self.doc.encounter.chase.participant(pid)
        text = self.faces.text().strip()
        try:
            typed = bool(text)
            if "/" in text:  # an extra die typed: "6 2 / 4"
                first, _sep, second = text.partition("/")
                self._both = (parse_faces(first), parse_faces(second))
                self.message.setText(self._both_text())
                self._who_changed()
                return True
            faces = parse_faces(text) if typed else ()
        except ValueError as exc:
            self.message.setText(f"Typed faces: {exc}")
            return False
        if not typed and p is not None and not p.forced_bad:
            faces = roll_faces(self.rng)
            if p.extra_die:  # an extra pursuit die: roll both, then choose (H1)
                self._both = (faces, roll_faces(self.rng))
                self.message.setText(self._both_text())
                self._who_changed()
                return True
        ok = self._push(RollPursuit(pid, faces, typed=typed))
        if ok:
            self.faces.clear()
        return ok

    def _both_text(self) -> str:
        assert self._both is not None
        a, b = (", ".join(pursuit.colour(f) for f in r) for r in self._both)
        return f"Extra die (H1): first {a}; second {b}. Keep one."

    def do_keep(self, which: int) -> bool:
        if self._both is None:
            return False
        first, second = self._both
        typed = bool(self.faces.text().strip())
        ok = self._push(
            RollPursuit(self.who.currentData(), first, typed, other=second, chosen=which)
        )
        if ok:
            self._both = None
            self.faces.clear()
            self._who_changed()
        return ok

    def do_check(self) -> bool:
        """The typed result of physical dice (the GM's fallback)."""
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

    def _open(self, crew: str = ""):
        from afdesk.gui.chase.check_dialog import ChaseCheckDialog

        pid = self.who.currentData()
        if not pid:
            self.message.setText("nobody to check for")
            return None
        dialog = ChaseCheckDialog(self.doc, pid, crew, self.source, self.window())
        self.dialog = dialog
        dialog.open()
        return dialog

    def open_check(self):
        """The chase check dialog for the chosen participant (H2-H4)."""
        return self._open()

    def open_crew_check(self):
        """A crew member's check (H5)."""
        crew = self.crew.currentData()
        if not crew:
            self.message.setText("every crew member has checked this round")
            return None
        return self._open(crew)

    def do_resolve(self) -> bool:
        choices = tuple((pid, box.currentData() or "") for pid, box in self.choices.items())
        return self._push(ResolveChase(choices))
