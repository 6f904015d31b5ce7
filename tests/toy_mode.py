"""A mode made entirely by a test (E16): a part, an Op and its bounds, registered for the
length of a ``with installed_toy():`` and taken away again. What a new mode's folder holds
(its ``mode.py``) and nothing else: no existing module of afdesk names it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import ClassVar

import msgspec

from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.interface import Encounter
from afdesk.encounter.limits import Bound, counters
from afdesk.encounter.modes import Battle, register_mode, unregister_mode
from afdesk.encounter.op import Op
from afdesk.encounter.parts import Part
from afdesk.encounter.state import Mode, declare_mode


class Cheers(msgspec.Struct, frozen=True, omit_defaults=True):
    """The toy mode's part: how often the crowd cheered."""

    count: int = 0


def cheers_of(enc: Encounter) -> Cheers:
    """The toy mode's part (its folder's accessor, as ``chase_of``)."""
    part: Cheers = enc.part("toy")
    return part


class Cheer(Op, frozen=True):
    """The toy mode's Op: the crowd cheers once more (only in the toy mode)."""

    who: str = "The crowd"

    def execute(self, enc: Encounter) -> None:
        if str(enc.mode) != "toy":
            raise IllegalOp("only a toy encounter cheers (E16)")
        enc.set_part("toy", Cheers(cheers_of(enc).count + 1))

    def describe(self, enc: Encounter) -> str:
        return f"{self.who} cheers"


class ToyMode(Battle):
    """Battle's turns, and a part of its own."""

    part = Part("toy", Cheers, Cheers, "toy", owner="the toy's")
    bounds: ClassVar[dict[type, tuple[Bound, ...]]] = {Cheers: counters(("count", "cheers"))}


@contextlib.contextmanager
def installed_toy() -> Iterator[Mode]:
    """The toy mode, registered until the block ends."""
    mode = declare_mode("toy")
    ToyMode.mode = mode
    register_mode(ToyMode())
    try:
        yield mode
    finally:
        unregister_mode(mode)
