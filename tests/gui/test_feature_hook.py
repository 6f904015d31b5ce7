"""PySide6's ``__feature__`` import hook reads the source of each module imported after
Qt; the app notes afdesk's own modules beforehand (:mod:`afdesk.gui.feature_hook`) with
the answer the import contracts give: Qt in ``afdesk.gui`` only."""

from __future__ import annotations

import json
import os
import pkgutil
import subprocess
import sys
import types

import afdesk
from afdesk.gui import feature_hook

AFTER_QT = """
import json, sys
import PySide6.QtCore
feature = sys.modules["__feature__"]
read = []
real = feature._mod_uses_pyside
feature._mod_uses_pyside = lambda module: read.append(module.__name__) or real(module)
from afdesk.gui.feature_hook import spare_afdesk_modules
noted = spare_afdesk_modules()
import afdesk.gui.main_window  # the window, the model and its Ops: all after Qt here
table = feature.pyside_feature_dict
print(json.dumps({
    "noted": noted,
    "read": [name for name in read if name.startswith("afdesk")],
    "gui": table["afdesk.gui.main_window"],
    "map": table["afdesk.gui.map.view"],
    "model": table["afdesk.encounter.model"],
    "storage": table["afdesk.storage.files"],
}))
"""


def test_afdesk_modules_are_noted_and_their_source_is_not_read(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", AFTER_QT], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.splitlines()[-1])
    # only afdesk.gui may use Qt (the import contracts): 0 there, -1 (no Qt) elsewhere
    assert (got["gui"], got["map"], got["model"], got["storage"]) == (0, 0, -1, -1)
    # the hook read no afdesk module's source but those imported to note the rest: the
    # package afdesk.gui and what it imports first (in the app, before Qt)
    assert set(got["read"]) <= {
        "afdesk",
        "afdesk.gui",
        "afdesk.gui.feature_hook",
        "afdesk.gui.quick_enums",
        "afdesk.gui.quick_shiboken",
        "afdesk.paths",
    }
    assert got["noted"] > 200


def test_every_afdesk_module_is_noted(monkeypatch):
    table: dict[str, int] = {"afdesk.gui.app": 0}  # one PySide6 saw already keeps its entry
    monkeypatch.setitem(
        sys.modules, "__feature__", types.SimpleNamespace(pyside_feature_dict=table)
    )
    feature_hook.spare_afdesk_modules()
    names = {"afdesk"} | {
        m.name for m in pkgutil.walk_packages(afdesk.__path__, "afdesk.") if m.name != "afdesk"
    }
    assert names <= set(table)
    assert all(table[n] == (0 if n.startswith("afdesk.gui") else -1) for n in names)


def test_a_pyside6_without_the_table_is_left_alone(monkeypatch):
    monkeypatch.setitem(sys.modules, "__feature__", types.SimpleNamespace())
    assert feature_hook.spare_afdesk_modules() == 0
    monkeypatch.delitem(sys.modules, "__feature__")
    assert feature_hook.spare_afdesk_modules() == 0


def test_the_one_folder_build_notes_the_modules_of_its_archive(monkeypatch, tmp_path):
    """In the frozen build afdesk's folder is not on the disk (its modules are in the
    build's archive, which answers pkgutil): the start neither fails nor leaves them out.
    (The build's whole window died here with FileNotFoundError.)"""
    root = str(tmp_path / "_internal" / "afdesk")
    archive = {
        root: [("archived", False), ("gui", True)],
        os.path.join(root, "gui"): [("archived", False), ("map", True)],
        os.path.join(root, "gui", "map"): [("archived", False)],
    }

    def iter_modules(path):
        return [pkgutil.ModuleInfo(None, name, ispkg) for name, ispkg in archive.get(path[0], [])]

    monkeypatch.setattr(afdesk, "__path__", [root])
    monkeypatch.setattr(pkgutil, "iter_modules", iter_modules)
    table: dict[str, int] = {}
    monkeypatch.setitem(
        sys.modules, "__feature__", types.SimpleNamespace(pyside_feature_dict=table)
    )
    feature_hook.spare_afdesk_modules()
    # (modules imported already are noted too, as imported before Qt)
    assert {name: table.get(name) for name in ARCHIVED} == ARCHIVED


ARCHIVED = {
    "afdesk": -1,
    "afdesk.archived": -1,
    "afdesk.gui": 0,
    "afdesk.gui.archived": 0,
    "afdesk.gui.map": 0,
    "afdesk.gui.map.archived": 0,
}


def test_the_walk_lists_each_module_and_no_pycache_folder(tmp_path):
    """A folder's ``__pycache__`` holds a file per module: walking it listed nothing but a
    false module name, and cost the start a pass over every cached file."""
    package = tmp_path / "pkg"
    for folder in (package, package / "sub"):
        (folder / "__pycache__").mkdir(parents=True)
        (folder / "__init__.py").write_text("")
        (folder / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"")
    (package / "a.py").write_text("")
    (package / "sub" / "b.py").write_text("")
    names = feature_hook._module_names(str(package), "pkg")
    assert sorted(names) == ["pkg", "pkg.a", "pkg.sub", "pkg.sub.b"]


STOPPED = """
import builtins, json, sys
import PySide6.QtCore
feature = sys.modules["__feature__"]
read = []
real = feature._mod_uses_pyside
feature._mod_uses_pyside = lambda module: read.append(module.__name__) or real(module)
import afdesk.gui.app  # stops the hook (what it imported before is seen as before)
stopped = builtins.__import__ is builtins.__orig_import__
read.clear()
before = set(feature.pyside_feature_dict)
import afdesk.gui.main_window  # the window, the model and its Ops: all after Qt here
import qt_user  # a module of nobody's that draws with Qt
print(json.dumps({
    "stopped": stopped,
    "read": read,
    "noted": sorted(set(feature.pyside_feature_dict) - before),
    "drawn": qt_user.drawn(),
}))
"""

QT_USER = """
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter


def drawn():
    image = QImage(4, 4, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.fillRect(0, 0, 2, 2, QColor("#ff0000"))
    painter.end()
    return [image.pixelColor(1, 1).name(), image.pixelColor(3, 3).alpha()]
"""


def test_the_app_stops_the_feature_hook_and_qt_still_answers(tmp_path):
    """:func:`feature_hook.stop_feature_imports`: once afdesk.gui.app is imported, imports
    no longer go through PySide6's ``__feature__`` hook (nothing is read or noted), and a
    module the hook never saw still calls Qt with its usual names."""
    (tmp_path / "qt_user.py").write_text(QT_USER)
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path]),
    }
    done = subprocess.run(
        [sys.executable, "-c", STOPPED], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout.splitlines()[-1])
    assert got["stopped"] is True
    assert got["read"] == [] and got["noted"] == [], got
    assert got["drawn"] == ["#ff0000", 0]


def test_stopping_the_hook_leaves_an_import_it_does_not_hold():
    """Only a hook in place that keeps the import it replaced is stopped (a fake builtins
    here: the test process's own import stays as it is)."""

    def python_import():
        pass

    def hook():
        pass

    def lazy():
        pass

    held = types.SimpleNamespace(__import__=hook, __feature_import__=hook, __orig_import__=lazy)
    assert feature_hook.stop_feature_imports(held) is True
    assert held.__import__ is lazy
    assert feature_hook.stop_feature_imports(held) is False  # stopped already
    for fake in (
        types.SimpleNamespace(__import__=python_import),  # no hook at all
        types.SimpleNamespace(__import__=hook, __feature_import__=hook),  # no original kept
        types.SimpleNamespace(  # someone else's import in front of the hook
            __import__=python_import, __feature_import__=hook, __orig_import__=lazy
        ),
    ):
        before = fake.__import__
        assert feature_hook.stop_feature_imports(fake) is False
        assert fake.__import__ is before
