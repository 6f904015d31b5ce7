"""Ops of the turn economy: snaps, actions, screens and the GM's override (E3-E7)."""

from typing import TYPE_CHECKING

from afdesk.encounter import economy, movement
from afdesk.encounter.combatant import Economy, State, StateKind
from afdesk.encounter.economy import ActionKind, SnapKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.base import Op, name, require_actor, require_phase
from afdesk.encounter.state import Phase
from afdesk.rules.contest import outcome as af_outcome
from afdesk.rules.d20 import D20Check, Degree
from afdesk.rules.dice import Roll

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def check_succeeded(enc: "Encounter", roll: Roll | None, d20: D20Check | None) -> bool:
    """Whether a plain check succeeded under the encounter's ruleset."""
    if d20 is not None:
        return d20.degree >= Degree.PASS
    if roll is None:
        raise IllegalOp("this needs the check's dice")
    return af_outcome(enc.ruleset, roll).success


# -------------------------------------------------------------------------------- snaps


class UseSnap(Op, frozen=True):
    """Spend the turn's snap (E5). Hustle and Creep carry their check's dice; Distract and
    Look are contests (ResolveContest)."""

    id: str
    snap: SnapKind
    roll: Roll | None = None
    d20: D20Check | None = None
    note: str = ""
    decoy: tuple[int, int] | None = None
    """Creep: the decoy lost on a failed sneak check."""
    label = "Snap"

    def execute(self, enc: "Encounter") -> None:
        c = require_actor(enc, self.id, f"use a snap ({self.snap.value})")
        k = self.snap
        if k in (SnapKind.DISTRACT, SnapKind.LOOK):
            raise IllegalOp(f"{k.label} is a contested check: resolve it as a contest")
        c = economy.use_snap(c)
        if k is SnapKind.CROUCH:
            if not economy.adjacent_cover(enc, c):
                raise IllegalOp(f"{c.name} is not next to cover: nothing to crouch behind (E5)")
            c = economy.state_until(c, StateKind.CROUCHED)
        elif k is SnapKind.FEND:
            c = economy.state_until(c, StateKind.FENDING)
        elif k is SnapKind.QUIP:
            c = economy.state_until(c, StateKind.QUIPPING)
        elif k is SnapKind.PREPARE:
            c = economy.state_until(c, StateKind.PREPARED)
        elif k is SnapKind.STAND:
            if not c.has(StateKind.DOWN):
                raise IllegalOp(f"{c.name} is not down")
            c = c.without_state(StateKind.DOWN)
            if c.economy.action:
                c = c.with_economy(action=False, action_used="down")
        elif k is SnapKind.HUSTLE:
            c = economy.hustled(c, check_succeeded(enc, self.roll, self.d20))
        elif k is SnapKind.CREEP:
            c = economy.crept(c, check_succeeded(enc, self.roll, self.d20), self.decoy)
        enc.put(c)

    def describe(self, enc: "Encounter") -> str:
        who = name(enc, self.id)
        k = self.snap
        if k in (SnapKind.HUSTLE, SnapKind.CREEP) and (self.roll or self.d20):
            try:
                ok = check_succeeded(enc, self.roll, self.d20)
            except IllegalOp:
                ok = False
            result = "succeeds" if ok else "fails"
            extra = ""
            if k is SnapKind.HUSTLE and ok:
                extra = ": extra movement"
            if k is SnapKind.CREEP and not ok:
                extra = ": a decoy is lost"
            return f"{who} {k.value}s (snap): the check {result}{extra}"
        note = f": {self.note}" if self.note else ""
        return f"{who} uses the snap to {k.label.lower()}{note}"

    def title(self, enc: "Encounter") -> str:
        return f"{self.snap.label} ({name(enc, self.id)})"


# ------------------------------------------------------------------------------ actions


