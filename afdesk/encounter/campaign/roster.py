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
from afdesk.encounter.combatant import SHEET_FIELDS, Combatant, Sheet
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.weapons import attack_refusal


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


class Character(Sheet, frozen=True, omit_defaults=True, kw_only=True):
    """One roster entry: a character :class:`Sheet` (the one the encounter's combatants
    have too) with a stable id and a role, and what lasts between encounters besides the
    sheet's grit, hits, Shifts left this session and lasting states: days since rest."""

    id: str
    role: Role
    days_since_rest: int = 0

    def replace(self, **changes: object) -> Character:
        return msgspec.structs.replace(self, **changes)

    def sheet(self) -> Sheet:
        """The sheet alone (what the one character form edits)."""
        return Sheet(**{f: getattr(self, f) for f in SHEET_FIELDS})

    def with_sheet(self, sheet: Sheet) -> Character:
        """This entry with every sheet field from ``sheet`` (id, role, days since rest stay)."""
        return msgspec.structs.replace(self, **{f: getattr(sheet, f) for f in SHEET_FIELDS})

    def combatant(self, cid: str, name: str | None = None, group: str = "") -> Combatant:
        """A combatant made from this entry's sheet: a link for the band and recurring
        characters (with its lasting states and days since rest), a plain copy (no link, no
        states) for a template."""
        c = Combatant(id=cid, name=self.name, side=self.side, group=group).with_sheet(self)
        linked = self.role.linked
        return c.replace(
            name=self.name if name is None else name,
            states=self.states if linked else (),
            link=self.id if linked else "",
            days_since_rest=self.days_since_rest if linked else None,
        )

    @classmethod
    def from_combatant(cls, c: Combatant, cid: str, role: Role) -> Character:
        """A roster entry with ``c``'s sheet (a character met in an encounter), without the
        states of the fight."""
        return cls(id=cid, role=role, **{f: getattr(c, f) for f in SHEET_FIELDS}).replace(states=())


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
    for a in c.attacks:
        why = attack_refusal(a)
        if why:
            raise IllegalOp(f"{c.name}: {why}")
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
