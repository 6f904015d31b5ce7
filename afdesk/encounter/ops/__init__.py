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


def own_ops() -> list[type[Op]]:
    """The Ops of this package's modules, imported now if they were not yet (named here:
    the model reads no files, so it cannot list its folder; a test checks that this names
    every module)."""
    # "import a.b" loads a module without asking this package's __getattr__ first
    import afdesk.encounter.ops.art
    import afdesk.encounter.ops.damage
    import afdesk.encounter.ops.economy
    import afdesk.encounter.ops.editor
    import afdesk.encounter.ops.flow
    import afdesk.encounter.ops.fog
    import afdesk.encounter.ops.meta
    import afdesk.encounter.ops.move
    import afdesk.encounter.ops.reflex
    import afdesk.encounter.ops.reserve
    import afdesk.encounter.ops.roster
    import afdesk.encounter.ops.zone  # noqa: F401
    from afdesk.encounter.op import _REGISTRY

    return [cls for cls in _REGISTRY.values() if cls.__module__.startswith(f"{__name__}.")]


def __getattr__(name: str) -> type[Op]:
    for cls in own_ops():
        if cls.__name__ == name:
            return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *(cls.__name__ for cls in own_ops())})


__all__ = ["Op"]