class TakeAction(Op, frozen=True):
    """Spend the turn's action on something that is not a check (E6): Defend, Recover,
    Recruit, Hesitate, a second snap, or anything else the GM narrates."""

    id: str
    action: ActionKind
    note: str = ""
    label = "Action"

    def execute(self, enc: "Encounter") -> None:
        a = self.action
        if a in (ActionKind.ATTACK, ActionKind.CONVINCE, ActionKind.HIDE):
            raise IllegalOp(f"{a.label} is a check: resolve it as a contest")
        if a is ActionKind.SCREEN:
            raise IllegalOp("a Screen is its own Op (it can come out of turn)")
        c = require_actor(enc, self.id, f"take an action ({a.label.lower()})")
        t = enc.turn
        if a is ActionKind.HESITATE:
            economy.require_action(c, a, t.exchange, t.round)
            if t.interjection:
                raise IllegalOp("a hesitated action cannot hesitate again (E6)")
            enc.put(c.with_state(State(StateKind.HESITATING)))
            return
        if a is ActionKind.MANEUVER:
            c = economy.use_action(c, a, t.exchange, t.round)
            c = c.with_economy(movement=c.economy.movement + movement.maneuver_ticks(c))
        elif a is ActionKind.DEFEND:
            c = economy.use_action(c, a, t.exchange, t.round)
            c = economy.state_until(c, StateKind.DEFENDING)
            c = c.with_economy(guards=c.economy.guards + 1)
        elif a is ActionKind.RECOVER:
            if not (c.has(StateKind.DOWN) or c.has(StateKind.STALL)):
                raise IllegalOp(f"{c.name} is neither down nor stalled: nothing to recover")
            c = economy.use_action(c, a, t.exchange, t.round)
            c = c.without_state(StateKind.DOWN).without_state(StateKind.STALL)
        elif a is ActionKind.SECOND_SNAP:
            c = economy.use_action(c, a, t.exchange, t.round)
            c = c.with_economy(snaps=c.economy.snaps + 1)
        else:
            c = economy.use_action(c, a, t.exchange, t.round)
        enc.put(c)

    def describe(self, enc: "Encounter") -> str:
        who = name(enc, self.id)
        a = self.action
        note = f": {self.note}" if self.note else ""
        text = {
            ActionKind.DEFEND: f"{who} defends: an extra guard and a defense against every "
            "check until the next turn (E6)",
            ActionKind.RECOVER: f"{who} recovers",
            ActionKind.HESITATE: f"{who} hesitates, keeping the action (E6)",
            ActionKind.SECOND_SNAP: f"{who} gives up the action for a second snap (E5)",
            ActionKind.MANEUVER: f"{who} maneuvers",
        }.get(a, f"{who}: {a.label.lower()}")
        return text + note

    def title(self, enc: "Encounter") -> str:
        return f"{self.action.label} ({name(enc, self.id)})"


class Screen(Op, frozen=True):
    """Abort the next action to have defenses now, until the turn after that, as if the
    lost action had been Defend but without its extra guard (E7). On the character's own
    turn it spends this turn's action instead."""

    id: str
    label = "Screen"

    def execute(self, enc: "Encounter") -> None:
        require_phase(enc, Phase.TURNS, doing="screen")
        c = enc.combatant(self.id)
        if c.exited:
            raise IllegalOp(f"{c.name} cannot screen: {c.name} has left the encounter")
        if c.has(StateKind.SCREENING):
            raise IllegalOp(f"{c.name} is already screening")
        t = enc.turn
        if t.actor == c.id and c.economy.action:
            c = economy.use_action(c, ActionKind.SCREEN, t.exchange, t.round)
            c = economy.state_until(c, StateKind.SCREENING, 1)
        elif c.has(StateKind.HESITATING) and c.economy.action:
            # A held hesitated action is the next action it would take: the Screen aborts
            # it, and the defenses last as a Defend on it would, until the next turn (E7).
            c = economy.use_action(c, ActionKind.SCREEN, t.exchange, t.round)
            c = economy.state_until(c, StateKind.SCREENING, 1)
        else:
            if c.economy.lose_next_action:
                raise IllegalOp(f"{c.name}'s next action is already lost to a Screen")
            c = economy.state_until(c, StateKind.SCREENING, 2).with_economy(lose_next_action=True)
        enc.put(c)

    def describe(self, enc: "Encounter") -> str:
        return f"{name(enc, self.id)} screens: defenses now, the next action is lost (E7)"

    def title(self, enc: "Encounter") -> str:
        return f"Screen ({name(enc, self.id)})"


class SetEconomy(Op, frozen=True):
    """GM override of a character's guard, snap and action."""

    id: str
    economy: Economy
    label = "Override turn economy"

    def execute(self, enc: "Encounter") -> None:
        c = enc.combatant(self.id)
        e = self.economy
        if e.guards < 0 or e.snaps < 0 or e.movement < 0:
            raise IllegalOp("guards, snaps and movement cannot be negative")
        enc.put(c.replace(economy=e))

    def describe(self, enc: "Encounter") -> str:
        e = self.economy
        parts = [
            f"guards {e.guards}",
            f"snaps {e.snaps}",
            "action ready" if e.action else "no action",
        ]
        return f"GM sets {name(enc, self.id)}'s turn economy: " + ", ".join(parts)
