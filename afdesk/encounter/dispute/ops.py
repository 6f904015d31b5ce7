"""The dispute's Ops (P2-P9): platforms, sides, grit/wits/sway, tension, Convince, the end.

Every change to the dispute's part is one of these; each checks first and raises
:class:`IllegalOp` with the reason and the rule id. After a change of sides the reckoning
(P6) runs: a platform at the target and ahead of every other wins, and the dispute ends.
Convince (P4) is in :mod:`afdesk.encounter.dispute.convince`.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.dispute.state import (
    AUDIENCE,
    DisputeOutcome,
    DisputeState,
    Entry,
    Platform,
    dispute_of,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.op import Op
from afdesk.encounter.requires import require_phase
from afdesk.encounter.state import Mode, Phase
from afdesk.rules import RulesError
from afdesk.rules import dispute as rules

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def _dispute(enc: "Encounter", doing: str) -> DisputeState:
    if enc.mode is not Mode.DISPUTE:
        raise IllegalOp(f"cannot {doing}: the encounter is a {enc.mode.value}, not a dispute")
    d: DisputeState = dispute_of(enc)
    return d


def _entry(d: DisputeState, eid: str, doing: str) -> Entry:
    e = d.entry(eid)
    if e is None:
        raise IllegalOp(f"cannot {doing}: nobody called {eid!r} takes part in the dispute (P3)")
    return e


def _platform(d: DisputeState, pid: str, doing: str) -> Platform:
    p = d.platform(pid)
    if p is None:
        raise IllegalOp(f"cannot {doing}: the dispute has no platform {pid!r} (P2)")
    return p


def side_name(d: DisputeState, side: str) -> str:
    if side == AUDIENCE:
        return "the neutral audience"
    p = d.platform(side)
    return p.name if p is not None else side


def _who(enc: "Encounter", ref: str) -> str:
    """A proponent in words: an entry's or a character's name, or the text itself."""
    d: DisputeState = dispute_of(enc)
    e = d.entry(ref)
    if e is not None:
        return e.name
    c = enc.combatants.get(ref)
    return c.name if c is not None else ref


def _open(d: DisputeState, doing: str) -> None:
    if d.over:
        won = side_name(d, d.outcome.winner) if d.outcome.winner else "nobody"
        raise IllegalOp(f"cannot {doing}: the dispute is over ({won} won, P9)")


def _check_platform(d: DisputeState, p: Platform, new: bool) -> None:
    if not p.id or not p.name.strip():
        raise IllegalOp("a platform needs an id and a name (P2)")
    if new and d.platform(p.id) is not None:
        raise IllegalOp(f"the dispute already has a platform {p.id!r} (P2)")
    if p.id == AUDIENCE:
        raise IllegalOp("a platform's id cannot be empty (P2)")
    other = d.conventional()
    if p.conventional and other is not None and other.id != p.id:
        raise IllegalOp(
            f"{other.name} is already the conventional platform: at most one is (P2); "
            "unmark it first"
        )


def _check_entry(d: DisputeState, e: Entry) -> None:
    if not e.id or not e.name.strip():
        raise IllegalOp("an individual or group needs an id and a name (P3)")
    if e.count < 1:
        raise IllegalOp(f"{e.name} must count at least 1 individual, not {e.count} (P3)")
    for what, value in (("grit", e.grit), ("wits", e.wits), ("sway", e.sway)):
        if value < 0:
            raise IllegalOp(f"{e.name}'s {what} cannot be negative ({value}, P3)")
    if e.side != AUDIENCE and d.platform(e.side) is None:
        raise IllegalOp(f"{e.name} cannot stand on {e.side!r}: the dispute has no such platform")


def reckon(enc: "Encounter", d: DisputeState) -> DisputeState:
    """``d`` with the dispute ended if a platform now wins at the reckoning (P6)."""
    if d.over:
        return d
    won = d.leader()
    if won is None:
        return d
    return msgspec.structs.replace(d, outcome=DisputeOutcome("reckoning", won, enc.turn.exchange))


def moved(d: DisputeState, e: Entry, side: str, count: int) -> DisputeState:
    """``count`` of entry ``e`` moved to ``side``: the whole entry, or a split of a group
    that joins the same group's part already there (``<id>@<side>``)."""
    if count >= e.count:
        same = next((q for q in d.entries if q.id != e.id and q.side == side and _kin(q, e)), None)
        if same is None:
            return d.replace_entry(msgspec.structs.replace(e, side=side))
        merged = msgspec.structs.replace(same, count=same.count + e.count)
        return d.with_entries(
            tuple(merged if q.id == same.id else q for q in d.entries if q.id != e.id)
        )
    rest = msgspec.structs.replace(e, count=e.count - count)
    kin = next((q for q in d.entries if q.side == side and _kin(q, e)), None)
    entries = [rest if q.id == e.id else q for q in d.entries]
    if kin is not None:
        grown = msgspec.structs.replace(kin, count=kin.count + count)
        entries = [grown if q.id == kin.id else q for q in entries]
    else:
        base = e.id.split("@")[0]
        new_id = f"{base}@{side or 'audience'}"
        n = 2
        while d.entry(new_id) is not None:
            new_id = f"{base}@{side or 'audience'}-{n}"
            n += 1
        entries.append(msgspec.structs.replace(e, id=new_id, count=count, side=side))
    return d.with_entries(tuple(entries))


