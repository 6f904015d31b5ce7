"""afdesk.gui.quick_enums: every Qt enum PySide6 makes comes out of the quick path the
same class as out of the standard library's, on the Python running the tests."""

from __future__ import annotations

import enum
import json
import operator
import os
import pickle
import subprocess
import sys
import textwrap
import types

import pytest
from PySide6 import QtCore

from afdesk.gui import quick_enums

RECORD = """
import enum, json
standard = enum.EnumType.__dict__["_create_"]
calls = []

def recording(cls, class_name, names, **options):
    plain = isinstance(names, list) and all(
        isinstance(p, tuple) and len(p) == 2 and type(p[0]) is str and type(p[1]) is int
        for p in names
    )
    boundary = options.get("boundary")
    calls.append({
        "base": cls.__name__,
        "name": class_name,
        "names": [list(p) for p in names] if plain else None,
        "boundary": boundary.name if isinstance(boundary, enum.FlagBoundary) else None,
        "qualname": options.get("qualname"),
    })
    return standard(cls, class_name, names, **options)

enum.EnumType._create_ = recording
from PySide6 import QtCore, QtGui, QtWidgets
for module in (QtCore, QtGui, QtWidgets):
    for name in dir(module):
        getattr(module, name)  # each class made, and its enums with it
print(json.dumps(calls))
"""


