"""Qt's enums built at a third of the standard library's cost, the same classes.

PySide6 makes every Qt enum a Python :mod:`enum` class, made the first time its Qt class
is used: touching ``Qt`` alone makes 93 enums of 1,195 members (22 ms, the largest single
cost of the window's start after Qt's own libraries), ``QStyle`` another 700 members, and
the window's start 285 enums in all, 50 ms against 12 ms for a bare PySide6 window. Each
is made through the functional API (``IntEnum("Key", [(name, value), ...],
boundary=KEEP)``), whose ``EnumType._create_`` runs every member through the class
statement's machinery: the namespace's checks for each name, a ``_proto_member`` whose
``__set_name__`` looks for descriptors along the bases, and for a flag the masks
recomputed at each member: 9-15 microseconds a member.

:func:`install` replaces ``_create_`` with :func:`_create_`, which makes the class with
no members as the standard one makes it (from what the standard one put in such a class
of the same base, once: every attribute that is not a member is the standard library's
own, for the running Python), then adds the members as the standard one would: each made
with the class's ``_new_member_``, its ``_value_``, ``_name_``, ``__objclass__`` and
``_sort_order_`` set; an alias (a value seen before) bound to the first member of that
value; a flag's multi-bit value kept out of ``_member_names_``; the masks, ``_all_bits_``
and a flag's iteration order set once at the end. It does so only for what PySide6 hands
it: a list of ``(name, int)`` pairs to ``Enum``, ``IntEnum``, ``Flag`` or ``IntFlag``,
with no mix-in type, names that are neither private, sunder nor dunder, not repeated and
not an attribute of the base (``name``, ``value``, ``real``: the standard library puts a
redirect there), and no negative flag. Anything else goes to the standard ``_create_``
unchanged, its errors included. tests/gui/test_quick_enums.py builds every enum of QtCore,
QtGui and QtWidgets both ways and compares them, attribute by attribute and by behaviour
(lookup by value, unknown values, flag operators, iteration, repr, pickling), on each
Python version afdesk supports.

Installed when ``afdesk.gui`` is imported, before any Qt module is (``afdesk/gui/__init__``).
"""

from __future__ import annotations

import contextlib
import enum
import sys
import types

_CURRENT = enum.EnumType.__dict__.get("_create_")
_STANDARD = getattr(_CURRENT, "standard", _CURRENT)  # this module imported again: the same
_BASES = (enum.Enum, enum.IntEnum, enum.Flag, enum.IntFlag)
# The dicts along each base's MRO, live (an attribute added to a base later counts): a
# member of a name found there gets a redirect from the standard library.
_BASE_DICTS = {base: tuple(vars(klass) for klass in base.__mro__) for base in _BASES}
_REFUSED = frozenset({"mro", ""})
_FLAGS = frozenset({enum.Flag, enum.IntFlag})
_frame_module = getattr(sys, "_getframemodulename", None)  # what 3.12's enum asks first
_set = type.__setattr__
TESTED = {(3, 11), (3, 12), (3, 13)}
"""The Pythons whose enum module the tests compare this one with (README, Set up): on
another, :func:`install` leaves the standard library alone."""

built = 0  # classes built here (the rest went to the standard _create_): tests and figures


def install() -> bool:
    """Build Enum, IntEnum, Flag and IntFlag classes of plain ``(name, int)`` pairs here,
    on a Python :data:`TESTED`; returns whether it did."""
    if (
        sys.version_info[:2] not in TESTED
        or _STANDARD is None
        or not hasattr(enum, "_make_class_unpicklable")
    ):
        return False
    enum.EnumType._create_ = _create_  # type: ignore[method-assign]
    return True


def uninstall() -> None:
    """Back to the standard library's ``_create_`` (where it had one)."""
    if _STANDARD is not None:
        enum.EnumType._create_ = _STANDARD  # type: ignore[method-assign]


def standard_create(cls, class_name, names, **options):
    """The standard library's ``_create_`` (the comparison in the tests)."""
    return _STANDARD(cls, class_name, names, **options)


def _create_(
    cls, class_name, names, *, module=None, qualname=None, type=None, start=1, boundary=None
):
    """``EnumType._create_``: the functional API's class, built here when ``names`` is a
    list of plain pairs (:func:`_add_members`), else by the standard one."""
    if module is None:  # as the standard one: the module of the functional call's caller
        if _frame_module is not None:  # Python 3.12 on
            module = _frame_module(2)
        else:
            with contextlib.suppress(AttributeError, ValueError, KeyError):
                module = sys._getframe(2).f_globals["__name__"]
        if module is None:  # no caller's module: the class cannot be pickled
            made = _STANDARD(
                cls,
                class_name,
                names,
                module="<unknown>",
                qualname=qualname,
                type=type,
                start=start,
                boundary=boundary,
            )
            enum._make_class_unpicklable(made)  # type: ignore[attr-defined]
            return made
    if (
        type is None
        and cls in _BASE_DICTS
        and names.__class__ is list
        and (boundary is None or boundary.__class__ is enum.FlagBoundary)
    ):
        made = _skeleton(cls, class_name, module, qualname, boundary)
        taken = _REFUSED.union(*_BASE_DICTS[cls])  # read now: 6 us, less than a check a name
        if _add_members(made, names, cls in _FLAGS, taken):
            global built
            built += 1
            return made
    # Anything else, or a pair that is not plain (the class half made is dropped)
    return _STANDARD(
        cls,
        class_name,
        names,
        module=module,
        qualname=qualname,
        type=type,
        start=start,
        boundary=boundary,
    )


