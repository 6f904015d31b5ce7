"""Chase rules (seed 001, docs/rules.md H1-H5): pursuit dice, chase turns, the pole, the
exchange end, and the exact odds of a chase turn.

Pure Python, no Qt. The names here are public entry points: :func:`colour`,
:func:`turn` (-> :class:`PursuitTurn`), :func:`pole`, :func:`resolve_exchange_end` and
:func:`turn_odds` (-> :class:`TurnOdds`).
"""

from typing import TYPE_CHECKING, Any

from afdesk.rules.pursuit.stages import StageEffects, StageProperty, stage_effects
from afdesk.rules.pursuit.turns import (
    BAD_COLOURS,
    BLUE,
    COLOURS,
    GREEN,
    RED,
    PursuitTurn,
    colour,
    good_colour,
    pole,
    resolve_exchange_end,
    turn,
)

if TYPE_CHECKING:
    from afdesk.rules.pursuit.odds import TurnOdds, colour_odds, turn_odds
else:

    def __getattr__(name: str) -> Any:
        """The odds' names, imported when first asked for: a chase's Ops and the
        chase mode need none of them to load a file or start the app."""
        if name in ("TurnOdds", "colour_odds", "turn_odds"):
            from afdesk.rules.pursuit import odds

            value = getattr(odds, name)
            globals()[name] = value
            return value
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BAD_COLOURS",
    "BLUE",
    "COLOURS",
    "GREEN",
    "RED",
    "PursuitTurn",
    "StageEffects",
    "StageProperty",
    "TurnOdds",
    "colour",
    "colour_odds",
    "good_colour",
    "pole",
    "resolve_exchange_end",
    "stage_effects",
    "turn",
    "turn_odds",
]
