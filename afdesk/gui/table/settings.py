"""The GM's preferences for the table's screen, kept in the app's QSettings:
read afresh on every access, so the GM window's menu and the players' window never
disagree."""

from __future__ import annotations

from PySide6.QtCore import QSettings

from afdesk.encounter.combatant import Side

HIDDEN_TURN_CHOICES = {"?": "as a generic “?”", "skip": "not at all"}

NEXT_CHECK_CHOICES = {"": "as the side's default", "public": "shown to the table", "gm": "GM only"}
"""Who sees the GM's next check (:mod:`afdesk.gui.table.rolls`, its ``CHOICES``)."""

HOLDS = {"": "the map", "title": "a title card", "black": "black"}
"""What the players' screen shows on Hold (:mod:`afdesk.gui.table.screen`), by kind."""

ROTATIONS = (0, 90, 180, 270)
"""The turns of the players' view (:mod:`afdesk.gui.table.camera`). Here, with the other
choices the Table menu lists, so that building the menu imports neither module."""

PUBLIC_BY_DEFAULT = {
    Side.BAND: True,
    Side.FOLLOWER: True,
    Side.OPPONENT: False,
    Side.DENIZEN: False,
}
"""Whose rolls the table sees unless the GM says otherwise: the band's and its followers',
not the opponents' or the denizens'."""


def _bool(value, default: bool) -> bool:
    if value is None:
        return default
    if isinstance(value, str):
        return value.lower() in ("1", "true", "yes")
    return bool(value)


class TableSettings:
    """Preferences of the table's screen (see the module)."""

    def __init__(self, settings: QSettings | None = None) -> None:
        self._given = settings

    def _s(self) -> QSettings:
        return self._given if self._given is not None else QSettings()

    def _get_bool(self, key: str, default: bool) -> bool:
        return _bool(self._s().value(f"table/{key}"), default)

    def _set(self, key: str, value) -> None:
        self._s().setValue(f"table/{key}", value)

    # The reflex strip.
    @property
    def strip_shown(self) -> bool:
        return self._get_bool("strip_shown", True)

    @strip_shown.setter
    def strip_shown(self, on: bool) -> None:
        self._set("strip_shown", bool(on))

    @property
    def hidden_turn(self) -> str:
        """How a hidden character's turn shows on the strip: "?" or "skip"."""
        value = str(self._s().value("table/hidden_turn", "?"))
        return value if value in HIDDEN_TURN_CHOICES else "?"

    @hidden_turn.setter
    def hidden_turn(self, value: str) -> None:
        if value not in HIDDEN_TURN_CHOICES:
            raise ValueError(f"a hidden turn shows as one of {sorted(HIDDEN_TURN_CHOICES)}")
        self._set("hidden_turn", value)

    # Rolls shown to the table.
    def public_rolls(self, side: Side) -> bool:
        """Whether the table sees the rolls of ``side`` by default."""
        return self._get_bool(f"public_rolls/{side.value}", PUBLIC_BY_DEFAULT.get(side, False))

    def set_public_rolls(self, side: Side, on: bool) -> None:
        self._set(f"public_rolls/{side.value}", bool(on))

    @property
    def roll_seconds(self) -> int:
        """How long a roll stays on the table's screen (the next action clears it sooner)."""
        try:
            return max(2, min(60, int(self._s().value("table/roll_seconds", 8))))
        except (TypeError, ValueError):
            return 8

    @roll_seconds.setter
    def roll_seconds(self, seconds: int) -> None:
        self._set("roll_seconds", max(2, min(60, int(seconds))))

    # The event ticker.
    @property
    def ticker_shown(self) -> bool:
        """Whether the players' screen says what happened (moves, hits, ...)."""
        return self._get_bool("ticker_shown", True)

    @ticker_shown.setter
    def ticker_shown(self, on: bool) -> None:
        self._set("ticker_shown", bool(on))

    @property
    def ticker_seconds(self) -> int:
        """How long a ticker line stays on the table's screen."""
        try:
            return max(3, min(60, int(self._s().value("table/ticker_seconds", 8))))
        except (TypeError, ValueError):
            return 8

    # The players' window's place (:mod:`afdesk.gui.player_view`).
    @property
    def player_screen(self) -> str:
        """The name of the screen the players' window last used ("" at first)."""
        return str(self._s().value("table/player_screen", "") or "")

    @player_screen.setter
    def player_screen(self, name: str) -> None:
        self._set("player_screen", str(name))

    @property
    def player_fullscreen(self) -> bool:
        """Whether the players' window was last full screen."""
        return self._get_bool("player_fullscreen", False)

    @player_fullscreen.setter
    def player_fullscreen(self, on: bool) -> None:
        self._set("player_fullscreen", bool(on))


__all__ = ["HIDDEN_TURN_CHOICES", "PUBLIC_BY_DEFAULT", "TableSettings"]
