"""The GM's controls under the dispute board, as tabs (Alt+letter on each control):

- Play: who acts and at whom; Convince, Taunt and Distract open battle's check dialog
  (with the exact odds; the dispute's mode gives it its targets, the neutral audience
  first), each button saying why it is refused before the GM tries (P4, P4b, E6);
  tension up and down and its threshold (P7);
- People: move an individual or part of a group to a side (P3), grit, wits and sway, a new
  group of denizens;
- Platforms: add or edit a platform: name, course, proponent, properties with their dice,
  the conventional mark (P2);
- Ending: close the dispute at an exchange end (P8, the GM picks among tied platforms),
  end it with the GM's winner or reopen it (P9).

Every change is an Op pushed to the document; a refused one changes nothing and its reason
(with its rule id) shows under the controls.
"""

from __future__ import annotations

import re

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.checks import CheckKind
from afdesk.encounter.dispute.checks import check_refusal, check_targets
from afdesk.encounter.dispute.ops import (
    AddPlatform,
    AddTension,
    CloseDispute,
    EditPlatform,
    JoinDispute,
    MoveDisputant,
    SetDisputeStats,
    SetTensionThreshold,
    SettleDispute,
    side_name,
)
from afdesk.encounter.dispute.state import AUDIENCE, DisputeState, Entry, Platform, PlatformProperty
from afdesk.encounter.state import Mode
from afdesk.gui.dialogs.contest import ContestDialog
from afdesk.gui.push import push
from afdesk.gui.style import meaning_style
from afdesk.rules.dispute import closing_winner

CHECKS = (CheckKind.CONVINCE, CheckKind.TAUNT, CheckKind.DISTRACT)
NEW = "\x00new"
"""The platform box's "(new platform)" entry."""


def narrow(box: QComboBox, letters: int = 16) -> QComboBox:
    """A combo box as wide as ``letters`` characters whatever its items (the board stays
    within a 1280-wide screen); the whole text is its tooltip."""
    box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    box.setMinimumContentsLength(letters)
    box.currentTextChanged.connect(box.setToolTip)
    return box


def parse_properties(text: str) -> tuple[PlatformProperty, ...]:
    """ "Grief in the room +1; The way it was" -> properties; a trailing signed number is the
    property's dice (P2, R1)."""
    out = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(.*?)\s*([+-]\d+)", part)
        if m and m.group(1):
            out.append(PlatformProperty(m.group(1), int(m.group(2))))
        else:
            out.append(PlatformProperty(part))
    return tuple(out)


def properties_text(props: tuple[PlatformProperty, ...]) -> str:
    return "; ".join(p.text + (f" {p.dice:+d}" if p.dice else "") for p in props)


def _refill(box: QComboBox, items: list[tuple[str, str]]) -> None:
    """Replace ``box``'s items, keeping the chosen one if it is still there."""
    if [(box.itemText(i), box.itemData(i)) for i in range(box.count())] == items:
        return
    keep = box.currentData()
    box.blockSignals(True)
    box.clear()
    for label, data in items:
        box.addItem(label, data)
    i = box.findData(keep)
    box.setCurrentIndex(max(i, 0))
    box.blockSignals(False)


def _spin(prefix: str, top: int = 99) -> QSpinBox:
    s = QSpinBox()
    s.setRange(0, top)
    s.setPrefix(prefix)
    return s


