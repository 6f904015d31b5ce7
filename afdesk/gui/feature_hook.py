"""Spare afdesk PySide6's ``__feature__`` import hook.

Once ``PySide6.QtCore`` is imported, every import statement goes through PySide6's hook
for ``from __feature__ import ...`` (snake_case, true_property): a Python-level call at
each statement, and the first time it sees a module it reads the module's whole source to
look for the word "PySide6", and notes the answer in ``__feature__.pyside_feature_dict``
(0: a module of PySide6's default features, -1: a module that never calls Qt). afdesk
selects no feature, so the app stops the hook (:func:`stop_feature_imports`): imports go
straight to what the hook hands them to. Where a PySide6 does not keep that beside its hook,
:func:`spare_afdesk_modules` notes every afdesk module beforehand with the answer its
import contracts give (Qt in ``afdesk.gui`` only), sparing the start reading the source of
the hundred-odd modules it imports after Qt. The model's dependencies, imported with the
first file after the first frame (msgspec, the standard library's top-level modules, and
``typing_extensions`` where msgspec uses it: :mod:`afdesk.msgspec_first`), never call Qt
and are noted so too, and so are the modules imported before Qt: none of them can have
selected a feature. PySide6's and shiboken's own are left to the hook. A PySide6 that
keeps no such table is left as it is (its hook then reads as before)."""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Iterator

import afdesk


def stop_feature_imports(where: object = None) -> bool:
    """Hand imports straight to what PySide6's feature hook hands them to (the import it
    replaced, kept as ``builtins.__orig_import__``: in PySide6 6.11 its own lazy import of
    Qt's types), when the hook is in place and keeps that; returns whether it did.

    The hook exists for ``from __feature__ import ...`` (snake_case, true_property), which
    afdesk never writes: every other import only goes through it, a Python-level call and
    a look at the importing module, about 3 microseconds an import statement (1,500 of them
    in the window's start, 17M instructions, and every later import in a function). What
    PySide6 reads of its table while running (which feature set a calling module selected)
    falls back, for a module the table does not name, to the set last selected: none, in a
    process where nothing selects one. With the hook stopped nothing is noted or read.
    ``where``: the namespace holding ``__import__`` (the ``builtins`` module; tests).
    """
    if where is None:
        import builtins as where
    original = getattr(where, "__orig_import__", None)
    hook = getattr(where, "__feature_import__", None)
    if original is None or hook is None or getattr(where, "__import__", None) is not hook:
        return False
    where.__import__ = original  # type: ignore[attr-defined]
    return True


def spare_afdesk_modules() -> int:
    """Note every afdesk module in PySide6's feature table (one it noted already keeps
    its entry); returns how many were noted."""
    feature = sys.modules.get("__feature__")
    table = getattr(feature, "pyside_feature_dict", None)
    if not isinstance(table, dict):
        return 0
    noted = 0
    for root in afdesk.__path__:
        for name in _module_names(root, "afdesk"):
            if name not in table:
                uses_qt = name == "afdesk.gui" or name.startswith("afdesk.gui.")
                table[name] = 0 if uses_qt else -1
                noted += 1
    for root in _package_folders("msgspec"):
        for name in _module_names(root, "msgspec"):
            if name not in table:
                table[name] = -1
                noted += 1
    for name in (*sys.stdlib_module_names, "typing_extensions"):
        if name not in table:
            table[name] = -1
            noted += 1
    for name in list(sys.modules):  # imported before Qt: none of them selects a feature
        if name not in table and not name.startswith(("PySide6", "shiboken", "__feature__")):
            table[name] = -1
            noted += 1
    return noted


def _package_folders(package: str) -> list[str]:
    """The folders of the installed top-level ``package``, found without importing it
    (none if it is not installed)."""
    spec = importlib.machinery.PathFinder.find_spec(package)
    if spec is None or spec.submodule_search_locations is None:
        return []
    return list(spec.submodule_search_locations)


def _module_names(folder: str, package: str) -> Iterator[str]:
    """The modules under ``folder`` (the package ``package``), its own name first. In the
    one-folder build the modules are in its archive and ``folder`` is not on the disk:
    they are listed through ``pkgutil``, which the build's importer answers."""
    yield package
    try:
        entries = list(os.scandir(folder))
    except OSError:
        yield from _archived_names(folder, package)
        return
    for entry in entries:
        name = entry.name
        if name.endswith(".py"):
            if name != "__init__.py":
                yield f"{package}.{name[:-3]}"
        elif name != "__pycache__" and name.isidentifier() and entry.is_dir():
            # (a folder's __pycache__, a file per module, was listed for nothing)
            yield from _module_names(entry.path, f"{package}.{name}")


def _archived_names(folder: str, package: str) -> Iterator[str]:
    """The modules of ``package`` under ``folder`` that an importer other than the file
    system's holds (none if no importer does)."""
    import pkgutil

    for info in pkgutil.iter_modules([folder]):
        name = f"{package}.{info.name}"
        yield name
        if info.ispkg:
            yield from _archived_names(os.path.join(folder, info.name), name)
