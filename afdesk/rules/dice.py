"""Dice sources and the immutable record of a roll.

A :class:`Roll` keeps every die that was rolled: its face, its pool, whether it exploded or
came from an explosion (R2), whether it was retried and what it showed before (R3), which
Interference die cancelled it (R4) and whether a Shift (R10) or Will (C4) added it. The GUI
draws dice from this record and the log stores it, so it is plain data: :func:`to_data` and
:func:`from_data` turn it into JSON-ready builtins and back.

Faces come from an injected :class:`DiceSource`. The default :class:`RandomSource` is a
``random.Random`` seeded from the operating system; the seed and the index of every draw are
kept, so :func:`audit` can re-derive each face. Tests inject :class:`ScriptedSource`.
"""

import enum
import random
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import msgspec

from afdesk.rules.errors import RulesError


class Pool(enum.StrEnum):
    """Which pool a die belongs to."""

    CHECK = "check"
    INTERFERENCE = "interference"
    OPPOSITION = "opposition"
    HELPER = "helper"


MAIN_POOLS = frozenset({Pool.CHECK, Pool.OPPOSITION, Pool.HELPER})


class DiceSource(Protocol):
    """Where faces come from."""

    @property
    def seed(self) -> int | None:
        """The seed that re-derives the faces (None: they cannot be re-derived)."""
        ...

    def d6(self) -> tuple[int, int]:
        """Return ``(face, draw_index)`` of the next d6."""
        ...

    def d20(self) -> tuple[int, int]:
        """Return ``(face, draw_index)`` of the next d20."""
        ...


class RandomSource:
    """Faces from ``random.Random``; the seed comes from the OS unless given.

    ``skip`` continues an earlier stream, so a later Shift on the same roll can draw from the
    same seed (:meth:`continuing`).
    """

    def __init__(self, seed: int | None = None, *, skip: int = 0) -> None:
        if seed is None:
            import secrets  # on first use: its import costs a start-up

            seed = secrets.randbits(63)
        self.seed = seed
        self._random = random.Random(self.seed)
        self.index = 0
        for _ in range(skip):
            self._next(6)

    @classmethod
    def continuing(cls, roll: "Roll") -> "RandomSource":
        """A source that continues the stream that produced ``roll`` (or a fresh one)."""
        if roll.seed is None:
            return cls()
        return cls(roll.seed, skip=roll.draws)

    def _next(self, sides: int) -> tuple[int, int]:
        # One draw of the underlying generator per die whatever its size, so that a draw
        # index alone is enough to re-derive a face (audit).
        value = self._random.random()
        index = self.index
        self.index += 1
        return int(value * sides) + 1, index

    def d6(self) -> tuple[int, int]:
        return self._next(6)

    def d20(self) -> tuple[int, int]:
        return self._next(20)


class ScriptedSource:
    """Faces given in advance, for tests and for replaying dice typed in at the table."""

    seed = None

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self.index = 0

    @property
    def remaining(self) -> int:
        return len(self._faces) - self.index

    def _next(self, sides: int) -> tuple[int, int]:
        if self.index >= len(self._faces):
            raise RulesError(f"the scripted dice ran out after {self.index} faces")
        face = self._faces[self.index]
        if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= sides:
            raise RulesError(f"scripted face {face!r} is not a d{sides} face (1-{sides})")
        index = self.index
        self.index += 1
        return face, index

    def d6(self) -> tuple[int, int]:
        return self._next(6)

    def d20(self) -> tuple[int, int]:
        return self._next(20)


def face_of(seed: int, draw: int, sides: int = 6) -> int:
    """The face that draw number ``draw`` of :class:`RandomSource` ``seed`` shows."""
    source = RandomSource(seed, skip=draw)
    return source._next(sides)[0]


class Die(msgspec.Struct, frozen=True, omit_defaults=True):
    """One die of a roll, with its whole history."""

    face: int
    pool: Pool = Pool.CHECK
    exploded: bool = False
    """It showed a 6 when rolled and added an extra die (R2)."""
    from_explosion: bool = False
    """It is the extra die of an explosion."""
    retried_from: int | None = None
    """The face it showed before its one retry (R3)."""
    retry_reason: str | None = None
    """Why it was retried: six, distinction, cooperation, shift, advantage, disadvantage."""
    added_by: str | None = None
    """A Shift (R10), Will (C4) or Disadvantage without Interference (R4) added it."""
    cancelled_by: int | None = None
    """Index in the roll of the Interference die that cancelled it (R4)."""
    draw: int = -1
    """Index of the current face in the dice source's stream (-1: unknown)."""

    @property
    def retried(self) -> bool:
        return self.retried_from is not None

    @property
    def is_interference(self) -> bool:
        return self.pool is Pool.INTERFERENCE


