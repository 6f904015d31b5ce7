"""afdesk.gui.quick_enums: every Qt enum PySide6 makes comes out of the quick path the
same class as out of the standard library's, on the Python running the tests."""

from __future__ import annotations

import enum
import operator
import pickle
import subprocess
import sys
import textwrap
import types

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from afdesk.gui import quick_enums


def _enums_of(module) -> list[type[enum.Enum]]:
    """Every enum class of a PySide6 module: its own and each of its classes'."""
    found: dict[int, type[enum.Enum]] = {}
    for name in dir(module):
        thing = getattr(module, name)
        if isinstance(thing, enum.EnumType):
            found[id(thing)] = thing
        elif isinstance(thing, type):
            for inner in vars(thing).values():
                if isinstance(inner, enum.EnumType):
                    found[id(inner)] = inner
    return list(found.values())


QT_ENUMS = _enums_of(QtCore) + _enums_of(QtGui) + _enums_of(QtWidgets)


def _pairs(made) -> list[tuple[str, int]]:
    """The ``(name, value)`` pairs PySide6 handed the functional API, aliases included
    (``_member_map_`` keeps them in the order given)."""
    return [(name, member._value_) for name, member in made._member_map_.items()]


def _base(made) -> type[enum.Enum]:
    return next(base for base in made.__mro__[1:] if base in quick_enums._BASES)


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
        names = list(standard._member_map_)[:8]
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


def test_pyside_enums_are_plain():
    """Nearly every enum PySide6 makes takes the quick path (the test would pass
    vacuously otherwise)."""
    before = quick_enums.built
    for made in QT_ENUMS:
        quick_enums._create_(_base(made), made.__name__, _pairs(made), module="tests.quick")
    assert len(QT_ENUMS) > 400
    assert quick_enums.built - before >= 0.95 * len(QT_ENUMS)


@pytest.mark.parametrize("chunk", range(8))
def test_every_qt_enum_is_the_same_class_both_ways(chunk):
    for made in QT_ENUMS[chunk::8]:
        quick, standard = _both(
            _base(made),
            made.__name__,
            _pairs(made),
            qualname=made.__qualname__,
            boundary=enum.KEEP,
        )
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
