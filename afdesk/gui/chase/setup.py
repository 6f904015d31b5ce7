"""The chase board's setup tabs: what a GM sets up or decides outside a turn's
roll, each an Op pushed to the document (undo, journal, log).

- :class:`ParticipantPanel`: a head start (the chase total), the way of moving and its
  speed (H3), and knocking a participant out or bringing it back (H3).
- :class:`StagePanel`: this round's stage properties picked from the ten of H4, stages
  prepared ahead, and random ones drawn (the pole picks as many as its margin, H3).
- :class:`VehiclePanel`: a vehicle with its commander, helm and crew (H5).
- :class:`CountdownPanel`: a countdown chase and its die of rows (H4).

Every control has a mnemonic (Alt+letter) or sits in the tab order, so the keyboard
reaches all of it.
"""

from __future__ import annotations

import random
import re

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QWidget,
)

from afdesk.encounter.chase.ops import (
    AddVehicle,
    KnockOut,
    LeaveVehicle,
    RollCountdown,
    SetCountdown,
    SetParticipant,
    SetStage,
)
from afdesk.encounter.chase.order import pname
from afdesk.encounter.chase.state import Countdown, Vehicle, Way
from afdesk.gui.push import push
from afdesk.rules import RulesError
from afdesk.rules.pursuit import stages
from afdesk.rules.pursuit.stages import StageProperty


def labelled(text: str, widget: QWidget) -> QLabel:
    """A label whose mnemonic focuses ``widget``."""
    label = QLabel(text)
    label.setBuddy(widget)
    return label


def fill_combo(box: QComboBox, items: list[tuple[str, str]]) -> None:
    """Refill ``box`` with (label, id) pairs, keeping the current id when it is still there."""
    keep = box.currentData()
    box.blockSignals(True)
    box.clear()
    for label, data in items:
        box.addItem(label, data)
    at = box.findData(keep) if keep is not None else -1
    box.setCurrentIndex(max(at, 0) if items else -1)
    box.blockSignals(False)


class SetupPanel(QWidget):
    """One tab: bound to a document, pushes Ops, reports the model's refusal."""

    message = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc = None
        self.rng: random.Random = random.SystemRandom()

    def set_document(self, doc) -> None:
        self.doc = doc
        self.refresh()

    def refresh(self) -> None:  # pragma: no cover - every panel overrides it
        raise NotImplementedError

    def push(self, op) -> bool:
        return push(self.doc, op, beside=self.message.emit)

    def participants(self) -> list[tuple[str, str]]:
        enc = self.doc.encounter
        return [(pname(enc, p.id), p.id) for p in enc.chase.participants]

    def _participant(self):
        """The participant chosen in the panel's ``who`` box (None if none)."""
        pid = self.who.currentData()  # type: ignore[attr-defined]
        return self.doc.encounter.chase.participant(pid) if self.doc and pid else None


