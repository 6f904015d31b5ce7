"""The model's records are frozen and hold only what never changes, so none can be part of a
reference cycle: they are kept out of the garbage collector's sight (msgspec ``gc=False``).
A three-hour session holds some 170,000 of them; the collector looked at every one at each
full collection (70 ms, now 18) and at the end of a journal's replay (a seventh of it)."""

from __future__ import annotations

import datetime
import enum
import gc
import importlib
import pathlib
import pkgutil
import types
import typing

import msgspec
import pytest

import afdesk.encounter
import afdesk.rules
import afdesk.storage
from afdesk.encounter import op as op_module
from afdesk.encounter import state as state_module
from afdesk.storage import samples

LEAVES = (str, int, float, bool, bytes, type(None), pathlib.PurePath, datetime.date)
"""Values that never change (a date and a time too)."""
MARKERS = {op_module._AnyOpMarker: op_module.Op, state_module._ModeMarker: state_module.Mode}
"""The marker types some fields are declared with, and what they hold."""


def _records() -> list[type[msgspec.Struct]]:
    for package in (afdesk.encounter, afdesk.rules, afdesk.storage):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)

    def below(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from below(sub)

    pure = ("afdesk.encounter", "afdesk.rules", "afdesk.storage")
    return sorted(
        {c for c in below(msgspec.Struct) if c.__module__.startswith(pure)},
        key=lambda c: (c.__module__, c.__qualname__),
    )


def _mutable(t, seen: set) -> str:
    """What in type ``t`` may change once made ("" if nothing)."""
    t = MARKERS.get(t, t)
    if isinstance(t, type):
        if issubclass(t, msgspec.Struct):
            if t in seen:
                return ""
            seen.add(t)
            if not t.__struct_config__.frozen:
                return f"{t.__name__} is not frozen"
            try:
                hints = typing.get_type_hints(t, include_extras=True)
            except NameError as exc:  # a type imported for type checkers only
                return f"{t.__name__} names {exc.name}, unknown at run time"
            for name in t.__struct_fields__:
                why = _mutable(hints[name], seen)
                if why:
                    return f"{t.__name__}.{name}: {why}"
            for sub in t.__subclasses__():  # a field of a base type holds any of them
                why = _mutable(sub, seen)
                if why:
                    return why
            return ""
        if issubclass(t, (enum.Enum, *LEAVES)):
            return ""
        return f"{t.__name__} may change"
    origin = typing.get_origin(t)
    if origin is typing.Annotated:
        return _mutable(typing.get_args(t)[0], seen)
    if origin is typing.Literal:
        return ""
    if origin in (tuple, frozenset, typing.Union, types.UnionType):
        for arg in typing.get_args(t):
            why = "" if arg is Ellipsis else _mutable(arg, seen)
            if why:
                return why
        return ""
    return f"{t!r} may change"


RECORDS = _records()


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_a_frozen_record_holding_nothing_that_changes_is_untracked(cls):
    why = _mutable(cls, set())
    if why:  # a record that may hold a list, a function (its module's globals), ...
        assert cls.__struct_config__.gc, f"{cls.__name__} must stay tracked: {why}"
    else:
        assert cls.__struct_config__.gc is False, f"{cls.__name__}: frozen records go untracked"


def test_an_encounters_records_are_out_of_the_collectors_sight():
    state = samples.build().state()
    combatant = state.combatants[0]
    assert not gc.is_tracked(state) and not gc.is_tracked(combatant)
    assert not gc.is_tracked(combatant.economy)
    assert len(RECORDS) > 150
