"""The exact inverse of every Op: put back the parts it changed.

``Encounter.apply`` records every part an Op changes before it changes it; ``Restore`` holds
those old values, so undo is exact by construction.

Its fields are the crash journal's format: the characters and the roster order, one per
part of :mod:`afdesk.encounter.parts` (None: unchanged; a mode's part where its ``before``
puts it, as in files) and the log. They are built from the declarations (:func:`restore_type`),
so a new mode adds its field without a line here; :data:`Restore` is the inverse for the
installed modes (:mod:`afdesk.encounter.installed`), and a mode registered later (a
plug-in's, a test's) has its own while it is registered. Each is an Op tagged ``Restore``.
"""

from typing import TYPE_CHECKING, Any, TypeGuard, cast

import msgspec

from afdesk.encounter.art import MapArt
from afdesk.encounter.fog import Fog
from afdesk.encounter.op import _REGISTRY, Op, register
from afdesk.encounter.parts import MISSING, PARTS, Part, all_parts, placed
from afdesk.encounter.reflex import Reflex
from afdesk.encounter.snapshot import LogEntry, Slot
from afdesk.encounter.state import AnyMode, Meta, Settings, TurnState
from afdesk.encounter.zone import Zone

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


_OWN: tuple[tuple[Any, ...], ...] = (
    ("combatants", tuple[Slot, ...], ()),
    ("order", tuple[str, ...] | None, None),
    ("zone", Zone | None, None),
    ("reflex", Reflex | None, None),
    ("turn", TurnState | None, None),
    ("mode", AnyMode | None, None),
    ("settings", Settings | None, None),
    ("meta", Meta | None, None),
    ("fog", Fog | None, None),
    ("art", MapArt | None, None),
    ("log_length", int | None, None),
    ("log_entries", tuple[LogEntry, ...], ()),
)
"""The fields that are not a mode's, in their order."""

_DOC = "Put parts of an encounter back as they were: the inverse of any Op."


def _from_record(cls: Any, rec: dict[str, Any]) -> Any:
    """The inverse of a record of changes (``Encounter.apply``'s)."""
    slots = tuple(
        Slot(cid, None if old is MISSING else old) for cid, old in rec["combatants"].items()
    )
    log_length = rec.get("log")
    entries: tuple[LogEntry, ...] = ()
    if "log_cut" in rec:
        log_length, cut = rec["log_cut"]
        entries = tuple(cut)
    fields = _PUT_BACK.get(cls)
    if fields is None:
        fields = _PUT_BACK[cls] = frozenset(cls.__struct_fields__) - _OWN_BOOKKEEPING
    parts = {name: value for name, value in rec.items() if name in fields}
    return cls(combatants=slots, log_length=log_length, log_entries=entries, **parts)


_OWN_BOOKKEEPING = frozenset({"combatants", "log_length", "log_entries"})
"""The fields of an inverse made above from the record's own entries; its other fields
(the roster order and every part) are the record's entries of those names, and a field
the record has no entry for keeps its default, None: unchanged."""
_PUT_BACK: dict[Any, frozenset[str]] = {}
"""Those other fields, by inverse type (one per set of modes registered)."""


def _execute(self: Any, enc: "Encounter") -> None:
    for slot in self.combatants:
        if slot.value is None:
            if slot.id in enc.combatants:
                enc.drop(slot.id)
        else:
            enc.put(slot.value)
    if self.order is not None:
        enc.set_order(self.order)
    for part in all_parts():
        value = getattr(self, part.name)
        if value is not None:
            enc.set_part(part.name, value)
    if self.log_length is not None:
        enc.truncate_log(self.log_length)
        if self.log_entries:
            enc.extend_log(self.log_entries)


_TYPES: dict[tuple[Part, ...], Any] = {}


def restore_type() -> "type[Restore]":
    """The inverse for the modes registered now (see the module)."""
    modes = all_parts()[len(PARTS) :]
    cls = _TYPES.get(modes)
    if cls is None:
        fields = {f[0]: f for f in _OWN}
        fields.update((p.name, (p.name, p.type | None, None)) for p in modes)
        cls = msgspec.defstruct(
            "Restore",
            [fields[name] for name in placed(tuple(f[0] for f in _OWN))],
            bases=(Op,),
            frozen=True,
            module=__name__,
            namespace={
                "__doc__": _DOC,
                "logged": False,
                "label": "Restore",
                "from_record": classmethod(_from_record),
                "execute": _execute,
            },
        )
        _TYPES[modes] = cls
    elif _REGISTRY.get("Restore") is not cls:
        register(cls)  # these modes' inverse again (another mode came and went meanwhile)
    return cast("type[Restore]", cls)


def is_restore(op: Op) -> "TypeGuard[Restore]":
    """Whether ``op`` is an inverse (of whichever modes)."""
    return type(op).__name__ == "Restore" and type(op).__module__ == __name__


if TYPE_CHECKING:

    class Restore(Op, frozen=True):
        """Put parts of an encounter back as they were: the inverse of any Op."""

        combatants: tuple[Slot, ...] = ()
        order: tuple[str, ...] | None = None
        zone: Zone | None = None
        reflex: Reflex | None = None
        turn: TurnState | None = None
        mode: AnyMode | None = None
        settings: Settings | None = None
        meta: Meta | None = None
        fog: Fog | None = None
        art: MapArt | None = None
        log_length: int | None = None
        log_entries: tuple[LogEntry, ...] = ()

        @classmethod
        def from_record(cls, rec: dict[str, Any]) -> "Restore": ...

        def __getattr__(self, name: str) -> Any:
            """A mode's part."""

else:
    Restore = restore_type()
