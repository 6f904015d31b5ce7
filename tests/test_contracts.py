"""The import contracts of ``pyproject.toml`` (CI checks): layers one way
(gui -> storage -> encounter -> rules), no Qt below the GUI, no file I/O in the rules and
the model. They hold for afdesk, and each one really fails on a package that breaks it."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _lint(cwd: Path, config: Path, pythonpath: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--config", str(config)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
    )


def _contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def test_the_contracts_say_what_design_md_says():
    contracts = {c["name"]: c for c in _contracts()}
    (layers,) = [c for c in contracts.values() if c["type"] == "layers"]
    order = layers["layers"]
    assert [order.index(f"afdesk.{p}") for p in ("gui", "storage", "encounter", "rules")] == sorted(
        order.index(f"afdesk.{p}") for p in ("gui", "storage", "encounter", "rules")
    )
    assert order[-1] == "afdesk.errors", "the error root sits below every layer"
    forbidden = [c for c in contracts.values() if c["type"] == "forbidden"]
    no_qt = next(c for c in forbidden if "PySide6" in c["forbidden_modules"])
    assert {"afdesk.rules", "afdesk.encounter", "afdesk.storage"} <= set(no_qt["source_modules"])
    no_io = next(c for c in forbidden if "pathlib" in c["forbidden_modules"])
    assert {"afdesk.rules", "afdesk.encounter"} <= set(no_io["source_modules"])
    assert "afdesk.storage" not in no_io["source_modules"]
    assert {"os", "io", "pathlib", "shutil", "tempfile", "glob"} <= set(no_io["forbidden_modules"])


def test_afdesk_keeps_its_contracts():
    proc = _lint(ROOT, ROOT / "pyproject.toml")
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert f"Contracts: {len(_contracts())} kept, 0 broken." in proc.stdout


# A skeleton with afdesk's package names and no imports: the contracts hold for it, until
# one module imports what its layer must not.
SKELETON = [
    "__init__.py",
    "__main__.py",
    "cli.py",
    "errors.py",
    "paths.py",
    "msgspec_first.py",
    "gui/__init__.py",
    "storage/__init__.py",
    "encounter/__init__.py",
    "encounter/zone.py",
    "rules/__init__.py",
]


def _skeleton(tmp_path: Path, module: str = "", line: str = "") -> Path:
    root = tmp_path / "src"
    for name in SKELETON:
        path = root / "afdesk" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
    if module:
        (root / "afdesk" / module).write_text(line + "\n")
    return root


@pytest.mark.parametrize(
    ("module", "line", "broken"),
    [
        (
            "encounter/zone.py",
            "from pathlib import Path",
            "afdesk.encounter is not allowed to import pathlib",
        ),
        ("encounter/zone.py", "import os", "afdesk.encounter is not allowed to import os"),
        (
            "rules/__init__.py",
            "import importlib.resources",
            "afdesk.rules is not allowed to import importlib",
        ),
        (
            "encounter/zone.py",
            "import afdesk.paths",
            "afdesk.encounter is not allowed to import afdesk.paths",
        ),
        (
            "encounter/zone.py",
            "import afdesk.storage",
            "afdesk.encounter is not allowed to import afdesk.storage",
        ),
        (
            "rules/__init__.py",
            "import afdesk.encounter",
            "afdesk.rules is not allowed to import afdesk.encounter",
        ),
        (
            "storage/__init__.py",
            "import afdesk.gui",
            "afdesk.storage is not allowed to import afdesk.gui",
        ),
        (
            "storage/__init__.py",
            "from PySide6 import QtCore",
            "afdesk.storage is not allowed to import PySide6",
        ),
        (
            "encounter/zone.py",
            "import shiboken6",
            "afdesk.encounter is not allowed to import shiboken6",
        ),
    ],
)
def test_each_contract_fails_on_a_breach(tmp_path, module, line, broken):
    clean = _lint(tmp_path, ROOT / "pyproject.toml", _skeleton(tmp_path))
    assert clean.returncode == 0, clean.stdout[-3000:] + clean.stderr[-2000:]
    proc = _lint(tmp_path, ROOT / "pyproject.toml", _skeleton(tmp_path, module, line))
    assert proc.returncode != 0
    assert broken in proc.stdout, proc.stdout[-3000:] + proc.stderr[-2000:]


def test_storage_may_read_files(tmp_path):
    """The file-I/O contract is about the model: storage and paths may use the disk."""
    root = _skeleton(
        tmp_path, "storage/__init__.py", "import os, pathlib, tempfile\nimport afdesk.paths"
    )
    (root / "afdesk" / "paths.py").write_text("import pathlib\nimport platformdirs\n")
    proc = _lint(tmp_path, ROOT / "pyproject.toml", root)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]


def test_ci_runs_every_check_with_the_dev_extra():
    ci = (ROOT / ".ci" / "run").read_text()
    assert 'pip install -e ".[test,dev]"' in ci
    for command in ("ruff check .", "ruff format --check .", "lint-imports", "mypy"):
        assert f".venv/bin/{command}" in ci, command
    dev = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = {req.split(">")[0].split("=")[0].strip() for req in dev["dev"]}
    assert {"ruff", "mypy", "import-linter"} <= names