def _kin(a: Entry, b: Entry) -> bool:
    """Two parts of the same group (split by a Convince or a move)."""
    return (
        not a.character
        and not b.character
        and a.id.split("@")[0] == b.id.split("@")[0]
        and (a.grit, a.wits, a.sway, a.name) == (b.grit, b.wits, b.sway, b.name)
    )


class AddPlatform(Op, frozen=True):
    """Put a platform up for dispute (P2): the GM may add one at any time."""

    platform: Platform
    label = "Platform"

    def execute(self, enc: "Encounter") -> None:
        d = _dispute(enc, "add a platform")
        _check_platform(d, self.platform, new=True)
        enc.set_part("dispute", msgspec.structs.replace(d, platforms=(*d.platforms, self.platform)))

    def describe(self, enc: "Encounter") -> str:
        p = self.platform
        by = f", put forward by {_who(enc, p.proponent)}" if p.proponent else ""
        conv = " (conventional)" if p.conventional else ""
        return f"Platform {p.name}{conv}: {p.course or 'no course given'}{by} (P2)"


class EditPlatform(Op, frozen=True):
    """Change a platform's name, course, proponent, properties or conventional mark (P2)."""

    platform: Platform
    label = "Edit platform"

    def execute(self, enc: "Encounter") -> None:
        d = _dispute(enc, "edit a platform")
        old = _platform(d, self.platform.id, "edit a platform")
        if old == self.platform:
            raise IllegalOp(f"{old.name} is already so")
        _check_platform(d, self.platform, new=False)
        enc.set_part("dispute", d.replace_platform(self.platform))

    def describe(self, enc: "Encounter") -> str:
        return f"Platform {self.platform.name} edited (P2)"


class JoinDispute(Op, frozen=True):
    """Someone present joins the dispute (P3): an individual, or a group with a count."""

    entry: Entry
    label = "Disputant"

    def execute(self, enc: "Encounter") -> None:
        d = _dispute(enc, "add someone to the dispute")
        if d.entry(self.entry.id) is not None:
            raise IllegalOp(f"{self.entry.id!r} already takes part in the dispute")
        _check_entry(d, self.entry)
        enc.set_part("dispute", reckon(enc, d.with_entries((*d.entries, self.entry))))

    def describe(self, enc: "Encounter") -> str:
        e = self.entry
        who = f"{e.name} ({e.count})" if e.group else e.name
        return f"{who} joins the dispute, in {side_name(dispute_of(enc), e.side)} (P3)"


