"""Physical dice at a real table: the GM types the faces rolled instead of
afdesk rolling.

The faces feed the ruleset's own roll as a dice source, in the order they were rolled, so
the validation is the ruleset's: each die's face range, a 6 that explodes asking for its
extra die, the retries Advantage or Disadvantage make (R2-R4, C5, D1). Too few faces or too
many is refused with the count and what the ruleset expects, and nothing is rolled. A roll
made so is marked "physical dice" in the log (``ContestRecord.physical``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from afdesk.encounter.errors import IllegalOp
from afdesk.rules.dice import DiceSource
from afdesk.rules.errors import RulesError

if TYPE_CHECKING:
    from afdesk.encounter.contest.flow import ContestFlow


def parse_faces(text: str) -> tuple[int, ...]:
    """Faces typed as "6 2 4" or "6, 2, 4"; :class:`IllegalOp` naming the bad one."""
    faces = []
    for i, part in enumerate(text.replace(",", " ").split(), start=1):
        if not part.isdigit():
            raise IllegalOp(
                f"face {i} ({part!r}) is not a number: type the faces rolled as whole numbers "
                "separated by spaces, e.g. 6 2 4"
            )
        faces.append(int(part))
    return tuple(faces)


class TypedDice:
    """A :class:`~afdesk.rules.dice.DiceSource` of faces typed from physical dice."""

    seed = None

    def __init__(self, faces: Sequence[int], order: str = "") -> None:
        self.faces = tuple(faces)
        self.order = order
        self.index = 0

    @property
    def remaining(self) -> int:
        return len(self.faces) - self.index

    def _next(self, sides: int) -> tuple[int, int]:
        if self.index >= len(self.faces):
            raise RulesError(
                f"{_faces(len(self.faces))} typed, but this roll needs more: type every die "
                f"in the order rolled ({self.order})"
            )
        face = self.faces[self.index]
        if not 1 <= face <= sides:
            raise RulesError(f"face {self.index + 1} is {face}: a d{sides} shows 1 to {sides}")
        self.index += 1
        return face, self.index - 1

    def d6(self) -> tuple[int, int]:
        return self._next(6)

    def d20(self) -> tuple[int, int]:
        return self._next(20)


def _faces(n: int) -> str:
    return f"{n} face" + ("" if n == 1 else "s")


def used_up(source: TypedDice) -> None:
    """:class:`IllegalOp` if the roll left typed faces unused (too many were typed)."""
    if source.remaining:
        raise IllegalOp(
            f"{_faces(len(source.faces))} typed, but the roll used {source.index}; remove the "
            f"{source.remaining} extra, in the order rolled ({source.order})"
        )


_STATE = ("attack", "d20", "defense", "defense_roll", "helper_roll", "shift_exchange")
_LISTS = ("spends", "also")


def roll_typed(
    flow: ContestFlow, which: str, faces: Sequence[int], roll: Callable[[DiceSource], Any]
) -> None:
    """Make ``roll`` (one of the flow's rolls, given a dice source) with ``faces`` typed
    from physical dice; ``which`` names it in the log ("attack", "defense", "Shift").
    Refused with a clear message, and the flow left as it was, if the faces do not fit."""
    saved = {name: getattr(flow, name) for name in _STATE}
    lists = {name: list(getattr(flow, name)) for name in _LISTS}
    source = TypedDice(faces, flow.rules.typed_dice_order)

    def restore() -> None:
        for name, value in saved.items():
            setattr(flow, name, value)
        for name, value in lists.items():
            setattr(flow, name, value)

    try:
        roll(source)
    except (IllegalOp, RulesError) as exc:
        restore()
        raise IllegalOp(f"physical dice for the {which}: {exc}") from None
    try:
        used_up(source)
    except IllegalOp as exc:
        restore()
        raise IllegalOp(f"physical dice for the {which}: {exc}") from None
    if which not in flow.physical:
        flow.physical.append(which)