def validate_face(face: object, where: str = "face", sides: int = 6) -> int:
    """Return ``face`` if it is a die face, else raise :class:`RulesError`."""
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
        raise RulesError(f"{where}: {face!r} is not a d{sides} face (1-{sides})")
    return face


def validate_faces(faces: Sequence[object], where: str) -> tuple[int, ...]:
    """Return ``faces`` as a tuple of ints, or raise :class:`RulesError` naming the bad one."""
    if isinstance(faces, (str, bytes)) or not isinstance(faces, Iterable):
        raise RulesError(f"{where}: expected a sequence of faces, got {faces!r}")
    return tuple(validate_face(f, f"{where}[{i}]") for i, f in enumerate(faces))


def validate_count(value: object, what: str) -> int:
    """A number of dice: an int, never negative."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{what} must be a whole number, got {value!r}")
    if value < 0:
        raise RulesError(f"{what} cannot be negative, got {value}")
    return value


def roll_dice(
    count: int,
    pool: Pool,
    source: DiceSource,
    *,
    explode: bool = True,
    added_by: str | None = None,
) -> list[Die]:
    """Roll ``count`` dice; each 6 adds a die while 6s come up, unless ``explode`` is off."""
    dice: list[Die] = []
    for _ in range(count):
        from_explosion = False
        while True:
            face, draw = source.d6()
            boom = explode and face == 6
            dice.append(
                Die(
                    face=face,
                    pool=pool,
                    exploded=boom,
                    from_explosion=from_explosion,
                    added_by=added_by,
                    draw=draw,
                )
            )
            if not boom:
                break
            from_explosion = True
    return dice


class Roll(msgspec.Struct, frozen=True, omit_defaults=True):
    """Every die of one check (its pool and its Interference), immutable.

    ``ventures`` are the Ventures declared (R8, C3); ``seed`` and ``draws`` name the stream
    of the :class:`RandomSource` that produced the faces (None for scripted faces).
    """

    dice: tuple[Die, ...] = ()
    ventures: int = 0
    advantage: bool = False
    disadvantage: bool = False
    seed: int | None = None
    draws: int = 0

    @property
    def main_pool(self) -> tuple[Die, ...]:
        return tuple(d for d in self.dice if d.pool is not Pool.INTERFERENCE)

    @property
    def interference(self) -> tuple[Die, ...]:
        return tuple(d for d in self.dice if d.pool is Pool.INTERFERENCE)

    @property
    def check_faces(self) -> tuple[int, ...]:
        return tuple(d.face for d in self.dice if d.pool is not Pool.INTERFERENCE)

    @property
    def interference_faces(self) -> tuple[int, ...]:
        return tuple(d.face for d in self.dice if d.pool is Pool.INTERFERENCE)

    def fail_indices(self) -> tuple[int, ...]:
        """The check's Fails that may still be retried (R3)."""
        return tuple(
            i
            for i, d in enumerate(self.dice)
            if d.pool is not Pool.INTERFERENCE and d.face <= 3 and d.retried_from is None
        )

    def retriable_indices(self) -> tuple[int, ...]:
        """The check's dice not yet retried, Wins included: what a Shift may retry (R3,
        R10; Interference is never retried by a Shift, R4)."""
        return tuple(
            i
            for i, d in enumerate(self.dice)
            if d.pool is not Pool.INTERFERENCE and d.retried_from is None
        )

    def six_indices(self) -> tuple[int, ...]:
        """The check's 6s not yet retried: what the roller may retry for Momentum (R3)."""
        return tuple(i for i in self.retriable_indices() if self.dice[i].face == 6)

    def retry(
        self,
        indices: Iterable[int],
        reason: str,
        source: DiceSource | None = None,
    ) -> "Roll":
        """Re-roll the dice at ``indices`` once each (R3): the new face is frozen.

        Interference dice may only be retried for Advantage or Disadvantage (R4).
        """
        indices = sorted(set(indices))
        src: DiceSource = source or RandomSource.continuing(self)
        dice = list(self.dice)
        for i in indices:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(dice):
                raise RulesError(f"there is no die number {i!r} in this roll of {len(dice)}")
            die = dice[i]
            if die.retried:
                raise RulesError(
                    f"die {i} ({die.face}) was already retried: each die may be re-rolled once (R3)"
                )
            if die.pool is Pool.INTERFERENCE and reason not in ("advantage", "disadvantage"):
                raise RulesError(
                    f"die {i} is Interference: only Advantage or Disadvantage retry "
                    "Interference (R4)"
                )
        for i in indices:
            die = dice[i]
            face, draw = src.d6()
            dice[i] = msgspec.structs.replace(
                die, face=face, retried_from=die.face, retry_reason=reason, draw=draw
            )
        return self._with(dice, src)

    def add_dice(
        self,
        count: int,
        added_by: str,
        source: DiceSource | None = None,
        *,
        explode: bool = False,
        pool: Pool | None = None,
    ) -> "Roll":
        """Add ``count`` dice to the main pool (a Shift: they do not explode, R10)."""
        validate_count(count, "dice to add")
        src: DiceSource = source or RandomSource.continuing(self)
        main = pool or next((d.pool for d in self.dice if d.pool in MAIN_POOLS), Pool.CHECK)
        added = roll_dice(count, main, src, explode=explode, added_by=added_by)
        return self._with([*self.dice, *added], src)

    def _with(self, dice: list[Die], source: DiceSource) -> "Roll":
        seed = self.seed if self.dice else getattr(source, "seed", None)
        if getattr(source, "seed", None) != seed:
            seed = None  # faces from two streams: no single seed re-derives them
        draws = getattr(source, "index", self.draws)
        return msgspec.structs.replace(self, dice=annotate(tuple(dice)), seed=seed, draws=draws)


