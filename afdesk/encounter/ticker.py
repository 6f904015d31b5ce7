"""What the players' screen says happened: short lines (an event ticker) derived from the
log entries an action just added, in the table's words and never anything GM-only.

A line is said only about characters the players may see (:mod:`afdesk.encounter.visibility`:
on the map, not hidden, not in reserve, not under fog); a character leaving the map is said
only if the players saw it just before (``seen_before``, :func:`seen_by_players`). Checks
follow the GM's choice for the table (``check_view``): a public check names its verdict
and, on a full tie, that the higher reflex card decided (R9, E2); a check whose dice the
GM keeps says only the hits it dealt; a GM-only check says nothing. Lines never quote the
log's own text, which may carry GM notes, overrides and hidden characters' names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.combatant import StateKind
from afdesk.encounter.contest.assembly import higher_card
from afdesk.encounter.contest.ops import ResolveContest
from afdesk.encounter.damage import landed_hits
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.modes import current_mode
from afdesk.encounter.ops.damage import DecideHarm
from afdesk.encounter.ops.flow import EndExchangeEarly, NextTurn
from afdesk.encounter.ops.meta import ChangeMode
from afdesk.encounter.ops.move import MoveCombatant
from afdesk.encounter.ops.reserve import BringIn
from afdesk.encounter.ops.roster import AddState, AdjustCounter, ExitCombatant, PlaceCombatant
from afdesk.encounter.state import Mode, Phase
from afdesk.encounter.visibility import all_player_visible, player_visible
from afdesk.rules.errors import RulesError

if TYPE_CHECKING:
    from afdesk.encounter.contest.assembly import ContestRecord
    from afdesk.encounter.interface import Encounter
    from afdesk.encounter.snapshot import LogEntry
    from afdesk.rules.verdict import Verdict

PUBLIC, RESULT, SECRET = "public", "result", ""
"""What the table learns of a check (``check_view``): its verdict, only its hits, nothing."""


class TickerLine(msgspec.Struct, frozen=True):
    """One line for the players' screen and what it is about."""

    text: str
    kind: str
    """ "move", "check", "tie", "hits", "down", "out", "reinforcements", "mode" or
    "exchange"."""


def seen_by_players(enc: Encounter) -> frozenset[str]:
    """The ids of the characters the players may see now (see the module)."""
    return all_player_visible(enc)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _names(names: Sequence[str]) -> str:
    if len(names) < 2:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