_create_.standard = _STANDARD  # type: ignore[attr-defined]


_SHARED = (
    bool,
    int,
    str,
    type(None),
    type,
    enum.FlagBoundary,
    types.FunctionType,
    types.BuiltinFunctionType,
    types.WrapperDescriptorType,
    types.MethodDescriptorType,
)
_templates: dict[tuple, tuple[list[tuple[str, object]], object] | None] = {}


def _template(cls, boundary) -> tuple[list[tuple[str, object]], object] | None:
    """What the standard ``_create_`` puts in the dict of a class of ``cls`` with no
    members (``__module__`` and ``__new__`` aside), made once per base and boundary; None
    when it holds anything but what :func:`_skeleton` knows how to give a new class."""
    key = (cls, boundary)
    if key not in _templates:
        sample = _STANDARD(cls, "Template", (), module=__name__, boundary=boundary)
        items = [(k, v) for k, v in vars(sample).items() if k not in ("__module__", "__new__")]
        fits = all(
            isinstance(v, _SHARED) or (type(v) in (list, dict) and not v) or type(v) is staticmethod
            for _, v in items
        )
        new = vars(sample).get("__new__")
        _templates[key] = (items, new) if fits and type(new) is types.FunctionType else None
    return _templates[key]


def _skeleton(cls, class_name, module, qualname, boundary):
    """A class of ``cls`` with no members, the standard ``_create_``'s: made from its
    :func:`_template` (a quarter of the cost: the standard one works out the same base's
    data type, ``__new__``, repr and flag methods again for every class), each list and
    dict a new one, each static method wrapped anew, ``__new__`` set after the class is
    made as the standard one sets it."""
    template = _template(cls, boundary)
    if template is None:
        return _STANDARD(cls, class_name, (), module=module, qualname=qualname, boundary=boundary)
    items, new = template
    namespace = {}
    for key, value in items:
        kind = type(value)
        if kind is list or kind is dict:
            value = kind()
        elif kind is staticmethod:
            value = staticmethod(value.__func__)
        namespace[key] = value
    namespace["__module__"] = module
    if qualname is not None:
        namespace["__qualname__"] = qualname
    made = type.__new__(enum.EnumType, class_name, (cls,), namespace)
    _set(made, "__new__", new)
    return made


def _add_members(made, names, flag: bool, taken) -> bool:
    """The members of ``names`` added to ``made`` (a class with none yet), as the standard
    ``_proto_member.__set_name__`` adds them one by one; False, at the first pair that is
    not plain, for the standard library to build the class: a pair that is not a ``(str,
    int)`` tuple, a name private, sunder or dunder, repeated, or ``taken`` (refused, or
    found in the dicts of the base's MRO, where the standard library puts a redirect), a
    negative flag."""
    new = made._new_member_
    use_args = made._use_args_
    member_names = made._member_names_
    member_map = made._member_map_
    by_value = made._value2member_map_
    mask = singles = 0
    for item in names:
        if item.__class__ is not tuple or len(item) != 2:
            return False
        name, value = item
        if (
            name.__class__ is not str
            or value.__class__ is not int
            or name[:1] == "_"
            or name in taken
            or name in member_map
            or (flag and value < 0)
        ):
            return False
        member = new(made, value) if use_args else new(made)
        member._value_ = value
        member._name_ = name
        member.__objclass__ = made
        member._sort_order_ = len(member_names)
        single = False
        if flag:
            mask |= value
            single = value != 0 and value & (value - 1) == 0  # as enum._is_single_bit
            if single:
                singles |= value
        canonical = by_value.get(value)
        if canonical is None:
            canonical = member
            by_value[value] = member
            if single or not flag:
                member_names.append(name)
        _set(made, name, canonical)
        member_map[name] = canonical
    if flag and names:
        _set(made, "_flag_mask_", mask)
        _set(made, "_singles_mask_", singles)
        _set(made, "_all_bits_", 2 ** mask.bit_length() - 1)
        values = [member_map[name]._value_ for name in member_names]
        if values != sorted(values):
            _set(made, "_iter_member_", made._iter_member_by_def_)
    return True