class ParticipantPanel(SetupPanel):
    """Head start, way of moving, speed; knocked out or back in (H3)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        self.who = QComboBox()
        self.total = QSpinBox()
        self.total.setRange(0, 999)
        self.total.setToolTip("The chase total: a head start before the chase (H3)")
        self.way = QComboBox()
        for w in Way:
            self.way.addItem(f"{w.value} ({w.facet})", w.value)
        self.way.setToolTip("On foot check agility, riding wilderness, in a vehicle machinery (H3)")
        self.speed = QSpinBox()
        self.speed.setRange(0, 30)
        self.speed.setToolTip("The speed of its way of moving (H3)")
        self.apply = QPushButton("Appl&y")
        self.knock = QPushButton("&Mark knocked out")
        grid.addWidget(labelled("&Runner", self.who), 0, 0)
        grid.addWidget(self.who, 0, 1)
        grid.addWidget(labelled("Tot&al", self.total), 0, 2)
        grid.addWidget(self.total, 0, 3)
        grid.addWidget(labelled("&Way", self.way), 0, 4)
        grid.addWidget(self.way, 0, 5)
        grid.addWidget(labelled("&Speed", self.speed), 1, 0)
        grid.addWidget(self.speed, 1, 1)
        grid.addWidget(self.apply, 1, 2, 1, 2)
        grid.addWidget(self.knock, 1, 4, 1, 2)
        grid.setColumnStretch(1, 1)
        self.who.currentIndexChanged.connect(self._show)
        self.apply.clicked.connect(self.do_apply)
        self.knock.clicked.connect(self.do_knock)

    def refresh(self) -> None:
        if self.doc is None:
            return
        fill_combo(self.who, self.participants())
        self._show()

    def _show(self) -> None:
        p = self._participant()
        for w in (self.total, self.way, self.speed, self.apply, self.knock):
            w.setEnabled(p is not None)
        if p is None:
            return
        self.total.setValue(p.total)
        self.way.setCurrentIndex(self.way.findData(p.way.value))
        self.speed.setValue(p.speed)
        self.knock.setText("&Mark back in" if p.out else "&Mark knocked out")

    def do_apply(self) -> bool:
        """What the GM changed (total, way, speed) as one SetParticipant."""
        p = self._participant()
        if p is None:
            self.message.emit("choose a participant first")
            return False
        way = Way(self.way.currentData())
        op = SetParticipant(
            p.id,
            total=self.total.value() if self.total.value() != p.total else None,
            way=way if way is not p.way else None,
            speed=self.speed.value() if self.speed.value() != p.speed else None,
        )
        if op.total is None and op.way is None and op.speed is None:
            self.message.emit(f"{self.who.currentText()}: nothing changed")
            return False
        return self.push(op)

    def do_knock(self) -> bool:
        p = self._participant()
        if p is None:
            return False
        return self.push(KnockOut(p.id, out=not p.out))


class StagePanel(SetupPanel):
    """The ten stage properties (H4) as check boxes; set them for this round, prepare them
    ahead, or draw random ones (as many as the pole's margin, H3)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        self.boxes: dict[StageProperty, QCheckBox] = {}
        for i, prop in enumerate(StageProperty):
            box = QCheckBox(prop.label)
            box.setToolTip(f"{prop.label} (H4): {prop.effect}")
            self.boxes[prop] = box
            grid.addWidget(box, i // 5, i % 5)
        row = QHBoxLayout()
        self.set_now = QPushButton("&Set stage")
        self.set_now.setToolTip("This round's stage: the properties ticked (none: a simple stage)")
        self.ahead = QPushButton("Prepare &ahead")
        self.ahead.setToolTip("Queue the ticked properties as a stage taken at a round's start")
        self.draw = QPushButton("Dra&w random")
        self.draw.setToolTip("Tick as many random properties as the pole picks (its margin, H3)")
        self.override = QCheckBox("&Beyond the pole's count (GM)")
        self.queue = QLabel()
        self.queue.setWordWrap(True)
        for w in (self.set_now, self.ahead, self.draw, self.override):
            row.addWidget(w)
        row.addWidget(self.queue, 1)
        grid.addLayout(row, 2, 0, 1, 5)
        self._seen: tuple[StageProperty, ...] | None = None
        self.set_now.clicked.connect(self.do_set)
        self.ahead.clicked.connect(self.do_ahead)
        self.draw.clicked.connect(self.do_draw)

    def ticked(self) -> tuple[str, ...]:
        return tuple(p.value for p, box in self.boxes.items() if box.isChecked())

    def tick(self, props) -> None:
        chosen = {StageProperty(p) for p in props}
        for p, box in self.boxes.items():
            box.setChecked(p in chosen)

    def refresh(self) -> None:
        if self.doc is None:
            return
        chase = self.doc.encounter.chase
        if chase.stage != self._seen:  # the boxes start from the stage in play
            self._seen = chase.stage
            self.tick(chase.stage)
        ahead = [", ".join(p.label for p in s) or "simple" for s in chase.stages_ahead]
        self.queue.setText("Prepared: " + ("; ".join(ahead) if ahead else "none"))
        self.queue.setToolTip(self.queue.text())

    def do_set(self) -> bool:
        return self.push(SetStage(self.ticked(), override=self.override.isChecked()))

    def do_ahead(self) -> bool:
        return self.push(SetStage(self.ticked(), ahead=True))

    def do_draw(self) -> bool:
        """Tick a random stage of the pole's count (H3; 1 when there is no pole yet); the GM
        then sets it or prepares it ahead."""
        margin = self.doc.encounter.chase.pole_margin if self.doc else 0
        try:
            drawn = stages.draw(self.rng, stages.property_count(margin))
        except RulesError as exc:
            self.message.emit(str(exc))
            return False
        self.tick(drawn)
        self.message.emit("Drawn: " + ", ".join(p.label for p in drawn) + " (set or prepare it)")
        return True


def vehicle_id(name: str, taken: set[str]) -> str:
    """An id for a vehicle named ``name`` that nothing else uses."""
    base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "vehicle"
    vid, n = base, 2
    while vid in taken:
        vid, n = f"{base}-{n}", n + 1
    return vid


class VehiclePanel(SetupPanel):
    """A vehicle joins the chase (H5): commander (holds reflex), helm (its pursuit die moves
    the vehicle), crew (each participating crew member checks), speed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        self.name = QLineEdit()
        self.name.setPlaceholderText("e.g. the fish cart")
        self.commander = QComboBox()
        self.helm = QComboBox()
        self.speed = QSpinBox()
        self.speed.setRange(0, 30)
        self.speed.setValue(4)
        self.crew = QListWidget()
        self.crew.setMaximumHeight(64)
        self.crew.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.crew.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.crew.setToolTip("Tick the crew members besides the commander and the helm")
        self.add = QPushButton("&Join the chase")
        grid.addWidget(labelled("Na&me", self.name), 0, 0)
        grid.addWidget(self.name, 0, 1)
        grid.addWidget(labelled("Comm&ander", self.commander), 0, 2)
        grid.addWidget(self.commander, 0, 3)
        grid.addWidget(labelled("Helm (&s)", self.helm), 1, 0)
        grid.addWidget(self.helm, 1, 1)
        grid.addWidget(labelled("Speed (&q)", self.speed), 1, 2)
        grid.addWidget(self.speed, 1, 3)
        grid.addWidget(labelled("C&rew", self.crew), 0, 4, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.crew, 0, 5, 2, 1)
        grid.addWidget(self.add, 1, 6)
        self.aboard = QComboBox()
        self.aboard.setToolTip("Crew stay crew, across mode changes too, until taken off (H5)")
        self.take_off = QPushButton("Ta&ke off the vehicle")
        grid.addWidget(labelled("Aboar&d", self.aboard), 2, 0)
        grid.addWidget(self.aboard, 2, 1)
        grid.addWidget(self.take_off, 2, 2, 1, 2)
        grid.setColumnStretch(1, 1)
        self.add.clicked.connect(self.do_add)
        self.take_off.clicked.connect(self.do_take_off)

    def do_take_off(self) -> bool:
        """The chosen character leaves its vehicle and runs on (H5); the commander or the
        helm takes the vehicle out of the chase."""
        who = self.aboard.currentData()
        if not who:
            self.message.emit("Vehicle: nobody is aboard a vehicle")
            return False
        return self.push(LeaveVehicle(who))

    def _free(self) -> list[tuple[str, str]]:
        """Characters in the chase not aboard a vehicle yet."""
        enc = self.doc.encounter
        return [
            (c.name, c.id) for c in enc.roster() if c.on_map and enc.chase.vehicle_of(c.id) is None
        ]

    def refresh(self) -> None:
        if self.doc is None:
            return
        free = self._free()
        fill_combo(self.commander, free)
        fill_combo(self.helm, free)
        enc = self.doc.encounter
        aboard = []
        for v in enc.chase.vehicles:
            roles = {v.commander: "commander", v.helm: "helm"} | dict.fromkeys(v.crew, "crew")
            for cid in dict.fromkeys((v.commander, v.helm, *v.crew)):
                if cid in enc.combatants:
                    aboard.append((f"{enc.combatants[cid].name} ({v.name}, {roles[cid]})", cid))
        fill_combo(self.aboard, aboard)
        self.take_off.setEnabled(bool(aboard))
        ticked = set(self.crew_ids())
        self.crew.clear()
        for label, cid in free:
            item = QListWidgetItem(label)
            item.setToolTip(label)
            item.setData(Qt.ItemDataRole.UserRole, cid)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if cid in ticked else Qt.CheckState.Unchecked)
            self.crew.addItem(item)

    def crew_ids(self) -> list[str]:
        out = []
        for i in range(self.crew.count()):
            item = self.crew.item(i)
            if item.checkState() == Qt.CheckState.Checked:
                out.append(item.data(Qt.ItemDataRole.UserRole))
        return out

    def set_crew(self, ids) -> None:
        for i in range(self.crew.count()):
            item = self.crew.item(i)
            on = item.data(Qt.ItemDataRole.UserRole) in ids
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)

    def do_add(self) -> bool:
        name = self.name.text().strip()
        if not name:
            self.message.emit("Vehicle: give it a name")
            self.name.setFocus()
            return False
        enc = self.doc.encounter
        commander, helm = self.commander.currentData(), self.helm.currentData()
        if not commander or not helm:
            self.message.emit("Vehicle: choose its commander and its helm (H5)")
            return False
        crew = tuple(c for c in self.crew_ids() if c not in (commander, helm))
        taken = set(enc.combatants) | {p.id for p in enc.chase.participants}
        taken |= {v.id for v in enc.chase.vehicles}
        vehicle = Vehicle(
            vehicle_id(name, taken), name, commander, helm, crew, speed=self.speed.value()
        )
        ok = self.push(AddVehicle(vehicle))
        if ok:
            self.name.clear()
            self.set_crew(())
        return ok


class CountdownPanel(SetupPanel):
    """A countdown chase (H4): a goal within some exchanges, and/or rows of areas falling
    away each round on the countdown die (one row on the good colour, two on the bad)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        grid = QGridLayout(self)
        self.exchanges = QSpinBox()
        self.exchanges.setRange(0, 20)
        self.exchanges.setSpecialValueText("no limit")
        self.target = QLineEdit()
        self.target.setPlaceholderText("the stage or area to reach, e.g. the temple gate")
        self.rows = QCheckBox("&Rows of areas fall away each round")
        self.set = QPushButton("&Set countdown")
        self.faces = QLineEdit()
        self.faces.setPlaceholderText("faces of a physical die (empty: roll)")
        self.roll = QPushButton("Countdown die (&m)")
        self.state = QLabel()
        grid.addWidget(labelled("&Within exchanges", self.exchanges), 0, 0)
        grid.addWidget(self.exchanges, 0, 1)
        grid.addWidget(labelled("To re&ach", self.target), 0, 2)
        grid.addWidget(self.target, 0, 3)
        grid.addWidget(self.rows, 1, 0, 1, 2)
        grid.addWidget(self.set, 1, 2)
        grid.addWidget(self.state, 2, 0, 1, 2)
        grid.addWidget(self.faces, 2, 2, 1, 2)
        grid.addWidget(self.roll, 2, 4)
        grid.setColumnStretch(3, 1)
        self.set.clicked.connect(self.do_set)
        self.roll.clicked.connect(self.do_roll)

    def refresh(self) -> None:
        if self.doc is None:
            return
        c = self.doc.encounter.chase.countdown
        self.exchanges.setValue(c.exchanges)
        self.target.setText(c.target)
        self.rows.setChecked(c.rows)
        # One countdown die a round (H4): the model refuses a second; the button says why.
        self.roll.setEnabled(c.rows and not c.rolled)
        self.roll.setToolTip(
            "Rolled this round (H4: one countdown die a round); roll again next round."
            if c.rows and c.rolled
            else "Roll the countdown die: one row falls on the good colour, two on the bad (H4)"
        )
        self.state.setText(
            f"{c.rows_removed} row(s) gone" + (", rolled this round" if c.rolled else "")
            if c.rows
            else ""
        )

    def do_set(self) -> bool:
        old = self.doc.encounter.chase.countdown
        return self.push(
            SetCountdown(
                Countdown(
                    exchanges=self.exchanges.value(),
                    target=self.target.text().strip(),
                    rows=self.rows.isChecked(),
                    rows_removed=old.rows_removed,
                    rolled=old.rolled,
                )
            )
        )

    def do_roll(self) -> bool:
        from afdesk.gui.chase.faces import parse_faces, roll_faces

        text = self.faces.text().strip()
        try:
            faces = parse_faces(text) if text else roll_faces(self.rng)
        except ValueError as exc:
            self.message.emit(f"Countdown die: {exc}")
            return False
        ok = self.push(RollCountdown(faces))
        if ok:
            self.faces.clear()
        return ok
