"""The defense picker: the target chooses after seeing the result (E4), a guard may
cooperate with a defense of another type (R11), another character's retort may answer for
the target or cooperate with its insight (P5, R11), and the chosen defenses' modifiers."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.contest.assembly import DefenseOption, Plan, Via
from afdesk.encounter.model import Encounter
from afdesk.gui.dialogs.contest.common import Panel, clear, modifier_box
from afdesk.gui.text import sentence
from afdesk.rules.rulesets import Ruleset

VIA_WORDS = {
    Via.GUARD: "guard",
    Via.DEFENSE: "defense",
    Via.FEND: "Fend",
    Via.QUIP: "Quip",
    Via.CONTEST: "contest",
}


NAME_WIDTH = 200
"""The pixels a defender's name takes in a defense's words before it is elided."""


def readable(widget: QWidget) -> None:
    """Draw ``widget``'s text, disabled, in the palette's own text colours: a defense not
    open now says why, and Qt's disabled grey (1.57:1) could not be read."""
    pal = widget.palette()
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text):
        pal.setColor(
            QPalette.ColorGroup.Disabled, role, pal.color(QPalette.ColorGroup.Active, role)
        )
    widget.setPalette(pal)


class DefensePanel(Panel):
    """One radio button per defense the plan lists, "No defense", and the guard's
    cooperation; the defenses not open now are listed behind a collapsed disclosure,
    each with its reason in readable text."""

    def __init__(self, enc: Encounter, rules: Ruleset, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.enc = enc
        self.rules = rules
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.box = QGroupBox("Defense (the target chooses after seeing the result, E4)")
        self._layout = QVBoxLayout(self.box)
        outer.addWidget(self.box)
        self.mod_box = QGroupBox("Defense modifiers (untick to switch one off)")
        self._mod_layout = QVBoxLayout(self.mod_box)
        outer.addWidget(self.mod_box)
        self._radios: list[tuple[QRadioButton, DefenseOption | None]] = []
        self._guard: tuple[QCheckBox, DefenseOption] | None = None
        self._ally: tuple[QCheckBox, DefenseOption] | None = None
        """Another character's retort cooperating with the target's own (P5, R11)."""
        self._allies: list[DefenseOption] = []
        self._target = ""
        self._built_for: Plan | None = None
        self.closed_toggle: QToolButton | None = None
        """Shows the defenses not open now (None: every defense listed is open)."""
        self.closed_list: QWidget | None = None
        self._why: dict[QRadioButton, QLabel] = {}

    # ------------------------------------------------------------------ public API

    def options(self) -> list[tuple[QRadioButton, DefenseOption | None]]:
        """Each choice with its button: ``None`` is "No defense"."""
        return list(self._radios)

    def button(self, kind: str, via: str = "guard", by: str = "") -> QRadioButton:
        """The button of the ``kind`` defense coming from ``via`` (guard, defense, ...):
        the target's own, or ``by`` another character's (a retort for it, P5)."""
        for button, option in self._radios:
            if option is None or (option.kind.value, option.via.value) != (kind, via):
                continue
            if option.defender == (by or self._target):
                return button
        raise KeyError(f"no {kind} via {via}" + (f" by {by}" if by else ""))

    def choose(self, kind: str | None, via: str = "guard", by: str = "") -> None:
        """Pick a defense as the GM would click it (None: no defense)."""
        if kind is None:
            self._radios[0][0].setChecked(True)
        else:
            self.button(kind, via, by).setChecked(True)

    def cooperate(self, ally: str, via: str = "guard") -> None:
        """Have ``ally``'s retort cooperate with the target's chosen insight (P5, R11), as
        the GM would tick it."""
        if self._ally is None:
            raise KeyError(f"no retort by another is open now (wanted {ally})")
        combo = self.ally_combo
        for i in range(combo.count()):
            option = self._allies[combo.itemData(i)]
            if option.defender == ally and option.via.value == via:
                combo.setCurrentIndex(i)
                self.ally_box.setChecked(True)
                return
        raise KeyError(f"no retort by {ally} via {via}")

    def note(self) -> str:
        """The line shown instead of choices when the check has no opposition."""
        labels = self.box.findChildren(QLabel)
        return labels[0].text() if labels else ""

    def choice(self) -> tuple[DefenseOption, ...]:
        """What is picked now: a defense, and the guard if it cooperates."""
        chosen = [o for b, o in self._radios if b.isChecked() and o is not None]
        for helper in (self._guard, self._ally):
            if helper is not None and helper[0].isChecked() and helper[0].isEnabled():
                chosen.append(helper[1])
        return tuple(chosen)

    # ---------------------------------------------------------------------- building

    def show_plan(self, plan: Plan | None, rolled: bool) -> None:
        """Build the choices for ``plan`` (once per plan; kept while the dice roll)."""
        if self.flow is None:
            self._build(plan)
            self._built_for = None
        elif not rolled and self._built_for is not plan:
            self._build(plan)
            self._built_for = plan
        self._fill_mods()
        f = self.flow
        if f is not None:
            for button, option in self._radios:
                button.setEnabled(f.defense_roll is None and (option is None or option.allowed))

    def _build(self, plan: Plan | None) -> None:
        clear(self._layout)
        self._radios = []
        self._guard = self._ally = None
        self._allies = []
        self._target = plan.target if plan is not None else ""
        self.closed_toggle = self.closed_list = None
        self._why = {}
        if plan is None or not plan.defenses or not self.rules.defense_roll:
            note = (
                f"{self.rules.name}: the target's TN and F are its defense."
                if not self.rules.defense_roll
                else "No opposition: a plain check."
            )
            self._layout.addWidget(QLabel(note))
            return
        none = QRadioButton("&No defense")
        none.setChecked(True)
        self._radios.append((none, None))
        self._layout.addWidget(none)
        none.toggled.connect(lambda _on: self._choose())
        closed = [o for o in plan.defenses if not o.allowed]
        for option in [o for o in plan.defenses if o.allowed] + closed:
            button = QRadioButton(self._text(option))
            button.setToolTip(self._text(option, full=True))
            button.setEnabled(option.allowed)
            self._radios.append((button, option))
            button.toggled.connect(lambda _on: self._choose())
            if option.allowed:
                self._layout.addWidget(button)
        if closed:
            self._add_closed([(b, o) for b, o in self._radios if o is not None and not o.allowed])
        own = [o for o in plan.defenses if o.defender == plan.target]
        guards = [o for o in own if o.via is Via.GUARD and o.allowed]
        if guards and any(o.via is not Via.GUARD and o.allowed for o in own):
            row = QHBoxLayout()
            box = QCheckBox("…and the guard cooperates (E4, R11):")
            combo = QComboBox()
            for i, g in enumerate(guards):
                combo.addItem(self._text(g), i)
            row.addWidget(box)
            row.addWidget(combo, 1)
            holder = QWidget()
            holder.setLayout(row)
            self._layout.addWidget(holder)
            self._guard = (box, guards[0])
            self.guard_box, self.guard_combo = box, combo

            def changed() -> None:
                self._guard = (box, guards[combo.currentData()])
                self._choose()

            combo.currentIndexChanged.connect(lambda _i: changed())
            box.toggled.connect(lambda _on: changed())
        self._allies = [o for o in plan.defenses if o.defender != plan.target and o.allowed]
        if self._allies and any(o.allowed for o in own):
            self._add_ally_row()

    def _add_ally_row(self) -> None:
        """ "…and a retort by another cooperates": another character's retort helping the
        target's own insight (P5, R11), one entry per retort open now."""
        row = QHBoxLayout()
        box = QCheckBox("…and a retort by another cooperates (P5, R11):")
        combo = QComboBox()
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(16)
        for i, o in enumerate(self._allies):
            combo.addItem(self._text(o), i)
            combo.setItemData(i, self._text(o, full=True), Qt.ItemDataRole.ToolTipRole)
        row.addWidget(box)
        row.addWidget(combo, 1)
        holder = QWidget()
        holder.setLayout(row)
        self._layout.addWidget(holder)
        self._ally = (box, self._allies[0])
        self.ally_box, self.ally_combo = box, combo

        def changed() -> None:
            self._ally = (box, self._allies[combo.currentData()])
            self._choose()

        combo.currentIndexChanged.connect(lambda _i: changed())
        box.toggled.connect(lambda _on: changed())

    def why(self, button: QRadioButton) -> str:
        """The reason shown under a defense that is not open now ("" for an open one)."""
        label = self._why.get(button)
        return label.text() if label is not None else ""

    def _add_closed(self, closed: list[tuple[QRadioButton, DefenseOption]]) -> None:
        """The defenses not open now, each with its reason wrapped under it, behind a
        disclosure that starts collapsed (the open ones stay in front)."""
        self.closed_toggle = QToolButton()
        self.closed_toggle.setText(f"Not open now ({len(closed)}) and why")
        self.closed_toggle.setCheckable(True)
        self.closed_toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.closed_toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.closed_toggle.setAutoRaise(True)
        self.closed_list = QWidget()
        rows = QVBoxLayout(self.closed_list)
        rows.setContentsMargins(18, 0, 0, 0)
        for button, option in closed:
            button.setToolTip(option.reason)
            why = QLabel(sentence(option.reason))
            why.setWordWrap(True)
            why.setContentsMargins(24, 0, 0, 4)
            for w in (button, why):
                readable(w)
                rows.addWidget(w)
            self._why[button] = why
        self.closed_list.setVisible(False)

        def disclose(on: bool) -> None:
            self.closed_list.setVisible(on)
            arrow = Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow
            self.closed_toggle.setArrowType(arrow)

        self.closed_toggle.toggled.connect(disclose)
        self._layout.addWidget(self.closed_toggle)
        self._layout.addWidget(self.closed_list)

    def _text(self, o: DefenseOption, full: bool = False) -> str:
        """The option's words; a long name is elided (``full``: not), so that the choices
        fit the dialog's width (the button's tooltip has them whole)."""
        name = self.enc.combatant(o.defender).name
        if not full:
            name = self.fontMetrics().elidedText(name, Qt.TextElideMode.ElideRight, NAME_WIDTH)
        mods = ", ".join(m.text() for m in o.modifiers)
        text = f"{name}: {o.kind.label} ({VIA_WORDS[o.via]}) — {o.facet} {o.dice}"
        if self._target and o.defender != self._target:  # for the target (P5)
            text = f"{o.kind.label} by {name} ({VIA_WORDS[o.via]}) — {o.facet} {o.dice}"
        if mods:
            text += f"; {mods}"
        return text

    def _choose(self) -> None:
        f = self.flow
        if f is None or f.defense_roll is not None:
            return
        if not self._try(lambda fl: fl.choose_defense(*self.choice())):
            f.choose_defense()
            self.changed.emit()

    def _fill_mods(self) -> None:
        clear(self._mod_layout)
        f = self.flow
        shown = False
        if f is not None:
            for index, option in enumerate(f.defense):
                for m in f.defense_mods(index, option):
                    box = modifier_box(m)
                    box.setEnabled(f.defense_roll is None)
                    box.toggled.connect(
                        lambda on, i=index, k=m.key: self.set_modifier_enabled(i, k, on)
                    )
                    self._mod_layout.addWidget(box)
                    shown = True
        self.mod_box.setVisible(shown)

    def set_modifier_enabled(self, index: int, key: str, on: bool) -> None:
        """Switch a modifier of the ``index``-th chosen defense off or back on."""
        f = self.flow
        if f is not None and f.defense_roll is None and index < len(f.defense):
            f.set_defense_enabled(index, key, on)
            self.changed.emit()
