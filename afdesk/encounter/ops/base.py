"""The Op base class and the checks Ops share."""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.state import Phase

if TYPE_CHECKING:
    from afdesk.encounter.combatant import Combatant
    from afdesk.encounter.geometry import Area
    from afdesk.encounter.interface import Encounter


_REGISTRY: dict[str, type[Op]] = {}
"""Every Op class by tag (afdesk.encounter.ops.registry reads it)."""


class _AnyOpMarker(abc.ABC):  # noqa: B024 - a marker: every registered Op is a virtual subclass
    """The runtime type of a field that holds any registered Op (see the module)."""


class OpTagClash(TypeError):
    """Two different Op classes want the same tag: files could not tell them apart."""


def register(cls: type[Op]) -> None:
    """Register an Op class under its tag (called by ``Op.__init_subclass__``).

    Defining the same class again (same module and name: a reloaded module, a test run
    twice) replaces it; another class with the tag of a registered one is refused, because a
    file holding that tag could not say which one it meant.
    """
    # msgspec sets the tag (``tag=True``: the class name) only after this runs.
    tag = cls.__name__
    old = _REGISTRY.get(tag)
    if old is not None and (old.__module__, old.__qualname__) != (
        cls.__module__,
        cls.__qualname__,
    ):
        raise OpTagClash(
            f"the Op {cls.__module__}.{cls.__qualname__} has the tag {tag!r}, already "
            f"used by {old.__module__}.{old.__qualname__}: give it another class name"
        )
    _REGISTRY[tag] = cls
    _AnyOpMarker.register(cls)


class Op(msgspec.Struct, frozen=True, tag=True, tag_field="op", omit_defaults=True):
    """A change to an encounter. Subclasses implement :meth:`execute` (check, then change
    through the encounter's setters) and :meth:`describe` (the log line)."""

    logged: ClassVar[bool] = True
    label: ClassVar[str] = "Change"

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Every Op registers itself: files and journals decode it with nothing listed by
        # hand (afdesk.encounter.ops.registry).
        super().__init_subclass__(**kwargs)
        register(cls)

    def execute(self, enc: Encounter) -> None:
        raise NotImplementedError

    def describe(self, enc: Encounter) -> str:
        """The log line, in plain words; computed before the Op runs."""
        return self.label

    def title(self, enc: Encounter) -> str:
        """A short name for the undo stack: "Move Huang"."""
        return self.label


if TYPE_CHECKING:
    AnyOp = Op  # for type checkers a field of any Op is an Op
else:
    AnyOp = _AnyOpMarker


def name(enc: Encounter, cid: str) -> str:
    c = enc.combatants.get(cid)
    return c.name if c else cid


def require_phase(enc: Encounter, *phases: Phase, doing: str) -> None:
    if enc.turn.phase not in phases:
        allowed = " or ".join(p.label.lower() for p in phases)
        raise IllegalOp(
            f"cannot {doing} now: play is at {enc.turn.phase.label.lower()}, this needs {allowed}"
        )


def require_actor(enc: Encounter, cid: str, doing: str, kind: str = "") -> Combatant:
    """The character, if it is its turn (or its hesitated action, E6) and its mode lets
    it do ``kind`` (an action, snap or check; "" for a move or a facing): an unaware
    guardian only watches (N3)."""
    from afdesk.encounter.modes import current_mode

    c = enc.combatant(cid)
    if c.exited:
        raise IllegalOp(f"{c.name} cannot {doing}: {c.name} has left the encounter")
    actor = enc.actor
    if actor != cid:
        who = enc.combatants[actor].name if actor in enc.combatants else "nobody"
        raise IllegalOp(f"{c.name} cannot {doing}: it is {who}'s turn, not {c.name}'s")
    why = current_mode(enc).turn_refusal(enc, c, kind)
    if why:
        raise IllegalOp(why)
    return c


def spend_refusal(enc: Encounter, cid: str, uses: str, doing: str = "do that") -> str:
    """Why ``cid`` cannot spend its action or snap (``uses``) now, or "" if it can (E3-E6).

    "free" checks (a plain check, the move check to leave an overlap) need nothing.
    """
    from afdesk.encounter import economy

    if uses not in ("action", "snap"):
        return ""
    if enc.turn.phase is not Phase.TURNS:
        return f"{enc.combatant(cid).name} can only {doing} on a turn"
    try:
        c = require_actor(enc, cid, doing)
        if uses == "action":
            economy.require_action(c, doing, enc.turn.exchange, enc.turn.round)
        else:
            economy.require_snap(c)
    except IllegalOp as exc:
        return str(exc)
    return ""


def require_on_map(c: Combatant, doing: str) -> None:
    if c.exited:
        raise IllegalOp(f"{c.name} cannot {doing}: {c.name} has left the encounter")
    if c.area is None:
        raise IllegalOp(f"{c.name} cannot {doing}: {c.name} is not on the map yet")


def require_area_in_zone(enc: Encounter, area: Area, what: str) -> None:
    if not enc.zone.contains(area):
        c0, r0, c1, r1 = enc.zone.area_bounds()
        raise IllegalOp(
            f"{what} ({area[0]}, {area[1]}) is outside the zone, which spans columns "
            f"{c0} to {c1} and rows {r0} to {r1}"
        )


def area_text(area: Area | tuple[int, int]) -> str:
    return f"({area[0]}, {area[1]})"
