"""PySide6's runtime, shiboken6, imported at half its cost.

The first PySide6 import imports ``shiboken6``, and that runs shiboken's signature support
(what gives Qt's functions their ``__signature__`` and a wrong call its list of the
signatures it takes). Two parts of it were most of the bare window's start (measured in
instructions, 420M of a bare PySide6 window's 650M):

- its 13 modules are kept as source inside Shiboken's library and compiled at every start
  (``signature_bootstrap.EmbeddableZipImporter.exec_module``), about a quarter of it;
- three large regular expressions (the argument-list parser's and the stub generator's
  nested braces) are compiled as the modules are imported, another quarter, though only a
  wrong call's message, a signature's text or a ``.pyi`` stub ever uses them, and only
  through their methods.

:func:`install` makes the first import of ``shiboken6`` one with the modules' code read
from a cache file (written at the first start, as Python's own ``__pycache__`` is, and
beside it: ``afdesk/gui/__pycache__``, or the user's cache folder where the installation
cannot be written; a module's entry is used only for the same file name, the same source
bytes, the same inherited flags and optimisation level, on the same Python's bytecode)
and the regular expressions those modules compile during the import (at the
:data:`LAZY_SITES`, in the modules whose use of them was read: :data:`KNOWN_SOURCES`)
compiled when first used. The cache is afdesk's, not Python's: written under ``-B`` too.
Nothing else changes: both stand-ins are in place only for that import and only for
shiboken's support modules; every other call goes to the standard function, as it was
called; shiboken6 keeps its own loader.
"""

from __future__ import annotations

import builtins
import marshal
import os
import re
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from types import CodeType
from typing import Any

# Where the stand-ins were compared against the standard import (tests/gui/test_quick_shiboken.py).
TESTED = ((3, 11), (3, 12), (3, 13))

STALE_S = 60.0  # a temporary cache file this old is a killed start's, not a running one's

SUPPORT = "shibokensupport"  # shiboken's support package, and its loader's module:
BOOTSTRAP = "signature_bootstrap"

# The __future__ flags a compile() call inherits from its caller (CPython's PyCF_MASK).
_FUTURE_FLAGS = 0
for _name in __import__("__future__").all_feature_names:
    _FUTURE_FLAGS |= getattr(__import__("__future__"), _name).compiler_flag


def cache_file(folder: Path) -> Path:
    """The cache for this Python's bytecode (``cpython-311``, ...), in ``folder``."""
    return folder / f"shiboken-support.{sys.implementation.cache_tag}.marshal"


def install(cache: Callable[[], Path | Sequence[Path]]) -> bool:
    """From now on, the first import of ``shiboken6`` (whoever asks for it: PySide6's
    first import does) is the quick one, with the cache file ``cache()`` names (or the
    first of those it names that can be read, then written). Nothing is imported here.
    False, and nothing done, when shiboken6 is imported already, the quick import is
    installed already, or on a Python these stand-ins were not compared on."""
    if (
        "shiboken6" in sys.modules
        or sys.version_info[:2] not in TESTED
        or any(isinstance(finder, _Finder) for finder in sys.meta_path)
    ):
        return False
    sys.meta_path.insert(0, _Finder(cache))
    return True


def uninstall() -> None:
    """The standard import of shiboken6 again, if it has not happened yet (tests)."""
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _Finder)]


class _Finder:
    """First on ``sys.meta_path`` until ``shiboken6`` is imported: finds it where the
    other finders do and hands its loader to :class:`_QuickLoader`, which takes the finder
    away when it runs (a look-up that imports nothing leaves it in place)."""

    def __init__(self, cache: Callable[[], Path | Sequence[Path]]) -> None:
        self._cache = cache
        self._looking = False

    def find_spec(self, name: str, path: object = None, target: object = None) -> Any:
        if name != "shiboken6" or self._looking:
            return None
        from importlib.util import find_spec

        self._looking = True  # the look-up below asks every finder, this one too
        try:
            spec = find_spec(name)
        finally:
            self._looking = False
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _QuickLoader(spec.loader, self._cache)
        return spec


