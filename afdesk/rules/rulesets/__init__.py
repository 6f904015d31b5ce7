"""The rulesets, looked up by the name files store.

>>> ruleset_named("af-classic").spend_unit.label
'Will'
>>> [r.name for r in all_rulesets()][0] == DEFAULT.name
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from afdesk.rules.errors import RulesError
from afdesk.rules.rulesets.af254 import AF254
from afdesk.rules.rulesets.base import (
    DicePoolRuleset,
    Ruleset,
    SpendKind,
    SpendUnit,
    d20_margin,
)
from afdesk.rules.rulesets.classic import Classic
from afdesk.rules.rulesets.d20 import D20Degrees

if TYPE_CHECKING:
    from afdesk.rules.rulesets.base import OddsInput
else:

    def __getattr__(name: str) -> Any:
        if name == "OddsInput":  # needs the odds, imported when first asked for
            from afdesk.rules.rulesets import base

            return base.OddsInput
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Make ``ruleset`` known by its name (a later ruleset plugs in here)."""
    if ruleset.name in _REGISTRY and _REGISTRY[ruleset.name] is not ruleset:
        raise RulesError(f"a ruleset named {ruleset.name!r} is already registered")
    _REGISTRY[ruleset.name] = ruleset
    return ruleset


DEFAULT = register(AF254())
register(Classic())
register(D20Degrees())


def ruleset_named(name: str) -> Ruleset:
    """The ruleset files call ``name``; :class:`RulesError` naming the known ones if none."""
    try:
        return _REGISTRY[name]
    except (KeyError, TypeError):
        raise RulesError(
            f"unknown ruleset {name!r}: expected one of " + ", ".join(_REGISTRY)
        ) from None


def all_rulesets() -> tuple[Ruleset, ...]:
    """Every known ruleset, the default first."""
    return tuple(_REGISTRY.values())


def ruleset_names() -> tuple[str, ...]:
    return tuple(_REGISTRY)


__all__ = [
    "AF254",
    "DEFAULT",
    "Classic",
    "D20Degrees",
    "DicePoolRuleset",
    "OddsInput",
    "Ruleset",
    "SpendKind",
    "SpendUnit",
    "all_rulesets",
    "d20_margin",
    "register",
    "ruleset_named",
    "ruleset_names",
]
