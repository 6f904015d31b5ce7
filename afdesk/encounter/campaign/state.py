"""A campaign as immutable data: the roster, the session, and the encounters prepared for it
(what ``campaign.afcamp`` holds)."""

from __future__ import annotations

import enum

import msgspec

from afdesk.encounter.campaign.roster import SESSION_SHIFTS, Character, Role
from afdesk.encounter.errors import IllegalOp


class Play(enum.StrEnum):
    """Where an encounter of the campaign stands."""

    PREPARED = "prepared"
    RUNNING = "running"
    FINISHED = "finished"

    @property
    def label(self) -> str:
        return self.value.capitalize()


class Planned(msgspec.Struct, frozen=True, omit_defaults=True, kw_only=True):
    """One encounter of the campaign. ``file`` is the prepared encounter (kept clean: it
    can be run again another night); ``running`` the copy being played, if any. File names
    are relative to the campaign folder."""

    id: str
    title: str
    file: str
    play: Play = Play.PREPARED
    running: str = ""
    last_played: str = ""
    """When it was last run, as ISO 8601 local time ('' if never)."""
    runs: int = 0
    carried: bool = False
    """The last run's carry-over was written to the roster."""
    at_run: tuple[Character, ...] = ()
    """The linked roster characters as the last run took them (its running copy's start):
    carry-over proposes only what changed during the run. Empty in a campaign written
    before it was kept: carry-over then compares with the roster."""
    referee_at_run: int | None = None
    """The referee's pool when the last run started (R10); None: not kept (see ``at_run``)."""

    def replace(self, **changes: object) -> Planned:
        return msgspec.structs.replace(self, **changes)


class CampaignLogEntry(msgspec.Struct, frozen=True, omit_defaults=True):
    """A line of the campaign's log: what the GM did, in words, in which session."""

    text: str
    session: int = 1


class Campaign(msgspec.Struct, frozen=True, omit_defaults=True, kw_only=True):
    """The whole campaign as immutable data."""

    name: str = "Untitled campaign"
    characters: tuple[Character, ...] = ()
    encounters: tuple[Planned, ...] = ()
    session: int = 1
    referee_shifts: int = SESSION_SHIFTS
    """The referee's pool of Shifts this session (R10)."""
    last_running: str = ""
    """The id of the encounter that was running when the campaign was last closed."""
    log: tuple[CampaignLogEntry, ...] = ()

    def replace(self, **changes: object) -> Campaign:
        return msgspec.structs.replace(self, **changes)

    # ------------------------------------------------------------------------- queries

    def character(self, cid: str) -> Character:
        for c in self.characters:
            if c.id == cid:
                return c
        raise IllegalOp(f"the campaign has no character with id {cid!r}")

    def find(self, cid: str) -> Character | None:
        return next((c for c in self.characters if c.id == cid), None)

    def role(self, role: Role) -> list[Character]:
        """The band, the recurring characters or the bestiary, in roster order."""
        return [c for c in self.characters if c.role is role]

    @property
    def band(self) -> list[Character]:
        return self.role(Role.BAND)

    @property
    def recurring(self) -> list[Character]:
        return self.role(Role.RECURRING)

    @property
    def bestiary(self) -> list[Character]:
        return self.role(Role.TEMPLATE)

    def encounter(self, eid: str) -> Planned:
        for e in self.encounters:
            if e.id == eid:
                return e
        raise IllegalOp(f"the campaign has no encounter with id {eid!r}")

    def find_encounter(self, eid: str) -> Planned | None:
        return next((e for e in self.encounters if e.id == eid), None)

    def by_name(self, name: str, role: Role | None = None) -> Character | None:
        """The entry called ``name`` (case and spaces aside), of ``role`` if given."""
        key = " ".join(name.split()).casefold()
        for c in self.characters:
            if " ".join(c.name.split()).casefold() == key and (role is None or c.role is role):
                return c
        return None


__all__ = ["Campaign", "CampaignLogEntry", "Planned", "Play"]
