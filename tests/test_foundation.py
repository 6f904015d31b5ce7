"""The project's ground rules: Qt stays out of the pure layers, the PySide6 pin holds,
the README's commands are the ones CI runs."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
    )


def test_pure_layers_import_without_qt():
    """rules, encounter and storage (every module) import with PySide6 unimportable."""
    proc = _run(
        """
        import importlib, pkgutil, sys

        class BlockQt:
            def find_spec(self, name, path=None, target=None):
                if name == "PySide6" or name.startswith(("PySide6.", "shiboken6")):
                    raise ImportError(f"Qt is not allowed here: {name}")
                return None

        sys.meta_path.insert(0, BlockQt())
        import afdesk
        for layer in ("rules", "encounter", "storage"):
            pkg = importlib.import_module(f"afdesk.{layer}")
            for info in pkgutil.walk_packages(pkg.__path__, f"afdesk.{layer}."):
                importlib.import_module(info.name)
        assert not any(m.startswith("PySide6") for m in sys.modules), "PySide6 got imported"
        print("clean")
        """
    )
    assert proc.returncode == 0, proc.stderr
    assert "clean" in proc.stdout


def test_qt_blocker_really_blocks():
    """The blocker above is not a no-op: importing PySide6 through it fails."""
    proc = _run(
        """
        import sys
        class BlockQt:
            def find_spec(self, name, path=None, target=None):
                if name == "PySide6" or name.startswith("PySide6."):
                    raise ImportError("blocked")
        sys.meta_path.insert(0, BlockQt())
        import PySide6.QtCore
        """
    )
    assert proc.returncode != 0
    assert "blocked" in proc.stderr


def test_qt_void_method_does_not_corrupt_none():
    """PySide6 6.12.0 on Python 3.11 dies with 'none_dealloc' after ~5,000 calls of a Qt
    method returning nothing; the pin keeps 6.11.x there. 20,000 calls must survive."""
    proc = _run(
        """
        import sys
        from PySide6.QtCore import QPointF
        before = sys.getrefcount(None)
        p = QPointF()
        for _ in range(20000):
            p.setX(1.0)
        print("survived", sys.getrefcount(None) - before)
        """
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "survived" in proc.stdout
    leaked = int(proc.stdout.split()[-1])
    assert leaked > -1000, f"None lost {-leaked} references"


def test_pyside_pin_in_pyproject():
    """6.11.x on every Python afdesk supports: 6.12.0 corrupts None on 3.11 and lays the
    docks out otherwise on 3.12 and 3.13 (pyproject.toml says how)."""
    import PySide6

    text = (ROOT / "pyproject.toml").read_text()
    assert '"PySide6-Essentials>=6.8,<6.12",' in text
    assert text.count("PySide6-Essentials") == 1
    assert PySide6.__version_info__[:2] < (6, 12)


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```(?:sh|bash|console)?\n(.*?)\n```", text, flags=re.S)


def test_readme_gives_two_setup_commands_and_ci_runs_the_test_one():
    blocks = [b.strip() for b in _readme_commands()]
    setup = [b for b in blocks if "pip install" in b]
    assert len(setup) == 2, setup
    start, tests = setup
    assert "afdesk" in start.splitlines()[-1]
    assert "pytest" in tests
    ci = (ROOT / ".ci" / "run").read_text()
    assert tests in ci, "the README's test command must be what .ci/run runs"
    assert "set -euo pipefail" in ci
