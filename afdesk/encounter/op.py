"""The Op base class: a change to an encounter as a frozen, serialisable record, and the
registry every Op class enters by being defined (:mod:`afdesk.encounter.registry`
reads it).

No ``from __future__ import annotations`` here: msgspec reads the annotations of every
Op's bases when it builds a file's decoder, and would otherwise parse ``ClassVar[bool]``
and ``ClassVar[str]`` again for each of the hundred-odd Op classes."""

import abc
from typing import TYPE_CHECKING, Any, ClassVar

import msgspec

if TYPE_CHECKING:
    from afdesk.encounter.interface import Encounter


_REGISTRY: "dict[str, type[Op]]" = {}
"""Every Op class by tag (afdesk.encounter.registry reads it)."""


class _AnyOpMarker(abc.ABC):  # noqa: B024 - a marker: every registered Op is a virtual subclass
    """The runtime type of a field that holds any registered Op (see the module)."""


class OpTagClash(TypeError):
    """Two different Op classes want the same tag: files could not tell them apart."""


def register(cls: "type[Op]") -> None:
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
        # hand (afdesk.encounter.registry).
        super().__init_subclass__(**kwargs)
        register(cls)

    def execute(self, enc: "Encounter") -> None:
        raise NotImplementedError

    def describe(self, enc: "Encounter") -> str:
        """The log line, in plain words; computed before the Op runs."""
        return self.label

    def title(self, enc: "Encounter") -> str:
        """A short name for the undo stack: "Move Huang"."""
        return self.label


if TYPE_CHECKING:
    AnyOp = Op  # for type checkers a field of any Op is an Op
else:
    AnyOp = _AnyOpMarker
