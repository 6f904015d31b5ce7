"""``afdesk check FILE...``: ``FILE: ok`` or the problem, exit 0 or 2, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from afdesk.cli import run
from afdesk.paths import sample_encounter
from afdesk.storage import encode
from afdesk.storage import migrations as mig
from afdesk.storage.samples import build

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def files(tmp_path):
    good = tmp_path / "good.afenc"
    good.write_bytes(encode(build().state()))
    doc = json.loads(good.read_bytes())
    doc["combatants"][3]["facing"] = "north"
    wrong = tmp_path / "wrong.afenc"
    wrong.write_text(json.dumps(doc))
    junk = tmp_path / "junk.afenc"
    junk.write_bytes(os.urandom(3000))
    folder = tmp_path / "folder.afenc"
    folder.mkdir()
    newer = tmp_path / "newer.afenc"
    doc["schema_version"] = mig.CURRENT_VERSION + 1
    newer.write_text(json.dumps(doc))
    return {
        "good": str(good),
        "wrong": str(wrong),
        "junk": str(junk),
        "folder": str(folder),
        "missing": str(tmp_path / "missing.afenc"),
        "newer": str(newer),
        "empty": str(_empty(tmp_path)),
    }


def _empty(tmp_path: Path) -> Path:
    path = tmp_path / "empty.afenc"
    path.write_bytes(b"")
    return path


def test_all_good_files_exit_0(capsys, files):
    assert run(["check", files["good"], str(sample_encounter())]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{files['good']}: ok", f"{sample_encounter()}: ok"]


def test_problems_exit_2_with_one_line_each(capsys, files):
    names = ["good", "wrong", "junk", "folder", "missing", "newer", "empty"]
    assert run(["check", *(files[n] for n in names)]) == 2
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(names)
    assert out[0] == f"{files['good']}: ok"
    assert out[1] == f'{files["wrong"]}: combatants[3].facing: expected a number, got "north"'
    assert out[2].startswith(f"{files['junk']}: ")
    assert out[3] == f"{files['folder']}: this is a folder, not an encounter file"
    assert out[4].startswith(f"{files['missing']}: there is no such file")
    assert f"newer afdesk (file format version {mig.CURRENT_VERSION + 1})" in out[5]
    assert out[6] == f"{files['empty']}: the file is empty"


def test_check_loads_through_the_migrations(capsys, monkeypatch):
    monkeypatch.setattr(mig, "CURRENT_VERSION", 2)
    monkeypatch.setattr(mig, "MIGRATIONS", {})
    assert run(["check", str(FIXTURES / "v1.afenc")]) == 2
    assert "cannot upgrade files from version 1 to 2" in capsys.readouterr().out
    monkeypatch.setattr(mig, "MIGRATIONS", {1: lambda doc: doc})
    assert run(["check", str(FIXTURES / "v1.afenc")]) == 0


def _afdesk(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "afdesk", "check", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_command_line_ok():
    proc = _afdesk(str(sample_encounter()), str(FIXTURES / "v1.afenc"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        f"{sample_encounter()}: ok",
        f"{FIXTURES / 'v1.afenc'}: ok",
    ]
    assert proc.stderr == ""


def test_command_line_problems_never_show_a_traceback(files):
    proc = _afdesk(*files.values())
    assert proc.returncode == 2
    assert "Traceback" not in proc.stdout + proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert len(lines) == len(files)
    assert lines[0] == f"{files['good']}: ok"
    assert all(not line.endswith(": ok") for line in lines[1:])
