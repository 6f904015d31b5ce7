"""Characters imported into a campaign: merged by name, with stable ids."""

from __future__ import annotations

from collections.abc import Iterable

from afdesk.encounter.campaign.edits import PutCharacter
from afdesk.encounter.campaign.roster import Character, fresh_id
from afdesk.encounter.campaign.state import Campaign


def merge(campaign: Campaign, incoming: Iterable[Character]) -> list[PutCharacter]:
    """The edits that bring ``incoming`` into the roster. A character with the name (and
    role) of one already there replaces that one and keeps its id, so links to it hold;
    a new one keeps its own id unless the roster already uses it."""
    taken = {c.id for c in campaign.characters}
    edits: list[PutCharacter] = []
    seen: set[tuple[str, str]] = set()
    for c in incoming:
        key = (" ".join(c.name.split()).casefold(), c.role.value)
        if key in seen:
            continue  # the same name twice in one file: the first one counts
        seen.add(key)
        same = campaign.by_name(c.name, c.role)
        if same is not None:
            if same != c.replace(id=same.id):
                edits.append(PutCharacter(c.replace(id=same.id)))
            continue
        cid = c.id if c.id and c.id not in taken else fresh_id(c.name, taken)
        taken.add(cid)
        edits.append(PutCharacter(c.replace(id=cid)))
    return edits


__all__ = ["merge"]
