"""The decisions bar above the map: whatever waits for the GM's decision (hits at grit,
the actor's ongoing states, reinforcements due, what the mode declares: a dispute's
tension after a fumble, its broken end, closing it, P7, P8), whoever is selected and
whatever the central view shows, with its buttons, until it is decided
(afdesk.encounter.pending lists them from the model)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPushButton,
    QSizePolicy,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from afdesk.encounter.pending import Decision, pending_decisions
from afdesk.gui.context import CommandContext
from afdesk.gui.fit_label import FitLabel
from afdesk.gui.follow import Links, follow

_COLOURS = {
    "harm": "#d0021b",
    "state": "#e65100",
    "reinforcements": "#4a148c",
    "broken": "#b00020",
}
"""Each kind's strip; any other kind (a dispute's tension or closing) the default."""


class DecisionRow(QWidget):
    """One decision: a coloured strip with its sentence and its buttons. A row is kept and
    shows the next decision put in it (:meth:`show_decision`): widgets made and dropped on
    every change piled up until the event loop deleted them, and the window laid out and
    painted every one of them meanwhile."""

    def __init__(self, d: Decision, bar: DecisionsBar) -> None:
        super().__init__()
        self.bar = bar
        self.decision = d
        self._kind = ""
        self.setObjectName("decisionRow")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self._row = QHBoxLayout(self)
        self._row.setContentsMargins(8, 2, 4, 2)
        self.text = FitLabel()  # a dispute's sentences are long (P7)
        self._row.addWidget(self.text, 1)
        self._buttons: list[QPushButton] = []
        self.buttons: list[QPushButton] = []
        """The buttons of the decision shown, one per choice."""
        self.show_decision(d)

    def show_decision(self, d: Decision) -> None:
        """Show ``d`` in this row, its buttons made only when it has more choices than
        any decision the row showed before."""
        self.decision = d
        if d.kind != self._kind:  # a style sheet re-polishes the row: only when it changes
            self._kind = d.kind
            self.setStyleSheet(
                f"#decisionRow {{ background: {_COLOURS.get(d.kind, '#37474f')};"
                " border-radius: 4px; }"
                " #decisionRow QLabel { color: white; font-weight: bold; }"
            )
        self.text.setText(f"⚠ {d.text}")
        while len(self._buttons) < len(d.choices):
            b, at = QPushButton(), len(self._buttons)
            b.clicked.connect(lambda _c=False, at=at: self._clicked(at))
            self._row.addWidget(b)
            self._buttons.append(b)
        for b, choice in zip(self._buttons, d.choices, strict=False):
            b.setText(choice.label)
            b.setToolTip(choice.tip)
        for i, b in enumerate(self._buttons):
            b.setVisible(i < len(d.choices))
        self.buttons = self._buttons[: len(d.choices)]

    def _clicked(self, at: int) -> None:
        if at < len(self.decision.choices):
            self.bar.decide(self.decision, self.decision.choices[at])


class DecisionsBar(QWidget):
    """Every pending decision, one row each. Hidden (with its tool bar) until something
    first waits in the encounter shown; then it stays, as tall as the most rows it held,
    saying so while nothing waits."""

    def __init__(
        self,
        ctx: CommandContext,
        parent: QWidget | None = None,
        place: Callable[[DecisionsBar], None] | None = None,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.place = place
        """Puts the bar in its holder (the window's tool bar) when it first shows."""
        self.doc = None
        self._links = Links()
        self.decisions: list[Decision] = []
        self.rows: list[DecisionRow] = []
        """The rows showing :attr:`decisions`, in order."""
        self._made: list[DecisionRow] = []
        """Every row made, those in use first (the others hidden)."""
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(2, 2, 2, 2)
        self._layout.setSpacing(2)
        # across the window, whatever it holds (a tool bar gives a widget its hint's width)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.refusal = FitLabel()
        self.refusal.setStyleSheet("color: #b00020;")
        self.refusal.setVisible(False)
        self._layout.addWidget(self.refusal)
        self.idle = FitLabel("Nothing waits for your decision.")
        self.idle.setStyleSheet("color: palette(placeholder-text); font-style: italic;")
        self.idle.setContentsMargins(8, 0, 0, 0)
        self.idle.setVisible(False)
        self._layout.addWidget(self.idle)
        self._layout.addStretch(1)  # the room kept below fewer rows stays blank
        self._shown = False
        """Whether something waited in the encounter shown: the bar then stays."""
        self._most = 0
        """The bar's height with the most rows it held (a refusal aside)."""

    def set_document(self, doc) -> None:
        self.doc = doc
        self.setMinimumHeight(0)  # another encounter: the bar as tall as its rows
        self._most = 0
        if self._shown:  # and gone until something waits in it
            self._shown = False
            self.idle.setVisible(False)
            self._holder().setVisible(False)
        self._links.clear()
        self._links.connect(doc.changed, self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Show the decisions the model asks for now (rebuilt only when they change)."""
        doc = self.doc
        if doc is None:
            return
        now = doc.memo("pending_decisions", lambda: pending_decisions(doc.encounter))
        if now != self.decisions:
            self.decisions = list(now)
            self._show_rows()
            self.refusal.setVisible(False)
        self._show(bool(self.decisions) or self.refusal.isVisible())

    def _show_rows(self) -> None:
        """One row per decision, in order: a row already showing its decision is left as
        it is, another shows the new one, and rows no longer needed are hidden and kept
        for the decisions to come (a session makes no widgets after its busiest moment)."""
        if self.decisions:  # the line goes before a row shows: the bar grows once, if at all
            self.idle.setVisible(False)
        for i, d in enumerate(self.decisions):
            if i < len(self._made):
                row = self._made[i]
                if row.decision != d:
                    row.show_decision(d)
            else:
                row = DecisionRow(d, self)
                self._layout.insertWidget(i, row)
                self._made.append(row)
            row.setVisible(True)
        for row in self._made[len(self.decisions) :]:
            row.setVisible(False)
        self.rows = self._made[: len(self.decisions)]

    def _show(self, on: bool) -> None:
        if self.place is not None:  # not placed yet: placed when something first waits
            if not on:
                return
            place, self.place = self.place, None
            place(self)
        # Once something waited, the bar stays, as tall as the most rows it held (the
        # room below fewer stays blank, a line saying that nothing waits): a bar that
        # followed its rows, or went, moved the map under it, which was laid out, scaled
        # and painted again whole, at each turn that brought or took an actor's ongoing
        # state (in the third hour, 25-30 ms against 10; a map that jumped every turn).
        # Another encounter starts it afresh.
        # A refusal under the rows adds its own height while it shows, not for good.
        if on:
            self._shown = True
        elif not self._shown:
            return
        if self.idle.isHidden() != on:  # to show when nothing waits, or to hide
            self.idle.setVisible(not on)
            self._layout.invalidate()  # its hint now, with the rows just shown or hidden
        refusal = 0
        if not self.refusal.isHidden():
            refusal = self.refusal.sizeHint().height() + self._layout.spacing()
        self._most = max(self._most, self.sizeHint().height() - refusal)
        self.setMinimumHeight(self._most + refusal)
        if on:  # something waits: shown, even if the GM hid the tool bar meanwhile
            self._holder().setVisible(True)

    def _holder(self) -> QWidget:
        """What shows and hides the bar: its tool bar once placed."""
        holder = self.parentWidget()
        return holder if isinstance(holder, QToolBar) else self

    def decide(self, d: Decision, choice) -> None:
        """Push the choice's Op (a refusal shows under the rows), or select the character
        the decision is about (its numbers are the GM's, in the Character dock)."""
        if self.doc is None:
            return
        if choice.op is None:
            self.doc.select(d.about)
            return
        self.refusal.setVisible(False)
        if not self.ctx.push(choice.op, beside=self.refusal):
            self.refusal.setVisible(bool(self.refusal.text()))
            self._show(True)


def install(window) -> DecisionsBar:
    """Put the decisions bar above the map, across the window (a tool bar that only
    shows while something waits), following the document shown.

    The tool bar is made when something first waits, not at the start: a tool bar makes
    its extension button, whose icon it asks of the application's style
    (:mod:`afdesk.gui.kept_icons`, in Python), and that button, a widget class Qt keeps
    to itself, is the first such widget Python meets: PySide6 would first make Python
    classes for every widget class it knows (5 ms of the start)."""
    bar = DecisionsBar(window.ctx, place=lambda bar: _tool_bar(window, bar))
    follow(window, bar.set_document)
    return bar


def _tool_bar(window, bar: DecisionsBar) -> None:
    tools = QToolBar("Decisions", window)
    tools.setObjectName("decisionsBar")
    tools.setMovable(False)
    tools.setFloatable(False)
    tools.addWidget(bar)
    window.addToolBar(Qt.ToolBarArea.TopToolBarArea, tools)