class _QuickLoader:
    """Runs the real loader's ``exec_module`` of ``shiboken6`` (where shiboken's support
    modules are imported) with the two stand-ins, and gives the module back its real
    loader first: what shiboken6 holds afterwards is what the standard import leaves.
    Anything else asked of it (``get_filename``, ``get_resource_reader``, ...) is the real
    loader's."""

    def __init__(self, real: Any, cache: Callable[[], Path | Sequence[Path]]) -> None:
        self._real = real
        self._cache = cache

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)

    def create_module(self, spec: Any) -> Any:
        return self._real.create_module(spec)

    def exec_module(self, module: Any) -> None:
        uninstall()  # once: shiboken6 is being imported
        module.__loader__ = self._real
        if module.__spec__ is not None:
            module.__spec__.loader = self._real
        try:
            found = self._cache()
        except Exception:  # no cache folder to be found (no home): the standard import
            self._real.exec_module(module)
            return
        places = [found] if isinstance(found, Path) else list(found)
        kept: dict[tuple[str, int, int], tuple[bytes, Any]] = {}
        for place in places:
            kept = read_cache(place)
            if kept:
                break
        made: dict[tuple[str, int, int], tuple[bytes, Any]] = {}
        sources: dict[str, bytes] = {}
        with cached_compile(kept, made, sources), lazy_patterns(sources):
            self._real.exec_module(module)
        if made:
            for place in places:  # the first that can be written
                if write_cache(place, {**kept, **made}):
                    break


def _magic() -> bytes:
    from importlib.util import MAGIC_NUMBER

    return MAGIC_NUMBER


def read_cache(path: Path) -> dict[tuple[str, int, int], tuple[bytes, Any]]:
    """What ``path`` holds for this Python, or nothing: a missing, unreadable, damaged or
    foreign file is a cache to write again, never an error."""
    try:
        magic, entries = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if magic != _magic() or not isinstance(entries, dict):
        return {}
    return {key: entry for key, entry in entries.items() if _sound(key, entry)}


def _sound(key: object, entry: object) -> bool:
    """An entry as :func:`cached_compile` makes them: ``(file name, flags, optimisation
    level)`` to ``(source bytes, code)``; anything else in a file that still decodes (one
    damaged, or written by another version of this module) is left out."""
    return (
        type(key) is tuple
        and len(key) == 3
        and type(key[0]) is str
        and type(key[1]) is int
        and type(key[2]) is int
        and type(entry) is tuple
        and len(entry) == 2
        and type(entry[0]) is bytes
        and type(entry[1]) is CodeType
    )


def write_cache(path: Path, entries: dict[tuple[str, int, int], tuple[bytes, Any]]) -> bool:
    """Write ``entries`` to ``path`` whole or not at all (a temporary file renamed over
    it); whether it was written. A cache that cannot be written (a read-only or full disk)
    is left out: the next start compiles again, as this one did."""
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_bytes(marshal.dumps((_magic(), entries)))
        os.replace(temporary, path)
    except (OSError, ValueError):
        with suppress(OSError):
            temporary.unlink(missing_ok=True)
        return False
    for left in path.parent.glob(f"{path.name}.*.tmp"):  # of a start killed while writing
        with suppress(OSError):
            if time.time() - left.stat().st_mtime > STALE_S:
                left.unlink()
    return True


def _is_support(filename: object) -> bool:
    return isinstance(filename, str) and (
        filename.startswith(SUPPORT + "/") or filename == BOOTSTRAP + ".py"
    )


@contextmanager
def cached_compile(
    kept: dict[tuple[str, int, int], tuple[bytes, Any]],
    made: dict[tuple[str, int, int], tuple[bytes, Any]],
    sources: dict[str, bytes] | None = None,
) -> Iterator[None]:
    """While in the block, ``compile()`` called by shiboken's loader on a support module's
    source returns the code kept for that source (what is compiled instead goes into
    ``made``; each support module's source into ``sources``, by file name); any other
    call gets the standard ``compile`` with the flags its caller would have passed on."""
    standard = builtins.compile

    def compile_(source, filename, mode, flags=0, dont_inherit=False, optimize=-1, **more):
        caller = sys._getframe(1)
        if not dont_inherit:  # what the standard compile inherits: the caller's futures
            flags |= caller.f_code.co_flags & _FUTURE_FLAGS
        if (
            more
            or mode != "exec"
            or optimize != -1
            or type(source) is not bytes
            or not _is_support(filename)
            or caller.f_globals.get("__name__") != BOOTSTRAP
        ):
            return standard(source, filename, mode, flags, True, optimize, **more)
        if sources is not None:
            sources[filename] = source
        key = (filename, flags, sys.flags.optimize)
        entry = kept.get(key)
        if entry is not None and entry[0] == source:
            return entry[1]
        code = standard(source, filename, mode, flags, True)
        made[key] = (source, code)
        return code

    builtins.compile = compile_
    try:
        yield
    finally:
        builtins.compile = standard


