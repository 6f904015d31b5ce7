"""afdesk.gui.quick_shiboken: shiboken6 imported with its support modules' code from a
cache and their regular expressions compiled when first used, and nothing else changed.

The import itself runs in fresh processes (this one imported shiboken6 long ago); the two
stand-ins are also tried here, directly, with callers made up for them."""

from __future__ import annotations

import builtins
import json
import marshal
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from afdesk.gui import quick_shiboken
from afdesk.gui.quick_shiboken import LazyPattern, cached_compile, lazy_patterns

# Run in a fresh process: import shiboken6 as afdesk.gui does (QUICK) or as plain PySide6
# does (PLAIN), counting the support modules the loader compiled, then print what the
# support modules made of Qt's wrong calls (their messages are built from the signatures,
# through the argument-list parser's regular expression) and which modules came in.
SCRIPT = """
import builtins, json, marshal, os, sys, types
compiled = []  # support modules compiled from source (the quick import's cache missed)
executed = {}  # the code each support module ran, as the loader handed it to exec()
standard_compile, standard_exec = builtins.compile, builtins.exec

def counting(source, filename, *args, **kwargs):
    # installed in the quick runs only, where it is reached through quick_shiboken's own
    # compile, which passes every flag itself: the plain run's compile is left untouched
    if isinstance(filename, str) and filename.startswith("shibokensupport/"):
        compiled.append(filename)
    return standard_compile(source, filename, *args, **kwargs)

def recording(code, *args, **kwargs):
    if isinstance(code, types.CodeType) and code.co_filename.startswith("shibokensupport/"):
        executed[code.co_filename] = code
    return standard_exec(code, *args, **kwargs)

builtins.exec = recording
import re
standard_re = re.compile
if sys.argv[1] in ("quick", "untested"):
    import importlib.util
    from pathlib import Path
    # the module alone: importing the afdesk.gui package would install it first
    spec = importlib.util.spec_from_file_location("quick_shiboken", MODULE)
    quick_shiboken = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(quick_shiboken)
    if sys.argv[1] == "untested":
        quick_shiboken.TESTED = ()
    if sys.argv[1] == "quick" and sys.argv[2] != "no-folder":
        builtins.compile = counting  # no-folder: the loader's own compile, untouched

    def cache():
        if sys.argv[2] == "no-folder":
            raise RuntimeError("no home to find a cache folder in")
        if os.pathsep in sys.argv[2]:  # places in order: the first that can be used
            return [Path(p) for p in sys.argv[2].split(os.pathsep)]
        return Path(sys.argv[2])

    installed = quick_shiboken.install(cache)
    assert installed == (sys.argv[1] == "quick")
    assert quick_shiboken.install(lambda: Path("elsewhere")) is False  # once is enough
    assert "shiboken6" not in sys.modules  # installed, nothing imported yet
from PySide6 import QtCore  # imports shiboken6 first, as the app's first Qt import does
import shiboken6
parser = sys.modules["shibokensupport.signature.parser"]
stubs = sys.modules["shibokensupport.signature.lib.pyi_generator"]
back = {
    "builtins_compile": builtins.compile in (counting, standard_compile),
    "re_compile": re.compile is standard_re,
    "loader": type(shiboken6.__loader__).__name__,
    "spec_loader": type(shiboken6.__spec__.loader).__name__,
    "finders": [type(f).__name__ for f in sys.meta_path],
    "version": shiboken6.__version__,
    "patterns": [
        type(parser.arglistParser._finditer).__name__,
        type(stubs.Formatter.brace_searcher).__name__,
        type(stubs.Formatter.opt_uni_searcher).__name__,
    ],
}
builtins.compile, builtins.exec = standard_compile, standard_exec
if os.environ.get("CODE_OUT"):
    with open(os.environ["CODE_OUT"], "wb") as out:
        out.write(marshal.dumps(executed))
support = sorted(m for m in sys.modules if m.startswith("shibokensupport"))
from PySide6 import QtWidgets
app = QtWidgets.QApplication([])
widget = QtWidgets.QWidget()
messages = []
for call in (
    lambda: widget.resize("x"),
    lambda: widget.setGeometry(1, 2),
    lambda: QtCore.QRect("a", [1]),
    lambda: QtCore.QTimer.singleShot("soon", None),
):
    try:
        call()
    except TypeError as error:
        messages.append(str(error))
print(json.dumps({
    "compiled": compiled, "executed": list(executed), "support": support,
    "messages": messages, **back,
}))
"""

