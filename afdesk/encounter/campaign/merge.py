"""Characters imported into a campaign: merged by name, with stable ids.

An incoming character with the name (and role) of a roster entry that differs from it is a
*conflict*: the GM chooses, per entry, to update the roster's entry, to skip the incoming
one, or to keep both (the incoming one under a free name). :func:`conflicts` lists them
with what differs; :func:`merge` makes the edits from the choices (one undoable step).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import msgspec

from afdesk.encounter.campaign.edits import PutCharacter
from afdesk.encounter.campaign.roster import Character, fresh_id
from afdesk.encounter.campaign.state import Campaign
from afdesk.encounter.errors import IllegalOp


class Choice(enum.StrEnum):
    """What to do with an incoming character whose name is already on the roster."""

    UPDATE = "update"
    """The roster's entry takes the incoming sheet (and keeps its id, so links hold)."""
    SKIP = "skip"
    """The roster's entry stays as it is; the incoming one is left out."""
    KEEP_BOTH = "keep both"
    """Both stay: the incoming one joins under a free name ("Bandit 2") and id."""

    @property
    def label(self) -> str:
        return self.value.capitalize()


@dataclass(frozen=True)
class Conflict:
    """An incoming character named as a roster entry it differs from."""

    name: str
    """The roster entry's name (the key of a choice)."""
    local: Character
    incoming: Character
    differences: tuple[str, ...]
    """Each field that differs, in words: ``"grit: 9 here, 7 in the file"``."""


def _key(c: Character) -> tuple[str, str]:
    return (" ".join(c.name.split()).casefold(), c.role.value)


def _shown(value: object) -> str:
    plain = msgspec.to_builtins(value)
    if plain in ((), [], None, ""):
        return "none"
    return msgspec.json.encode(plain).decode() if isinstance(plain, list | dict) else str(plain)


def differences(local: Character, incoming: Character) -> tuple[str, ...]:
    """The fields (the id aside) where ``incoming`` differs from ``local``, in words."""
    out = []
    for field in msgspec.structs.fields(Character):
        if field.name == "id":
            continue
        here, there = getattr(local, field.name), getattr(incoming, field.name)
        if here != there:
            out.append(f"{field.encode_name}: {_shown(here)} here, {_shown(there)} in the file")
    return tuple(out)


def _unique(incoming: Iterable[Character]) -> list[Character]:
    """``incoming`` without repeats: the same name twice in one file, the first counts."""
    seen: set[tuple[str, str]] = set()
    out = []
    for c in incoming:
        if _key(c) not in seen:
            seen.add(_key(c))
            out.append(c)
    return out


def conflicts(campaign: Campaign, incoming: Iterable[Character]) -> list[Conflict]:
    """The incoming characters named as a roster entry (same role) they differ from."""
    out = []
    for c in _unique(incoming):
        same = campaign.by_name(c.name, c.role)
        if same is not None and same != c.replace(id=same.id):
            out.append(Conflict(same.name, same, c, differences(same, c)))
    return out


def _free_name(name: str, names: set[str]) -> str:
    n = 2
    while f"{name} {n}".casefold() in names:
        n += 1
    return f"{name} {n}"


def merge(
    campaign: Campaign,
    incoming: Iterable[Character],
    choices: Mapping[str, Choice] | None = None,
) -> list[PutCharacter]:
    """The edits that bring ``incoming`` into the roster (push them as one step).

    A new character keeps its own id unless the roster already uses it. One that is the
    same as a roster entry (id aside) is left out. A conflict (see :func:`conflicts`) follows
    ``choices[entry name]``; ``choices=None`` updates every conflicting entry (a script's
    import); with ``choices`` given, a conflict without a choice is an :class:`IllegalOp`
    (nothing is overwritten without the GM saying so)."""
    taken = {c.id for c in campaign.characters}
    names = {" ".join(c.name.split()).casefold() for c in campaign.characters}
    edits: list[PutCharacter] = []
    for c in _unique(incoming):
        same = campaign.by_name(c.name, c.role)
        if same is not None:
            if same == c.replace(id=same.id):
                continue
            choice = Choice.UPDATE if choices is None else choices.get(same.name)
            if choice is None:
                raise IllegalOp(f"{same.name}: choose to update, skip or keep both")
            choice = Choice(choice)
            if choice is Choice.SKIP:
                continue
            if choice is Choice.UPDATE:
                edits.append(PutCharacter(c.replace(id=same.id)))
                continue
            c = c.replace(name=_free_name(" ".join(c.name.split()), names))
        cid = c.id if c.id and c.id not in taken else fresh_id(c.name, taken)
        taken.add(cid)
        names.add(" ".join(c.name.split()).casefold())
        edits.append(PutCharacter(c.replace(id=cid)))
    return edits


__all__ = ["Choice", "Conflict", "conflicts", "differences", "merge"]
