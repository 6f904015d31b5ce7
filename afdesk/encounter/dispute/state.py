"""The dispute's part of an encounter (P2-P9): plain immutable data, stored in files.

The numbers the app derives from it (the reckoning target, each platform's support, the
winner) are worked out by :mod:`afdesk.rules.dispute` from what is here.
"""

from typing import TYPE_CHECKING

import msgspec

from afdesk.rules import dispute as rules

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter

AUDIENCE = ""
"""The side of an entry in the neutral audience (P3)."""


class PlatformProperty(msgspec.Struct, frozen=True, omit_defaults=True):
    """A property of a platform (P2, reading): free text and a dice modifier (R1) on the
    Convince checks made for it."""

    text: str
    dice: int = 0


class Platform(msgspec.Struct, frozen=True, omit_defaults=True):
    """A course of action people stand on (P2)."""

    id: str
    name: str
    course: str = ""
    """The course of action, in one line."""
    proponent: str = ""
    """Who put it forward: an entry's id or a name."""
    properties: tuple[PlatformProperty, ...] = ()
    conventional: bool = False
    """The safer, established course; at most one platform is conventional (P2)."""


class Entry(msgspec.Struct, frozen=True, omit_defaults=True):
    """One individual, or a group of identical denizens (``count`` > 1), on a side (P3)."""

    id: str
    name: str
    count: int = 1
    side: str = AUDIENCE
    """The id of the platform it stands on, or :data:`AUDIENCE`."""
    grit: int = 0
    wits: int = 0
    sway: int = 0
    character: str = ""
    """The character on the roster this entry is, if any."""
    player: bool = False
    """A player character: it changes side only when its player says so (P3)."""

    @property
    def group(self) -> bool:
        return self.count > 1


class DisputeOutcome(msgspec.Struct, frozen=True, omit_defaults=True):
    """How the dispute ended (P6-P9); ``how`` is empty while it goes on."""

    how: str = ""
    """"reckoning" (P6), "closed" (P8), "broken" (P7) or "gm" (the GM ended it)."""
    winner: str = ""
    """The winning platform's id; empty when nobody won (P7)."""
    exchange: int = 0


class DisputeState(msgspec.Struct, frozen=True, omit_defaults=True):
    """The dispute's part of an encounter."""

    platforms: tuple[Platform, ...] = ()
    entries: tuple[Entry, ...] = ()
    tension: int = 0
    threshold: int = rules.TENSION_THRESHOLD
    outcome: DisputeOutcome = DisputeOutcome()

    @property
    def over(self) -> bool:
        return bool(self.outcome.how)

    def platform(self, pid: str) -> Platform | None:
        return next((p for p in self.platforms if p.id == pid), None)

    def entry(self, eid: str) -> Entry | None:
        return next((e for e in self.entries if e.id == eid), None)

    def present(self) -> int:
        """N: every individual present, each group member counted (P6)."""
        return sum(e.count for e in self.entries)

    def highest_wits(self) -> int:
        """W: the highest wits present (P6); 0 with nobody present."""
        return max((e.wits for e in self.entries), default=0)

    def target(self) -> int:
        """The reckoning target T (P6)."""
        return rules.reckoning_target(self.present(), self.highest_wits())

    def support(self) -> dict[str, int]:
        """Each platform's support: the individuals on it (P6), in platform order."""
        out = {p.id: 0 for p in self.platforms}
        for e in self.entries:
            if e.side in out:
                out[e.side] += e.count
        return out

    def neutral(self) -> int:
        """The individuals in the neutral audience (P3)."""
        return sum(e.count for e in self.entries if e.side == AUDIENCE)

    def leader(self) -> str | None:
        """The platform that wins at the reckoning now (P6), or None."""
        return rules.winner(self.support(), self.target())

    def conventional(self) -> Platform | None:
        return next((p for p in self.platforms if p.conventional), None)

    def with_entries(self, entries: tuple[Entry, ...]) -> "DisputeState":
        return msgspec.structs.replace(self, entries=entries)

    def replace_entry(self, e: Entry) -> "DisputeState":
        return self.with_entries(tuple(e if q.id == e.id else q for q in self.entries))

    def replace_platform(self, p: Platform) -> "DisputeState":
        return msgspec.structs.replace(
            self, platforms=tuple(p if q.id == p.id else q for q in self.platforms)
        )


def dispute_of(enc: "Encounter") -> DisputeState:
    """The dispute mode's part of ``enc`` (the interface, below every mode, names none)."""
    part: DisputeState = enc.part("dispute")
    return part
