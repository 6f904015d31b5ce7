"""Changes to a campaign: small frozen records applied to the immutable :class:`Campaign`.
Like an encounter's Ops they are data, so the same objects serve undo and redo,
the campaign's crash journal and its log; each one checks before it changes anything.

Each edit's :meth:`CampaignEdit.apply` returns the new campaign; the history
(:mod:`afdesk.encounter.campaign.history`) keeps the campaign from before for undo.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from afdesk.encounter.campaign.carry import CarryLine, apply_line
from afdesk.encounter.campaign.roster import SESSION_SHIFTS, Character, check_character
from afdesk.encounter.campaign.state import Campaign, CampaignLogEntry, Planned, Play
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.words import plural


class CampaignEdit(msgspec.Struct, frozen=True, tag=True, tag_field="edit", omit_defaults=True):
    """One change to a campaign. Subclasses implement :meth:`change` and :meth:`describe`."""

    logged: ClassVar[bool] = True

    def change(self, camp: Campaign) -> Campaign:
        raise NotImplementedError

    def describe(self, camp: Campaign) -> str:
        """The log line and the undo text, computed before the edit runs."""
        raise NotImplementedError

    def apply(self, camp: Campaign) -> Campaign:
        """The campaign after this edit, with its log line; :class:`IllegalOp` if refused."""
        text = self.describe(camp)
        new = self.change(camp)
        if self.logged:
            new = new.replace(log=(*new.log, CampaignLogEntry(text, new.session)))
        return new


def _unique_name(camp: Campaign, c: Character) -> None:
    other = camp.by_name(c.name, c.role)
    if other is not None and other.id != c.id:
        raise IllegalOp(f"the {c.role.label.lower()} already has a character called {c.name!r}")


class PutCharacter(CampaignEdit, frozen=True):
    """Add a roster character, or change the one with its id."""

    character: Character

    def change(self, camp: Campaign) -> Campaign:
        c = self.character
        check_character(c)
        _unique_name(camp, c)
        old = camp.find(c.id)
        if old is None:
            return camp.replace(characters=(*camp.characters, c))
        if old.role is not c.role and old.role.linked != c.role.linked:
            linked = [e.title for e in camp.encounters if e.play is Play.RUNNING]
            if linked:
                raise IllegalOp(
                    f"{old.name} cannot become a {c.role.label.lower()} entry while "
                    f"{linked[0]} is running"
                )
        return camp.replace(characters=tuple(c if x.id == c.id else x for x in camp.characters))

    def describe(self, camp: Campaign) -> str:
        old = camp.find(self.character.id)
        what = {"band": "the band", "recurring": "the recurring characters"}
        if old is None:
            return f"{self.character.name} joins {what.get(self.character.role, 'the bestiary')}"
        return f"Edit {self.character.name}"


class RemoveCharacter(CampaignEdit, frozen=True):
    """Take a character off the roster (encounters keep their copies)."""

    id: str

    def change(self, camp: Campaign) -> Campaign:
        camp.character(self.id)
        return camp.replace(characters=tuple(c for c in camp.characters if c.id != self.id))

    def describe(self, camp: Campaign) -> str:
        c = camp.find(self.id)
        return f"{c.name if c else self.id} leaves the roster"


class PutEncounter(CampaignEdit, frozen=True):
    """Add an encounter to the campaign, or change the one with its id."""

    encounter: Planned

    def change(self, camp: Campaign) -> Campaign:
        e = self.encounter
        if not e.id.strip() or not e.title.strip() or not e.file.strip():
            raise IllegalOp("a campaign encounter needs an id, a title and a file")
        clash = next((x for x in camp.encounters if x.file == e.file and x.id != e.id), None)
        if clash is not None:
            raise IllegalOp(f"the file {e.file} is already the campaign's {clash.title!r}")
        if camp.find_encounter(e.id) is None:
            return camp.replace(encounters=(*camp.encounters, e))
        return camp.replace(encounters=tuple(e if x.id == e.id else x for x in camp.encounters))

    def describe(self, camp: Campaign) -> str:
        if camp.find_encounter(self.encounter.id) is None:
            return f"Prepare {self.encounter.title}"
        return f"Edit {self.encounter.title}"


class RemoveEncounter(CampaignEdit, frozen=True):
    """Take an encounter out of the campaign (its files stay in the folder)."""

    id: str

    def change(self, camp: Campaign) -> Campaign:
        camp.encounter(self.id)
        return camp.replace(
            encounters=tuple(e for e in camp.encounters if e.id != self.id),
            last_running="" if camp.last_running == self.id else camp.last_running,
        )

    def describe(self, camp: Campaign) -> str:
        e = camp.find_encounter(self.id)
        return f"Remove {e.title if e else self.id} from the campaign"


class StartRun(CampaignEdit, frozen=True):
    """An encounter starts running from its running copy ``running`` (the prepared file
    stays as it is), at ``when`` (ISO 8601)."""

    id: str
    running: str
    when: str
    linked: tuple[str, ...] = ()
    """The roster characters the running copy holds as links: carry-over compares each
    with the entry as the run took it (one added later is compared with the roster)."""

    def change(self, camp: Campaign) -> Campaign:
        e = camp.encounter(self.id)
        if e.play is Play.RUNNING:
            raise IllegalOp(f"{e.title} is already running")
        if not self.running.strip() or self.running == e.file:
            raise IllegalOp(f"{e.title} runs from a copy, never from its prepared file")
        new = e.replace(
            play=Play.RUNNING, running=self.running, last_played=self.when, runs=e.runs + 1
        )
        # The running copy starts from the roster as it is now: keep it, so carry-over
        # proposes only what changed during the run (a new session may come between).
        at_run = tuple(c for c in camp.characters if c.role.linked and c.id in self.linked)
        new = new.replace(carried=False, at_run=at_run, referee_at_run=camp.referee_shifts)
        return PutEncounter(new).change(camp).replace(last_running=e.id)

    def describe(self, camp: Campaign) -> str:
        e = camp.find_encounter(self.id)
        return f"Run {e.title if e else self.id}"


class FinishRun(CampaignEdit, frozen=True):
    """A running encounter is over."""

    id: str

    def change(self, camp: Campaign) -> Campaign:
        e = camp.encounter(self.id)
        if e.play is not Play.RUNNING:
            raise IllegalOp(f"{e.title} is not running")
        return (
            PutEncounter(e.replace(play=Play.FINISHED))
            .change(camp)
            .replace(last_running="" if camp.last_running == e.id else camp.last_running)
        )

    def describe(self, camp: Campaign) -> str:
        e = camp.find_encounter(self.id)
        return f"{e.title if e else self.id} is over"


class CarryOver(CampaignEdit, frozen=True):
    """Write what an encounter did to the linked characters back to the roster: the lines
    the GM kept (see :mod:`afdesk.encounter.campaign.carry`). One undoable step."""

    id: str
    lines: tuple[CarryLine, ...]
    referee_shifts: int | None = None
    """The referee's pool as the encounter left it (R10: Shifts last the session); None:
    the GM kept the campaign's."""

    def change(self, camp: Campaign) -> Campaign:
        e = camp.encounter(self.id)
        if self.referee_shifts is not None:
            if self.referee_shifts < 0:
                raise IllegalOp("the referee's Shifts cannot be negative")
            camp = camp.replace(referee_shifts=self.referee_shifts)
        if e.play is Play.PREPARED:
            raise IllegalOp(f"{e.title} has not been run: there is nothing to carry over")
        if e.carried:
            raise IllegalOp(f"{e.title}'s carry-over is already on the roster")
        roster = {c.id: c for c in camp.characters}
        for line in self.lines:
            entry = roster.get(line.character)
            if entry is None:
                raise IllegalOp(f"the campaign has no character with id {line.character!r}")
            if not entry.role.linked:
                raise IllegalOp(f"{entry.name} is a bestiary entry: nothing carries over to it")
            if line.carry:
                roster[entry.id] = apply_line(entry, line)
        camp = camp.replace(characters=tuple(roster[c.id] for c in camp.characters))
        return PutEncounter(e.replace(carried=True)).change(camp)

    def describe(self, camp: Campaign) -> str:
        e = camp.find_encounter(self.id)
        kept = [line for line in self.lines if line.carry]
        title = e.title if e else self.id
        names = {c.id: c.name for c in camp.characters}
        said = [line.words(names.get(line.character, line.character)) for line in kept]
        if self.referee_shifts is not None and self.referee_shifts != camp.referee_shifts:
            said.append(f"referee's Shifts {camp.referee_shifts} \u2192 {self.referee_shifts}")
        if not said:
            return f"Carry over from {title}: nothing"
        return f"Carry over from {title} ({plural(len(said), 'change')}): {'; '.join(said)}"