class MoveDisputant(Op, frozen=True):
    """Move an individual, or ``count`` members of a group (0: all), to a platform or the
    neutral audience (P3). The GM moves denizens; a player character moves when its
    player says so. A change of sides runs the reckoning (P6)."""

    id: str
    side: str
    count: int = 0
    label = "Change side"

    def execute(self, enc: "Encounter") -> None:
        d = _dispute(enc, "change someone's side")
        e = _entry(d, self.id, "change a side")
        if self.side != AUDIENCE:
            _platform(d, self.side, "change a side")
        count = self.count or e.count
        if not 1 <= count <= e.count:
            raise IllegalOp(f"{e.name} counts {e.count}: cannot move {count} of them (P3)")
        if e.side == self.side:
            raise IllegalOp(f"{e.name} already stands in {side_name(d, self.side)}")
        enc.set_part("dispute", reckon(enc, moved(d, e, self.side, count)))

    def describe(self, enc: "Encounter") -> str:
        d: DisputeState = dispute_of(enc)
        e = d.entry(self.id)
        who = e.name if e is not None else self.id
        if e is not None and e.group:
            who = f"{self.count or e.count} of {e.name}"
        text = f"{who} moves to {side_name(d, self.side)} (P3)"
        if e is None:
            return text
        return text + _ending(
            enc, d, lambda: reckon(enc, moved(d, e, self.side, self.count or e.count))
        )


class SetDisputeStats(Op, frozen=True):
    """The GM sets an entry's grit, wits or sway (P3; None: unchanged)."""

    id: str
    grit: int | None = None
    wits: int | None = None
    sway: int | None = None
    label = "Grit, wits, sway"

    def execute(self, enc: "Encounter") -> None:
        d = _dispute(enc, "set grit, wits or sway")
        e = _entry(d, self.id, "set grit, wits or sway")
        new = msgspec.structs.replace(
            e,
            grit=e.grit if self.grit is None else self.grit,
            wits=e.wits if self.wits is None else self.wits,
            sway=e.sway if self.sway is None else self.sway,
        )
        if new == e:
            raise IllegalOp(f"{e.name}'s grit, wits and sway are already so")
        _check_entry(d, new)
        enc.set_part("dispute", reckon(enc, d.replace_entry(new)))

    def describe(self, enc: "Encounter") -> str:
        e = dispute_of(enc).entry(self.id)
        who = e.name if e is not None else self.id
        parts = [
            f"{what} {value}"
            for what, value in (("grit", self.grit), ("wits", self.wits), ("sway", self.sway))
            if value is not None
        ]
        return f"{who}: {', '.join(parts)} (P3)"


class AddTension(Op, frozen=True):
    """The GM adds (or, negative, removes) tension (P7). Tension that exceeds the
    threshold breaks the dispute: it ends with no winner."""

    amount: int = 1
    label = "Tension"

    def execute(self, enc: "Encounter") -> None:
        d = _dispute(enc, "change the tension")
        _open(d, "change the tension")
        if self.amount == 0:
            raise IllegalOp("a change of tension needs an amount other than 0 (P7)")
        tension = d.tension + self.amount
        if tension < 0:
            raise IllegalOp(f"tension is {d.tension}: it cannot go below 0 (P7)")
        d = msgspec.structs.replace(d, tension=tension)
        if rules.tension_broken(tension, d.threshold):
            d = msgspec.structs.replace(d, outcome=DisputeOutcome("broken", "", enc.turn.exchange))
        enc.set_part("dispute", d)

    def describe(self, enc: "Encounter") -> str:
        d: DisputeState = dispute_of(enc)
        tension = d.tension + self.amount
        text = f"Tension {'+' if self.amount > 0 else ''}{self.amount}: {tension}/{d.threshold}"
        if tension >= 0 and rules.tension_broken(tension, d.threshold):
            text += "; the dispute breaks with no winner"
        return text + " (P7)"


class SetTensionThreshold(Op, frozen=True):
    """Faults, abilities or conditions change the tension threshold (P7)."""

    threshold: int
    label = "Tension threshold"

    def execute(self, enc: "Encounter") -> None:
        d = _dispute(enc, "change the tension threshold")
        _open(d, "change the tension threshold")
        if self.threshold < 0:
            raise IllegalOp(f"the tension threshold cannot be negative ({self.threshold}, P7)")
        if self.threshold == d.threshold:
            raise IllegalOp(f"the tension threshold is already {d.threshold}")
        d = msgspec.structs.replace(d, threshold=self.threshold)
        if rules.tension_broken(d.tension, d.threshold):
            d = msgspec.structs.replace(d, outcome=DisputeOutcome("broken", "", enc.turn.exchange))
        enc.set_part("dispute", d)

    def describe(self, enc: "Encounter") -> str:
        return f"Tension threshold: {self.threshold} (P7)"