class LazyPattern:
    """A regular expression compiled the first time it is used. Its methods are looked up
    through :meth:`__getattr__` as callables that compile on their first call, so a
    method kept aside at import (``finditer = pattern.finditer``) costs nothing until
    it is called; any other attribute compiles the pattern and reads it there."""

    METHODS = frozenset(
        ("match", "fullmatch", "search", "finditer", "findall", "split", "sub", "subn", "scanner")
    )

    def __init__(self, compile_, pattern: Any, flags: Any) -> None:
        self._compile = compile_
        self._source = (pattern, flags)
        self._compiled: re.Pattern | None = None

    def compiled(self) -> re.Pattern:
        if self._compiled is None:
            self._compiled = self._compile(*self._source)
        return self._compiled

    def __getattr__(self, name: str) -> Any:
        if name in LazyPattern.METHODS:
            return _Deferred(self, name)
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    def __repr__(self) -> str:
        return repr(self.compiled())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyPattern):
            other = other.compiled()
        return self.compiled() == other

    def __hash__(self) -> int:
        return hash(self.compiled())


class _Deferred:
    """``pattern.<method>``, found when called. An object, not a function: kept as a class
    attribute (``split = pattern.split``) it is not bound to the instance, as the
    pattern's own method is not."""

    __slots__ = ("_name", "_pattern")

    def __init__(self, pattern: LazyPattern, name: str) -> None:
        self._pattern = pattern
        self._name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return getattr(self._pattern.compiled(), self._name)(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<deferred {self._name} of {self._pattern._source[0]!r}>"


# Where shiboken's support modules compile a pattern as they are imported (the module, and
# the function or class body), each used only through its methods (``finditer``,
# ``search``, ``split``): the argument-list parser's, and the stub generator's two.
LAZY_SITES = {
    (SUPPORT + ".signature.parser", "__init__"): SUPPORT + "/signature/parser.py",
    (SUPPORT + ".signature.lib.pyi_generator", "Formatter"): (
        SUPPORT + "/signature/lib/pyi_generator.py"
    ),
}

# The modules (CRC-32 of their source, by file name) whose use of those patterns was read
# and compared (tests/gui/test_quick_shiboken.py): PySide6 6.11.3's. A module with other
# source (another PySide6) gets its patterns compiled at once, as the standard import does.
KNOWN_SOURCES = {
    SUPPORT + "/signature/parser.py": frozenset({0x105CFC9F}),
    SUPPORT + "/signature/lib/pyi_generator.py": frozenset({0x66004E69}),
}


@contextmanager
def lazy_patterns(sources: dict[str, bytes]) -> Iterator[None]:
    """While in the block, ``re.compile`` called at one of the :data:`LAZY_SITES`, in a
    module whose source (in ``sources``, by file name: :func:`cached_compile` notes them)
    is one of the :data:`KNOWN_SOURCES`, returns a :class:`LazyPattern`; any other call
    is the standard one."""
    standard = re.compile
    import zlib

    def compile_(pattern, flags=0):
        caller = sys._getframe(1)
        filename = LAZY_SITES.get((caller.f_globals.get("__name__"), caller.f_code.co_name))
        if filename is not None:
            source = sources.get(filename)
            if source is not None and zlib.crc32(source) in KNOWN_SOURCES[filename]:
                return LazyPattern(standard, pattern, flags)
        return standard(pattern, flags)

    re.compile = compile_
    try:
        yield
    finally:
        re.compile = standard
