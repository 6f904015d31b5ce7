"""Checks shown to the table: after a check is recorded, the players' screen
shows its dice, who rolled what, the result and the verdict, if the GM lets the table see
that check.

The hook is where a check is recorded: the document's log. :class:`RollGate` (one per
document, :func:`gate_for`) watches the log; for each new
:class:`~afdesk.encounter.contest.ops.ResolveContest` it decides (:func:`table_may_see`) and
emits :attr:`RollGate.shown` only for a public one, so a GM-only roll never reaches the
players' window at all. The decision: the GM's choice for this check (Table > Next check)
if any, else the default of the roller's side (Table settings: opponents' rolls GM-only);
and never when anyone in it is hidden from the table or under fog (a Hide, a Creep, a
check against a fogged target). Odds are never part of what is shown.

The same watch says what else happened (:attr:`RollGate.said`): the lines of
:func:`afdesk.encounter.ticker.ticker_lines` for each action, with each check as the table
sees it (public, only its hits, or nothing when the GM keeps it).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from afdesk.encounter.contest.ops import ResolveContest
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ticker import PUBLIC, RESULT, SECRET, ticker_lines
from afdesk.encounter.visibility import SeenKeeper, player_visible
from afdesk.gui.table.settings import NEXT_CHECK_CHOICES, TableSettings
from afdesk.rules.dice import Roll
from afdesk.rules.errors import RulesError

CHOICES = NEXT_CHECK_CHOICES
"""The GM's choice for the next check."""


@dataclass(frozen=True)
class ShownDefense:
    who: str
    what: str
    roll: Roll | None


@dataclass(frozen=True)
class ShownRoll:
    """A check as the table sees it: names, dice, result and verdict, nothing else."""

    who: str
    what: str
    """ "attacks Bandit 1 (Melee)"."""
    roll: Roll | None
    d20: str
    """A d20 check's words ("14+3=17 vs TN 15: Success"), else ""."""
    defenses: tuple[ShownDefense, ...]
    result: str
    verdict: str
    good: bool
    """The roller's check succeeded (and was not stopped)."""


def _people(record) -> list[str]:
    ids = [record.attacker, record.target, *(d.defender for d in record.defenses)]
    return [cid for cid in ids if cid]


def table_may_see(enc, record, settings: TableSettings, choice: str = "") -> bool:
    """Whether the table sees this check (see the module). ``enc`` is the encounter just
    after the check."""
    if choice == "gm":
        return False
    if not all(player_visible(enc, cid) for cid in _people(record)):
        return False
    if choice == "public":
        return True
    roller = enc.combatants.get(record.attacker)
    return roller is not None and settings.public_rolls(roller.side)


def shown_roll(enc, record) -> ShownRoll:
    """What the table sees of ``record`` (a check just recorded in ``enc``)."""

    def name(cid: str) -> str:
        c = enc.combatants.get(cid)
        return c.name if c is not None else cid

    spec = record.action.spec
    what = spec.verb + (f" {name(record.target)}" if record.target else "")
    if record.facet:
        what += f" ({record.facet})"
    try:
        v = record.verdict(enc.ruleset)
        result = v.explain()
        good = v.lands
    except (RulesError, IllegalOp):
        result, good = "not rolled", False
    if good:
        verdict = "Lands" if spec.attack else "Succeeds"
    else:
        verdict = "Stopped" if result.endswith("stopped") else "Fails"
    defenses = tuple(ShownDefense(name(d.defender), d.kind.verb, d.roll) for d in record.defenses)
    d20 = record.d20.describe() if record.d20 is not None else ""
    return ShownRoll(
        name(record.attacker), what, record.attack, d20, defenses, result, verdict, good
    )


class RollGate(QObject):
    """Watches one document's log for checks and lets through only the public ones."""

    shown = Signal(object)
    """A :class:`ShownRoll` the table may see."""
    cleared = Signal()
    """The next action (or an undo): whatever roll is shown goes."""
    said = Signal(list)
    """The ticker's lines (:class:`~afdesk.encounter.ticker.TickerLine`) for one action."""
    taken_back = Signal()
    """An undo: what was said about the undone action is no longer true."""

    def __init__(self, doc, settings: TableSettings | None = None) -> None:
        super().__init__()
        # Weakly: the gate is kept on the document, and a cycle through the document
        # would leave it to the garbage collector (see gui/document.py on why not).
        self._doc = weakref.ref(doc)
        self.settings = settings or TableSettings()
        self.next_choice = ""
        """The GM's choice for the next check ("", "public", "gm"; see :data:`CHOICES`)."""
        self.decided: list[tuple[ShownRoll, bool]] = []
        """The last 50 checks seen, with whether the table saw each."""
        self._length = len(doc.encounter.log)
        self._keeper = SeenKeeper()  # who the players see, asked again only of who changed
        self._seen = self._keeper.seen(doc.encounter)
        doc.logChanged.connect(self._log_changed)

    @property
    def doc(self):
        doc = self._doc()
        if doc is None:
            raise RuntimeError("the document of this roll gate is gone")
        return doc

    def _log_changed(self) -> None:
        enc = self.doc.encounter
        log = enc.log
        new = log[self._length :] if len(log) > self._length else []
        grew = len(log) > self._length
        if len(log) < self._length:
            self.taken_back.emit()
        self._length = len(log)
        seen, self._seen = self._seen, self._keeper.seen(enc)
        checks = [e.op.record for e in new if isinstance(e.op, ResolveContest)]
        choice = ""
        public = False
        if grew and checks:
            choice, self.next_choice = self.next_choice, ""
            record = checks[-1]
            roll = shown_roll(enc, record)
            public = table_may_see(enc, record, self.settings, choice)
            self.decided = [*self.decided[-49:], (roll, public)]
            if public:
                self.shown.emit(roll)
        if not public:
            self.cleared.emit()
        if new:
            last = checks[-1] if checks else None

            def view(record) -> str:
                mine = choice if record is last else ""
                if table_may_see(enc, record, self.settings, mine):
                    return PUBLIC
                return SECRET if mine == "gm" else RESULT

            lines = ticker_lines(enc, new, seen, view)
            if lines:
                self.said.emit(lines)

    def show_last(self) -> str:
        """Show the last check to the table after all (the GM's explicit choice); returns
        why not, or ""."""
        enc = self.doc.encounter
        for entry in reversed(enc.log):
            if isinstance(entry.op, ResolveContest):
                record = entry.op.record
                if not table_may_see(enc, record, self.settings, "public"):
                    return "someone in that check is hidden from the table or under fog"
                self.shown.emit(shown_roll(enc, record))
                return ""
        return "no check has been rolled yet"


def gate_for(doc) -> RollGate:
    """The one roll gate of ``doc`` (made on first use, kept on the document)."""
    gate = getattr(doc, "_table_roll_gate", None)
    if gate is None:
        gate = RollGate(doc)
        doc._table_roll_gate = gate
    return gate


__all__ = [
    "CHOICES",
    "RollGate",
    "ShownDefense",
    "ShownRoll",
    "gate_for",
    "shown_roll",
    "table_may_see",
]
