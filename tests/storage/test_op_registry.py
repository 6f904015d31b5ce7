"""Every Op registers itself: files and journals read any of them, with nothing listed by
hand, including an Op defined after afdesk was imported (item 1)."""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest

import afdesk.encounter
from afdesk.encounter.errors import IllegalOp
from afdesk.encounter.history import History
from afdesk.encounter.model import Encounter
from afdesk.encounter.ops import Op
from afdesk.encounter.ops.meta import Rename
from afdesk.encounter.registry import AnyOp, OpTagClash, registered_ops
from afdesk.encounter.restore import restore_type
from afdesk.encounter.snapshot import EncounterState, LogEntry
from afdesk.encounter.state import AnyMode, Mode
from afdesk.encounter.zone import Segment
from afdesk.storage import decode, encode, load, save
from afdesk.storage.journal import Journal, pending_journals, recover
from afdesk.storage.journal_file import Line, encoder, line_decoder
from afdesk.storage.samples import build


def package_ops() -> list[type[Op]]:
    """Every Op class defined in afdesk, found by importing every module of the model."""
    for info in pkgutil.walk_packages(afdesk.encounter.__path__, "afdesk.encounter."):
        importlib.import_module(info.name)
    found: list[type[Op]] = []
    todo = list(Op.__subclasses__())
    now = restore_type()  # the inverse of the modes registered now (E16)
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__ == now.__module__ and cls is not now:
            continue  # the inverse of a mode a test registered for a while
        if cls.__module__.startswith("afdesk."):
            found.append(cls)
    return sorted(found, key=lambda c: c.__name__)


def example(t: Any, depth: int = 0) -> Any:
    """A value of the declared type ``t`` (msgspec's view of it), for round trips; deep
    down, optional parts stay empty (some records nest themselves)."""
    deep = depth > 4
    if isinstance(t, mi.StructType):
        value = t.cls(**{f.name: example(f.type, depth + 1) for f in t.fields})
        if isinstance(value, Segment) and not value.areas:
            # deep down lists stay empty, but a segment covers at least one area (E10)
            value = msgspec.structs.replace(value, areas=((2, 2),))
        return value
    if isinstance(t, mi.CustomType) and t.cls is AnyOp:
        return Rename("The ford at dusk")
    if isinstance(t, mi.CustomType) and t.cls is AnyMode:  # an open enum (E16)
        return list(Mode)[-1]
    if isinstance(t, mi.UnionType):
        members = [m for m in t.types if not isinstance(m, mi.NoneType)]
        if deep and len(members) < len(t.types):
            return None
        return example(members[0], depth + 1)
    if isinstance(t, (mi.ListType, mi.VarTupleType)):
        return () if deep else (example(t.item_type, depth + 1),)
    if isinstance(t, mi.TupleType):
        return tuple(example(m, depth + 1) for m in t.item_types)
    if isinstance(t, mi.FrozenSetType):
        return frozenset() if deep else frozenset({example(t.item_type, depth + 1)})
    if isinstance(t, mi.DictType):
        return {} if deep else {example(t.key_type, depth + 1): example(t.value_type, depth + 1)}
    if isinstance(t, mi.EnumType):
        return list(t.cls)[-1]
    if isinstance(t, mi.LiteralType):
        return t.values[-1]
    if isinstance(t, mi.Metadata):  # a str whose schema names its values (UseSnap's snap)
        values = (t.extra_json_schema or {}).get("enum")
        return values[-1] if values else example(t.type, depth)
    simple = {
        mi.IntType: 2,
        mi.FloatType: 1.5,
        mi.StrType: "Chén ☂",
        mi.BoolType: True,
        mi.BytesType: b"\x89PNG\r\n\x1a\n\x00\xff",  # map art's picture bytes
    }
    for kind, value in simple.items():
        if isinstance(t, kind):
            return value
    if isinstance(t, mi.NoneType):
        return None
    raise AssertionError(f"no example for {t!r}: extend example()")


def an(cls: type[Op]) -> Op:
    return example(mi.type_info(cls))


def test_every_op_of_the_package_is_registered_under_its_class_name():
    ops = package_ops()
    assert len(ops) >= 39
    registered = set(registered_ops())
    missing = [c.__name__ for c in ops if c not in registered]
    assert missing == []
    for cls in ops:
        assert cls.__struct_config__.tag == cls.__name__
        assert cls.__struct_config__.frozen, f"{cls.__name__} is not frozen"


@pytest.mark.parametrize("cls", package_ops(), ids=lambda c: c.__name__)
def test_every_op_round_trips_through_the_log_of_a_file(cls):
    op = an(cls)
    state = msgspec.structs.replace(
        build().state(), log=(LogEntry(op=op, text="what happened", exchange=1, round=2),)
    )
    back = decode(encode(state))
    assert back == state
    assert type(back.log[0].op) is cls


