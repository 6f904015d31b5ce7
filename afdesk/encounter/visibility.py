"""What the players may see: the one place that decides whether a character is shown to the
table (the player view, exports for players, fog).

A character is visible to the players when it stands on the map, is not hidden (E5, E6: the
table sees only a hidden character's decoys) and is not held in reserve (issue 16: a reserve
waits unseen until the GM brings its group in).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
    from afdesk.encounter.interface import Encounter


def shown_to_players(c: Combatant) -> bool:
    """Whether the players see this character at its true place."""
    return c.on_map and not c.hidden and not c.in_reserve


def decoys_shown_to_players(c: Combatant) -> bool:
    """Whether the players see this character's decoys (a hidden character in play)."""
    return c.on_map and c.hidden and not c.in_reserve and bool(c.decoys)


def player_visible(enc: Encounter, cid: str) -> bool:
    """Whether the character ``cid`` is shown to the players; False for an unknown id."""
    c = enc.combatants.get(cid)
    return c is not None and shown_to_players(c)


__all__ = ["decoys_shown_to_players", "player_visible", "shown_to_players"]