@pytest.fixture(scope="module")
def qt_calls() -> list[dict]:
    """What PySide6 hands the functional API for every enum of QtCore, QtGui and
    QtWidgets, recorded in a process where afdesk.gui is not imported (the standard
    library builds them there: the pairs are PySide6's own, not read back from classes
    the quick path made)."""
    done = subprocess.run(
        [sys.executable, "-c", RECORD],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def _arguments(call: dict) -> tuple:
    base = getattr(enum, call["base"])
    boundary = enum.FlagBoundary[call["boundary"]] if call["boundary"] else None
    pairs = [tuple(p) for p in call["names"]]
    return base, call["name"], pairs, {"qualname": call["qualname"], "boundary": boundary}


def _both(base, name, pairs, **options):
    options.setdefault("module", "tests.quick")
    quick = quick_enums._create_(base, name, list(pairs), **options)
    standard = quick_enums.standard_create(base, name, list(pairs), **options)
    return quick, standard


def _describe(value):
    """A value of an enum's class dict, comparable across two classes."""
    if isinstance(value, enum.Enum):
        return ("member", value._name_, value._value_)
    if isinstance(value, dict):
        return {k: _describe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_describe(v) for v in value]
    if isinstance(value, (property, types.DynamicClassAttribute)):  # a redirect to a member
        return ("redirect", type(value), getattr(value, "name", None))
    if isinstance(value, (staticmethod, classmethod)):  # a wrapper made for each class
        return (type(value), value.__func__)
    if isinstance(value, (types.GetSetDescriptorType, types.MemberDescriptorType)):
        return (type(value), value.__name__)
    if callable(value) and getattr(value, "__self__", None) is not None:
        return ("bound", getattr(value, "__func__", value).__qualname__)
    return value


def _outcome(call, *args):
    """What ``call(*args)`` gives (a member described), or the error it raises."""
    try:
        got = call(*args)
    except Exception as exc:  # the same error, or the same result
        return ("raised", type(exc), str(exc))
    return _result(got)


def _result(got):
    if isinstance(got, enum.Enum):
        return (got._name_, got._value_, repr(got), str(got), format(got), hash(got))
    if isinstance(got, list):
        return [_result(item) for item in got]
    return ("value", got)


def _every_flag(flags):
    return list(flags(flags._flag_mask_))


def assert_same_enum(quick, standard) -> None:
    assert type(quick) is type(standard)
    assert quick.__mro__[1:] == standard.__mro__[1:]
    # The same attributes (in the class dict's own order the members come before the
    # standard path's last touches, after them on the quick path: nothing reads that order).
    assert sorted(vars(quick)) == sorted(vars(standard))
    for key, value in vars(standard).items():
        mine = vars(quick)[key]
        if isinstance(value, standard):  # a member (or an alias): the member itself, not a redirect
            assert type(mine) is quick, key
            assert (mine._name_, mine._value_) == (value._name_, value._value_), key
        elif isinstance(value, types.MethodType):  # bound to its own class, as the standard's
            assert mine.__func__ is value.__func__, key
            assert (mine.__self__ is quick) == (value.__self__ is standard), key
        else:
            assert _describe(mine) == _describe(value), key
    for name, member in standard._member_map_.items():
        mine = quick._member_map_[name]
        assert list(vars(mine)) == list(vars(member)), name
        for key, value in vars(member).items():
            if key == "__objclass__":
                assert vars(mine)[key] is quick
            else:
                assert vars(mine)[key] == value, (name, key)
    assert [m._name_ for m in quick] == [m._name_ for m in standard]
    assert len(quick) == len(standard)
    assert repr(quick) == repr(standard)
    assert list(quick.__members__) == list(standard.__members__)
    values = [m._value_ for m in standard._member_map_.values()]
    probes = [*values, "A", None, 2.5]
    if all(type(v) is int for v in values):
        probes += [0, -1, 1, max(values, default=0) + 1, sum(values) + 7, 1 << 40]
    for value in probes:
        assert _outcome(quick, value) == _outcome(standard, value), value
    for name in [*list(standard._member_map_)[:3], "NoSuchMember"]:
        assert _outcome(quick.__getitem__, name) == _outcome(standard.__getitem__, name)
    if issubclass(standard, enum.Flag):
        every = list(standard._member_map_)
        names = every[:8] + every[8:][-8:]
        for a in names:
            assert _outcome(operator.invert, quick[a]) == _outcome(operator.invert, standard[a])
            for b in names:
                for op in (operator.or_, operator.and_, operator.xor):
                    mine = _outcome(op, quick[a], quick[b])
                    assert mine == _outcome(op, standard[a], standard[b]), (a, op, b)
        assert _outcome(_every_flag, quick) == _outcome(_every_flag, standard)


def test_installed_by_afdesk_gui():
    assert enum.EnumType.__dict__["_create_"] is quick_enums._create_


def test_the_qt_namespace_is_built_on_the_quick_path():
    """A process that imports afdesk.gui first: Qt's namespace comes through here."""
    code = textwrap.dedent(
        """
        import afdesk.gui
        from afdesk.gui import quick_enums
        from PySide6.QtCore import Qt
        assert quick_enums.built >= 90, quick_enums.built
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
        assert flags.value == 0x21 and Qt.AlignmentFlag.AlignLeft in flags
        assert Qt.Key(0x41) is Qt.Key.Key_A and Qt.Key.Key_A.name == "Key_A"
        assert Qt.Key.__module__ == "PySide6.QtCore" and Qt.Key.__qualname__ == "Qt.Key"
        print("ok")
        """
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_pyside_enums_are_plain(qt_calls):
    """Nearly every enum PySide6 makes takes the quick path (the test would pass
    vacuously otherwise)."""
    plain = [call for call in qt_calls if call["names"] is not None]
    assert len(qt_calls) > 400 and len(plain) >= 0.95 * len(qt_calls)
    before = quick_enums.built
    for call in plain:
        base, name, pairs, options = _arguments(call)
        quick_enums._create_(base, name, pairs, module="tests.quick", **options)
    assert quick_enums.built - before >= 0.95 * len(plain)


@pytest.mark.parametrize("chunk", range(8))
def test_every_qt_enum_is_the_same_class_both_ways(qt_calls, chunk):
    for call in [c for c in qt_calls if c["names"] is not None][chunk::8]:
        base, name, pairs, options = _arguments(call)
        quick, standard = _both(base, name, pairs, **options)
        assert_same_enum(quick, standard)


@pytest.mark.parametrize(
    ("base", "pairs"),
    [
        (enum.IntEnum, [("A", 1), ("B", 2), ("C", 2), ("D", 0)]),  # an alias
        (enum.Enum, [("A", 3), ("B", 1), ("Again", 3)]),
        (enum.IntFlag, [("A", 1), ("B", 2), ("AB", 3), ("None_", 0), ("High", 1 << 31)]),
        (enum.Flag, [("C", 4), ("A", 1), ("B", 2), ("All", 7)]),  # not in value order
        (enum.IntFlag, []),
        (enum.IntEnum, []),
    ],
)
def test_small_enums_the_same_both_ways(base, pairs):
    for boundary in (enum.KEEP, None):
        quick, standard = _both(base, "Small", pairs, boundary=boundary)
        assert_same_enum(quick, standard)
        assert quick.__module__ == "tests.quick"


@pytest.mark.parametrize(
    ("base", "names", "options"),
    [
        (enum.IntEnum, [("_hidden", 1), ("A", 2)], {}),
        (enum.IntFlag, [("A", 1), ("B", 2), ("value", 4)], {}),  # the last pair: half made
        (enum.IntEnum, [("name", 1), ("A", 2)], {}),  # an attribute of Enum
        (enum.IntEnum, [("real", 1)], {}),  # an attribute of int
        (enum.IntFlag, [("A", 1), ("Neg", -2)], {}),
        (enum.IntEnum, "A B C", {}),
        (enum.IntEnum, ["A", "B"], {}),
        (enum.IntEnum, (("A", 1), ("B", 2)), {}),
        (enum.IntEnum, {"A": 1, "B": 2}, {}),
        (enum.IntEnum, [("A", 1.5)], {}),
        (enum.IntEnum, [("A", True)], {}),
        (enum.Enum, [("A", 1)], {"type": int}),
        (enum.StrEnum, [("A", "a")], {}),
    ],
)
def test_anything_else_goes_to_the_standard_path(base, names, options):
    before = quick_enums.built
    quick = quick_enums._create_(base, "Other", names, module="tests.quick", **options)
    standard = quick_enums.standard_create(base, "Other", names, module="tests.quick", **options)
    assert quick_enums.built == before
    assert_same_enum(quick, standard)


def test_a_repeated_name_is_refused_as_the_standard_library_refuses_it():
    names = [("A", 1), ("A", 2)]
    with pytest.raises(TypeError) as standard:
        quick_enums.standard_create(enum.IntEnum, "Twice", names, module="tests.quick")
    with pytest.raises(TypeError) as quick:
        enum.IntEnum("Twice", names)
    assert str(quick.value) == str(standard.value)


Module = enum.IntEnum("Module", [("A", 1), ("B", 2)])
Flags = enum.IntFlag("Flags", [("A", 1), ("B", 2)])


def test_the_module_is_the_callers_and_members_pickle():
    """The functional API names the calling module (here: this test module), and a member
    pickles by it."""
    assert Module.__module__ == __name__
    assert pickle.loads(pickle.dumps(Module.B)) is Module.B
    both = Flags.A | Flags.B
    assert pickle.loads(pickle.dumps(both)) == both
    assert pickle.loads(pickle.dumps(QtCore.Qt.AlignmentFlag.AlignLeft)) is (
        QtCore.Qt.AlignmentFlag.AlignLeft
    )


def test_left_alone_on_a_python_the_tests_have_not_compared(monkeypatch):
    monkeypatch.setattr(quick_enums, "TESTED", set())
    quick_enums.uninstall()
    try:
        assert quick_enums.install() is False
        assert enum.EnumType.__dict__["_create_"] is quick_enums._STANDARD
    finally:
        monkeypatch.undo()
        assert quick_enums.install() is True
    assert enum.EnumType.__dict__["_create_"] is quick_enums._create_


@pytest.mark.parametrize("base", [enum.IntFlag, enum.Flag, enum.IntEnum])
def test_every_boundary_the_same_both_ways_in_any_order(base):
    """The classes with no members are kept per base and boundary: the string "keep"
    (equal to KEEP, and hashed alike) must not stand for KEEP, nor KEEP for it."""
    pairs = [("A", 1), ("B", 2), ("C", 8)]
    quick_enums._templates.clear()
    for boundary in ("keep", enum.KEEP, enum.STRICT, "strict", None, enum.CONFORM, enum.EJECT):
        quick, standard = _both(base, "Bounded", pairs, boundary=boundary)
        assert_same_enum(quick, standard)
        assert _outcome(quick, 16) == _outcome(standard, 16), boundary


def _made_here():
    return enum.IntEnum("Here", [("A", 1), ("B", 2)])


def _both_installed(make):
    """``make()`` with the quick path, then with the standard library's."""
    quick = make()
    quick_enums.uninstall()
    try:
        standard = make()
    finally:
        assert quick_enums.install()
    return quick, standard


def test_the_callers_module_is_named_as_the_standard_library_names_it():
    quick, standard = _both_installed(_made_here)
    assert quick.__module__ == standard.__module__ == __name__
    assert_same_enum(quick, standard)


def test_a_caller_without_a_module_makes_an_unpicklable_class_as_the_standard_one():
    def make():
        return eval("IntEnum('Nowhere', [('A', 1)])", {"IntEnum": enum.IntEnum})

    quick, standard = _both_installed(make)
    assert quick.__module__ == standard.__module__ == "<unknown>"
    assert _outcome(pickle.dumps, quick.A) == _outcome(pickle.dumps, standard.A)
    assert _outcome(pickle.dumps, quick.A)[1] is TypeError


def test_a_function_given_another_module_names_it_as_the_standard_one():
    """From 3.12 the standard library names the calling function's ``__module__`` (a
    function a library published under another name, as numpy's ``set_module`` does);
    3.11 names the module the function was defined in."""

    def make():
        return enum.IntEnum("Published", [("A", 1)])

    make.__module__ = "public.api"
    quick, standard = _both_installed(make)
    expected = "public.api" if hasattr(sys, "_getframemodulename") else __name__
    assert quick.__module__ == standard.__module__ == expected


def test_an_attribute_given_to_a_base_later_is_left_to_the_standard_library(monkeypatch):
    """A member named as an attribute of the base gets the standard library's redirect,
    also for an attribute added after afdesk.gui was imported."""
    monkeypatch.setattr(
        enum.Flag, "pretty", property(lambda self: f"pretty {self.name}"), raising=False
    )
    quick, standard = _both(enum.IntFlag, "Pretty", [("pretty", 1), ("B", 2)])
    assert_same_enum(quick, standard)
    assert quick.B.pretty == standard.B.pretty == "pretty B"


def test_uninstall_and_a_second_import_keep_the_standard_library(monkeypatch):
    import importlib

    standard = quick_enums._STANDARD
    again = importlib.reload(quick_enums)
    try:
        assert again._STANDARD is standard  # not the quick builder the first import put there
        again.uninstall()
        assert enum.EnumType.__dict__["_create_"] is standard
        monkeypatch.setattr(again, "_STANDARD", None)
        again.uninstall()  # nothing to go back to: nothing changes
        assert enum.EnumType.__dict__["_create_"] is standard
    finally:
        monkeypatch.undo()
        assert again.install()


def test_a_base_whose_empty_class_holds_the_unknown_is_made_the_standard_way(monkeypatch):
    """Where the standard library's class with no members holds a value the template does
    not know how to give a new class (a later Python's), the class is made the standard
    way and its members still added here."""
    monkeypatch.setitem(quick_enums._templates, (enum.IntFlag, enum.KEEP), None)
    before = quick_enums.built
    quick, standard = _both(
        enum.IntFlag, "Unknown", [("A", 1), ("B", 2), ("AB", 3)], boundary=enum.KEEP
    )
    assert quick_enums.built == before + 1
    assert_same_enum(quick, standard)