class DisputeControls(QWidget):
    """The GM's controls (see the module)."""

    def __init__(self, board) -> None:
        super().__init__(board)
        self.board = board
        self.doc = None
        self.source = None
        """The check dialogs' dice source (None: fresh random dice)."""
        self.dialog: ContestDialog | None = None
        """The check dialog last opened (tests read it)."""
        self._shown: tuple[Entry | None, Platform | None] = (None, None)
        """The entry and platform whose values the People and Platforms tabs show."""
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        self.tabs = QTabWidget()
        outer.addWidget(self.tabs)
        self._play_tab()
        self._people_tab()
        self._platform_tab()
        self._ending_tab()
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setStyleSheet(meaning_style("error", self.message, "font-weight: bold;"))
        outer.addWidget(self.message)

    # ------------------------------------------------------------------ build

    def _play_tab(self) -> None:
        grid = self._tab("&Play")
        self.actor = narrow(QComboBox(), 24)
        self.target = narrow(QComboBox(), 22)
        who, at = QLabel("&Who"), QLabel("&At")
        who.setBuddy(self.actor)
        at.setBuddy(self.target)
        grid.addWidget(who, 0, 0)
        grid.addWidget(self.actor, 0, 1)
        grid.addWidget(at, 0, 2)
        grid.addWidget(self.target, 0, 3)
        row = QHBoxLayout()
        self.check_buttons: dict[CheckKind, QPushButton] = {}
        for kind, text in zip(CHECKS, ("&Convince…", "Ta&unt…", "Distra&ct…"), strict=True):
            b = QPushButton(text)
            b.clicked.connect(lambda _c=False, k=kind: self.open_check(k))
            self.check_buttons[kind] = b
            row.addWidget(b)
        row.addStretch(1)
        self.less = QPushButton("Tension &−1")
        self.more = QPushButton("Tension &+1")
        self.threshold = _spin("threshold ", 20)
        self.set_threshold = QPushButton("Set t&hreshold")
        for w in (self.less, self.more, self.threshold, self.set_threshold):
            row.addWidget(w)
        grid.addLayout(row, 1, 0, 1, 4)
        self.why = QLabel()
        self.why.setWordWrap(True)
        self.why.setStyleSheet(meaning_style("hint", self.why))
        grid.addWidget(self.why, 2, 0, 1, 4)
        # Who and At share the row: a long name keeps its side in view (1280x720).
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        self.actor.currentIndexChanged.connect(lambda _i: self._refresh_play())
        self.target.currentIndexChanged.connect(lambda _i: self._refresh_why())
        self.less.clicked.connect(lambda: self.push(AddTension(-1)))
        self.more.clicked.connect(lambda: self.push(AddTension(1)))
        self.set_threshold.clicked.connect(
            lambda: self.push(SetTensionThreshold(self.threshold.value()))
        )

    def _people_tab(self) -> None:
        grid = self._tab("P&eople")
        self.entry = narrow(QComboBox(), 20)
        self.side = narrow(QComboBox())
        self.count = QSpinBox()
        self.count.setRange(1, 999)
        self.count.setPrefix("how many ")
        self.move = QPushButton("&Move")
        label = QLabel("W&ho")
        label.setBuddy(self.entry)
        grid.addWidget(label, 0, 0)
        grid.addWidget(self.entry, 0, 1)
        to = QLabel("&to")
        to.setBuddy(self.side)
        grid.addWidget(to, 0, 2)
        grid.addWidget(self.side, 0, 3)
        grid.addWidget(self.count, 0, 4)
        grid.addWidget(self.move, 0, 5)
        self.grit, self.wits, self.sway = _spin("grit "), _spin("wits "), _spin("sway ")
        self.set_stats = QPushButton("&Set grit, wits, sway")
        row = QHBoxLayout()
        for w in (self.grit, self.wits, self.sway, self.set_stats):
            row.addWidget(w)
        row.addSpacing(16)
        self.group_name = QLineEdit()
        self.group_name.setPlaceholderText("new group, e.g. Millers")
        self.group_count = QSpinBox()
        self.group_count.setRange(1, 999)
        self.group_count.setPrefix("count ")
        self.add_group = QPushButton("Add to the &audience")
        for w in (self.group_name, self.group_count, self.add_group):
            row.addWidget(w)
        grid.addLayout(row, 1, 0, 1, 6)
        grid.setColumnStretch(1, 1)
        self.entry.currentIndexChanged.connect(lambda _i: self._show_entry())
        self.move.clicked.connect(self.do_move)
        self.set_stats.clicked.connect(self.do_stats)
        self.add_group.clicked.connect(self.do_add_group)

    def _platform_tab(self) -> None:
        grid = self._tab("Platfo&rms")
        self.platform = narrow(QComboBox())
        self.p_name = QLineEdit()
        self.p_name.setPlaceholderText("name")
        self.p_course = QLineEdit()
        self.p_course.setPlaceholderText("the course of action, in one line")
        self.p_proponent = narrow(QComboBox())
        self.p_properties = QLineEdit()
        self.p_properties.setPlaceholderText("properties; a trailing +1 or -1 is dice (P2)")
        self.p_conventional = QCheckBox("C&onventional")
        self.p_save = QPushButton("Sa&ve platform")
        plat = QLabel("P&latform")
        plat.setBuddy(self.platform)
        grid.addWidget(plat, 0, 0)
        grid.addWidget(self.platform, 0, 1)
        grid.addWidget(self.p_name, 0, 2)
        grid.addWidget(self.p_conventional, 0, 3)
        grid.addWidget(self.p_course, 1, 0, 1, 4)
        by = QLabel("&By")
        by.setBuddy(self.p_proponent)
        grid.addWidget(by, 2, 0)
        grid.addWidget(self.p_proponent, 2, 1)
        grid.addWidget(self.p_properties, 2, 2)
        grid.addWidget(self.p_save, 2, 3)
        grid.setColumnStretch(2, 1)
        self.platform.currentIndexChanged.connect(lambda _i: self._show_platform())
        self.p_save.clicked.connect(self.do_platform)

    def _tab(self, title: str) -> QGridLayout:
        """A new tab of the controls, titled ``title``: its grid, laid out alike."""
        tab = QWidget()
        grid = QGridLayout(tab)
        grid.setContentsMargins(6, 4, 6, 4)
        grid.setVerticalSpacing(2)
        self.tabs.addTab(tab, title)
        return grid

    def _ending_tab(self) -> None:
        grid = self._tab("Endin&g")
        self.close_button = QPushButton("Close the dispute on the most support (P8)")
        self.close_button.setToolTip(
            "At an exchange end: the most support wins; a tie goes to the conventional "
            "platform, else to the one picked here (P8)"
        )
        self.winner = narrow(QComboBox(), 20)
        self.settle = QPushButton("GM: end it with this &winner (P9)")
        self.reopen = QPushButton("Re&open the dispute")
        pick = QLabel("Pick")
        pick.setBuddy(self.winner)
        grid.addWidget(pick, 0, 0)
        grid.addWidget(self.winner, 0, 1)
        grid.addWidget(self.close_button, 0, 2)
        grid.addWidget(self.settle, 1, 1)
        grid.addWidget(self.reopen, 1, 2)
        grid.setColumnStretch(3, 1)
        self.close_button.clicked.connect(self.do_close)
        self.settle.clicked.connect(
            lambda: self.push(SettleDispute(winner=self.winner.currentData() or ""))
        )
        self.reopen.clicked.connect(lambda: self.push(SettleDispute(reopen=True)))

    def do_close(self) -> bool:
        """Close the dispute (P8): the picked platform counts only among the tied."""
        d = self.dispute
        conv = d.conventional()
        won, tied = closing_winner(d.support(), conv.id if conv else None)
        pick = self.winner.currentData() or ""
        return self.push(CloseDispute(pick=pick if not won and pick in tied else ""))

    # ------------------------------------------------------------------ document

    def set_document(self, doc) -> None:
        self.doc = doc
        self.refresh()

    def push(self, op) -> bool:
        """Push ``op``; a refusal shows under the controls (nothing changed)."""
        if self.doc is None:
            return False
        return push(self.doc, op, beside=self.message)

    @property
    def dispute(self) -> DisputeState:
        assert self.doc is not None
        d: DisputeState = self.doc.encounter.dispute
        return d

    def refresh(self) -> None:
        if self.doc is None:
            return
        enc = self.doc.encounter
        d = self.dispute
        live = enc.mode is Mode.DISPUTE
        self.setEnabled(live)
        actors = [
            (f"{e.name} ({side_name(d, e.side)})", e.character)
            for e in d.entries
            if e.character in enc.combatants
        ]
        _refill(self.actor, actors)
        if enc.actor and self.actor.findData(enc.actor) >= 0:
            self.actor.setCurrentIndex(self.actor.findData(enc.actor))
        self._refresh_play()
        sides = [(p.name, p.id) for p in d.platforms] + [("the neutral audience", AUDIENCE)]
        _refill(self.side, sides)
        entries = [
            (e.name + (f" ×{e.count}" if e.group else "") + f" ({side_name(d, e.side)})", e.id)
            for e in d.entries
        ]
        _refill(self.entry, entries)
        self._show_entry()
        _refill(self.platform, [(p.name, p.id) for p in d.platforms] + [("(new platform)", NEW)])
        _refill(self.p_proponent, [("(no proponent)", "")] + [(e.name, e.id) for e in d.entries])
        self._show_platform()
        self._refresh_winner(d)
        self.close_button.setEnabled(not d.over)
        self.settle.setEnabled(not d.over)
        self.reopen.setEnabled(d.over)
        self.threshold.setValue(d.threshold)
        self.less.setEnabled(d.tension > 0 and not d.over)
        self.more.setEnabled(not d.over)

    def _refresh_winner(self, d: DisputeState) -> None:
        """The Ending tab's pick: on a tie for the most support with no conventional
        platform among the tied, the tied ones are marked and the first is chosen, so that
        Close picks among them (P8)."""
        conv = d.conventional()
        won, tied = closing_winner(d.support(), conv.id if conv else None)
        tied = () if won else tied
        _refill(
            self.winner,
            [(p.name + (" (tied)" if p.id in tied else ""), p.id) for p in d.platforms]
            + [("nobody", "")],
        )
        if tied and self.winner.currentData() not in tied:
            self.winner.setCurrentIndex(self.winner.findData(tied[0]))

    # ------------------------------------------------------------------ play

    def _refresh_play(self) -> None:
        if self.doc is None:
            return
        actor = self.actor.currentData() or ""
        enc = self.doc.encounter
        targets = (
            self.doc.memo(
                ("dispute_targets", actor), lambda: check_targets(enc, actor, CheckKind.CONVINCE)
            )
            if actor
            else []
        )
        # The audience's refusal is the actor's (no turn, the action used, standing in the
        # audience): the line under the buttons says it. A person refused for another
        # reason is refused for that person, and only a Convince is: Taunt and Distract
        # may still aim there (P4b, P5).
        actors = next((why for _label, cid, why in targets if cid == AUDIENCE), "")
        _refill(
            self.target,
            [
                (label + (" — Convince refused" if why and why != actors else ""), cid)
                for label, cid, why in targets
            ],
        )
        self._refresh_why()

    def reasons(self) -> dict[CheckKind, str]:
        """Why each check is refused now for the chosen actor and target ("" if not)."""
        if self.doc is None:
            return {}
        actor = self.actor.currentData() or ""
        target = self.target.currentData() or ""
        out = {}
        for kind in CHECKS:
            if not actor:
                out[kind] = "nobody in the dispute is a character who can act"
            elif not target and kind is not CheckKind.CONVINCE:
                # The line reads "Taunt: pick one person ..." (no "Taunt: Taunt ...").
                out[kind] = "pick one person at At: the audience can only be convinced (P4a)"
            else:
                out[kind] = check_refusal(self.doc.encounter, actor, kind, target)
        return out

    def _refresh_why(self) -> None:
        reasons = self.reasons()
        lines = []
        for kind, b in self.check_buttons.items():
            why = reasons.get(kind, "")
            b.setEnabled(not why)
            b.setToolTip(why or f"{kind.label}: the check dialog with its odds")
            if why:
                lines.append(f"{kind.label}: {why}")
        self.why.setText("\n".join(lines[:2]))

    def open_check(self, kind: CheckKind) -> ContestDialog | None:
        """The check dialog of ``kind`` for the chosen actor and target (refused: its
        reason, and no dialog)."""
        why = self.reasons().get(kind, "")
        if why or self.doc is None:
            self.message.setText(why)
            return None
        self.message.setText("")
        dialog = ContestDialog(
            self.doc,
            self.actor.currentData(),
            kind,
            self.target.currentData() or "",
            self.window(),
        )
        dialog.source = self.source
        self.dialog = dialog
        dialog.open()
        return dialog

    # ------------------------------------------------------------------ people

    def _chosen_entry(self) -> Entry | None:
        return self.dispute.entry(self.entry.currentData() or "") if self.doc else None

    def _show_entry(self) -> None:
        e = self._chosen_entry()
        if e is None or e == self._shown[0]:
            return  # what the GM is typing stays while the entry is the same
        self._shown = (e, self._shown[1])
        self.count.setRange(1, e.count)
        self.count.setValue(e.count)
        self.count.setEnabled(e.group)
        self.grit.setValue(e.grit)
        self.wits.setValue(e.wits)
        self.sway.setValue(e.sway)

    def do_move(self) -> bool:
        e = self._chosen_entry()
        if e is None:
            return False
        count = self.count.value() if e.group else 0
        return self.push(MoveDisputant(e.id, self.side.currentData(), count))

    def do_stats(self) -> bool:
        e = self._chosen_entry()
        if e is None:
            return False
        return self.push(
            SetDisputeStats(e.id, self.grit.value(), self.wits.value(), self.sway.value())
        )

    def do_add_group(self) -> bool:
        name = self.group_name.text().strip()
        if not name:
            self.message.setText("A new group needs a name (P3)")
            return False
        base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "group"
        eid, n = base, 2
        while self.dispute.entry(eid) is not None:
            eid, n = f"{base}-{n}", n + 1
        entry = Entry(
            eid,
            name,
            count=self.group_count.value(),
            grit=self.grit.value(),
            wits=self.wits.value(),
            sway=self.sway.value(),
        )
        if self.push(JoinDispute(entry)):
            self.group_name.clear()
            return True
        return False

    # ------------------------------------------------------------------ platforms

    def _show_platform(self) -> None:
        p = self.dispute.platform(self.platform.currentData() or "") if self.doc else None
        self.p_save.setText("Sa&ve platform" if p is not None else "&Add platform")
        if p is self._shown[1] or (p is not None and p == self._shown[1]):
            return  # what the GM is typing stays while the platform is the same
        self._shown = (self._shown[0], p)
        if p is None:
            for w in (self.p_name, self.p_course, self.p_properties):
                w.clear()
            self.p_conventional.setChecked(False)
            return
        self.p_name.setText(p.name)
        self.p_course.setText(p.course)
        i = self.p_proponent.findData(p.proponent)
        self.p_proponent.setCurrentIndex(max(i, 0))
        self.p_properties.setText(properties_text(p.properties))
        self.p_conventional.setChecked(p.conventional)

    def do_platform(self) -> bool:
        """Add the platform typed in, or save the chosen one (P2)."""
        pid = self.platform.currentData()
        name = self.p_name.text().strip()
        if pid == NEW or not pid:
            base = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "platform"
            pid, n = base, 2
            while self.dispute.platform(pid) is not None:
                pid, n = f"{base}-{n}", n + 1
            new = True
        else:
            new = False
        platform = Platform(
            pid,
            name,
            self.p_course.text().strip(),
            self.p_proponent.currentData() or "",
            parse_properties(self.p_properties.text()),
            self.p_conventional.isChecked(),
        )
        done = self.push(AddPlatform(platform) if new else EditPlatform(platform))
        if done and new:
            self.platform.setCurrentIndex(self.platform.findData(pid))
        return done