@pytest.mark.parametrize("cls", package_ops(), ids=lambda c: c.__name__)
def test_every_op_round_trips_through_a_journal_line(cls):
    op = an(cls)
    for line in (Line(1, do=op), Line(2, undo=True, op=op, inverse=op), Line(3, redo=True, op=op)):
        back = line_decoder.decode(encoder.encode(line))
        assert back == line


# ------------------------------------------------------------- an Op from outside


class Shout(Op, frozen=True):
    """An Op a plug-in might define: it lives outside the afdesk package."""

    words: str
    label = "Shout"

    def execute(self, enc: Encounter) -> None:
        if not self.words:
            raise IllegalOp("a shout needs words")
        enc.set_meta(msgspec.structs.replace(enc.meta, notes=enc.meta.notes + self.words))

    def describe(self, enc: Encounter) -> str:
        return f"The GM shouts {self.words!r}"


def test_an_op_defined_outside_the_package_is_saved_loaded_and_recovered(tmp_path):
    assert Shout.__module__ == __name__ and Shout in registered_ops()
    enc = build()
    path = tmp_path / "fight.afenc"
    save(path, enc.state())
    history = History(enc)
    journal = Journal.start("Fight", file=path, base=enc.state()).follow(history)
    op = Shout("Over here!")
    history.push(op)
    history.undo()
    history.redo()
    assert enc.log[-1].op == op
    save(tmp_path / "after.afenc", enc.state())
    assert load(tmp_path / "after.afenc").state == enc.state()
    journal.close(clean=False)
    (pending,) = pending_journals()
    assert recover(pending) == enc.state()


def test_an_op_defined_after_files_were_read_is_read_too(tmp_path):
    decode(encode(build().state()))  # the decoders have done their work once already

    class Whisper(Op, frozen=True):
        words: str
        label = "Whisper"

        def execute(self, enc: Encounter) -> None:
            enc.set_meta(msgspec.structs.replace(enc.meta, description=self.words))

    enc = build()
    enc.apply(Whisper("psst"))
    back = decode(encode(enc.state()))
    assert back == enc.state() and type(back.log[-1].op) is Whisper
    assert Encounter.from_state(back).meta.description == "psst"


def test_two_op_classes_cannot_share_a_tag():
    with pytest.raises(OpTagClash, match="Rename"):

        class Rename(Op, frozen=True):  # not afdesk's Rename
            name: str


def test_a_state_decoded_by_msgspec_alone_needs_the_hook():
    """The hook is what reads Ops; every afdesk decoder passes it."""
    from afdesk.encounter.registry import decode_hook

    state = build().state()
    data = msgspec.json.encode(state)
    assert msgspec.json.decode(data, type=EncounterState, dec_hook=decode_hook) == state


def test_the_ops_package_offers_every_op_of_its_modules():
    import afdesk.encounter.ops as ops

    own = [c for c in registered_ops() if c.__module__.startswith("afdesk.encounter.ops.")]
    assert len(own) > 40
    for cls in own:
        assert getattr(ops, cls.__name__) is cls
        assert cls.__name__ in dir(ops)
    with pytest.raises(AttributeError):
        ops.NoSuchOp  # noqa: B018
    with pytest.raises(AttributeError):  # a mode's Op is its folder's, not this package's
        ops.AddPlatform  # noqa: B018


def test_the_registry_loads_every_module_of_the_ops_package():
    """``registered_ops`` imports the ops modules the package names (``ops.MODULES``: the
    model reads no files, so it cannot list its own folder): a new module of Ops must be
    named there. Checked in a fresh interpreter, where nothing else has imported the
    modules first."""
    import subprocess
    import sys

    code = (
        "import pkgutil, sys\n"
        "import afdesk.encounter.ops as ops\n"
        "from afdesk.encounter.registry import registered_ops\n"
        "registered_ops()\n"
        "names = [m.name for m in pkgutil.iter_modules(ops.__path__, 'afdesk.encounter.ops.')]\n"
        "print(sorted(n for n in names if n not in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", f"modules registered_ops() does not import: {out.stdout}"


def test_the_registry_loads_every_op_of_the_modes_folders():
    """The chase's, the dispute's and the infiltration's Ops live in their modes' folders
    (beside their state): importing every module there registers no Op that
    ``registered_ops`` had not already loaded. In a fresh interpreter."""
    import subprocess
    import sys

    code = (
        "import importlib, pkgutil\n"
        "from afdesk.encounter.registry import registered_ops\n"
        "before = {c.__name__ for c in registered_ops()}\n"
        "for pkg in ('chase', 'contest', 'dispute', 'infiltration'):\n"
        "    p = importlib.import_module('afdesk.encounter.' + pkg)\n"
        "    for m in pkgutil.iter_modules(p.__path__, p.__name__ + '.'):\n"
        "        importlib.import_module(m.name)\n"
        "print(sorted({c.__name__ for c in registered_ops()} - before))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", f"Ops registered_ops() does not load: {out.stdout}"
