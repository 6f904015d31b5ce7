"""The special actions of a red pursuit die (H1, seed 001) and what they start: screen (the
Screen state, E7), cooperate (helpers on the next chase check, R11), contest and attack (a
check the GM resolves in the check dialog), grant an extra pursuit die (roll both, choose),
hide (hidden, two decoys that must be caught first); and the decoys caught.
"""

import enum
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter import economy
from afdesk.encounter.chase.ops_base import _participant, _set
from afdesk.encounter.chase.order import pname
from afdesk.encounter.chase.state import ChaseState, Participant, chase_of
from afdesk.encounter.combatant import State, StateKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.op import Op
from afdesk.encounter.ops.roster import check_decoys
from afdesk.encounter.requires import area_text

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter

HIDE_DECOYS = 2
"""Hide: two decoys (H1, E6)."""


class Special(enum.StrEnum):
    """The special actions of a red pursuit die (seed 001)."""

    SCREEN = "screen"
    COOPERATE = "cooperate"
    CONTEST = "contest"
    GRANT = "grant"
    ATTACK = "attack"
    HIDE = "hide"

    @property
    def needs_target(self) -> bool:
        return self not in (Special.SCREEN, Special.HIDE)


def actor_of(enc: "Encounter", p: Participant) -> str:
    """The character who acts for a participant: itself, or for a vehicle whoever of its
    crew is acting now, else its commander (H5)."""
    if p.id in enc.combatants:
        return p.id
    for v in chase_of(enc).vehicles:
        if v.id == p.id:
            return enc.actor if enc.actor in (v.commander, v.helm, *v.crew) else v.commander
    return ""


def caught_first(enc: "Encounter", target: Participant, doing: str) -> None:
    """A hidden participant's decoys must be caught first (H1)."""
    if target.decoys:
        raise IllegalOp(
            f"cannot {doing} {pname(enc, target.id)}: {target.decoys} decoy(s) must be "
            "caught first (H1: hidden)"
        )


class SpecialAction(Op, frozen=True):
    """Spend a special action (H1): screen; cooperate with or contest someone with the same
    or lower total; grant an extra pursuit die to anyone; attack someone with the same or
    lower total (a higher one with the range penalty); become hidden with two decoys
    (``decoys``: their areas when the character is on the map, E6)."""

    id: str
    kind: Special
    target: str = ""
    decoys: tuple[tuple[int, int], ...] = ()
    label = "Special action"

    def execute(self, enc: "Encounter") -> None:
        p = _participant(enc, self.id, "take a special action")
        if p.special < 1:
            raise IllegalOp(f"{pname(enc, p.id)} has no special action (a red pursuit die, H1)")
        chase: ChaseState = chase_of(enc)
        p = msgspec.structs.replace(p, special=p.special - 1)
        who = actor_of(enc, p)
        if self.kind is Special.SCREEN:
            if who:
                c = enc.combatants[who]
                # Paid for by the special action: defenses until it can choose an action
                # again, no action lost (H1, E7).
                enc.put(economy.state_until(c, StateKind.SCREENING, 1))
        elif self.kind is Special.HIDE:
            hider = enc.combatants.get(p.id)
            if hider is not None and hider.area is not None:
                check_decoys(enc, hider, self.decoys, hiding=True)
                enc.put(
                    hider.with_state(State(StateKind.HIDDEN)).replace(
                        decoys=tuple(tuple(d) for d in self.decoys)
                    )
                )
            elif self.decoys:
                raise IllegalOp(f"{pname(enc, p.id)} is not on the map: its decoys have no areas")
            p = msgspec.structs.replace(p, hidden=True, decoys=HIDE_DECOYS)
        else:
            target = chase.participant(self.target)
            if target is None or target.id == p.id:
                raise IllegalOp(f"{self.kind.value} needs another participant in the chase")
            higher = target.total > p.total
            if higher and self.kind in (Special.COOPERATE, Special.CONTEST):
                raise IllegalOp(
                    f"{pname(enc, p.id)} can only {self.kind.value} with someone whose total "
                    f"is the same or lower ({pname(enc, target.id)} has {target.total})"
                )
            if self.kind is Special.GRANT:
                chase = chase.replace(msgspec.structs.replace(target, extra_die=True))
            elif self.kind is Special.COOPERATE:
                helpers = (*target.helpers, p.id)
                chase = chase.replace(msgspec.structs.replace(target, helpers=helpers))
            else:
                caught_first(enc, target, self.kind.value)
                if target.out:
                    raise IllegalOp(f"{pname(enc, target.id)} is out of the chase (H3)")
                p = msgspec.structs.replace(p, started=f"{self.kind.value}:{target.id}")
        enc.set_part("chase", chase.replace(p))

    def describe(self, enc: "Encounter") -> str:
        who = pname(enc, self.id)
        other = pname(enc, self.target) if self.target else ""
        p = chase_of(enc).participant(self.id)
        t = chase_of(enc).participant(self.target)
        where = ", ".join(area_text(d) for d in self.decoys)
        return {
            Special.SCREEN: f"{who} screens: defenses until it can choose an action again (E7)",
            Special.COOPERATE: f"{who} cooperates with {other} on its next chase check (R11)",
            Special.CONTEST: f"{who} contests {other}",
            Special.GRANT: f"{who} grants {other} an extra pursuit die (roll both, choose)",
            Special.ATTACK: f"{who} attacks {other}"
            + (" at the range penalty" if p and t and t.total > p.total else ""),
            Special.HIDE: f"{who} hides: two decoys must be caught first"
            + (f" ({where})" if where else ""),
        }[self.kind]


class EndSpecial(Op, frozen=True):
    """The attack or contest a special action started is resolved (or dropped)."""

    id: str
    label = "Special action resolved"

    def execute(self, enc: "Encounter") -> None:
        p = _participant(enc, self.id, "resolve a special action")
        if not p.started:
            raise IllegalOp(f"{pname(enc, p.id)} has no attack or contest under way")
        _set(enc, msgspec.structs.replace(p, started=""))

    def describe(self, enc: "Encounter") -> str:
        p = chase_of(enc).participant(self.id)
        what = p.started.split(":")[0] if p and p.started else "special action"
        return f"{pname(enc, self.id)}'s {what} is resolved"


class CatchDecoy(Op, frozen=True):
    """One of a hidden participant's decoys is caught or eliminated (H1); with the last one
    gone it can be attacked and caught again (it is no longer hidden)."""

    id: str
    label = "Decoy caught"

    def execute(self, enc: "Encounter") -> None:
        p = _participant(enc, self.id, "catch a decoy")
        if not p.decoys:
            raise IllegalOp(f"{pname(enc, p.id)} has no decoy left")
        left = p.decoys - 1
        _set(enc, msgspec.structs.replace(p, decoys=left, hidden=left > 0))
        c = enc.combatants.get(p.id)
        if c is not None:
            if c.decoys:
                c = c.without_decoy(c.decoys[0])
            if not left:
                c = c.without_state(StateKind.HIDDEN).replace(decoys=())
            enc.put(c)

    def describe(self, enc: "Encounter") -> str:
        p = chase_of(enc).participant(self.id)
        left = (p.decoys - 1) if p else 0
        tail = f"{left} left" if left else "found: no longer hidden"
        return f"A decoy of {pname(enc, self.id)} is caught ({tail}, H1)"
