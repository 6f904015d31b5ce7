"""The Character dock: the selected character's facets, speeds, grit and hits, Shifts,
states and markers, and its guard, snap, action, defend, screen and hesitate as toggles that
reflect and change the model (E3-E8, E17, R12)."""

from __future__ import annotations

from collections.abc import Iterator

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.combatant import Side, StateKind
from afdesk.encounter.economy import turn_prompts
from afdesk.encounter.ops.roster import (
    AdjustCounter,
    RemoveMomentum,
    RemoveState,
    step_markers,
)
from afdesk.gui import commands as cmd
from afdesk.gui.commands import Command, CommandContext
from afdesk.gui.document import EncounterDocument
from afdesk.gui.fit_label import FitLabel
from afdesk.gui.follow import Links
from afdesk.gui.steady_scroll import SteadyHeight
from afdesk.gui.style import fill_style, meaning_colour, meaning_style, side_colour
from afdesk.gui.text import escape

NOBODY = "Click a token on the map, or a name in the Reflex or Reserves dock."
"""Under the title while no character is shown: how to show one."""

FOOT_BUTTONS = ("&Hack…", "Plain chec&k…", "&Edit…")
"""The buttons at the page's foot: attack, a plain check, edit the character."""

TOGGLE_WIDTH = 84
"""The turn economy's toggles are at least this wide (three abreast)."""


def _toggle(text: str, tip: str) -> QToolButton:
    b = QToolButton()
    b.setText(text)
    b.setCheckable(True)
    b.setToolTip(tip)
    b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    b.setMinimumWidth(TOGGLE_WIDTH)
    b.setStyleSheet(
        "QToolButton { padding: 5px; border: 1px solid palette(mid); border-radius: 4px; }"
        f"QToolButton:checked {{ {fill_style('on', b, 'font-weight: bold;')} }}"
    )
    return b


_DETAILS = frozenset(
    {
        "guard",
        "snap",
        "action",
        "defend",
        "screen_toggle",
        "hesitate",
        "refusal",
        "prompts",
        "harm_flag",
        "counters",
        "counter_grid",
        "counter_labels",
        "states_box",
        "states_layout",
        "states",
        "facets",
        "notes",
        "attack_button",
        "check_button",
        "edit_button",
    }
)
"""The parts of the Character dock made when a character is first shown."""


def _room_for_the_groups() -> QWidget:
    """As wide as the groups will be, and nothing drawn: it holds the page's width until
    they are made. Their widest rows are the turn economy's three toggles abreast (at
    most fonts) and the three buttons at the foot (at large ones): both are here."""
    room = QWidget()
    rows = QVBoxLayout(room)
    rows.setContentsMargins(0, 0, 0, 0)
    toggles = QGroupBox(" ")
    grid = QGridLayout(toggles)
    for column in range(3):  # laid out as the toggles are (a spacer takes no spacing)
        toggle = QWidget()
        toggle.setMinimumWidth(TOGGLE_WIDTH)
        grid.addWidget(toggle, 0, column)
    rows.addWidget(toggles)
    buttons = QHBoxLayout()
    for text in FOOT_BUTTONS:
        buttons.addWidget(QPushButton(text))
    rows.addLayout(buttons)
    policy = room.sizePolicy()
    policy.setRetainSizeWhenHidden(True)
    room.setSizePolicy(policy)
    room.hide()
    return room