class _Reader:
    """Turns entries into lines against the encounter as it is after them."""

    def __init__(
        self,
        enc: Encounter,
        seen_before: frozenset[str],
        check_view: Callable[[ContestRecord], str],
    ) -> None:
        self.enc = enc
        self.seen_before = seen_before
        self.check_view = check_view

    def visible(self, cid: str) -> bool:
        return player_visible(self.enc, cid)

    def name(self, cid: str) -> str:
        c = self.enc.combatants.get(cid)
        return c.name if c is not None else cid

    def left_in_view(self, cid: str) -> bool:
        """Off the map now, seen just before, and not hidden or held back."""
        c = self.enc.combatants.get(cid)
        return c is not None and cid in self.seen_before and not c.hidden and not c.in_reserve

    def lines(self, entry: LogEntry, last: bool) -> list[TickerLine]:
        op = entry.op
        if isinstance(op, MoveCombatant | PlaceCombatant):
            placed = isinstance(op, PlaceCombatant)
            if placed and entry.exchange == 0:
                return []  # setting up the zone before play is not news
            if self.visible(op.id):
                return [TickerLine(f"{self.name(op.id)} moves", "move")]
        elif isinstance(op, ResolveContest):
            return self.check(op.record)
        elif isinstance(op, AdjustCounter):
            if op.counter == "hits" and op.delta > 0 and self.visible(op.id):
                return [TickerLine(f"{self.name(op.id)} takes {_plural(op.delta, 'hit')}", "hits")]
        elif isinstance(op, AddState):
            if op.kind is StateKind.DOWN and self.visible(op.id):
                return [TickerLine(f"{self.name(op.id)} is down", "down")]
        elif isinstance(op, DecideHarm):
            if op.choice == "down" and self.visible(op.id):
                return [TickerLine(f"{self.name(op.id)} is down", "down")]
            if op.choice == "out" and self.left_in_view(op.id):
                return [TickerLine(f"{self.name(op.id)} is out of the fight", "out")]
        elif isinstance(op, ExitCombatant):
            if self.left_in_view(op.id):
                words = current_mode(self.enc).exit_words(str(op.edge))  # N8: "gets out"
                return [TickerLine(f"{self.name(op.id)} {words}", "out")]
        elif isinstance(op, BringIn):
            return self.reinforcements(op)
        elif isinstance(op, ChangeMode):
            article = "an" if op.mode.value[0] in "aeiou" else "a"
            words = "a battle again" if op.mode is Mode.BATTLE else f"{article} {op.mode.value}"
            return [TickerLine(f"The encounter becomes {words}", "mode")]
        elif isinstance(op, EndExchangeEarly):
            return [TickerLine(f"Exchange {entry.exchange} ends early", "exchange")]
        elif isinstance(op, NextTurn) and last and self.enc.turn.phase is Phase.EXCHANGE_END:
            return [TickerLine(f"Exchange {entry.exchange} is over", "exchange")]
        return []

    def reinforcements(self, op: BringIn) -> list[TickerLine]:
        # The newcomers the players now see, by name: the reserve's name is the GM's, and
        # a member that comes in under the fog stays unsaid.
        came = [
            c.name for c in self.enc.roster() if self.visible(c.id) and c.id not in self.seen_before
        ]
        if not came:
            return []
        verb = "joins" if len(came) == 1 else "join"
        return [TickerLine(f"Reinforcements: {_names(came)} {verb} the fight", "reinforcements")]

    def check(self, record: ContestRecord) -> list[TickerLine]:
        enc = self.enc
        people = [record.attacker, record.target, *(d.defender for d in record.defenses)]
        if not all(self.visible(cid) for cid in people if cid):
            return []  # a Hide, a Creep, a check against someone under fog
        view = self.check_view(record)
        if view == SECRET:
            return []
        try:
            v = record.verdict(enc.ruleset)
        except (RulesError, IllegalOp):
            return []
        out = []
        spec = record.action.spec
        if view == PUBLIC:
            target = f" {self.name(record.target)}" if record.target else ""
            if v.lands:
                verdict = "lands" if spec.attack else "succeeds"
            else:
                verdict = "is stopped" if v.stopped else "fails"
            text = f"{self.name(record.attacker)} {spec.verb}{target}: {verdict}"
            out.append(TickerLine(text, "check"))
            out += self.tie(record, v)
        if v.lands and record.target and spec.attack:
            hits = landed_hits(record.hits, record.momentum_uses)
            if hits > 0:
                words = f"{self.name(record.target)} takes {_plural(hits, 'hit')}"
                out.append(TickerLine(words, "hits"))
        return out

    def tie(self, record: ContestRecord, v: Verdict) -> list[TickerLine]:
        """On a full tie (equal Result and Gain), who decided it (R9, E2)."""
        a, d = v.attack, v.defense
        if a is None or d is None or not a.success or not d.success:
            return []
        if (a.result, a.gain) != (d.result, d.gain):
            return []
        who = ""
        if v.stopped:
            who = next((u.defender for u in record.defenses if u.higher_card), "")
        elif any(higher_card(self.enc, record.attacker, u.defender) for u in record.defenses):
            who = record.attacker
        if v.stopped or who:
            whose = f"{self.name(who)}'s" if who else "the"
            text = f"A full tie: {whose} higher reflex card decides (R9)"
        else:
            text = "A full tie: with no reflex cards to compare, the original stands (R9)"
        return [TickerLine(text, "tie")]


def ticker_lines(
    enc: Encounter,
    entries: Iterable[LogEntry],
    seen_before: frozenset[str],
    check_view: Callable[[ContestRecord], str] = lambda record: RESULT,
) -> list[TickerLine]:
    """The players' lines for ``entries``, the log entries one action just added to
    ``enc`` (which is as they left it). ``seen_before``: :func:`seen_by_players` before the
    action. ``check_view(record)``: what the table learns of a check (:data:`PUBLIC`,
    :data:`RESULT`, :data:`SECRET`)."""
    reader = _Reader(enc, seen_before, check_view)
    entries = list(entries)
    out: list[TickerLine] = []
    for i, entry in enumerate(entries):
        out.extend(reader.lines(entry, last=i == len(entries) - 1))
    return out


__all__ = ["PUBLIC", "RESULT", "SECRET", "TickerLine", "seen_by_players", "ticker_lines"]
