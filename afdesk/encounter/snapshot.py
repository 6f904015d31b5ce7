"""The encounter as immutable data: the snapshot a file holds, and the lines of its log.

``AnyOp`` types the fields that hold any registered Op (see
:mod:`afdesk.encounter.registry`). The inverse of an Op is
:class:`afdesk.encounter.restore.Restore`.
"""

from typing import TYPE_CHECKING

import msgspec

from afdesk.encounter.art import MapArt
from afdesk.encounter.chase.state import ChaseState
from afdesk.encounter.combatant import Combatant
from afdesk.encounter.dispute.state import DisputeState
from afdesk.encounter.fog import Fog
from afdesk.encounter.infiltration.state import InfiltrationState
from afdesk.encounter.op import AnyOp
from afdesk.encounter.reflex import Reflex
from afdesk.encounter.state import Meta, Mode, Settings, TurnState
from afdesk.encounter.zone import Zone

if TYPE_CHECKING:
    pass


class LogEntry(msgspec.Struct, frozen=True, omit_defaults=True):
    """One line of the encounter log: the Op (with its dice) and its plain words."""

    op: AnyOp
    text: str
    exchange: int = 0
    round: int = 0


class Slot(msgspec.Struct, frozen=True, array_like=True):
    """A character as it was; None if it did not exist."""

    id: str
    value: Combatant | None


class EncounterState(msgspec.Struct, frozen=True):
    """The whole encounter as immutable data: what a file holds."""

    meta: Meta
    zone: Zone
    combatants: tuple[Combatant, ...]
    reflex: Reflex
    turn: TurnState
    mode: Mode
    settings: Settings
    chase: ChaseState = ChaseState()
    """The chase's part (H1-H5; schema version 3)."""
    fog: Fog = Fog()
    """What the players' screen hides (optional, nothing by default)."""
    dispute: DisputeState = DisputeState()
    """The dispute's part (P1-P9; schema version 4)."""
    infiltration: InfiltrationState = InfiltrationState()
    """The infiltration's part (N1-N8; schema version 4)."""
    art: MapArt = MapArt()
    """The GM's own pictures under the tiles (schema version 6)."""
    log: tuple[LogEntry, ...] = ()