class CloseDispute(Op, frozen=True):
    """The GM closes the dispute at an exchange end (P8): the platform with the most
    support wins; on a tie the conventional one, else ``pick`` (one of the tied)."""

    pick: str = ""
    override: bool = False
    label = "Close the dispute"

    def execute(self, enc: "Encounter") -> None:
        d = _dispute(enc, "close the dispute")
        _open(d, "close the dispute")
        if not self.override:
            require_phase(enc, Phase.EXCHANGE_END, doing="close the dispute")
        if not d.platforms:
            raise IllegalOp("the dispute has no platforms to close on (P2)")
        conv = d.conventional()
        won, tied = rules.closing_winner(d.support(), conv.id if conv else None)
        if won is None:
            if not self.pick:
                names = " and ".join(side_name(d, p) for p in tied)
                raise IllegalOp(f"{names} are tied and none is conventional: the GM picks (P8)")
            if self.pick not in tied:
                raise IllegalOp(f"{side_name(d, self.pick)} is not among the tied platforms (P8)")
            won = self.pick
        elif self.pick and self.pick != won:
            raise IllegalOp(f"{side_name(d, won)} has the most support and wins (P8)")
        enc.set_part(
            "dispute",
            msgspec.structs.replace(d, outcome=DisputeOutcome("closed", won, enc.turn.exchange)),
        )

    def describe(self, enc: "Encounter") -> str:
        d: DisputeState = dispute_of(enc)
        text = "The GM closes the dispute (P8)"
        try:
            conv = d.conventional()
            won, _ = rules.closing_winner(d.support(), conv.id if conv else None)
        except RulesError:
            return text
        won = won or self.pick
        if not won:
            return text
        o = DisputeOutcome("closed", won, enc.turn.exchange)
        return f"{text}: {outcome_text(msgspec.structs.replace(d, outcome=o))}"


class SettleDispute(Op, frozen=True):
    """The GM's override of how the dispute ended (P9): a winner (empty: nobody), or
    ``reopen`` to let it go on."""

    winner: str = ""
    reopen: bool = False
    label = "Settle the dispute"

    def execute(self, enc: "Encounter") -> None:
        d = _dispute(enc, "settle the dispute")
        if self.reopen:
            if not d.over:
                raise IllegalOp("the dispute is not over")
            enc.set_part("dispute", msgspec.structs.replace(d, outcome=DisputeOutcome()))
            return
        _open(d, "settle the dispute")
        if self.winner:
            _platform(d, self.winner, "settle the dispute")
        outcome = DisputeOutcome("gm", self.winner, enc.turn.exchange)
        enc.set_part("dispute", msgspec.structs.replace(d, outcome=outcome))

    def describe(self, enc: "Encounter") -> str:
        if self.reopen:
            return "The GM reopens the dispute"
        won = side_name(dispute_of(enc), self.winner) if self.winner else "nobody"
        return f"The GM ends the dispute: {won} wins (P9)"


def _ending(enc: "Encounter", d: DisputeState, after: Callable[[], DisputeState]) -> str:
    """ "; <the outcome>" when the change ``after`` works out ends the dispute (P6, P9)."""
    if d.over:
        return ""
    try:
        new = after()
    except (IllegalOp, RulesError):
        return ""
    return f"; {outcome_text(new)}" if new.over else ""


def outcome_text(d: DisputeState) -> str:
    """What the log and the players' screen say of the end (P9)."""
    o = d.outcome
    if not o.how:
        return ""
    if not o.winner:
        return "The dispute broke with no winner (P7)" if o.how == "broken" else "Nobody won"
    rule = {"reckoning": "P6", "closed": "P8"}.get(o.how, "P9")
    return (
        f"{side_name(d, o.winner)} wins ({rule}): everyone, losers included, goes along "
        "with it (P9)"
    )