COMPARED = "6.11.3"  # the PySide6 whose support modules' use of the patterns was read


def run(*args: str, env: dict[str, str] | None = None) -> dict:
    script = f"MODULE = {quick_shiboken.__file__!r}\n{SCRIPT}"
    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **(env or {})},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def plain() -> dict:
    return run("plain")


def test_the_first_start_compiles_and_keeps_the_support_modules_the_next_compiles_none(
    tmp_path, plain
):
    cache = quick_shiboken.cache_file(tmp_path / "cache")
    first = run("quick", str(cache))
    assert len(plain["executed"]) >= 10
    assert first["compiled"] == first["executed"] == plain["executed"]
    assert cache.is_file()
    second = run("quick", str(cache))
    assert second["compiled"] == []  # every module's code came from the cache
    assert second["executed"] == plain["executed"]
    for made in (first, second):
        assert made["support"] == plain["support"]
        assert made["messages"] == plain["messages"]  # the lazy parser: the same lists
        assert made["builtins_compile"] and made["re_compile"]  # the standard ones back
        assert made["loader"] == made["spec_loader"] == plain["loader"]  # its own loader
        assert made["finders"] == plain["finders"]  # the quick import stepped aside
        lazy = made["version"] == COMPARED  # another PySide6: compiled at once, as usual
        assert made["patterns"] == (
            ["_Deferred", "LazyPattern", "LazyPattern"] if lazy else plain["patterns"]
        )
    assert plain["patterns"] == ["builtin_method", "Pattern", "Pattern"]


def test_wrong_calls_name_their_supported_signatures_as_before(plain, tmp_path):
    quick = run("quick", str(quick_shiboken.cache_file(tmp_path)))
    assert len(plain["messages"]) == 4
    assert "Supported signatures:" in plain["messages"][0]
    assert "resize(w: int, h: int, /)" in plain["messages"][0]
    assert quick["messages"] == plain["messages"]


def test_the_cached_code_is_the_code_the_loader_compiles(tmp_path):
    """The code each support module runs, first start and from the cache, is the code the
    standard loader compiles (recorded in a process whose compile is left alone, as the
    loader hands it to exec): equal code objects, flags (signature_bootstrap's futures,
    which the loader's compile inherits) and file names included."""
    cache = quick_shiboken.cache_file(tmp_path)
    plain_out, first_out, second_out = (tmp_path / n for n in ("plain", "first", "second"))
    run("plain", env={"CODE_OUT": str(plain_out)})
    run("quick", str(cache), env={"CODE_OUT": str(first_out)})
    second = run("quick", str(cache), env={"CODE_OUT": str(second_out)})
    assert second["compiled"] == []
    standard = marshal.loads(plain_out.read_bytes())
    assert len(standard) >= 10
    for out in (first_out, second_out):
        ran = marshal.loads(out.read_bytes())
        assert set(ran) == set(standard)
        for filename, code in standard.items():
            assert ran[filename] == code, filename
            assert ran[filename].co_flags == code.co_flags
            assert ran[filename].co_filename == code.co_filename
    magic, entries = marshal.loads(cache.read_bytes())
    from importlib.util import MAGIC_NUMBER

    assert magic == MAGIC_NUMBER
    assert {key[0]: entry[1] for key, entry in entries.items()} == standard


