"""Campaign characters into encounters: links, numbered copies and the running copy
(E2 for reflex groups)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.campaign.carry import NEVER_CARRIED
from afdesk.encounter.campaign.roster import Character, fresh_id, slug
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.combatant import Combatant
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.ops.roster import AddCombatant
from afdesk.encounter.snapshot import EncounterState

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter

MAX_COPIES = 99
"""The most copies of a template one "Add N x" makes."""


def add_link(enc: Encounter, character: Character) -> AddCombatant:
    """The Op that adds a band member or a recurring character as a link: the same
    character, whose carry-over goes back to the roster."""
    if not character.role.linked:
        raise IllegalOp(f"{character.name} is a bestiary entry: add copies of it")
    linked = next((c for c in enc.roster() if c.link == character.id), None)
    if linked is not None:
        raise IllegalOp(f"{character.name} is already in this encounter (as {linked.name})")
    cid = fresh_id(character.name, enc.combatants)
    return AddCombatant(character.combatant(cid))


def copy_names(template: str, count: int, taken: Iterable[str]) -> list[str]:
    """``count`` numbered names after the highest number ``template`` already has among
    ``taken``: Bandit 1-4, then Bandit 5-6."""
    if not 1 <= count <= MAX_COPIES:
        raise IllegalOp(f"add between 1 and {MAX_COPIES} copies at a time, not {count}")
    pattern = re.compile(rf"^{re.escape(' '.join(template.split()))} (\d+)$", re.IGNORECASE)
    numbers = [int(m.group(1)) for name in taken if (m := pattern.match(" ".join(name.split())))]
    start = max(numbers, default=0) + 1
    return [f"{template} {n}" for n in range(start, start + count)]


def add_copies(
    enc: Encounter, template: Character, count: int, *, one_group: bool = False
) -> list[AddCombatant]:
    """The Ops that add ``count`` numbered copies of a bestiary entry ("Add 4 x Bandit"
    gives Bandit 1-4); with ``one_group`` they act on one reflex card (E2)."""
    if template.role.linked:
        raise IllegalOp(f"{template.name} is a {template.role.label.lower()} character: add a link")
    names = copy_names(template.name, count, (c.name for c in enc.roster()))
    taken = set(enc.combatants)
    group = ""
    if one_group:
        groups = {c.group for c in enc.roster()}
        group = fresh_id(template.name, groups, "group")
    ops = []
    for name in names:
        cid = fresh_id(name, taken)
        taken.add(cid)
        own = group or slug(name)
        ops.append(AddCombatant(template.combatant(cid, name=name, group=own)))
    return ops


def refreshed(c: Combatant, entry: Character) -> Combatant:
    """A linked combatant as its roster entry is now: the whole sheet (profile, attacks,
    grit, hits, Shifts, lasting states with their notes, notes) and days since rest from
    the roster; place, facing, group and the states of this fight (hidden, crouched, ...)
    from the prepared encounter. Attacks or notes the roster entry leaves empty (a campaign
    from before the one sheet held none) stay as the prepared encounter has them."""
    fight_states = tuple(s for s in c.states if s.kind in NEVER_CARRIED)
    lasting = tuple(s for s in entry.states if s.kind not in NEVER_CARRIED)
    return c.with_sheet(entry).replace(
        states=(*lasting, *fight_states),
        attacks=entry.attacks or c.attacks,
        notes=entry.notes or c.notes,
        days_since_rest=entry.days_since_rest,
    )


def running_copy(state: EncounterState, campaign: Campaign) -> EncounterState:
    """The encounter to play from a prepared one: every linked character as the roster
    has it now (the band as the last fight left them), the referee's pool of this session
    (R10). Characters whose roster entry is gone stay as prepared."""
    roster: Mapping[str, Character] = {c.id: c for c in campaign.characters}
    combatants = tuple(
        refreshed(c, roster[c.link])
        if c.link and c.link in roster and roster[c.link].role.linked
        else c
        for c in state.combatants
    )
    meta = msgspec.structs.replace(state.meta, referee_shifts=campaign.referee_shifts)
    return msgspec.structs.replace(state, combatants=combatants, meta=meta)


__all__ = ["MAX_COPIES", "add_copies", "add_link", "copy_names", "refreshed", "running_copy"]
