"""What the table-speed benchmarks share: the processes they time, and the
bare PySide6 floors they are measured against in the same run."""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

_SHOW_AND_QUIT = """
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

class FirstFrame(QObject):
    def eventFilter(self, watched, event):
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, QCoreApplication.quit)
        return False

app = QApplication(sys.argv)
window = QMainWindow()
window.setCentralWidget(QLabel(text))
window.resize(1280, 720)
watcher = FirstFrame(window)
window.installEventFilter(watcher)
window.show()
sys.exit(app.exec())
"""
"""A QMainWindow showing ``text``, drawn once, then the process quits (as afdesk's own
start does with ``AFDESK_EXIT_AFTER_FIRST_FRAME``)."""

BARE_WINDOW = (
    """
import sys
text = "a bare window"
"""
    + _SHOW_AND_QUIT
)
"""The floor of the start: a bare PySide6 QMainWindow, shown and drawn once, then quit."""

BARE_WINDOW_QUICK = (
    """
import sys
import afdesk.gui  # Qt's enums (quick_enums) and shiboken6 (quick_shiboken) as afdesk has them
text = "a bare window"
"""
    + _SHOW_AND_QUIT
)
"""Not a floor of the goal, said beside it: the bare window with afdesk's two shortcuts
through PySide6's own start-up (:mod:`afdesk.gui.quick_enums`, and
:mod:`afdesk.gui.quick_shiboken` with its cache written by an earlier run): what the
start costs above it is afdesk's own."""

MODEL_WINDOW = (
    """
import sys
import afdesk.encounter.model, afdesk.storage  # the model and the loader, before Qt
from afdesk.encounter.model import Encounter
from afdesk.paths import sample_encounter
from afdesk.storage import load
from PySide6.QtCore import Qt  # the namespace every drawing of the map uses

enc = Encounter.from_state(load(sample_encounter()).state)
text = f"{enc.meta.name}: {len(enc.combatants)} characters"
"""
    + _SHOW_AND_QUIT
)
"""Not a floor of the goal, said beside it: the bare window once the sample is loaded
through afdesk's model and loader and Qt's namespace is imported (no map, no docks): what
any first frame on the sample pays before it draws anything of its own."""

BARE_RENDER = """
import sys
from PySide6.QtGui import QGuiApplication, QImage, QPainter

app = QGuiApplication(sys.argv[:1])
raw, width, height, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
with open(raw, "rb") as f:
    pixels = f.read()
source = QImage(pixels, width, height, QImage.Format.Format_ARGB32_Premultiplied)
image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
painter = QPainter(image)
painter.drawImage(0, 0, source)
painter.end()
sys.exit(0 if image.save(out, "PNG") else 1)
"""
"""The floor of export-png: a bare PySide6 process that paints the same picture (its pixels,
read raw) into an image of the same size and writes it as PNG."""


def environment(tmp: Path) -> dict[str, str]:
    """Offscreen, a scratch data and settings folder, bytecode cached (a GM's install has
    it; the first, untimed run writes it)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "QT_LOGGING_RULES": "qt.qpa.*=false"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["AFDESK_DATA_DIR"] = str(tmp / "data")
    env["XDG_CONFIG_HOME"] = str(tmp / "config")
    return env


def run_once(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, the child's own) of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, capture_output=True, timeout=120)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def paired(a: list[str], b: list[str], env: dict[str, str], pairs: int = 9) -> dict[str, float]:
    """``a`` and ``b`` in turn (a warm-up of each first); the medians of each, and of the
    ratios a/b taken pair by pair (the machine's speed drifts less within a pair)."""
    run_once(a, env)
    run_once(b, env)
    rows = []
    order = random.Random(15)
    for _ in range(pairs):
        first_a = order.random() < 0.5
        ra = rb = (0.0, 0.0)
        for which in (a, b) if first_a else (b, a):
            if which is a:
                ra = run_once(a, env)
            else:
                rb = run_once(b, env)
        rows.append((ra, rb))
    return {
        "a_wall": statistics.median(r[0][0] for r in rows),
        "b_wall": statistics.median(r[1][0] for r in rows),
        "a_cpu": statistics.median(r[0][1] for r in rows),
        "b_cpu": statistics.median(r[1][1] for r in rows),
        "wall_ratio": statistics.median(r[0][0] / r[1][0] for r in rows),
        "cpu_ratio": statistics.median(r[0][1] / r[1][1] for r in rows),
    }


def in_turn(
    commands: dict[str, tuple[list[str], dict[str, str]]], floor: str, rounds: int = 9
) -> dict[str, dict[str, float]]:
    """Each of ``commands`` (name: the command and its environment) once per round, in an
    order shuffled round by round (a warm-up of each first); for each, the medians of its
    wall and CPU seconds and of its ratios to ``floor``'s run of the same round (the
    machine's speed drifts less within a round)."""
    for cmd, env in commands.values():
        run_once(cmd, env)
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    order = random.Random(15)
    names = list(commands)
    for _ in range(rounds):
        order.shuffle(names)
        for name in names:
            runs[name].append(run_once(*commands[name]))
    out = {}
    for name, got in runs.items():
        base = runs[floor]
        out[name] = {
            "wall": statistics.median(r[0] for r in got),
            "cpu": statistics.median(r[1] for r in got),
            "wall_ratio": statistics.median(r[0] / b[0] for r, b in zip(got, base, strict=True)),
            "cpu_ratio": statistics.median(r[1] / b[1] for r, b in zip(got, base, strict=True)),
        }
    return out


def script(tmp: Path, name: str) -> list[str]:
    """The command running the script ``name`` of this module (``BARE_WINDOW``, ...)."""
    path = tmp / f"{name.lower()}.py"
    path.write_text(globals()[name])
    return [python(), str(path)]


def python() -> str:
    return sys.executable