def annotate(dice: tuple[Die, ...]) -> tuple[Die, ...]:
    """Mark which Interference die cancelled which check die (R4)."""
    from afdesk.rules.cancellation import cancel

    main_idx = [i for i, d in enumerate(dice) if d.pool is not Pool.INTERFERENCE]
    intf_idx = [i for i, d in enumerate(dice) if d.pool is Pool.INTERFERENCE]
    result = cancel([dice[i].face for i in main_idx], [dice[i].face for i in intf_idx])
    cancelled = {main_idx[c]: intf_idx[j] for c, j in result.pairs}
    out = []
    for i, die in enumerate(dice):
        by = cancelled.get(i)
        if die.cancelled_by != by:
            die = msgspec.structs.replace(die, cancelled_by=by)
        out.append(die)
    return tuple(out)


def build_roll(
    check: Sequence[int],
    interference: Sequence[int] = (),
    *,
    pool: Pool = Pool.CHECK,
    ventures: int = 0,
) -> Roll:
    """A roll record from final faces typed in at the table (no history)."""
    check = validate_faces(check, "check")
    interference = validate_faces(interference, "interference")
    dice = [Die(face=f, pool=pool) for f in check]
    dice += [Die(face=f, pool=Pool.INTERFERENCE) for f in interference]
    return Roll(dice=annotate(tuple(dice)), ventures=ventures)


def audit(roll: Roll) -> bool:
    """Whether every face of ``roll`` is the one its seed and draw index give."""
    if roll.seed is None:
        return False
    return all(d.draw < 0 or face_of(roll.seed, d.draw) == d.face for d in roll.dice)


def to_data(roll: Roll) -> dict[str, Any]:
    """The roll as JSON-ready builtins."""
    data: dict[str, Any] = msgspec.to_builtins(roll)
    return data


def from_data(data: object) -> Roll:
    """A roll from :func:`to_data`'s output; :class:`RulesError` if it is not one."""
    try:
        return msgspec.convert(data, Roll)
    except msgspec.ValidationError as exc:
        raise RulesError(f"not a roll record: {exc}") from None


def pool_sizes(score: int, modifiers: Iterable[int]) -> tuple[int, int]:
    """``(dice, Interference)`` of a check: bonuses add dice, each penalty die is one
    Interference die (R1)."""
    mods = tuple(modifiers)
    bonus = sum(m for m in mods if m > 0)
    penalty = -sum(m for m in mods if m < 0)
    return max(score + bonus, 0), penalty
