"""Ops of the turn economy: snaps, actions, screens and the GM's override (E3-E7)."""

from typing import TYPE_CHECKING, Annotated

import msgspec

from afdesk.encounter import economy, features
from afdesk.encounter.actor import require_actor
from afdesk.encounter.combatant import Economy, StateKind
from afdesk.encounter.economy import ActionKind
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.modes import current_mode
from afdesk.encounter.op import Op
from afdesk.encounter.requires import name, require_phase
from afdesk.encounter.state import Phase
from afdesk.rules.contest import outcome as af_outcome
from afdesk.rules.d20 import D20Check, Degree
from afdesk.rules.dice import Roll

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


SnapName = Annotated[str, msgspec.Meta(extra_json_schema={"enum": sorted(features.SNAPS)})]
"""A snap's kind (E5): the name of a snap row (afdesk.encounter.features); the schema lists
the rows afdesk declares, and a row added at run time (a test's) is found by its name."""


ActionName = Annotated[str, msgspec.Meta(extra_json_schema={"enum": sorted(features.ACTIONS)})]
"""An action's kind (E6): the name of an action row (afdesk.encounter.features)."""


def check_succeeded(enc: "Encounter", roll: Roll | None, d20: D20Check | None) -> bool:
    """Whether a plain check succeeded under the encounter's ruleset."""
    if d20 is not None:
        return d20.degree >= Degree.PASS
    if roll is None:
        raise IllegalOp("this needs the check's dice")
    return af_outcome(enc.ruleset, roll).success


# -------------------------------------------------------------------------------- snaps


class UseSnap(Op, frozen=True):
    """Spend the turn's snap (E5): what the snap's row (afdesk.encounter.features) says it
    does. Hustle and Creep carry their check's dice; Distract and Look are contests
    (ResolveContest)."""

    id: str
    snap: SnapName
    roll: Roll | None = None
    d20: D20Check | None = None
    note: str = ""
    decoy: tuple[int, int] | None = None
    """Creep: the decoy lost on a failed sneak check."""
    label = "Snap"

    def __post_init__(self) -> None:
        # Files and journals are read through this too: an unknown snap is refused where
        # it stands, as the enum it was refused before the rows (E5).
        if str(self.snap) not in features.SNAPS:
            known = ", ".join(features.SNAPS)
            raise ValueError(f"there is no snap {str(self.snap)!r} (E5); snaps: {known}")

    def execute(self, enc: "Encounter") -> None:
        row = features.snap_row(self.snap)
        c = require_actor(enc, self.id, f"use a snap ({row.kind})", str(row.kind))
        if row.check in ("distract", "look"):
            raise IllegalOp(f"{row.label} is a contested check: resolve it as a contest")
        c = economy.use_snap(c)
        c = features.use_snap(enc, c, self.snap)
        if row.check == "hustle":
            c = economy.hustled(c, check_succeeded(enc, self.roll, self.d20))
        elif row.check == "creep":
            c = economy.crept(c, check_succeeded(enc, self.roll, self.d20), self.decoy)
        enc.put(c)

    def describe(self, enc: "Encounter") -> str:
        who = name(enc, self.id)
        row = features.SNAPS.get(str(self.snap))
        if row is None:
            return f"{who} uses the snap {self.snap!r}"
        if row.check in ("hustle", "creep") and (self.roll or self.d20):
            try:
                ok = check_succeeded(enc, self.roll, self.d20)
            except IllegalOp:
                ok = False
            result = "succeeds" if ok else "fails"
            extra = ""
            if row.check == "hustle" and ok:
                extra = ": extra movement"
            if row.check == "creep" and not ok:
                extra = ": a decoy is lost"
            return f"{who} {row.kind}s (snap): the check {result}{extra}"
        return features.snap_log(self.snap, who, self.note)

    def title(self, enc: "Encounter") -> str:
        row = features.SNAPS.get(str(self.snap))
        return f"{row.label if row else self.snap} ({name(enc, self.id)})"


# ------------------------------------------------------------------------------ actions


