"""The campaign's roster: the band, recurring characters and the bestiary.

A :class:`Character` is one entry of the roster with a stable id: a band member (a player
character), a recurring character (a named NPC) or a bestiary template ("Bandit"). Band
members and recurring characters join an encounter as *links* (the combatant's ``link`` is
the character's id; carry-over writes back to them); a template joins as numbered copies
that belong to that encounter alone.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable

import msgspec

from afdesk.encounter import limits
from afdesk.encounter.combatant import (
    DEFAULT_FACETS,
    Combatant,
    D20Profile,
    Facet,
    Side,
    Speeds,
    State,
)
from afdesk.encounter.errors import IllegalOp


class Role(enum.StrEnum):
    """What a roster entry is in the campaign."""

    BAND = "band"
    RECURRING = "recurring"
    TEMPLATE = "template"

    @property
    def label(self) -> str:
        return {"band": "Band", "recurring": "Recurring", "template": "Bestiary"}[self.value]

    @property
    def linked(self) -> bool:
        """Whether it joins encounters as a link (the same character) or as copies."""
        return self is not Role.TEMPLATE


SESSION_SHIFTS = 3
"""Each character starts a session with 3 Shifts, and so does the referee's pool (R10)."""


class Character(msgspec.Struct, frozen=True, omit_defaults=True, kw_only=True):
    """One roster entry: the profile a combatant is made from, and what lasts between
    encounters (grit, hits, Shifts left this session, lasting states, days since rest)."""

    id: str
    name: str
    role: Role
    side: Side = Side.BAND
    facets: tuple[Facet, ...] = DEFAULT_FACETS
    speeds: Speeds = Speeds()
    reach: int = 1
    weapon_range: int = 0
    grit: int = 3
    grit_max: int = 3
    hits: int = 0
    shifts: int = SESSION_SHIFTS
    will: int = 0
    d20: D20Profile = D20Profile()
    states: tuple[State, ...] = ()
    """States that last between encounters (exhausted, wounded, ...; see carry)."""
    days_since_rest: int = 0
    notes: str = ""

    def replace(self, **changes: object) -> Character:
        return msgspec.structs.replace(self, **changes)

    def combatant(self, cid: str, name: str | None = None, group: str = "") -> Combatant:
        """A combatant made from this entry: a link for the band and recurring characters,
        a plain copy (no link) for a template."""
        return Combatant(
            id=cid,
            name=self.name if name is None else name,
            side=self.side,
            group=group,
            facets=self.facets,
            speeds=self.speeds,
            reach=self.reach,
            weapon_range=self.weapon_range,
            grit=self.grit,
            grit_max=self.grit_max,
            hits=self.hits,
            shifts=self.shifts,
            will=self.will,
            states=self.states if self.role.linked else (),
            notes=self.notes,
            d20=self.d20,
            link=self.id if self.role.linked else "",
            days_since_rest=self.days_since_rest if self.role.linked else None,
        )

    @classmethod
    def from_combatant(cls, c: Combatant, cid: str, role: Role) -> Character:
        """A roster entry with ``c``'s profile (a character met in an encounter)."""
        return cls(
            id=cid,
            name=c.name,
            role=role,
            side=c.side,
            facets=c.facets,
            speeds=c.speeds,
            reach=c.reach,
            weapon_range=c.weapon_range,
            grit=c.grit,
            grit_max=c.grit_max,
            hits=c.hits,
            shifts=c.shifts,
            will=c.will,
            d20=c.d20,
            notes=c.notes,
        )


def slug(name: str, fallback: str = "character") -> str:
    """A readable id made from a name: "Bandit archer" -> "bandit-archer"."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or fallback


def fresh_id(name: str, taken: Iterable[str], fallback: str = "character") -> str:
    """A readable id for ``name`` that is not in ``taken``."""
    used = set(taken)
    base = slug(name, fallback)
    cid, n = base, 2
    while cid in used:
        cid, n = f"{base}-{n}", n + 1
    return cid


def check_character(c: Character) -> None:
    """:class:`IllegalOp` if the entry cannot be a character (the same limits as a
    combatant's profile)."""
    if not c.id.strip():
        raise IllegalOp("a roster character needs an id")
    if not c.name.strip():
        raise IllegalOp("a roster character needs a name")
    for f in c.facets:
        if f.score < 0:
            raise IllegalOp(f"{c.name}'s {f.name} score cannot be negative")
    s = c.speeds
    if min(s.run, s.climb, s.jump, s.swim, s.fly) < 0:
        raise IllegalOp(f"{c.name}'s speeds cannot be negative")
    if c.reach < 0 or c.weapon_range < 0:
        raise IllegalOp(f"{c.name}'s reach and weapon range cannot be negative")
    if min(c.grit, c.grit_max, c.hits, c.shifts, c.will, c.days_since_rest) < 0:
        raise IllegalOp(
            f"{c.name}'s grit, hits, Shifts, Will and days since rest cannot be negative"
        )
    if c.grit > c.grit_max:
        raise IllegalOp(f"{c.name}'s grit ({c.grit}) is above the most grit ({c.grit_max})")
    found = limit_problem(c)
    if found is not None:
        raise IllegalOp(found.refusal(f"{c.name}'s"))


def limit_problem(c: Character) -> limits.Problem | None:
    """The first number of ``c`` beyond the limit an encounter holds it to
    (:mod:`afdesk.encounter.limits`: Grit E15, Shifts R10, ...), or None. The roster holds
    the encounter's limits, so every character it keeps can join every encounter. The
    place (``grit``, ``speeds.run``, ``states[0].markers``) is the field's in a file."""
    probe = msgspec.structs.replace(
        c.combatant(c.id), states=c.states, days_since_rest=c.days_since_rest
    )
    found = limits.problem(probe)
    if found is None:
        found = limits.number_problem(msgspec.to_builtins(c.d20), "d20")
    return found


__all__ = [
    "SESSION_SHIFTS",
    "Character",
    "Role",
    "check_character",
    "fresh_id",
    "limit_problem",
    "slug",
]
