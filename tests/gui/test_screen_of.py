"""A widget's screen is asked for through afdesk.gui.screens.screen_of, which keeps the
QScreen alive when the widget that asked is freed by the garbage collector."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Two widgets in reference cycles ask for their screen, the second one (the wrapper's
# parent now) is collected with nothing else holding the wrapper. With widget.screen()
# instead of screen_of this deletes the application's QScreen and the label's polish
# below crashes (PySide6 6.11; found with a tiny collector threshold, where it crashed
# the test after the one that asked).
SCRIPT = textwrap.dedent(
    """
    import gc
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication, QLabel, QWidget
    from afdesk.gui.screens import screen_of

    app = QApplication([])
    widgets = []
    for _ in range(2):
        w = QWidget()
        w.me = w  # a cycle, as a widget with its own methods connected as slots has
        assert screen_of(w) is not None
        widgets.append(w)
    del w
    widgets.pop()
    gc.collect()
    widgets.pop()
    gc.collect()
    label = QLabel("still here")
    label.show()
    app.processEvents()
    print(len(QGuiApplication.screens()), screen_of(label) is not None, flush=True)
    """
)


def test_a_collected_widget_takes_no_screen_with_it():
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["1", "True"]


def _direct_screen_calls(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "screen"
        and not node.args
    ]


def test_nothing_asks_a_widget_for_its_screen_directly():
    """widget.screen() anywhere else would put the screen back at the collector's mercy,
    in the app at the table or in whichever test runs after a collection."""
    allowed = ROOT / "afdesk" / "gui" / "screens.py"
    found = {
        str(p.relative_to(ROOT)): lines
        for folder in ("afdesk", "tests", "packaging")
        for p in sorted((ROOT / folder).rglob("*.py"))
        if p != allowed and (lines := _direct_screen_calls(p))
    }
    assert found == {}, "use afdesk.gui.screens.screen_of(widget)"
    assert len(_direct_screen_calls(allowed)) == 1  # screen_of itself
