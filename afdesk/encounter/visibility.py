"""What the players may see: the one place that decides whether a character is shown to the
table (the player view, its reflex strip, the rolls it shows, exports for players).

A character is visible to the players when it stands on the map, is not hidden (E5, E6: the
table sees only a hidden character's decoys), is not held in reserve (a reserve
waits unseen until the GM brings its group in) and does not stand under the fog.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from afdesk.encounter.fog import is_fogged

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
    from afdesk.encounter.fog import Fog
    from afdesk.encounter.interface import Encounter
    from afdesk.encounter.zone import Zone


def shown_to_players(c: Combatant) -> bool:
    """Whether the players see this character at its true place (fog aside)."""
    return c.on_map and not c.hidden and not c.in_reserve


def decoys_shown_to_players(c: Combatant) -> bool:
    """Whether the players see this character's decoys (a hidden character in play)."""
    return c.on_map and c.hidden and not c.in_reserve and bool(c.decoys)


def player_visible(enc: Encounter, cid: str) -> bool:
    """Whether the players may see character ``cid`` at all: it exists, is shown to them
    (on the map, not hidden, not in reserve) and does not stand under the fog; False for an
    unknown id."""
    c = enc.combatants.get(cid)
    return c is not None and seen_in(enc.zone, enc.fog, c)


def seen_in(zone: Zone, fog: Fog, c: Combatant) -> bool:
    """Whether the players see ``c`` over ``zone`` under ``fog``: shown to them and not
    under the fog (the rule of :func:`player_visible`, for a character at hand)."""
    return shown_to_players(c) and not is_fogged(zone, fog, c.area)


def all_player_visible(enc: Encounter) -> frozenset[str]:
    """The ids of every character :func:`player_visible` allows, in one pass (the players'
    screen asks at every change, for the whole roster)."""
    zone, fog = enc.zone, enc.fog
    return frozenset(cid for cid, c in enc.combatants.items() if seen_in(zone, fog, c))


class SeenKeeper:
    """The ids of the characters :func:`player_visible` allows, kept from one change to
    the next: a character is asked again only when its record is another (records are
    frozen: a change makes a new one), everyone when the zone or the fog is another. The
    players' screen asks after every change (what was seen just before it): the whole
    roster was asked each time."""

    def __init__(self) -> None:
        self._zone: object = None
        self._fog: object = None
        self._each: dict[str, tuple[Combatant, bool]] = {}
        self._seen: frozenset[str] = frozenset()

    def seen(self, enc: Encounter) -> frozenset[str]:
        zone, fog, combatants = enc.zone, enc.fog, enc.combatants
        each = self._each
        changed = zone is not self._zone or fog is not self._fog
        if changed:
            self._zone, self._fog = zone, fog
            each.clear()
        for cid, c in combatants.items():
            kept = each.get(cid)
            if kept is None or kept[0] is not c:
                each[cid] = (c, seen_in(zone, fog, c))
                changed = True
        if len(each) > len(combatants):  # some were taken out of the encounter
            for cid in [cid for cid in each if cid not in combatants]:
                del each[cid]
            changed = True
        if changed:
            self._seen = frozenset(cid for cid, (_c, shown) in each.items() if shown)
        return self._seen


__all__ = [
    "SeenKeeper",
    "all_player_visible",
    "decoys_shown_to_players",
    "player_visible",
    "seen_in",
    "shown_to_players",
]
