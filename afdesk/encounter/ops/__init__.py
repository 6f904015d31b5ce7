"""Every change to an encounter is an Op: a frozen, serialisable record that
``Encounter.apply`` executes and inverts. Dice rolled for an Op are inside it, so replaying
an Op never rolls again.

The Ops live by idea: ``roster`` (characters), ``zone`` (tiles and edges), ``meta`` (the
encounter as a whole), ``reflex`` (dealing and playing cards), ``flow`` (whose turn, the end),
``economy`` (snaps, actions, screens), ``move``, ``check`` (contests, persevere) and
``restore`` (the inverse of any Op). Every Op registers itself
(:mod:`afdesk.encounter.ops.registry`), and every registered Op is an attribute of this
package: ``from afdesk.encounter.ops import NextTurn`` works without a list kept by hand.
The attributes are looked up when asked for, because the Op modules import much of the
model, which in turn imports :mod:`afdesk.encounter.op`.
"""

from __future__ import annotations

from afdesk.encounter.op import Op


def __getattr__(name: str) -> type[Op]:
    from afdesk.encounter.ops.registry import registered_ops

    for cls in registered_ops():
        if cls.__name__ == name:
            return cls
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    from afdesk.encounter.ops.registry import registered_ops

    return sorted({*globals(), *(cls.__name__ for cls in registered_ops())})


__all__ = ["Op"]
