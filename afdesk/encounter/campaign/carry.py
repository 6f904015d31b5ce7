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
- only what changed *during the run*: each line compares the encounter's copy with the copy
  taken at Run (:attr:`Planned.at_run`), and proposes the roster's value now plus that
  change, so a "Start a new session" while the encounter ran (R10: 3 Shifts again) is not
  undone; a campaign written before runs kept that copy compares with the roster;
- a lasting state keeps its note ("wounded 2 - arrow in the shoulder"); a new note is a
  change too;
- nothing for an encounter still in setup (:func:`carry_refusal`): it was never played;
- never carried: down, prepared, crouched and hidden (they belong to the fight), the states
  of the terrain (falling, teeter, stall, flying: the zone is gone), the turn economy
  (defending, screening, fending, quipping, hesitating; guard, snap, action) and momentum
  markers (R12: the next check in this encounter).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from afdesk.encounter.campaign.roster import Character
from afdesk.encounter.campaign.state import Campaign, Planned
from afdesk.encounter.combatant import (
    ECONOMY_STATES,
    Combatant,
    State,
    StateKind,
)
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.state import Phase, TurnState

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
    its markers, :data:`ABSENT` when the character does not have it; ``note`` the note the
    state has after)."""

    character: str
    field: str
    before: int
    after: int
    note: str = ""
    """A state line's note after it ("arrow in the shoulder", E17)."""
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
        note = f" - {self.note}" if self.note else ""
        if self.before == ABSENT:
            marks = f" ({self.after})" if self.after else ""
            return f"{name}: becomes {kind.value}{marks}{note}"
        return f"{name}: {kind.value} {self.before} \u2192 {self.after}{note}"


def _state_map(states: Iterable[State]) -> dict[StateKind, State]:
    return {s.kind: s for s in lasting(states)}


def _said(s: State | None) -> tuple[int, str]:
    return (ABSENT, "") if s is None else (s.markers, s.note)


def lines_for(entry: Character, c: Combatant, start: Character | None = None) -> list[CarryLine]:
    """What the encounter changed for ``entry``: the encounter's copy ``c`` now against
    ``start``, the copy taken at Run (the roster entry as it was then; None: the roster
    entry now). Each line proposes the roster's value now plus the run's change."""
    base = entry if start is None else start
    out = []
    for field in NUMBERS:
        now, then = getattr(c, field), getattr(base, field)
        if now is None or now == then:  # None: the encounter's setting of days (E15)
            continue
        before = getattr(entry, field)
        after = max(0, before + now - then)
        if after != before:
            out.append(CarryLine(character=entry.id, field=field, before=before, after=after))
    roster, old, new = _state_map(entry.states), _state_map(base.states), _state_map(c.states)
    for kind in sorted(set(old) | set(new), key=lambda k: list(StateKind).index(k)):
        was, is_ = _said(old.get(kind)), _said(new.get(kind))
        if was == is_:
            continue  # not changed during the run, whatever the roster says now
        if _said(roster.get(kind)) == is_:
            continue
        b = roster[kind].markers if kind in roster else ABSENT
        out.append(
            CarryLine(character=entry.id, field=kind.value, before=b, after=is_[0], note=is_[1])
        )
    return out


def carry_over(
    campaign: Campaign, combatants: Iterable[Combatant], planned: Planned | None = None
) -> list[CarryLine]:
    """Every line carry-over proposes for the linked characters of an encounter, each with
    its default say (see the module); ``planned`` is the encounter, whose copies taken at
    Run say what changed during the run."""
    at_run = {c.id: c for c in planned.at_run} if planned is not None else {}
    out: list[CarryLine] = []
    for c in combatants:
        if not c.link:
            continue
        entry = campaign.find(c.link)
        if entry is None or not entry.role.linked:
            continue
        out.extend(lines_for(entry, c, at_run.get(entry.id)))
    return out


def referee_proposal(campaign: Campaign, planned: Planned, pool: int) -> int | None:
    """The referee's pool carry-over proposes from the encounter's ``pool`` (R10): the
    campaign's pool now plus what the run spent; None when the run changed nothing."""
    start = campaign.referee_shifts if planned.referee_at_run is None else planned.referee_at_run
    if pool == start:
        return None
    proposed = max(0, campaign.referee_shifts + pool - start)
    return None if proposed == campaign.referee_shifts else proposed


def carry_refusal(title: str, turn: TurnState) -> str:
    """Why an encounter in this turn state cannot be carried over, or ""."""
    if turn.phase is Phase.SETUP:
        return (
            f"{title} is still in setup: nothing has been played, so there is nothing to carry over"
        )
    return ""


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
        states = (*states, State(kind, markers=line.after, note=line.note))
    return entry.replace(states=states)


__all__ = [
    "ABSENT",
    "NEVER_CARRIED",
    "NUMBERS",
    "CarryLine",
    "apply_line",
    "carry_over",
    "carry_refusal",
    "lasting",
    "lines_for",
    "referee_proposal",
]