class StartSession(CampaignEdit, frozen=True):
    """A new session: every band member and recurring character has 3 Shifts again, and so
    has the referee's pool (R10)."""

    def change(self, camp: Campaign) -> Campaign:
        chars = tuple(
            c.replace(shifts=SESSION_SHIFTS) if c.role.linked else c for c in camp.characters
        )
        return camp.replace(
            characters=chars, session=camp.session + 1, referee_shifts=SESSION_SHIFTS
        )

    def describe(self, camp: Campaign) -> str:
        return (
            f"Session {camp.session + 1} starts: everyone has {SESSION_SHIFTS} Shifts again, "
            f"and so has the referee (R10)"
        )


class RenameCampaign(CampaignEdit, frozen=True):
    name: str

    def change(self, camp: Campaign) -> Campaign:
        if not self.name.strip():
            raise IllegalOp("a campaign needs a name")
        return camp.replace(name=self.name.strip())

    def describe(self, camp: Campaign) -> str:
        return f"Rename the campaign to {self.name.strip()!r}"


EDITS: tuple[type[CampaignEdit], ...] = (
    PutCharacter,
    RemoveCharacter,
    PutEncounter,
    RemoveEncounter,
    StartRun,
    FinishRun,
    CarryOver,
    StartSession,
    RenameCampaign,
)
"""Every kind of campaign edit (the file's and the journal's tagged union)."""

AnyEdit = (
    PutCharacter
    | RemoveCharacter
    | PutEncounter
    | RemoveEncounter
    | StartRun
    | FinishRun
    | CarryOver
    | StartSession
    | RenameCampaign
)
"""The type of a field that holds any campaign edit."""

__all__ = [
    "EDITS",
    "AnyEdit",
    "CampaignEdit",
    "CarryOver",
    "FinishRun",
    "PutCharacter",
    "PutEncounter",
    "RemoveCharacter",
    "RemoveEncounter",
    "RenameCampaign",
    "StartRun",
    "StartSession",
]
