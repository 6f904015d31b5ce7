"""The Infiltration dock: what the GM does in an infiltration besides moving tokens (N1-N8).

- the alarm (N6) and the end (N8), with Raise alarm;
- the watch (N3): each unaware guardian's proposed step; Roll… opens its study check in
  the check dialog (exact odds); Confirm (or Fumble: the step away) one by one, or Confirm
  all;
- the decoys seen right now and by whom (N4a), each with Eliminate;
- the hidden characters' decoys, each with Act here (the surprise attack or the Creep is
  made from that decoy's area, N5, N7) and Reveal (N5);
- the setup (N2): the selected intruder starts hidden at its area and the free area beside;
- the objectives with their done marks (N1), and who got out by which edge (N8).

Every button pushes an Op; a refusal shows under the buttons, with its rule id, and
changes nothing. The dock shows itself while the encounter is an infiltration."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDockWidget,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.combatant import Side
from afdesk.encounter.geometry import direction_name, neighbours
from afdesk.encounter.infiltration.end import nearest_edge, outcome, over
from afdesk.encounter.infiltration.ops import (
    EDGES,
    ConfirmWatch,
    EliminateDecoy,
    HiddenActsFrom,
    MarkLeft,
    MarkObjective,
    RaiseAlarm,
    Reveal,
    SetRoles,
)
from afdesk.encounter.infiltration.setup import SetUpIntruder
from afdesk.encounter.infiltration.watch import (
    WATCHED,
    confirm_all_refusal,
    seen_decoys,
    watch_step,
    watch_steps,
)
from afdesk.encounter.state import Mode
from afdesk.encounter.zone import Edge
from afdesk.gui.errors import show_refusal
from afdesk.gui.follow import Links, follow
from afdesk.gui.push import push
from afdesk.gui.style import meaning_style


def _at(area) -> str:
    return f"({area[0]}, {area[1]})"


class InfiltrationPanel(QWidget):
    """The dock's contents (see the module)."""

    def __init__(self, parent=None, ctx=None) -> None:
        super().__init__(parent)
        self.setObjectName("infiltrationPanel")
        self.doc = None
        self._links = Links()
        self.ctx = ctx
        """The window's command context: it opens the check dialog (None: opened here)."""
        self.dialog = None
        """The last check dialog opened from the dock (tests read it)."""
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setObjectName("infiltrationStatus")
        self.alarm = QPushButton("Raise the &alarm (N6)")
        self.alarm.clicked.connect(lambda: self.push(RaiseAlarm()))
        self.confirm_all = QPushButton("Confirm &all watch steps (N3)")
        self.confirm_all.clicked.connect(self._confirm_all)
        self.refusal = QLabel()
        self.refusal.setWordWrap(True)
        self.refusal.setStyleSheet(meaning_style("error"))
        self.body = QWidget()
        self.rows = QVBoxLayout(self.body)
        self.rows.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(self.body)
        outer.addWidget(self.status)
        outer.addWidget(self.alarm)
        outer.addWidget(self.confirm_all)
        outer.addWidget(self.refusal)
        outer.addWidget(scroll, 1)
        self.buttons: dict[str, QPushButton] = {}
        """The buttons of the rows shown now, by a key tests use ("confirm:guard-1",
        "watch:guard-1", "fumble:guard-1", "eliminate:huang@(1, 2)", "act:huang@(1, 2)",
        "reveal:huang@(1, 2)", "hide:huang", "left:huang")."""
        self.objective_boxes: dict[str, QCheckBox] = {}
        self.decoy_moves = None
        """The selected hidden character's Maneuver while hidden (N5), when shown."""
        self._shown: tuple = ()
        self.slots: dict[str, _Slot] = {}
        """Each part of the dock in its place (:data:`SLOTS`), remade only when what it
        shows changed: a change elsewhere makes no widget here."""
        for name in SLOTS:
            slot = self.slots[name] = _Slot()
            self.rows.addWidget(slot.widget)
        self.rows.addStretch(1)
        self._into = self.slots[SLOTS[0]].box

    # ------------------------------------------------------------------ document

    def set_document(self, doc) -> None:
        self.doc = doc
        self._shown = ()
        for slot in self.slots.values():
            slot.made = False  # made again for this document
        self._links.clear()
        for signal in (doc.changed, doc.modeChanged, doc.selectionChanged):
            self._links.connect(signal, self.sync)
        self.refusal.clear()
        self.sync()

    def push(self, *ops) -> str:
        """Push ``ops`` as one step; a refusal shows under the buttons (nothing changed)."""
        said: list[str] = []
        push(self.doc, ops, beside=lambda r: said.append(r) or show_refusal(self.refusal, r))
        return said[0]

    def _confirm_all(self) -> None:
        steps = watch_steps(self.doc.encounter)
        if not steps:
            show_refusal(self.refusal, confirm_all_refusal(self.doc.encounter))
            return
        self.push(ConfirmWatch(steps))

    # ------------------------------------------------------------------ showing

    def sync(self, *_args) -> None:
        doc = self.doc
        if doc is None:
            return
        enc = doc.encounter
        dock = self.parentWidget()
        on = enc.mode is Mode.INFILTRATION
        if isinstance(dock, QDockWidget) and dock.isHidden() == on:
            dock.setVisible(on)
        if not on:
            return
        key = (doc.revision, doc.selected)
        if key == self._shown:
            return
        self._shown = key
        inf = enc.infiltration
        ended = over(enc)
        if ended:
            self.status.setText(f"<b>The infiltration is over</b>: {ended}.")
            self.status.setStyleSheet(meaning_style("good"))
        elif inf.alarm:
            self.status.setText("<b>ALARM raised</b> (N6): guardians take normal turns.")
            self.status.setStyleSheet(meaning_style("error", extra="font-weight: bold;"))
        elif not inf.guardians and not inf.intruders:
            self.status.setText("<b>No roles yet</b>: say who intrudes below (N1).")
            self.status.setStyleSheet("")
        else:
            n = sum(1 for g in inf.guardians if inf.unaware(g))
            self.status.setText(
                f"No alarm: {n} guardian(s) unaware. On its turn an unaware guardian only "
                "rolls its watch (a study check) and takes the step the GM confirms (N3)."
            )
            self.status.setStyleSheet("")
        self.alarm.setEnabled(not inf.alarm)
        steps = watch_steps(enc)
        self.confirm_all.setEnabled(bool(steps))
        self.confirm_all.setToolTip(
            "Each unaware guardian takes its proposed watch step: one a turn (N3)"
            if steps
            else confirm_all_refusal(enc)
        )
        self._rebuild(enc, inf, steps)

    def _fill(self, name: str, key: object, build) -> None:
        """Slot ``name`` made again by ``build()`` when ``key`` (what it shows) changed;
        as it was, its widgets kept, when not."""
        slot = self.slots[name]
        if slot.key == key and slot.made:
            return
        slot.clear()
        slot.key, slot.made = key, True
        self._into = slot.box
        self.buttons = slot.buttons
        build()
        slot.widget.setVisible(slot.box.count() > 0)

    def _group(self, title: str) -> QGridLayout:
        box = QGroupBox(title)
        grid = QGridLayout(box)
        grid.setContentsMargins(4, 4, 4, 4)
        grid.setColumnStretch(0, 1)
        self._into.addWidget(box)
        return grid

    def _row(self, grid: QGridLayout, text: str, *buttons: tuple[str, str, object]) -> None:
        r = grid.rowCount()
        label = QLabel(text)
        label.setWordWrap(True)
        # One or two buttons fit beside the words; more go on a line of their own
        # under them, so that the words keep the dock's width (1280x720: 340 px).
        below = len(buttons) > 2
        grid.addWidget(label, r, 0, 1, 1 if not below else len(buttons) + 1)
        line = QHBoxLayout()
        if below:
            line.addStretch(1)
            grid.addLayout(line, r + 1, 0, 1, len(buttons) + 1)
        for n, (key, title, ops) in enumerate(buttons, 1):
            b = QPushButton(title)
            if callable(ops):
                b.clicked.connect(lambda _c=False, f=ops: f())
            else:
                b.clicked.connect(lambda _c=False, o=ops: self.push(*o))
            if below:
                line.addWidget(b)
            else:
                grid.addWidget(b, r, n)
            self.buttons[key] = b

    def _rebuild(self, enc, inf, steps) -> None:
        """Each slot made again only if what it shows changed (its key: the model's
        values it reads, immutable, so an unchanged one is the same object)."""
        names = {cid: c.name for cid, c in enc.combatants.items()}
        sel = self.doc.selected
        c = enc.combatants.get(sel) if sel else None
        aways = tuple(watch_step(enc, s.id, fumbled=True) for s in steps)
        stepped = tuple(
            names.get(g, g)
            for g in inf.guardians
            if inf.unaware(g)
            and g in enc.combatants
            and WATCHED in enc.combatants[g].economy.resolved
        )
        seen = seen_decoys(enc)
        hidden = tuple(
            h
            for cid in (*inf.intruders, *inf.guardians)
            if (h := enc.combatants.get(cid)) is not None and h.on_map and h.hidden
        )
        moving = c is not None and c.hidden and bool(c.decoys) and not c.exited
        roster = tuple((cid, x.side, x.on_map) for cid, x in enc.combatants.items())
        waiting = tuple(
            (w.name, w.area)
            for i in inf.intruders
            if (w := enc.combatants.get(i)) is not None and w.on_map and not w.hidden
        )
        o = outcome(enc)
        gone = tuple(names.get(w, w) for w, _ in (*o.got_out, *o.gone))
        edge = nearest_edge(enc, c) if c is not None else ""
        # What setup and left read of the one selected: only an intruder's (N2, N8).
        intruder = c is not None and sel in inf.intruders
        starts = (sel, c.name, c.area, enc.zone) if intruder and not c.hidden and c.area else None
        leaves = (sel, c.name, edge) if intruder and sel not in dict(o.got_out) else None
        for name, key, build in (
            (
                "roles",
                None if inf.intruders or inf.guardians else roster,
                lambda: self._roles(enc, inf),
            ),
            (
                "watch",
                (steps, aways, tuple(names[s.id] for s in steps)),
                lambda: self._watch(steps, aways, names),
            ),
            ("watched", stepped, lambda: self._watched(stepped)),
            (
                "seen",
                tuple(
                    (k, who, names.get(k[0]), tuple(names.get(w) for w in who))
                    for k, who in seen.items()
                ),
                lambda: self._seen(seen, names),
            ),
            (
                "hidden",
                tuple((h.id, h.name, h.decoys, h.area) for h in hidden),
                lambda: self._hidden(hidden),
            ),
            (
                "maneuver",
                self._maneuver_key(enc, inf, c) if moving else None,
                lambda: self._maneuver(enc),
            ),
            (
                "setup",
                None if inf.alarm else (waiting, starts),
                lambda: self._setup(enc, inf, names),
            ),
            ("objectives", inf.objectives, lambda: self._objectives(inf)),
            ("left", (o.got_out, o.gone, gone, leaves), lambda: self._left(enc, inf, names)),
        ):
            self._fill(name, key, build)
        self.buttons = {k: b for slot in self.slots.values() for k, b in slot.buttons.items()}
        self.objective_boxes = self.slots["objectives"].checks
        if self.slots["maneuver"].key is None:
            self.decoy_moves = None

    @staticmethod
    def _maneuver_key(enc, inf, c) -> tuple:
        """What the Maneuver while hidden reads (N5): the character, where everyone stands,
        faces and hides (reach, clear lines, N4a), the zone, the obscured areas and whose
        turn it is (the action, E6)."""
        where = tuple(
            (x.id, x.area, x.facing, x.decoys, x.exited, x.states) for x in enc.combatants.values()
        )
        roles = (inf.intruders, inf.guardians, inf.obscured)
        return (c, where, roles, enc.zone, enc.turn.phase, enc.actor)

    def _watch(self, steps, aways, names) -> None:
        if not steps:
            return
        grid = self._group("Watch steps (N3)")
        for s, away in zip(steps, aways, strict=True):
            fumble = (f"fumble:{s.id}", "Fumble", (ConfirmWatch((away,)),)) if away else None
            self._row(
                grid,
                f"{names[s.id]}: one area to {_at(s.area)}, facing "
                f"{direction_name(s.facing)} toward a decoy",
                (f"watch:{s.id}", "Roll…", lambda gid=s.id: self.watch_check(gid)),
                (f"confirm:{s.id}", "Confirm", (ConfirmWatch((s,)),)),
                *([fumble] if fumble else []),
            )
            self.buttons[f"watch:{s.id}"].setToolTip(
                "The watch: a study check in the check dialog, with its exact odds (N3). "
                "On a success Confirm the step; on a Fumble take the step away."
            )

    def _watched(self, stepped) -> None:
        if stepped:
            label = QLabel(
                ", ".join(stepped)
                + ": watch step taken this turn; the next on the guardian's next turn (N3)"
            )
            label.setWordWrap(True)
            label.setObjectName("watchedThisTurn")
            self._into.addWidget(label)

    def _seen(self, seen, names) -> None:
        if seen:
            grid = self._group("Decoys seen now (N4a)")
            for (owner, area), who in seen.items():
                eyes = ", ".join(names.get(w, w) for w in who)
                self._row(
                    grid,
                    f"{names.get(owner, owner)}'s decoy at {_at(area)}: seen by {eyes}",
                    (f"eliminate:{owner}@{_at(area)}", "Eliminate", (EliminateDecoy(owner, area),)),
                )

    def _hidden(self, hidden) -> None:
        if hidden:
            grid = self._group("Hidden: act from or reveal at a decoy (N5, N7)")
            for c in hidden:
                for d in c.decoys:
                    area = (d[0], d[1])
                    here = c.area is not None and (c.area[0], c.area[1]) == area
                    self._row(
                        grid,
                        f"{c.name} at {_at(area)}" + (" (acts from here)" if here else ""),
                        (f"act:{c.id}@{_at(area)}", "Act here", (HiddenActsFrom(c.id, area),)),
                        (f"reveal:{c.id}@{_at(area)}", "Reveal", (Reveal(c.id, area),)),
                    )
                    if here:
                        self.buttons[f"act:{c.id}@{_at(area)}"].setEnabled(False)

    def _objectives(self, inf) -> None:
        if inf.objectives:
            box = QGroupBox("Objectives (N1)")
            lay = QVBoxLayout(box)
            for o in inf.objectives:
                check = QCheckBox(o.text + (f" at {_at(o.area)}" if o.area else ""))
                check.setChecked(o.done)
                check.toggled.connect(lambda on, oid=o.id: self.push(MarkObjective(oid, on)))
                lay.addWidget(check)
                self.slots["objectives"].checks[o.id] = check
            self._into.addWidget(box)

    def watch_check(self, gid: str) -> None:
        """N3: the guardian's watch, a study check, in the check dialog (its modifiers
        and exact odds); the GM then confirms the step (or its Fumble step)."""
        from afdesk.encounter.contest.assembly import CheckKind
        from afdesk.gui.dialogs.contest import ContestDialog

        dlg = ContestDialog(self.doc, gid, CheckKind.CHECK, "", self.window())
        i = dlg.facet_box.findData("study")
        if i >= 0:
            dlg.facet_box.setCurrentIndex(i)
        self.dialog = dlg
        if self.ctx is not None:
            self.ctx.open_dialog(dlg)
        else:
            dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            dlg.open()

    def _maneuver(self, enc) -> None:
        """N5: the selected hidden character's Maneuver while hidden moves its decoys."""
        from afdesk.gui.infiltration.decoys import DecoyMoves

        c = enc.combatants.get(self.doc.selected)
        self.decoy_moves = None
        if c is None or not c.hidden or not c.decoys or c.exited:
            return
        grid = self._group(f"{c.name}: Maneuver while hidden (N5)")
        self.decoy_moves = DecoyMoves(self, grid, enc, c.id)

    def push_refused(self, reason: str) -> None:
        show_refusal(self.refusal, reason)

    def _roles(self, enc, inf) -> None:
        """N1: with nobody in a role (a battle switched at an exchange end), who intrudes
        and who guards, by team: the band and its followers on one side, the opponents on
        the other (denizens take no role)."""
        if inf.intruders or inf.guardians:
            return
        band = tuple(
            cid
            for cid, c in enc.combatants.items()
            if c.on_map and c.side in (Side.BAND, Side.FOLLOWER)
        )
        foes = tuple(
            cid for cid, c in enc.combatants.items() if c.on_map and c.side is Side.OPPONENT
        )
        grid = self._group("Roles (N1): nobody intrudes or guards yet")
        label = QLabel("Who sneaks in? Then select each intruder to start it hidden (N2).")
        label.setWordWrap(True)
        grid.addWidget(label, 0, 0)
        # Under the words, one a line: the words and both buttons keep the dock's width.
        for row, (key, title, op) in enumerate(
            (
                ("roles:band", "The band intrudes", SetRoles(band, foes)),
                ("roles:opponents", "The opponents intrude", SetRoles(foes, band)),
            ),
            1,
        ):
            b = QPushButton(title)
            b.clicked.connect(lambda _c=False, o=op: self.push(o))
            grid.addWidget(b, row, 0)
            self.buttons[key] = b

    def _setup(self, enc, inf, names) -> None:
        """N2: the selected intruder, not hidden yet, starts hidden at its area and the
        first area beside it that the rules allow (the model refuses a wrong one)."""
        cid = self.doc.selected
        c = enc.combatants.get(cid)
        if inf.alarm:
            return  # after the alarm, hiding is the Hide action (N6, E6)
        waiting = [
            w.name
            for i in inf.intruders
            if (w := enc.combatants.get(i)) is not None and w.on_map and not w.hidden
        ]
        if c is None or cid not in inf.intruders or c.hidden or c.area is None:
            if waiting:  # what a GM who just set the roles does next (N2)
                grid = self._group("Setup (N2)")
                label = QLabel(
                    f"Not hidden yet: {', '.join(waiting)}: select one on the map to start "
                    "it hidden (N2)."
                )
                label.setWordWrap(True)
                label.setObjectName("notHiddenYet")
                grid.addWidget(label, 0, 0)
            return
        here = (c.area[0], c.area[1])
        beside = next((n for n in neighbours(here) if enc.zone.contains(n)), here)
        grid = self._group("Setup (N2)")
        self._row(
            grid,
            f"{c.name} starts hidden with decoys at {_at(here)} and {_at(beside)}",
            (f"hide:{cid}", "Start hidden", (SetUpIntruder(cid, (here, beside)),)),
        )

    def _left(self, enc, inf, names) -> None:
        """N8: who got out by which edge; the selected intruder leaves by an edge."""
        o = outcome(enc)
        cid = self.doc.selected
        c = enc.combatants.get(cid)
        can_leave = c is not None and cid in inf.intruders and cid not in dict(o.got_out)
        if not (o.got_out or o.gone or can_leave):
            return
        box = QGroupBox("Who got out (N8)")
        lay = QVBoxLayout(box)
        for who, edge in o.got_out:
            lay.addWidget(QLabel(f"{names.get(who, who)}: out by the {edge} edge"))
        for who, note in o.gone:
            lay.addWidget(QLabel(f"{names.get(who, who)}: {note}"))
        if can_leave and c is not None:
            row = QHBoxLayout()
            edge = QComboBox()
            edge.addItems(list(EDGES))
            edge.setObjectName("leftEdge")
            edge.setCurrentText(nearest_edge(enc, c))
            b = QPushButton(f"{c.name} left by")
            b.clicked.connect(lambda _c=False: self._leave(cid, edge.currentText()))
            self.buttons[f"left:{cid}"] = b
            row.addWidget(b)
            row.addWidget(edge, 1)
            lay.addLayout(row)
        self._into.addWidget(box)

    def _leave(self, cid: str, edge: str) -> None:
        """The intruder leaves over the edge (E9; a GM override where the edge grows the
        zone instead) and the infiltration records it (N8); a hidden intruder leaves from
        where it truly is."""
        from afdesk.encounter.ops.roster import ExitCombatant

        enc = self.doc.encounter
        c = enc.combatants[cid]
        ops: list = []
        if not c.exited:
            rule = enc.zone.edge_rule(Edge(edge))
            ops.append(ExitCombatant(cid, Edge(edge), override=not rule.exits))
        ops.append(MarkLeft(cid, edge))
        self.push(*ops)


