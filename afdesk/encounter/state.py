"""Encounter-wide values: mode, phase of play, whose turn it is, settings (E1, E16, H2)."""

import abc
import enum
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

import msgspec

from afdesk.rules import DEFAULT_RULESET


class _Modes(enum.EnumType):
    """The metaclass of :class:`Mode`: an open set of members, one per mode declared so far
    (:func:`declare_mode`), each in a subclass of its own."""

    def __getattr__(cls, name: str) -> "Mode":
        """``Mode.CHASE``: the declared mode of that name."""
        if not name.startswith("_"):
            for mode in _DECLARED.values():
                if mode.name == name:
                    return mode
        raise AttributeError(f"no mode {name} is declared")

    def __iter__(cls) -> Iterator[Any]:
        """Battle first, then the other declared modes by name."""
        if cls is not Mode:
            return super().__iter__()
        return iter(sorted(_DECLARED.values(), key=lambda m: (m is not BATTLE, m.value)))

    def __len__(cls) -> int:
        return len(_DECLARED) if cls is Mode else super().__len__()

    def __contains__(cls, value: object) -> bool:
        """A declared mode, or its value."""
        if cls is not Mode:
            return super().__contains__(value)  # type: ignore[operator]
        return isinstance(value, str) and _DECLARED.get(value) == value

    def __call__(cls, value: Any, *args: Any, **kwargs: Any) -> Any:
        """``Mode("chase")``: the declared mode files hold as ``value`` (``ValueError`` if
        none is)."""
        if args or kwargs:  # the functional API makes a class
            return super().__call__(value, *args, **kwargs)
        found = _DECLARED.get(value) if isinstance(value, str) else None
        if found is None:
            raise ValueError(f"Invalid enum value {value!r}")
        return found


class Mode(enum.StrEnum, metaclass=_Modes):
    """Encounter modes (E16); the mode may change at the end of an exchange.

    An open set: each mode declares its value where it lives (:func:`declare_mode`, in its
    folder's ``mode.py``), and ``Mode.CHASE``, ``Mode("chase")`` and ``for m in Mode`` see
    every mode declared so far. Files hold the value."""

    @property
    def label(self) -> str:
        return self.value.capitalize()

    def __reduce_ex__(self, protocol: Any) -> Any:
        return Mode, (self.value,)


_DECLARED: dict[str, Mode] = {}


def declare_mode(value: str) -> Mode:
    """The mode files hold as ``value``, declared now if it was not yet (its name is the
    value in capitals: ``Mode.CHASE`` for ``"chase"``)."""
    found = _DECLARED.get(value)
    if found is not None:
        return found
    name = value.upper().replace("-", "_")
    if not name.isidentifier():
        raise ValueError(f"a mode's value is a word, not {value!r}")
    space = _Modes.__prepare__("Mode", (Mode,))
    space["__module__"] = __name__
    space["__qualname__"] = "Mode"
    space[name] = value
    own = cast("type[Mode]", _Modes("Mode", (Mode,), space))
    mode = own[name]
    _DECLARED[value] = mode
    return mode


def forget_mode(mode: Mode) -> None:
    """Undeclare ``mode`` (a test's or a plug-in's, registered for a while)."""
    if mode is BATTLE:
        raise ValueError("battle is every encounter's own mode")
    _DECLARED.pop(mode.value, None)


BATTLE = declare_mode("battle")
"""Battle (E1-E15): every encounter's own mode (:mod:`afdesk.encounter.modes`)."""


class _ModeMarker(abc.ABC):  # noqa: B024 - a marker: Mode is its virtual subclass
    """The runtime type of a field that holds a mode: msgspec hands its value to
    ``afdesk.encounter.registry.decode_hook``, which accepts the modes declared *now*
    (a field typed :class:`Mode` would freeze them the first time it is decoded)."""


_ModeMarker.register(Mode)

if TYPE_CHECKING:
    AnyMode = Mode  # for type checkers a field of a mode holds a Mode
else:
    AnyMode = _ModeMarker


class Phase(enum.StrEnum):
    """Where play stands."""

    SETUP = "setup"
    """Before the first exchange: place characters, then deal reflex."""
    CARDS = "cards"
    """Every hand plays its card for the next round."""
    TURNS = "turns"
    """Characters take their turns in reflex order."""
    EXCHANGE_END = "exchange-end"
    """After round 5: trim the zone, change mode, reinforcements, then deal again."""
    ENDED = "ended"
    """The encounter is over: persevere (E15)."""

    @property
    def label(self) -> str:
        return {
            "setup": "Setup",
            "cards": "Play reflex cards",
            "turns": "Turns",
            "exchange-end": "End of exchange",
            "ended": "Encounter over",
        }[self.value]


class TurnState(msgspec.Struct, frozen=True, omit_defaults=True):
    """Exchange, round and whose turn it is (E1, E2)."""

    phase: Phase = Phase.SETUP
    exchange: int = 0
    round: int = 0
    order: tuple[str, ...] = ()
    """Combatant ids of this round in reflex order."""
    index: int = -1
    """Position in ``order`` of the character whose turn it is (-1: nobody's)."""
    interjection: str = ""
    """A character taking a hesitated action right now (E6)."""
    exchanges_played: int = 0
    """Exchanges completed, for persevere (E15)."""
    persevered: bool = False
    """Everyone has made the persevere check (E15): once per encounter."""

    @property
    def actor(self) -> str | None:
        if self.interjection:
            return self.interjection
        if self.phase is Phase.TURNS and 0 <= self.index < len(self.order):
            return self.order[self.index]
        return None


def exchanges_lasted(turn: TurnState) -> int:
    """How many exchanges the encounter has lasted: the completed ones, plus the current one
    if a round of it was played (a deal alone does not count, E15)."""
    if turn.phase in (Phase.CARDS, Phase.TURNS) and turn.round >= 1:
        return turn.exchanges_played + 1
    return turn.exchanges_played


class Settings(msgspec.Struct, frozen=True, omit_defaults=True):
    """Per-encounter settings."""

    bad_pursuit_colour: str = "blue"
    """H2: which pursuit-die colour is the bad result ("blue" by default, or "green")."""
    days_since_rest: int = 0
    """For persevere (E15): the success margin must exceed this."""
    low_activity: bool = False
    """A low-activity encounter (a dispute, say) gives +2 to persevere (E15)."""


class Meta(msgspec.Struct, frozen=True, omit_defaults=True):
    """Name, ruleset, the GM's notes and the referee's Shifts."""

    name: str = "Untitled encounter"
    ruleset: str = DEFAULT_RULESET
    notes: str = ""
    """GM-only."""
    description: str = ""
    """Shown to the players."""
    referee_shifts: int = 3
    """The referee's pool of Shifts (R10), spent for opponents and denizens."""
