"""Carry-over: what an encounter did to the linked characters, line by line, for the roster
(E15, E17, R10).

After an encounter (and its persevere, E15) every combatant linked to a band member or a
recurring character is compared with its roster entry. Each difference is one
:class:`CarryLine` with a default the GM may overrule:

- grit and hits: carried (what the fight cost lasts);
- Shifts: carried (Shifts are per session, R10; "Start a new session" gives them back);
- days since rest: carried when the encounter's copy holds another number;
- states that last (E17): exhausted (E15), wounded, shaken, blinded, bleeding and burning are
  carried, gained or lost;
- never carried: down, prepared, crouched and hidden (they belong to the fight), the states
  of the terrain (falling, teeter, stall, flying: the zone is gone), the turn economy
  (defending, screening, fending, quipping, hesitating; guard, snap, action) and momentum
  markers (R12: the next check in this encounter).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from afdesk.encounter.campaign.roster import Character
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.combatant import (
    ECONOMY_STATES,
    Combatant,
    State,
    StateKind,
)
from afdesk.encounter.errors import IllegalOp

NEVER_CARRIED = frozenset(
    {
        StateKind.DOWN,
        StateKind.PREPARED,
        StateKind.CROUCHED,
        StateKind.HIDDEN,
        StateKind.FALLING,
        StateKind.TEETER,
        StateKind.STALL,
        StateKind.FLYING,
        *ECONOMY_STATES,
    }
)
"""States that end with the encounter (see the module)."""

NUMBERS = ("grit", "hits", "shifts", "days_since_rest")
"""The numbers carry-over compares, in the order the dialog lists them."""

NUMBER_WORDS = {
    "grit": "Grit",
    "hits": "Hits",
    "shifts": "Shifts",
    "days_since_rest": "Days since rest",
}

ABSENT = -1
"""A state line's ``before`` or ``after`` when the character does not have the state."""


def lasting(states: Iterable[State]) -> tuple[State, ...]:
    """The states that outlast an encounter, without the turn they would end at."""
    return tuple(
        msgspec.structs.replace(s, until=None) for s in states if s.kind not in NEVER_CARRIED
    )


class CarryLine(msgspec.Struct, frozen=True, omit_defaults=True, kw_only=True):
    """One change to one roster character: a number (``field`` is grit, hits, shifts or
    days_since_rest) or a state (``field`` is the state's kind; ``before``/``after`` are
    its markers, :data:`ABSENT` when the character does not have it)."""

    character: str
    field: str
    before: int
    after: int
    carry: bool = True
    """The GM's say: write this line back to the roster."""

    @property
    def is_state(self) -> bool:
        return self.field not in NUMBERS

    def words(self, name: str) -> str:
        """The line as the dialog and the log say it."""
        if not self.is_state:
            return f"{name}: {NUMBER_WORDS[self.field]} {self.before} \u2192 {self.after}"
        kind = StateKind(self.field)
        if self.after == ABSENT:
            return f"{name}: no longer {kind.value}"
        if self.before == ABSENT:
            marks = f" ({self.after})" if self.after else ""
            return f"{name}: becomes {kind.value}{marks}"
        return f"{name}: {kind.value} {self.before} \u2192 {self.after}"


def _state_map(states: Iterable[State]) -> dict[StateKind, State]:
    return {s.kind: s for s in lasting(states)}


def lines_for(entry: Character, c: Combatant) -> list[CarryLine]:
    """What changed between the roster entry and the encounter's copy of it."""
    out = []
    for field in NUMBERS:
        before = getattr(entry, field)
        after = getattr(c, field)
        if field == "days_since_rest" and after is None:
            continue
        if before != after:
            out.append(CarryLine(character=entry.id, field=field, before=before, after=after))
    old, new = _state_map(entry.states), _state_map(c.states)
    for kind in sorted(set(old) | set(new), key=lambda k: list(StateKind).index(k)):
        b = old[kind].markers if kind in old else ABSENT
        a = new[kind].markers if kind in new else ABSENT
        if a != b:
            out.append(CarryLine(character=entry.id, field=kind.value, before=b, after=a))
    return out


def carry_over(campaign: Campaign, combatants: Iterable[Combatant]) -> list[CarryLine]:
    """Every line carry-over proposes for the linked characters of a finished encounter,
    each with its default say (see the module)."""
    out: list[CarryLine] = []
    for c in combatants:
        if not c.link:
            continue
        entry = campaign.find(c.link)
        if entry is None or not entry.role.linked:
            continue
        out.extend(lines_for(entry, c))
    return out


def apply_line(entry: Character, line: CarryLine) -> Character:
    """``entry`` with ``line`` written to it."""
    if line.character != entry.id:
        raise IllegalOp(f"a carry-over line for {line.character!r} does not belong to {entry.id}")
    if not line.is_state:
        if line.field not in NUMBERS:
            raise IllegalOp(f"carry-over cannot write {line.field!r}")
        if line.after < 0:
            raise IllegalOp(f"{entry.name}'s {NUMBER_WORDS[line.field].lower()} cannot be negative")
        value = min(line.after, entry.grit_max) if line.field == "grit" else line.after
        return entry.replace(**{line.field: value})
    try:
        kind = StateKind(line.field)
    except ValueError:
        raise IllegalOp(f"carry-over cannot write {line.field!r}: not a state") from None
    if kind in NEVER_CARRIED:
        raise IllegalOp(f"{kind.value} never carries over to the next encounter")
    states = tuple(s for s in entry.states if s.kind is not kind)
    if line.after != ABSENT:
        if line.after < 0:
            raise IllegalOp(f"{entry.name}'s {kind.value} markers cannot be negative")
        states = (*states, State(kind, markers=line.after))
    return entry.replace(states=states)


__all__ = [
    "ABSENT",
    "NEVER_CARRIED",
    "NUMBERS",
    "CarryLine",
    "apply_line",
    "carry_over",
    "lasting",
    "lines_for",
]
