"""The limits' plans read which fields can hold a bounded record from the records' own
annotations (translating every record type through ``msgspec.inspect`` cost the
first load of a file about a millisecond). They must look into exactly the fields the
``msgspec.inspect`` reading does, for every record and Op afdesk defines."""

from __future__ import annotations

import datetime
from typing import Any, Literal

import msgspec
import msgspec.inspect as mi

import afdesk.encounter.model  # noqa: F401 - the records
from afdesk.encounter import limits
from afdesk.encounter.registry import registered_ops


def _records() -> list[type]:
    registered_ops()
    found: dict[str, type] = {}
    stack = list(msgspec.Struct.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("afdesk.") and not getattr(cls, "__parameters__", ()):
            try:
                msgspec.structs.fields(cls)
            except NameError:  # only a type checker reads it (parts' Part): never walked
                continue
            found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return [found[k] for k in sorted(found)]


def _fields(cls: type) -> list[tuple[type, str, Any]]:
    return [(cls, f.name, f.type) for f in msgspec.structs.fields(cls)]


def test_every_field_is_looked_into_as_msgspec_inspect_reads_it(monkeypatch):
    records = _records()
    assert len(records) > 100, len(records)
    fields = [f for cls in records for f in _fields(cls)]
    # one field at a time, nothing remembered
    for cls, name, kind in fields:
        monkeypatch.setattr(limits, "_REACH", {})
        fast = limits._type_reaches(kind)
        monkeypatch.setattr(limits, "_REACH", {})
        assert fast == limits._reaches(mi.type_info(kind)), (cls, name, kind)
    # and all in a row, remembering as the plans do
    monkeypatch.setattr(limits, "_REACH", {})
    fast_all = [limits._type_reaches(kind) for _, _, kind in fields]
    monkeypatch.setattr(limits, "_REACH", {})
    slow_all = [limits._reaches(mi.type_info(kind)) for _, _, kind in fields]
    assert fast_all == slow_all
    assert any(fast_all) and not all(fast_all)


def test_types_outside_the_records_go_through_msgspec_inspect(monkeypatch):
    monkeypatch.setattr(limits, "_REACH", {})
    from afdesk.encounter.op import AnyOp
    from afdesk.encounter.zone import Tile

    assert limits._type_reaches(AnyOp) is True  # any Op: looked into
    assert limits._type_reaches(tuple[int, Tile]) is True
    assert limits._type_reaches(dict[str, tuple[Tile, ...] | None]) is True
    assert limits._type_reaches(Literal["a", "b"]) is False
    assert limits._type_reaches(Any) is False
    assert limits._type_reaches(tuple[int, ...]) is False
    assert limits._type_reaches(datetime.datetime) is False