@pytest.mark.parametrize(
    "damage",
    [
        b"",
        b"not marshal at all",
        marshal.dumps(("magic", {})),
        marshal.dumps([1, 2]),
        # entries that decode but are not what the cache holds (the review's find: an
        # empty entry stopped every start with shiboken's "Problem importing")
        "entries: ()",
        "entries: 5",
        "entries: (b'', 5)",
        "entries: key",
    ],
    ids=[
        "empty",
        "garbage",
        "another-python",
        "not-a-pair",
        "empty-entry",
        "number-entry",
        "no-code",
        "bad-key",
    ],
)
def test_a_damaged_or_foreign_cache_is_written_again(tmp_path, plain, damage):
    from importlib.util import MAGIC_NUMBER

    cache = quick_shiboken.cache_file(tmp_path)
    if isinstance(damage, str):
        name = "shibokensupport/__init__.py"
        entries = {
            "entries: ()": {(name, 0x1000000, 0): ()},
            "entries: 5": {(name, 0x1000000, 0): 5},
            "entries: (b'', 5)": {(name, 0x1000000, 0): (b"", 5)},
            "entries: key": {name: (b"", compile("", name, "exec"))},
        }[damage]
        damage = marshal.dumps((MAGIC_NUMBER, entries))
    cache.write_bytes(damage)
    made = run("quick", str(cache))
    assert made["compiled"] == plain["executed"]
    assert made["messages"] == plain["messages"]
    assert run("quick", str(cache))["compiled"] == []


def test_a_cache_that_cannot_be_written_costs_only_the_time(tmp_path, plain):
    blocked = tmp_path / "file"
    blocked.write_text("a file where the cache folder would be")
    made = run("quick", str(quick_shiboken.cache_file(blocked / "cache")))
    assert made["compiled"] == plain["executed"]
    assert made["messages"] == plain["messages"]
    assert blocked.read_text() == "a file where the cache folder would be"
    assert not list(tmp_path.glob("**/*.tmp"))


def test_afdesk_gui_makes_the_first_qt_import_the_quick_one_kept_beside_its_own_code(
    tmp_path, monkeypatch
):
    """afdesk.gui keeps the cache in its own ``__pycache__`` (this checkout's can be
    written), and nothing in the data folder; the user's cache folder comes second."""
    import afdesk.gui

    script = (
        "import afdesk.gui, sys; print('shiboken6' in sys.modules); "
        "import PySide6.QtCore; print('shiboken6' in sys.modules)"
    )
    env = {**os.environ, "AFDESK_DATA_DIR": str(tmp_path), "QT_QPA_PLATFORM": "offscreen"}
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["False", "True"]  # nothing of Qt until it is asked for
    beside = quick_shiboken.cache_file(Path(afdesk.gui.__file__).parent / "__pycache__")
    assert quick_shiboken.read_cache(beside)  # written by this or an earlier start
    assert not (tmp_path / "cache").exists()
    monkeypatch.setenv("AFDESK_DATA_DIR", str(tmp_path))
    places = afdesk.gui._cache_files()
    assert places == [beside, quick_shiboken.cache_file(tmp_path / "cache")]


def test_the_first_place_that_can_be_written_keeps_the_cache(tmp_path, plain):
    """An installation that cannot be written (a file where its folder would be): the
    cache goes to the next place, and the next start reads it there."""
    blocked = tmp_path / "install"
    blocked.write_text("not a folder")
    second = quick_shiboken.cache_file(tmp_path / "user-cache")
    places = os.pathsep.join([str(quick_shiboken.cache_file(blocked / "__pycache__")), str(second)])
    first = run("quick", places)
    assert first["compiled"] == plain["executed"] and second.is_file()
    again = run("quick", places)
    assert again["compiled"] == [] and again["messages"] == plain["messages"]


# --- the compile stand-in, with made-up callers ----------------------------------------

LOADER = "code = compile(source, filename, 'exec')"


def as_loader(source: bytes, filename: str, module: str = "signature_bootstrap", flags=0):
    """``compile`` called as shiboken's loader calls it, from a module named ``module``
    whose code has the ``flags`` futures."""
    driver = compile(LOADER, "<loader>", "exec", flags, True)
    namespace = {"__name__": module, "source": source, "filename": filename}
    exec(driver, namespace)
    return namespace["code"]


