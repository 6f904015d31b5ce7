"""Every Op type, registered by defining it: the log, the journal and files decode any of them.

Subclassing :class:`~afdesk.encounter.op.Op` registers the class under its tag (its
class name), so nothing is listed by hand. An Op defined later (a mode, a plug-in, a test)
after files were already read is decoded too: the fields that hold "any Op" are typed
:data:`AnyOp`, which msgspec hands to :func:`decode_hook`, and the hook converts with the
union of what is registered *now*.

The registration itself (``register``, :data:`AnyOp`) lives beside ``Op`` in
:mod:`afdesk.encounter.op`, so that defining an Op needs nothing above it; this module
stands above every Op module: it loads them all before anything is decoded.

Why a hook and not a plain ``Union``: msgspec resolves a Struct's field types once, the first
time it is used, and never again; a union frozen then would refuse every Op registered after.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Union

import msgspec

from afdesk.encounter.op import _REGISTRY, AnyOp, Op, OpTagClash, _AnyOpMarker, register
from afdesk.encounter.state import Mode, _ModeMarker

_union_cache: tuple[tuple[type[Op], ...], Any] = ((), None)
_package_loaded = False


def _import_package_ops() -> None:
    """Import every module of afdesk's own Ops (:mod:`afdesk.encounter.ops`, the contest's,
    ``restore``, and the registered modes' Ops: :meth:`EncounterMode.load_ops`, the
    installed modes' from :mod:`afdesk.encounter.installed`), so that they are all
    registered before anything is decoded with every Op (whoever imported what so far).

    The modules are named here, not found on disk: the model reads no files (an import
    contract), and a test checks that this import names every module of the package."""
    _import_own_ops()
    from afdesk.encounter.modes import registered_modes

    for mode in registered_modes():  # each mode's Ops (EncounterMode.import_ops)
        mode.load_ops()


def _import_own_ops() -> None:
    """Import the modules of the model's own Ops (battle's, the contest's, ``Restore``)
    and the installed modes (their declarations, not their Ops)."""
    global _package_loaded
    if _package_loaded:
        return
    _package_loaded = True
    from afdesk.encounter import installed as _installed  # noqa: F401 - the modes
    from afdesk.encounter import restore as _restore  # noqa: F401 - registers Restore
    from afdesk.encounter.contest import ops as _contest_ops  # noqa: F401 - registers
    from afdesk.encounter.ops import own_ops

    own_ops()  # the ops package's modules, as the package names them


def ops_tagged(tags: Iterable[str]) -> dict[str, type[Op]] | None:
    """The registered Op of each tag, or None when a tag names none. Loads only what the
    tags need: the model's own Ops and, of the modes, those whose declared tags
    (:attr:`~afdesk.encounter.modes.EncounterMode.op_tags`) hold one of them; a tag
    found nowhere else loads every Op first (as :func:`registered_ops`). The loader's
    narrow decoder reads a file's log with these (a battle's file loads no mode's Ops)."""
    wanted = set(tags)
    _import_own_ops()
    from afdesk.encounter.modes import registered_modes

    for mode in registered_modes():
        if wanted & mode.op_tags:
            mode.load_ops()
    if "Restore" in wanted:
        from afdesk.encounter.restore import restore_type

        restore_type()  # the inverse of the modes registered now
    if not wanted <= _REGISTRY.keys():
        registered_ops()
    try:
        return {tag: _REGISTRY[tag] for tag in wanted}
    except KeyError:
        return None


def registered_ops() -> tuple[type[Op], ...]:
    """Every registered Op class, by tag: an order that does not depend on which module
    happened to be imported first (the published schema lists them so)."""
    _import_package_ops()
    from afdesk.encounter.restore import restore_type

    restore_type()  # "Restore" is the inverse of the modes registered now
    return tuple(_REGISTRY[tag] for tag in sorted(_REGISTRY))


def op_union() -> Any:
    """The tagged union of every registered Op, rebuilt when the registry has changed (an
    Op registered, or the inverse of another set of modes: ``restore_type``)."""
    global _union_cache
    ops = registered_ops()
    known, union = _union_cache
    if known != ops or union is None:
        union = Union[ops]  # noqa: UP007 - a runtime union of the registered classes
        _union_cache = (ops, union)
    return union


def decode_hook(kind: type, obj: Any) -> Any:
    """msgspec's ``dec_hook``: an :data:`AnyOp` field becomes the registered Op its tag names,
    and a mode's field (``afdesk.encounter.state.AnyMode``) the declared mode it holds.

    Pass it to every decoder and ``msgspec.convert`` of a type that holds Ops.
    """
    if kind is _AnyOpMarker:
        try:
            return msgspec.convert(obj, op_union(), dec_hook=decode_hook)
        except msgspec.ValidationError as exc:
            # Keep msgspec's words and its place inside the Op; the decoder adds where the
            # Op is (see nested_message).
            raise ValueError(str(exc)) from None
    if kind is _ModeMarker:  # a mode declared now (afdesk.encounter.state.Mode)
        if not isinstance(obj, str):
            raise ValueError(f"Expected `str`, got `{type(obj).__name__}`")
        return Mode(obj)  # ValueError for an unknown one, as msgspec says it for an enum
    raise NotImplementedError(f"afdesk does not decode {kind!r}")


_NESTED = r"^(?P<msg>.*?) - at `\$(?P<inner>[^`]*)` - at `\$(?P<outer>[^`]*)`$"
"""Compiled on first use, with re.S (only a file that fails to load needs it)."""


def nested_message(message: str) -> str:
    """A validation message from inside an Op as msgspec would say it for a plain field:
    ``Invalid value 'X' - at `$.op` - at `$.log[2].op``` becomes
    ``Invalid value 'X' - at `$.log[2].op.op```."""
    while True:
        m = re.match(_NESTED, message, re.S)
        if m is None:
            return message
        message = f"{m['msg']} - at `${m['outer']}{m['inner']}`"


__all__ = [
    "AnyOp",
    "OpTagClash",
    "decode_hook",
    "nested_message",
    "op_union",
    "ops_tagged",
    "register",
    "registered_ops",
]
