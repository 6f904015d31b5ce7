"""The encounter as immutable data: the snapshot a file holds, and the lines of its log.

``AnyOp`` types the fields that hold any registered Op (see
:mod:`afdesk.encounter.registry`). The inverse of an Op is
:class:`afdesk.encounter.restore.Restore`.

:class:`EncounterState` holds the encounter's own parts and collections, and the part of
every registered mode (:mod:`afdesk.encounter.parts`): its layout is built from those
declarations (:func:`layout`), each mode's part where its ``before`` puts it, so a new mode
adds its field to files without a line here. :data:`EncounterState` is the layout of the
installed modes (:mod:`afdesk.encounter.installed`); a mode registered later (a plug-in's,
a test's) has its own, which :func:`layout` gives while it is registered.
"""

from typing import TYPE_CHECKING, Any, cast

import msgspec

from afdesk.encounter import installed  # noqa: F401 - the modes' parts, before the layout
from afdesk.encounter.art import MapArt
from afdesk.encounter.combatant import Combatant
from afdesk.encounter.fog import Fog
from afdesk.encounter.op import AnyOp
from afdesk.encounter.parts import PARTS, Part, all_parts, placed
from afdesk.encounter.reflex import Reflex
from afdesk.encounter.state import AnyMode, Meta, Settings, TurnState
from afdesk.encounter.zone import Zone


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


_OWN: tuple[tuple[Any, ...], ...] = (
    ("meta", Meta),
    ("zone", Zone),
    ("combatants", tuple[Combatant, ...]),
    ("reflex", Reflex),
    ("turn", TurnState),
    ("mode", AnyMode),
    ("settings", Settings),
    ("fog", Fog, Fog()),  # optional: nothing hidden by default
    ("art", MapArt, MapArt()),  # schema version 6
    ("log", tuple[LogEntry, ...], ()),
)
"""The fields of a file that are the encounter's own, in their order."""

_DOC = "The whole encounter as immutable data: what a file holds."

_LAYOUTS: dict[tuple[Part, ...], Any] = {}


def layout() -> "type[EncounterState]":
    """The layout of a file for the modes registered now (see the module)."""
    modes = all_parts()[len(PARTS) :]
    cls = _LAYOUTS.get(modes)
    if cls is None:
        fields = {f[0]: f for f in _OWN}
        fields.update((p.name, (p.name, p.type, p.default())) for p in modes)
        cls = msgspec.defstruct(
            "EncounterState",
            [fields[name] for name in placed(tuple(f[0] for f in _OWN))],
            frozen=True,
            module=__name__,
            namespace={"__doc__": _DOC},
        )
        _LAYOUTS[modes] = cls
    return cast("type[EncounterState]", cls)


if TYPE_CHECKING:

    class EncounterState(msgspec.Struct, frozen=True):
        """The whole encounter as immutable data: what a file holds."""

        meta: Meta
        zone: Zone
        combatants: tuple[Combatant, ...]
        reflex: Reflex
        turn: TurnState
        mode: AnyMode
        settings: Settings
        fog: Fog = Fog()
        art: MapArt = MapArt()
        log: tuple[LogEntry, ...] = ()

        def __getattr__(self, name: str) -> Any:
            """A mode's part (read it through its folder's accessor: ``chase_of``)."""

else:
    EncounterState = layout()
