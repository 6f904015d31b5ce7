"""Every change to an encounter is an Op: a frozen, serialisable record that
``Encounter.apply`` executes and inverts. Dice rolled for an Op are inside it, so replaying
an Op never rolls again.

The Ops live by idea: ``roster`` (characters), ``zone`` (tiles and edges), ``meta`` (the
encounter as a whole), ``reflex`` (dealing and playing cards), ``flow`` (whose turn, the end),
``economy`` (snaps, actions, screens), ``move``, ``damage``, ``fog``, ``editor`` (the zone
editor's) and ``reserve``. Elsewhere: the contest's and persevere's Ops in
:mod:`afdesk.encounter.contest.ops`, each mode's in its folder and ``Restore`` (the inverse
of any Op) in :mod:`afdesk.encounter.restore`. Every Op registers itself
(:mod:`afdesk.encounter.registry`), and every Op of this package is an attribute of it:
``from afdesk.encounter.ops import NextTurn`` works without a list kept by hand. The
attributes are looked up when asked for, because the Op modules import much of the model,
which in turn imports :mod:`afdesk.encounter.op`.
"""

from __future__ import annotations

from afdesk.encounter.op import Op

MODULES: tuple[str, ...] = ("art", "damage", "economy", "editor", "flow", "fog", "meta", "move")
MODULES += ("reflex", "reserve", "roster", "zone")
"""The package's modules of Ops (the model reads no files, so it cannot list its folder;
a test checks that this names every one)."""


def own_ops() -> list[type[Op]]:
    """The Ops of this package's modules, imported now if they were not yet."""
    import importlib

    from afdesk.encounter.op import _REGISTRY

    for module in MODULES:
        importlib.import_module(f"{__name__}.{module}")
    return [cls for cls in _REGISTRY.values() if cls.__module__.startswith(f"{__name__}.")]


def __getattr__(name: str) -> type[Op]:
    for cls in own_ops():
        if cls.__name__ == name:
            return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *(cls.__name__ for cls in own_ops())})


__all__ = ["Op"]