class CombatantPanel(QWidget):
    """Everything about the selected character. Its buttons run GM commands through
    ``ctx`` (the window's, shared with the menus); a refusal shows beside the toggles."""

    def __init__(self, ctx: CommandContext | None = None) -> None:
        super().__init__()
        self.ctx = ctx or CommandContext(self)
        self.doc: EncounterDocument | None = None
        self._links = Links()
        self.cid = ""
        self._stale = False
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        scroll = QScrollArea()
        # A viewport made here, as the one Qt makes (before the page, its child): PySide6
        # meeting Qt's own through viewport() (a scroll area hands it out) would first make
        # Python classes for every widget class it knows, 6 ms of the start.
        scroll.setViewport(QWidget())
        scroll.setWidgetResizable(True)
        outer.addWidget(scroll)
        body = QWidget()
        scroll.setWidget(body)
        # Another character every turn: the page keeps its height (painted again whole
        # at each resize otherwise).
        self._steady = SteadyHeight(scroll)
        layout = QVBoxLayout(body)
        self.title = FitLabel("Select a character to see it here.")
        self.title.setStyleSheet("font-size: 17px; font-weight: bold;")
        layout.addWidget(self.title)
        self.subtitle = FitLabel(NOBODY)
        layout.addWidget(self.subtitle)

        # The rest (the groups, the buttons) is made when a character is first shown:
        # until then the page holds only the line above, and the room the groups will
        # take across (the dock is laid out as wide as with them).
        self._page = layout
        self._room = _room_for_the_groups()
        layout.addWidget(self._room)
        self.details: QWidget | None = None
        layout.addStretch(1)

    def __getattr__(self, name: str):
        # A part of the page made with the groups, asked for before any character was
        # shown (a test, a command's availability): the groups are made now.
        if name in _DETAILS and self.__dict__.get("details") is None and "_page" in self.__dict__:
            self._build_details()
            return getattr(self, name)
        raise AttributeError(name)

    def _build_details(self) -> None:
        """Make the groups and the buttons: the first time a character is shown."""
        from afdesk.gui.docks.harm_flag import HarmFlag
        from afdesk.gui.docks.states import StatesBox

        self.details = details = QWidget()
        layout = QVBoxLayout(details)
        layout.setContentsMargins(0, 0, 0, 0)
        econ = QGroupBox("Turn economy")
        grid = QGridLayout(econ)
        self.guard = _toggle(
            "Guard",
            "Contest one opponent's check per turn cycle (E4). Toggling it here is a GM override.",
        )
        self.snap = _toggle("Snap", "A quick act once per turn (E5): click for the list")
        self.action = _toggle("Action", "Your turn's action (E6): click for the list")
        self.defend = _toggle(
            "Defend",
            "Action: an extra guard and a defense against every check until your next turn (E6)",
        )
        self.screen_toggle = _toggle(
            "Screen", "Abort your next action for defenses now, until the turn after that (E7)"
        )
        self.hesitate = _toggle(
            "Hesitate", "Keep the action to take after another's turn at -2 (E6)"
        )
        for i, b in enumerate(
            (self.guard, self.snap, self.action, self.defend, self.screen_toggle, self.hesitate)
        ):
            grid.addWidget(b, i // 3, i % 3)
        self.refusal = FitLabel()
        self.refusal.setStyleSheet(meaning_style("error", self.refusal))
        grid.addWidget(self.refusal, 2, 0, 1, 3)
        layout.addWidget(econ)
        self.prompts = FitLabel()
        self.prompts.setStyleSheet(fill_style("prompt", self.prompts, "padding: 4px;"))
        layout.addWidget(self.prompts)
        self.harm_flag = HarmFlag(self._push)  # hits reach grit: the GM decides
        layout.addWidget(self.harm_flag)

        counters = self.counters = QGroupBox("Grit, hits, Shifts")
        self.counter_grid = QGridLayout(counters)
        self.counter_labels: dict[str, QLabel] = {}
        for row, (key, label) in enumerate(
            (("grit", "Grit"), ("hits", "Hits"), ("shifts", "Shifts"), ("will", "Will"))
        ):
            self.counter_grid.addWidget(QLabel(label), row, 0)
            value = QLabel()
            value.setStyleSheet("font-weight: bold;")
            self.counter_labels[key] = value
            self.counter_grid.addWidget(value, row, 1)
            minus = QPushButton("−")
            plus = QPushButton("+")
            for b, d in ((minus, -1), (plus, 1)):
                b.setFixedWidth(30)
                b.setToolTip(f"{label} {d:+d}")
                b.clicked.connect(lambda _c=False, k=key, d=d: self._adjust(k, d))
            self.counter_grid.addWidget(minus, row, 2)
            self.counter_grid.addWidget(plus, row, 3)
        layout.addWidget(counters)

        self.states_box = QGroupBox("States and markers")
        self.states_layout = QVBoxLayout(self.states_box)
        self.states = StatesBox(
            self.states_layout,
            on_step=lambda kind, d: self._push(
                step_markers(self.doc.encounter.combatant(self.cid), kind, d)
            ),
            on_remove_state=lambda kind: self._push(RemoveState(self.cid, kind)),
            on_remove_momentum=lambda i: self._push(RemoveMomentum(self.cid, i)),
            run=self.run,
            on_new_order=self._chain_tab_order,
        )
        layout.addWidget(self.states_box)
        self.facets = FitLabel()
        self.facets.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.facets)
        self.notes = FitLabel()
        self.notes.setStyleSheet(meaning_style("note", self.notes, "font-style: italic;"))
        layout.addWidget(self.notes)
        buttons = QHBoxLayout()
        self.attack_button, self.check_button, self.edit_button = (
            QPushButton(text) for text in FOOT_BUTTONS
        )
        for b in (self.attack_button, self.check_button, self.edit_button):
            buttons.addWidget(b)
        layout.addLayout(buttons)

        for toggle, command in (
            (self.guard, cmd.TOGGLE_GUARD),
            (self.defend, cmd.TOGGLE_DEFEND),
            (self.screen_toggle, cmd.TOGGLE_SCREEN),
            (self.hesitate, cmd.TOGGLE_HESITATE),
        ):
            toggle.clicked.connect(lambda _c=False, c=command: self._toggle(c))
        self.snap.clicked.connect(lambda: self._menu(self.snap, "snap"))
        self.action.clicked.connect(lambda: self._menu(self.action, "action"))
        self.attack_button.clicked.connect(lambda: self.run(cmd.REGISTRY["hack"]))
        self.check_button.clicked.connect(lambda: self.run(cmd.REGISTRY["check"]))
        self.edit_button.clicked.connect(lambda: self.run(cmd.EDIT))
        self._set_enabled(False)
        policy = details.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        details.setSizePolicy(policy)
        self._page.replaceWidget(self._room, details)
        self._room.deleteLater()
        self._room = None
        details.setVisible(bool(self.cid))  # made for nobody (a part asked for): not shown
        self._chain_tab_order()

    def _chain_tab_order(self) -> None:
        """The groups' Tab order: after the page's scroll area, in the order they are laid
        out. A widget put in the window after it was made (the groups, made after the
        window; a state's row or button the States group shows later) comes last in its
        Tab order, after the Log and the map, until chained here."""
        if self.details is None:
            return
        previous: QWidget = self.findChild(QScrollArea)
        for widget in _in_layout_order(self.details.layout()):
            if widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
                QWidget.setTabOrder(previous, widget)
                previous = widget

    # ------------------------------------------------------------------------ wiring

    def set_document(self, doc: EncounterDocument) -> None:
        self.doc = doc
        self._steady.reset()
        self._links.clear()
        self._links.connect(doc.selectionChanged, self.show_character)
        self._links.connect(doc.combatantChanged, self._combatant_changed)
        self._links.connect(doc.turnChanged, self._request)
        self._links.connect(doc.metaChanged, self._request)
        self._links.connect(doc.changed, self._changed)
        self.show_character(doc.selected)

    def show_character(self, cid: str) -> None:
        self.cid = cid
        if self.details is not None:
            self.refusal.setText("")
        self._request()

    def _combatant_changed(self, cid: str) -> None:
        if cid == self.cid:
            self._request()

    def _request(self) -> None:
        """Show the model again: now, or once the change whose signals are going out has
        said all (a turn moving on selects, changes and ends: one refresh)."""
        if self.doc is not None and self.doc.emitting:
            self._stale = True
        else:
            self.refresh()

    def _changed(self) -> None:
        if self._stale:
            self.refresh()

    def run(self, command: Command) -> None:
        """Run ``command`` for the character shown (as its menu entry would); an Op's
        refusal shows beside the toggles too."""
        if not self.cid:
            return
        if isinstance(command, cmd.OpCommand):
            self._push(command.op(self.doc, self.cid))
        else:
            self.ctx.run(command, self.cid)

    def _push(self, op) -> None:
        """Push a correction the GM made here; a refusal shows beside the toggles."""
        self.ctx.push(op, beside=self.refusal)

    def _toggle(self, command: Command) -> None:
        """A toggle pushes its command's Op (the refusal beside it), then shows the model
        again (a refused click must not leave the toggle flipped)."""
        if self.cid and isinstance(command, cmd.OpCommand):
            self._push(command.op(self.doc, self.cid))
        self.refresh()

    def _set_enabled(self, on: bool) -> None:
        for w in (
            self.guard,
            self.snap,
            self.action,
            self.defend,
            self.screen_toggle,
            self.hesitate,
            self.attack_button,
            self.check_button,
            self.edit_button,
            self.states_box,
            self.counters,
        ):
            w.setEnabled(on)

    # ----------------------------------------------------------------------- refresh

    def refresh(self) -> None:
        self._stale = False
        doc = self.doc
        if doc is None or not self.cid or self.cid not in doc.encounter.combatants:
            # Nothing of a previous character (or encounter) stays behind: no notes, no
            # counters, no live buttons; the groups give way to the line that says what
            # to do (keeping their room: the page does not move).
            self.cid = ""
            self.title.setText("Select a character to see it here.")
            self.subtitle.setText(NOBODY)
            if self.details is not None:
                for label in (self.facets, self.notes, self.refusal):
                    label.setText("")
                for label in self.counter_labels.values():
                    label.setText("")
                self.prompts.setVisible(False)
                self.harm_flag.show_for(None)
                self._clear_states()
                self._set_enabled(False)
                self.details.setVisible(False)
            return
        if self.details is None:
            self._build_details()
        self.details.setVisible(True)
        self._set_enabled(True)
        enc = doc.encounter
        c = enc.combatants[self.cid]
        colour = side_colour(c.side).name()
        turn = meaning_colour("turn", self.title.palette()).name()
        actor = f" — <span style='color:{turn}'>their turn</span>" if enc.actor == c.id else ""
        self.title.setText(f"<span style='color:{colour}'>●</span> {c.name}{actor}")
        where = (
            f"at ({c.area[0]}, {c.area[1]}), facing {c.facing:.0f}°"
            if c.area
            else (_left(c.exited) if c.exited else "not on the map")
        )
        group = f", {c.group}" if c.group else ""
        self.subtitle.setText(f"{c.side.label}{group} · {where}")
        e = c.economy
        self.guard.setChecked(e.guards > 0)
        self.guard.setText(f"Guard ×{e.guards}" if e.guards > 1 else "Guard")
        self.snap.setChecked(e.snaps > 0)
        self.snap.setText(f"Snap ×{e.snaps}" if e.snaps > 1 else "Snap")
        self.action.setChecked(e.action)
        used = "" if e.action or not e.action_used else e.action_used
        self.action.setText(f"Action\n({used})" if used else "Action")
        self.action.setToolTip(
            f"This turn's action went to: {used}" if used else self.action.toolTip()
        )
        self.defend.setChecked(c.has(StateKind.DEFENDING))
        self.screen_toggle.setChecked(c.has(StateKind.SCREENING))
        self.hesitate.setChecked(c.has(StateKind.HESITATING))
        # The actor's turn prompts (E3); anyone's terrain prompts where they happened (E10).
        prompts = turn_prompts(enc, c) if enc.actor == c.id else list(c.economy.pending)
        self.prompts.setText("\n".join(f"• {p}" for p in prompts))
        self.prompts.setVisible(bool(prompts))
        self.harm_flag.show_for(c)
        self.counter_labels["grit"].setText(f"{c.grit} / {c.grit_max}")
        self.counter_labels["hits"].setText(str(c.hits))
        if c.side in (Side.BAND, Side.FOLLOWER):
            self.counter_labels["shifts"].setText(str(c.shifts))
        else:
            # Opponents and denizens spend from the referee's pool (R10).
            self.counter_labels["shifts"].setText(f"referee's pool: {enc.meta.referee_shifts}")
        self.counter_labels["will"].setText(str(c.will))
        self._refresh_states(c)
        facets = " · ".join(f"{f.name} <b>{f.score}</b>" for f in c.facets)
        s = c.speeds
        speeds = f"run {s.run}, climb {s.climb}, jump {s.jump}, swim {s.swim}" + (
            f", fly {s.fly}" if s.fly else ""
        )
        ranged = f" · weapon range {c.weapon_range}" if c.weapon_range else ""
        ranged += "".join(f"<br>{escape(a.label())}" for a in c.attacks)
        self.facets.setText(f"{facets}<br>Speeds: {speeds} · reach {c.reach}{ranged}")
        self.notes.setText(f"GM notes: {c.notes}" if c.notes else "")
        cmd.show_availability(self.attack_button, cmd.REGISTRY["hack"], self.doc, c.id)

    def _clear_states(self) -> None:
        self.states.clear()

    def _refresh_states(self, c) -> None:
        self.states.show(c)

    # ----------------------------------------------------------------------- menus

    def economy_menu(self, part: str) -> QMenu:
        """The Snap or Action button's menu (``part`` "snap" or "action"): the simple
        snaps or actions, and the checks that spend one (the model says which)."""
        from afdesk.encounter.offers import economy_menu
        from afdesk.gui import actions as gm_actions

        menu = QMenu(self)
        menu.setToolTipsVisible(True)
        for entry in gm_actions.entries(self.doc, self.cid):
            command = entry.command
            check = isinstance(command, cmd.CheckCommand) and economy_menu(command.action) == part
            if not (entry.group == part.capitalize() or check):
                continue
            act = menu.addAction(entry.label)
            act.setData(entry.key)
            act.setEnabled(entry.enabled)
            act.setToolTip(entry.reason)
            act.triggered.connect(lambda _c=False, c=command: self.run(c))
        return menu

    def _menu(self, button: QToolButton, part: str) -> None:
        self.refresh()
        self.economy_menu(part).exec(button.mapToGlobal(button.rect().bottomLeft()))

    def _adjust(self, key: str, delta: int) -> None:
        self._push(AdjustCounter(self.cid, key, delta))


def _left(note: str) -> str:
    """Where a character went: the edge's own words, or over which edge (E9); the
    default note "left east" read "left the encounter: left east"."""
    edge = note.removeprefix("left ")
    if edge != note and edge in ("north", "east", "south", "west"):
        return f"left the encounter over the {edge} edge (E9)"
    return f"left the encounter: {note}"


def _in_layout_order(layout) -> Iterator[QWidget]:
    """The widgets of ``layout`` and of those inside them, in the order they are laid out
    (a grid row by row, as its cells were added)."""
    for i in range(layout.count()):
        item = layout.itemAt(i)
        widget = item.widget()
        if widget is not None:
            yield widget
            if widget.layout() is not None:
                yield from _in_layout_order(widget.layout())
        elif item.layout() is not None:
            yield from _in_layout_order(item.layout())