ANNOTATIONS = __import__("__future__").annotations.compiler_flag


def test_a_kept_entry_is_used_only_for_the_same_source_and_flags():
    source = b"x: undefined_name = 1\n"
    kept: dict = {}
    made: dict = {}
    with cached_compile(kept, made):
        first = as_loader(source, "shibokensupport/a.py", flags=ANNOTATIONS)
    assert list(made) == [("shibokensupport/a.py", ANNOTATIONS, sys.flags.optimize)]
    assert first.co_flags & ANNOTATIONS
    assert first == compile(source, "shibokensupport/a.py", "exec", ANNOTATIONS, True)
    kept, made = dict(made), {}
    with cached_compile(kept, made):
        again = as_loader(source, "shibokensupport/a.py", flags=ANNOTATIONS)
        changed = as_loader(b"x = 2\n", "shibokensupport/a.py", flags=ANNOTATIONS)
        no_future = as_loader(source, "shibokensupport/a.py")
    assert again is kept[("shibokensupport/a.py", ANNOTATIONS, sys.flags.optimize)][1]
    assert changed is not again and changed.co_consts != again.co_consts
    assert not no_future.co_flags & ANNOTATIONS
    assert set(made) == {
        ("shibokensupport/a.py", ANNOTATIONS, sys.flags.optimize),  # the new source
        ("shibokensupport/a.py", 0, sys.flags.optimize),
    }


@pytest.mark.parametrize(
    "module, filename, source",
    [
        ("someone_else", "shibokensupport/a.py", b"x = 1\n"),  # not shiboken's loader
        ("signature_bootstrap", "elsewhere/a.py", b"x = 1\n"),  # not a support module
        ("signature_bootstrap", "shibokensupport/a.py", "x = 1\n"),  # text, not bytes
    ],
)
def test_any_other_compile_is_the_standard_one_and_kept_nowhere(module, filename, source):
    made: dict = {}
    with cached_compile({}, made):
        code = as_loader(source, filename, module=module, flags=ANNOTATIONS)
    assert made == {}
    assert code == compile(source, filename, "exec", ANNOTATIONS, True)
    assert code.co_flags & ANNOTATIONS  # the caller's futures, as the standard inherits


def test_other_calls_inherit_their_callers_futures_and_pass_their_own_arguments():
    import ast

    with cached_compile({}, {}):
        # this module has `from __future__ import annotations`: the code inherits it
        inherited = compile("def f(x: int): pass", "<t>", "exec")
        refused = compile("def f(x: int): pass", "<t>", "exec", dont_inherit=True)
        tree = compile("1 + 1", "<t>", "eval", ast.PyCF_ONLY_AST)
        value = eval(compile("1 + 2", "<t>", "eval", optimize=2))
        with pytest.raises(SyntaxError):
            compile("def (", "<t>", "exec")
    assert inherited.co_flags & ANNOTATIONS
    assert not refused.co_flags & ANNOTATIONS
    assert isinstance(tree, ast.Expression) and value == 3


def test_the_standard_compile_is_back_after_the_block_even_after_an_error():
    standard = builtins.compile
    with pytest.raises(RuntimeError), cached_compile({}, {}):
        assert builtins.compile is not standard
        raise RuntimeError
    assert builtins.compile is standard


# --- the regular expressions, compiled when first used ---------------------------------


def as_support(
    pattern: str, flags=0, module: str = "shibokensupport.signature.lib.pyi_generator", at=""
):
    """``re.compile`` called from ``module``: in a class body named ``Formatter`` (or
    ``at``), in a function named ``__init__`` (``at="__init__"``) or at module level
    (``at="<module>"``)."""
    namespace = {"__name__": module, "re": re, "pattern": pattern, "flags": flags}
    if at == "__init__":
        source = "def __init__():\n    return re.compile(pattern, flags)\nmade = __init__()"
    elif at == "<module>":
        source = "made = re.compile(pattern, flags)"
    else:
        source = f"class {at or 'Formatter'}:\n    made = re.compile(pattern, flags)\n"
        source += f"made = {at or 'Formatter'}.made"
    exec(compile(source, "<s>", "exec", 0, True), namespace)
    return namespace["made"]


