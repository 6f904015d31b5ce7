"""The encounter as Ops, modes and rules see it: what they may read and the setters they
change it through.

:class:`afdesk.encounter.model.Encounter` is the one implementation. The modules below the
model (the Ops, the modes, the turn economy, contests, movement) name this interface rather
than the class, because the model in turn runs Ops and builds their inverses: if both
imported each other, the whole package would be one knot. So this interface names no Op:
running one is the model's (``Encounter.apply``), never an Op's. Only what stands above the model
(the history, drag planning, samples, storage, the GUI) imports the class.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from afdesk.encounter.art import MapArt
    from afdesk.encounter.combatant import Combatant
    from afdesk.encounter.fog import Fog
    from afdesk.encounter.geometry import Area
    from afdesk.encounter.reflex import Reflex
    from afdesk.encounter.state import Meta, Mode, Settings, TurnState
    from afdesk.encounter.zone import AreaTerrain, Edge, Zone


class Encounter(Protocol):
    """One encounter's state (see :class:`afdesk.encounter.model.Encounter`)."""

    meta: Meta
    zone: Zone
    reflex: Reflex
    turn: TurnState
    mode: Mode
    settings: Settings
    fog: Fog
    """What the players' screen hides (afdesk.encounter.fog)."""
    art: MapArt
    """The GM's own pictures under the tiles (afdesk.encounter.art)."""
    combatants: dict[str, Combatant]
    order: tuple[str, ...]
    log: list[Any]
    """The log's entries (``afdesk.encounter.snapshot.LogEntry``), oldest first: read
    only (a dispute's pending decisions look back for a fumble, P7)."""

    # Reading.
    def part(self, name: str) -> Any:
        """The part ``name`` (afdesk.encounter.parts): a mode's own part is read through
        its folder's accessor (``chase_of``, ``dispute_of``, ...), so that this interface,
        below every mode, names none of them."""

    def combatant(self, cid: str) -> Combatant: ...
    def roster(self) -> list[Combatant]: ...
    @property
    def ruleset(self) -> str: ...
    @property
    def actor(self) -> str | None: ...
    @property
    def terrain(self) -> dict[Area, AreaTerrain]: ...
    def terrain_at(self, area: Area) -> AreaTerrain: ...
    @property
    def occupancy(self) -> dict[Area, list[str]]: ...
    def occupants(self, area: Area) -> list[Combatant]: ...
    def trim_proposal(self) -> list[Edge]: ...
    def opponents_in(
        self, area: Area, of: Combatant, *, visible_only: bool = True
    ) -> list[Combatant]: ...

    # Changing: only Ops call these, inside apply().
    def put(self, combatant: Combatant) -> None: ...
    def drop(self, cid: str) -> None: ...
    def set_order(self, order: tuple[str, ...]) -> None: ...
    def set_part(self, name: str, value: Any) -> None: ...
    def set_zone(self, zone: Zone) -> None: ...
    def set_reflex(self, reflex: Reflex) -> None: ...
    def set_turn(self, turn: TurnState) -> None: ...
    def set_mode(self, mode: Mode) -> None: ...
    def set_settings(self, settings: Settings) -> None: ...
    def set_meta(self, meta: Meta) -> None: ...
    def truncate_log(self, length: int) -> None: ...
    def extend_log(self, entries: Iterable[Any]) -> None:
        """Append log entries (``afdesk.encounter.snapshot.LogEntry``)."""

    def forget_terrain(self) -> None: ...


__all__ = ["Encounter"]
