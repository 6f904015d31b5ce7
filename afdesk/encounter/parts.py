"""The parts of an encounter, declared once.

An encounter is its characters (in roster order), its log, and a few whole values: the
meta (name, ruleset, notes), the zone, the reflex deck, the turn, the mode and the settings.
Each whole value is one :class:`Part` below; from that declaration follow the encounter's
constructor and snapshot (``Encounter.__init__``, ``from_state``, ``state``), its change
recording and rollback, the inverse (``Restore``), the event a change sends, and the
document's Qt signal (``<name>Changed``).

Adding a part (chase state, fog, a roster link) is one :class:`Part` in :data:`PARTS` (a mode
declares its own with ``EncounterMode.part``, see :mod:`afdesk.encounter.modes`) plus its own
code. A part of the encounter's own also adds its field to the file format by hand (``_OWN``
in :mod:`afdesk.encounter.snapshot` and :mod:`afdesk.encounter.restore`; a test says so when
one is missing), because a new field in a file is a format change that needs its default
and, for old files, its migration; a mode's part is placed in both by :func:`placed`.

The characters and the log are collections with their own code (an undo restores one
character, not the whole roster; the log is only appended to or cut), so they are not parts.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec

from afdesk.encounter.art import MapArt
from afdesk.encounter.fog import Fog
from afdesk.encounter.reflex import Reflex
from afdesk.encounter.state import BATTLE, AnyMode, Meta, Settings, TurnState
from afdesk.encounter.zone import Zone

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


class EventKind(enum.StrEnum):
    """What changed. The document turns each kind into the Qt signal ``<value>Changed``.

    These are the encounter's own kinds; a mode's part announces its own (its name:
    ``"chase"``), so an event's kind is any string."""

    COMBATANT = "combatant"
    """One character changed (``id``)."""
    ROSTER = "roster"
    """Characters were added, removed or reordered."""
    ZONE = "zone"
    REFLEX = "reflex"
    TURN = "turn"
    MODE = "mode"
    SETTINGS = "settings"
    META = "meta"
    FOG = "fog"
    """What the players' screen hides."""
    ART = "art"
    """The GM's own pictures under the tiles (map art)."""
    LOG = "log"


class Event(NamedTuple):
    """What changed: a kind and, for a character, its id."""

    kind: str
    """An :class:`EventKind`, or the name of a mode's part."""
    id: str = ""


class Part(msgspec.Struct, frozen=True):
    """One whole value of an encounter.

    ``name`` is the attribute of the encounter, the field of ``EncounterState`` and of
    ``Restore``; ``event`` is what a change announces (an :class:`EventKind`; a mode's
    part: its name); ``on_change`` runs after every change
    (to drop what the encounter derived from the old value); ``owner`` is whose numbers
    they are, in words, when a change would break one's limit (``the dispute's``).
    """

    name: str
    type: Any
    default: Callable[[], Any]
    event: str
    on_change: Callable[[Encounter], None] | None = None
    owner: str = "the encounter's"
    before: str = ""
    """A mode's part: the part it comes right before in files and inverses (where the
    format first held it; the samples are byte for byte what afdesk writes), or "" for
    after every other part."""


def _zone_changed(enc: Encounter) -> None:
    enc.forget_terrain()


PARTS: tuple[Part, ...] = (
    Part("meta", Meta, Meta, EventKind.META, owner="the"),
    Part(
        "zone",
        Zone,
        lambda: Zone(tileset="", tiles=()),
        EventKind.ZONE,
        _zone_changed,
        owner="a tile's",
    ),
    Part("reflex", Reflex, Reflex, EventKind.REFLEX, owner="a card's"),
    Part("turn", TurnState, TurnState, EventKind.TURN, owner="the"),
    Part("mode", AnyMode, lambda: BATTLE, EventKind.MODE),
    Part("settings", Settings, Settings, EventKind.SETTINGS, owner="the"),
    Part("fog", Fog, Fog, EventKind.FOG),
    Part("art", MapArt, MapArt, EventKind.ART, owner="the map art's"),
)
"""Every whole value of an encounter (see the module)."""


_MODE_PARTS: dict[str, Part] = {}
"""The parts the registered modes add, by mode (``afdesk.encounter.modes.register_mode``
keeps it; the model imports the installed modes, so they are registered before any
encounter)."""


_ALL: list[tuple[Part, ...]] = [PARTS]
_BY_NAME: dict[str, Part] = {p.name: p for p in PARTS}
""":func:`all_parts` by name (Ops ask for a part by name at every change)."""


def set_mode_part(mode: str, part: Part | None) -> None:
    """The part ``mode`` adds to every encounter (None: none)."""
    if part is None:
        _MODE_PARTS.pop(mode, None)
    else:
        _MODE_PARTS[mode] = part
    _ALL[0] = PARTS + tuple(sorted(_MODE_PARTS.values(), key=lambda p: p.name))
    _BY_NAME.clear()
    _BY_NAME.update((p.name, p) for p in _ALL[0])


def all_parts() -> tuple[Part, ...]:
    """The parts of every encounter: :data:`PARTS`, then those the modes add by name (in
    the same order whichever mode was registered first)."""
    return _ALL[0]


MISSING: Any = object()
"""Where a record of what an Op changed says "this character did not exist"."""


def placed(names: Sequence[str]) -> tuple[str, ...]:
    """``names`` (the fields of a record that holds the parts: a file's, an inverse's) with
    the name of every mode's part put in its place (:attr:`Part.before`; the modes' parts in
    the order of their names, so that the order of their imports does not matter)."""
    out = list(names)
    parts = {p.name for p in PARTS}
    for part in all_parts()[len(PARTS) :]:
        if part.before in out and part.before in parts:
            out.insert(out.index(part.before), part.name)
        else:
            last = max(i for i, n in enumerate(out) if n in parts)
            out.insert(last + 1, part.name)
        parts.add(part.name)
    return tuple(out)


def by_name(name: str) -> Part:
    """The part called ``name``; ``KeyError`` if the encounter has none."""
    part = _BY_NAME.get(name)
    if part is None:
        raise KeyError(f"an encounter has no part {name!r}")
    return part


COLLECTIONS = ("combatants", "log")
"""The encounter's collections: characters (with their roster order) and the log."""