KNOWN = b"# a support module whose use of its patterns was read\n"


@pytest.fixture
def known(monkeypatch) -> dict[str, bytes]:
    """The sources :func:`cached_compile` would have noted, both lazy sites' modules known
    (their CRC-32 among the :data:`KNOWN_SOURCES`)."""
    from zlib import crc32

    sources = {}
    for name in quick_shiboken.LAZY_SITES.values():
        sources[name] = KNOWN
        monkeypatch.setitem(quick_shiboken.KNOWN_SOURCES, name, frozenset({crc32(KNOWN)}))
    return sources


def test_support_modules_get_patterns_compiled_at_first_use_and_others_real_ones(known):
    parser = "shibokensupport.signature.parser"
    with lazy_patterns(known):
        lazy = as_support(r"(\w+)\s*=\s*(\d+)", re.VERBOSE)  # the stub generator's class
        in_parser = as_support(r"\d+", module=parser, at="__init__")  # ArglistParser()
        others = [
            as_support(r"\d+", module="afdesk.something"),  # someone else's Formatter
            as_support(r"\d+", at="Other"),  # another class of the stub generator
            as_support(r"\d+", module=parser, at="<module>"),  # the parser's module level
            as_support(r"\d+", at="__init__"),  # another module's __init__
        ]
    assert isinstance(lazy, LazyPattern) and lazy._compiled is None
    assert isinstance(in_parser, LazyPattern) and in_parser.findall("a1b22") == ["1", "22"]
    assert all(isinstance(other, re.Pattern) for other in others)
    kept_aside = lazy.finditer  # what the argument-list parser does at import
    assert lazy._compiled is None
    real = re.compile(r"(\w+)\s*=\s*(\d+)", re.VERBOSE)
    text = "a = 1, bb=22,c =  3"
    assert [m.groups() for m in kept_aside(text)] == [m.groups() for m in real.finditer(text)]
    assert lazy._compiled is not None
    assert lazy.findall(text) == real.findall(text)
    assert lazy.sub(r"\2", text) == real.sub(r"\2", text)
    assert lazy.split(text) == real.split(text)
    assert lazy.match(text).span() == real.match(text).span()
    assert lazy.pattern == real.pattern and lazy.flags == real.flags
    assert lazy.groups == real.groups and lazy.groupindex == real.groupindex
    assert repr(lazy) == repr(real) and lazy == real and hash(lazy) == hash(real)


def test_a_method_kept_as_a_class_attribute_is_not_bound_to_the_instance(known):
    with lazy_patterns(known):
        lazy = as_support(r",")

    class Formatter:  # as the stub generator's: split = brace_searcher.split
        split = lazy.split

    assert Formatter().split("a,b") == ["a", "b"]
    assert Formatter.split("a,b,c") == ["a", "b", "c"]


def test_a_bad_pattern_fails_when_it_is_first_used_as_the_standard_would(known):
    with lazy_patterns(known):
        lazy = as_support(r"(unclosed")
    with pytest.raises(re.error):
        lazy.search("x")


def test_the_standard_re_compile_is_back_after_the_block_even_after_an_error():
    standard = re.compile
    with pytest.raises(RuntimeError), lazy_patterns({}):
        raise RuntimeError
    assert re.compile is standard


def test_a_site_in_a_module_of_another_source_compiles_at_once(known):
    """Another PySide6's support modules (their source not among the ones whose use of
    the patterns was read), or a source never noted: the standard compile."""
    other = dict.fromkeys(known, b"# another PySide6\n")
    for sources in (other, {}):
        with lazy_patterns(sources):
            made = [
                as_support(r"\d+"),
                as_support(r"\d+", module="shibokensupport.signature.parser", at="__init__"),
            ]
        assert all(isinstance(m, re.Pattern) for m in made)