class TakeAction(Op, frozen=True):
    """Spend the turn's action on something that is not a check (E6): what the action's row
    (afdesk.encounter.features) says: Defend, Recover, Recruit, Hesitate, a second snap, or
    anything else the GM narrates."""

    id: str
    action: ActionName
    note: str = ""
    label = "Action"

    def __post_init__(self) -> None:
        if str(self.action) not in features.ACTIONS:  # as the enum refused it (E6)
            known = ", ".join(features.ACTIONS)
            raise ValueError(f"there is no action {str(self.action)!r} (E6); actions: {known}")

    def execute(self, enc: "Encounter") -> None:
        row = features.action_row(self.action)
        if row.check or row.own_op:
            features.take_action(enc, enc.combatant(self.id), self.action)  # says why not
        c = require_actor(enc, self.id, f"take an action ({row.label.lower()})", str(row.kind))
        enc.put(features.take_action(enc, c, self.action))

    def describe(self, enc: "Encounter") -> str:
        who = name(enc, self.id)
        if str(self.action) not in features.ACTIONS:
            return f"{who}: {self.action}"
        return features.action_log(self.action, who, self.note)

    def title(self, enc: "Encounter") -> str:
        row = features.ACTIONS.get(str(self.action))
        return f"{row.label if row else self.action} ({name(enc, self.id)})"


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
        why = current_mode(enc).turn_refusal(enc, c, "screen")  # an unaware guardian (N3)
        if why:
            raise IllegalOp(why)
        t = enc.turn
        if t.actor == c.id and c.economy.action:
            c = economy.use_action(c, ActionKind.SCREEN, t.exchange, t.round)
            # The note tells this Screen (which TakeBack may give back whole) from one
            # that took the action at the start of the turn (which held its defenses).
            c = economy.state_until(c, StateKind.SCREENING, 1, note=OWN_TURN_SCREEN)
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
        # Told before it runs (the log line is made first): say what it will do.
        who = name(enc, self.id)
        c = enc.combatants.get(self.id)
        if c is not None and c.economy.action:
            if enc.turn.actor == c.id:
                return (
                    f"{who} screens on {who}'s own turn: this turn's action goes to the "
                    "Screen, defenses until the next turn (E7)"
                )
            if c.has(StateKind.HESITATING):
                return (
                    f"{who} screens: the held hesitated action is lost, defenses until "
                    "the next turn (E7)"
                )
        return f"{who} screens: defenses now, the next action is lost (E7)"

    def title(self, enc: "Encounter") -> str:
        return f"Screen ({name(enc, self.id)})"


OWN_TURN_SCREEN = "took this turn's action"
"""The note on the Screening state of a Screen made on the character's own turn (E7)."""

TAKE_BACK = ("defend", "screen", "hesitate")
"""What TakeBack can give back whole: the dock's toggles (E6, E7)."""


class TakeBack(Op, frozen=True):
    """Take back this turn's Defend, Screen or Hesitate whole (E6, E7): the Character
    dock's toggle switched off. Defend: its state and its extra guard go, the action comes
    back. Screen: its defenses go, and the action it took (or the next action it was to
    take) comes back. Hesitate: the state goes, the action was kept anyway. Refused, with
    the rule id, once it can no longer be given back whole (the extra guard was used, the
    turn is over, the Screen already took the action at the start of the turn).

    The round of the character's last action goes back to "none": the model only ever
    compares it with the current round (never two actions in one round, E6), which the
    taken-back action was."""

    id: str
    action: Annotated[str, msgspec.Meta(extra_json_schema={"enum": list(TAKE_BACK)})]
    label = "Take back"

    def __post_init__(self) -> None:
        if str(self.action) not in TAKE_BACK:
            known = ", ".join(TAKE_BACK)
            raise ValueError(f"cannot take back {str(self.action)!r}: only {known} (E6, E7)")

    def execute(self, enc: "Encounter") -> None:
        require_phase(enc, Phase.TURNS, doing="take an action back")
        c = enc.combatant(self.id)
        kind = {"defend": StateKind.DEFENDING, "screen": StateKind.SCREENING}.get(
            self.action, StateKind.HESITATING
        )
        label = features.action_row(self.action).label
        if not c.has(kind):
            raise IllegalOp(f"{c.name} has no {label} to take back")
        t = enc.turn
        e = c.economy
        if self.action == "screen" and e.lose_next_action:
            # A Screen off the character's turn: the next action is not lost yet (E7).
            enc.put(c.without_state(kind).with_economy(lose_next_action=False))
            return
        own = t.actor == c.id and not t.interjection
        if not own:
            raise IllegalOp(
                f"{c.name}'s {label} can be taken back whole only on {c.name}'s own turn "
                f"(E6); undo it instead"
            )
        if self.action == "hesitate":
            if not e.action:
                raise IllegalOp(f"{c.name} has no kept action: the Hesitate is spent (E6)")
            enc.put(c.without_state(kind))
            return
        this_turn = e.acted_round == (t.exchange, t.round) and e.action_used == self.action
        if self.action == "screen":
            st = c.state(kind)
            if not this_turn or st is None or st.note != OWN_TURN_SCREEN:
                raise IllegalOp(
                    f"{c.name}'s Screen took this turn's action when the turn began and has "
                    "held its defenses since: it cannot be taken back whole (E7)"
                )
            guards = e.guards
        else:
            if not this_turn:
                raise IllegalOp(f"{c.name}'s Defend was not taken this turn (E6)")
            if e.guards < 1:
                raise IllegalOp(
                    f"{c.name} has used the guard since defending: the Defend cannot be "
                    "taken back whole (E4, E6)"
                )
            guards = e.guards - 1
        enc.put(
            c.without_state(kind).with_economy(
                action=True, action_used="", acted_round=(0, 0), guards=guards
            )
        )

    def describe(self, enc: "Encounter") -> str:
        who = name(enc, self.id)
        if self.action == "defend":
            return f"{who} takes back the Defend: the action returns, the extra guard goes (E6)"
        if self.action == "screen":
            return f"{who} takes back the Screen: the defenses go, the action returns (E7)"
        return f"{who} takes back the Hesitate: the action is {who}'s to use now (E6)"

    def title(self, enc: "Encounter") -> str:
        return f"Take back {self.action} ({name(enc, self.id)})"


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