SLOTS = ("roles", "watch", "watched", "seen", "hidden", "maneuver", "setup", "objectives", "left")
"""The dock's parts, top to bottom."""


class _Slot:
    """One part of the dock: its widget, what it was made from, its buttons."""

    def __init__(self) -> None:
        self.widget = QWidget()
        self.box = QVBoxLayout(self.widget)
        self.box.setContentsMargins(0, 0, 0, 0)
        self.widget.hide()
        self.key: object = None
        self.made = False
        self.buttons: dict[str, QPushButton] = {}
        self.checks: dict[str, QCheckBox] = {}

    def clear(self) -> None:
        while self.box.count():
            w = self.box.takeAt(0).widget()
            if w is not None:
                w.hide()  # at once: deleteLater waits for the event loop
                w.deleteLater()
        self.buttons = {}
        self.checks = {}


def install(window) -> InfiltrationPanel:
    """The Infiltration dock (left), shown while the encounter is an infiltration."""
    dock = QDockWidget("Infiltration", window)
    dock.setObjectName("infiltrationDock")
    panel = InfiltrationPanel(dock, getattr(window, "ctx", None))
    dock.setWidget(panel)
    window.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, dock)
    dock.setVisible(False)
    # A workspace restored as the GM left it may show the dock outside an infiltration:
    # it hides again (and shows again when the encounter is one).
    dock.visibilityChanged.connect(lambda _on: QTimer.singleShot(0, panel, panel.sync))
    follow(window, panel.set_document)
    return panel