def test_the_known_sources_are_those_of_the_pyside6_compared():
    """The CRC-32 kept for each lazy site's module is that of PySide6 6.11.3's, read here
    from the running shiboken when it is that version (the support modules' source comes
    out of Shiboken's library)."""
    from zlib import crc32

    import shiboken6

    loader = sys.modules["shibokensupport.signature.loader"].__loader__
    sources = {name: loader.zfile.read(name) for name in quick_shiboken.KNOWN_SOURCES}
    matches = {
        name: crc32(src) in quick_shiboken.KNOWN_SOURCES[name] for name, src in sources.items()
    }
    assert matches == dict.fromkeys(sources, shiboken6.__version__ == COMPARED)
    assert set(quick_shiboken.KNOWN_SOURCES) == set(quick_shiboken.LAZY_SITES.values())


def test_a_second_install_or_one_after_the_import_does_nothing():
    assert "shiboken6" in sys.modules  # this process imported it long ago
    assert quick_shiboken.install(lambda: Path("unused")) is False
    assert not [f for f in sys.meta_path if type(f).__name__ == "_Finder"]


def test_no_cache_folder_to_be_found_is_the_standard_import(plain):
    made = run("quick", "no-folder")
    assert made["executed"] == plain["executed"] and made["messages"] == plain["messages"]
    assert made["patterns"] == plain["patterns"] and made["finders"] == plain["finders"]


def test_a_python_the_stand_ins_were_not_compared_on_gets_the_standard_import(tmp_path, plain):
    cache = quick_shiboken.cache_file(tmp_path)
    made = run("untested", str(cache))
    assert made["compiled"] == [] and made["executed"] == plain["executed"]  # standard
    assert made["messages"] == plain["messages"] and made["patterns"] == plain["patterns"]
    assert not cache.exists()


def test_cache_file_is_per_python_bytecode(tmp_path):
    assert quick_shiboken.cache_file(tmp_path) == (
        Path(tmp_path) / f"shiboken-support.{sys.implementation.cache_tag}.marshal"
    )


FIND_FIRST = """
import importlib.util, sys
from pathlib import Path
spec = importlib.util.spec_from_file_location("quick_shiboken", MODULE)
quick_shiboken = importlib.util.module_from_spec(spec)
spec.loader.exec_module(quick_shiboken)
assert quick_shiboken.install(lambda: Path(sys.argv[1]))
found = importlib.util.find_spec("shiboken6")  # a look-up, no import
print(found.loader.get_filename("shiboken6"), found.loader.is_package("shiboken6"))
assert [type(f).__name__ for f in sys.meta_path].count("_Finder") == 1  # still there
import shiboken6
assert "_Finder" not in [type(f).__name__ for f in sys.meta_path]
print(type(shiboken6.__loader__).__name__, Path(sys.argv[1]).is_file())
"""


def test_a_look_up_before_the_import_leaves_the_quick_import_in_place(tmp_path):
    """``importlib.util.find_spec("shiboken6")`` first (the review's find): its loader
    answers as the real one does, and the import that follows is still the quick one."""
    import shiboken6

    cache = quick_shiboken.cache_file(tmp_path)
    script = f"MODULE = {quick_shiboken.__file__!r}\n{FIND_FIRST}"
    done = subprocess.run(
        [sys.executable, "-c", script, str(cache)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    filename, package, loader, kept = " ".join(done.stdout.split()).split()
    assert filename == shiboken6.__file__ and package == "True"
    assert loader == type(shiboken6.__loader__).__name__ and kept == "True"


def test_a_killed_starts_temporary_file_goes_at_the_next_write_a_running_ones_stays(tmp_path):
    cache = quick_shiboken.cache_file(tmp_path)
    old = tmp_path / f"{cache.name}.4242.tmp"
    fresh = tmp_path / f"{cache.name}.4343.tmp"
    for left in (old, fresh):
        left.write_bytes(b"half a cache")
    os.utime(old, (1, 1))
    quick_shiboken.write_cache(cache, {})
    assert cache.is_file() and not old.exists() and fresh.exists()
