"""What the players may see of a character (issue 17): the one question the table's screen
asks (its map, its reflex strip, the rolls it shows)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from afdesk.encounter.fog import is_fogged

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


def player_visible(enc: Encounter, cid: str) -> bool:
    """Whether the players may see character ``cid`` at all: it exists, is not hidden
    (E6: the table sees only its decoys) and does not stand under the fog."""
    c = enc.combatants.get(cid)
    if c is None or c.hidden:
        return False
    return not is_fogged(enc.zone, enc.fog, c.area)


__all__ = ["player_visible"]
